/* oom_kernels.c - marked functions for the out-of-memory cases (oom.c): a
 * map, a map with a reduction, a row kernel, and a temporary whose size is
 * known up front or only once the body has computed it. */
#include <gpufuse.h>
#include <math.h>
#include <stdlib.h>

GPUFUSE void axpy(int n, float a, const float *restrict x, float *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}

GPUFUSE double scale_sum(int n, float a, const float *restrict x, float *restrict y)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        y[i] = a * x[i];
        s += y[i];
    }
    return s;
}

GPUFUSE void softmax(int rows, int cols, const float x[rows][cols], float y[rows][cols])
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

/* t is read at i-1, i and i+1: it cannot live in registers, and its producer
 * (three math calls) is too costly to recompute at each read, so the launcher
 * reserves it (its size depends on parameters only) */
GPUFUSE void smooth(int n, const float *restrict x, float *restrict y)
{
    float *t = malloc((n + 2) * sizeof *t);
    for (int i = 0; i < n + 2; i++)
        t[i] = sinf(x[i]) + cosf(x[i]) + expf(-x[i]);
    for (int i = 1; i < n + 1; i++)
        y[i] = t[i - 1] + t[i] + t[i + 1];
    free(t);
}

/* the same, with a size the launcher learns only at the declaration */
GPUFUSE void smooth_late(int n, const float *restrict x, float *restrict y)
{
    int m = n + 2;
    float *t = malloc(m * sizeof *t);
    for (int i = 0; i < n + 2; i++)
        t[i] = sinf(x[i]) + cosf(x[i]) + expf(-x[i]);
    for (int i = 1; i < n + 1; i++)
        y[i] = t[i - 1] + t[i] + t[i + 1];
    free(t);
}
