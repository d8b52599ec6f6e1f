/* kernels.c - the quick-start sample: ordinary C functions marked GPUFUSE.
 * Built plainly they run on the CPU; built through gpufuse each becomes a
 * few fused CUDA kernels with the same name and meaning. */
#include <gpufuse.h>
#include <math.h>
#include <stdlib.h>

/* One kernel: the whole expression per element, no temporaries. */
GPUFUSE void blend(int n, float a, const float *restrict x, const float *restrict y, float *restrict out)
{
    for (int i = 0; i < n; i++)
        out[i] = a * x[i] + y[i];
}

/* Two nests and a temporary: fused vertically, the temporary never exists. */
GPUFUSE void normalize_shift(int n, const float *restrict x, float shift, float *restrict out)
{
    float *t = malloc(n * sizeof(float));
    for (int i = 0; i < n; i++)
        t[i] = sqrtf(x[i] * x[i] + 1.0f);
    for (int i = 0; i < n; i++)
        out[i] = t[i] * expf(-fabsf(x[i])) + shift;
    free(t);
}

/* Map-reduce: the product fuses into the sum, which the function returns. */
GPUFUSE double dot(int n, const float *restrict x, const float *restrict y)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += (double)x[i] * y[i];
    return s;
}

/* Row-wise: max, sum of exponentials and normalisation in one kernel. */
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

/* A time loop around a 2-D stencil: the loop runs on the host, the sweeps on the GPU. */
GPUFUSE void heat(int n, int steps, float u[n][n], float tmp[n][n])
{
    for (int t = 0; t < steps; t++) {
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++)
                tmp[i][j] = u[i][j] + 0.1f * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1] - 4 * u[i][j]);
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++)
                u[i][j] = tmp[i][j];
    }
}

/* A running sum carries a dependence from one iteration to the next: gpufuse
 * says so (-Wgpufuse-dependence) and this function keeps its CPU body. */
GPUFUSE void prefix_sum(int n, const float *restrict x, float *restrict out)
{
    float acc = 0.0f;
    for (int i = 0; i < n; i++) {
        acc += x[i];
        out[i] = acc;
    }
}

/* A reduction feeding the next loop: the sum stays on the GPU, the second
 * kernel reads it there, and nothing waits for the host in between. */
GPUFUSE void normalize_l1(int n, const float *restrict x, float *restrict y)
{
    float s = 0.0f;
    for (int i = 0; i < n; i++)
        s += fabsf(x[i]);
    float inv = 1.0f / s;
    for (int i = 0; i < n; i++)
        y[i] = x[i] * inv;
}

/* A histogram: two iterations may add to the same bin, so gpufuse makes each
 * update atomic and the loop runs in parallel.  The float sums then add in
 * whatever order the threads arrive (the integer counts are exact). */
GPUFUSE void histogram(int n, int nbins, const int *restrict bin, const float *restrict w, float hist[nbins],
                       int count[nbins])
{
    for (int i = 0; i < n; i++) {
        hist[bin[i]] += w[i];
        count[bin[i]]++;
    }
}

/* Per-bin maximum: iterations may update the same bin; gpufuse makes each
 * update an atomic max (a compare-and-swap loop on the element, fmaxf as in
 * C).  A maximum does not depend on the order of the updates, so the result
 * is exactly the C loop's. */
GPUFUSE void bin_max(int n, int nbins, const int *restrict bin, const float *restrict w, float peak[nbins])
{
    for (int i = 0; i < n; i++)
        peak[bin[i]] = fmaxf(peak[bin[i]], w[i]);
}

/* A search: per row, the first column above a threshold.  The inner loop
 * stops at its `break`; each row is one thread and the rows run in
 * parallel. */
GPUFUSE void first_above(int rows, int cols, float t, const float a[rows][cols], int first[rows])
{
    for (int i = 0; i < rows; i++) {
        int f = -1;
        for (int j = 0; j < cols; j++)
            if (a[i][j] > t) {
                f = j;
                break;
            }
        first[i] = f;
    }
}

/* `continue` skips the rest of an iteration: gpufuse guards the statements
 * after it, and the loop stays one parallel kernel. */
GPUFUSE void soft_threshold(int n, float t, const float *restrict x, float *restrict y)
{
    for (int i = 0; i < n; i++) {
        if (fabsf(x[i]) <= t) {
            y[i] = 0.0f;
            continue;
        }
        y[i] = x[i] > 0.0f ? x[i] - t : x[i] + t;
    }
}

/* A `switch` with stacked labels, a block case and a default: an if/else
 * chain on a copy of the value, still one parallel kernel. */
GPUFUSE void classify(int n, const int *restrict k, const float *restrict x, float *restrict y)
{
    for (int i = 0; i < n; i++) {
        switch (k[i] % 5) {
        case 0:
            y[i] = 1.0f;
            break;
        case 1:
        case 2:
            y[i] = x[i] * 2.0f;
            break;
        case 3: {
            float t = x[i] + 1.0f;
            y[i] = t * t;
            break;
        }
        default:
            y[i] = 0.0f;
        }
    }
}

/* Weighted column sums, written row by row: the row loop carries the sums,
 * the column loop is parallel, so gpufuse interchanges them (one kernel over
 * the columns, each thread adding its column in the C loop's order; on the
 * GPU each step is a fused multiply-add). */
GPUFUSE void column_sums(int rows, int cols, const float a[rows][cols], const float w[rows], float y[cols])
{
    for (int j = 0; j < cols; j++)
        y[j] = 0.0f;
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            y[j] += a[i][j] * w[i];
}
