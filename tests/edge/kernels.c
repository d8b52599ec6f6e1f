/* kernels.c - marked functions for the run-time edge cases (edge.c). */
#include <gpufuse.h>
#include <math.h>

/* Not restrict: the caller may pass overlapping arrays. */
GPUFUSE void scale(int n, float a, const float *x, float *y)
{
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + 1.0f;
}

GPUFUSE float total(int n, const float *restrict x)
{
    float s = 0.0f;
    for (int i = 0; i < n; i++)
        s += x[i];
    return s;
}

GPUFUSE float biggest(int n, const float *restrict x)
{
    float m = -INFINITY;
    for (int i = 0; i < n; i++)
        m = fmaxf(m, x[i]);
    return m;
}

/* Row kernels: a warp per row up to 512 elements, a block per longer row,
 * registers or (past 16 elements per thread) memory; a value the sum loop
 * computes is reused by the last loop only where it is the same value. */
GPUFUSE void row_softmax(int rows, int cols, const float x[rows][cols], float y[rows][cols])
{
    for (int i = 0; i < rows; i++) {
        float m = -INFINITY;
        for (int j = 0; j < cols; j++)
            m = fmaxf(m, x[i][j]);
        float s = 0.0f;
        for (int j = 0; j < cols; j++)
            s += expf(x[i][j] - m);
        for (int j = 0; j < cols; j++)
            y[i][j] = expf(x[i][j] - m) / s;
    }
}

GPUFUSE void row_shifted(int rows, int cols, const float x[rows][cols], float y[rows][cols])
{
    for (int i = 0; i < rows; i++) {
        float m = 1.0f;
        float s = 0.0f;
        for (int j = 0; j < cols; j++)
            s += expf(x[i][j] - m);
        m = s * 0.001f;
        for (int j = 0; j < cols; j++)
            y[i][j] = expf(x[i][j] - m);
    }
}

GPUFUSE void row_partial(int rows, int cols, const float x[rows][cols], float y[rows][cols])
{
    for (int i = 0; i < rows; i++) {
        float s = 0.0f;
        for (int j = 0; j < cols; j++)
            if (x[i][j] > 0.0f)
                s += logf(x[i][j]);
        for (int j = 0; j < cols; j++)
            y[i][j] = (x[i][j] > 0.0f ? logf(x[i][j]) : 0.0f) * s;
    }
}

/* Per-column operands of a row kernel (g[j], b[j], w[i][j] of rows ld long, read in the last
 * loop only): 16-byte loads where their addresses are aligned, one element
 * at a time where not (the test passes shifted pointers). */
GPUFUSE void row_affine(int rows, int cols, int ld, const float x[rows][cols], const float g[cols], const float b[cols],
                        const float w[rows][ld], float y[rows][cols])
{
    for (int i = 0; i < rows; i++) {
        float s = 0.0f;
        for (int j = 0; j < cols; j++)
            s += x[i][j];
        for (int j = 0; j < cols; j++)
            y[i][j] = (x[i][j] - s / cols) * g[j] + b[j] * w[i][j];
    }
}
