/* hostplan_kernels.c - regions for the host plan's choice between its fused
 * OpenMP plan and the C body (hostplan.c). */
#include <gpufuse.h>

GPUFUSE void hp_scale(int n, const float *restrict x, float *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] = 2.0f * x[i] + 1.0f;
}

/* interchanged for the GPU; the host plan runs the columns by blocks */
GPUFUSE void hp_colsum(int rows, int cols, const float a[rows][cols], const float w[rows], float y[cols])
{
    for (int j = 0; j < cols; j++)
        y[j] = 0.0f;
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            y[j] += a[i][j] * w[i];
}

/* atomic updates among the threads */
GPUFUSE void hp_count(int n, int nbins, const int *restrict bin, int count[nbins])
{
    for (int i = 0; i < n; i++)
        count[bin[i]]++;
}

/* a host loop around a parallel loop: a fork per step */
GPUFUSE void hp_steps(int steps, int n, float a[n], const float b[n])
{
    for (int s = 0; s < steps; s++) {
        for (int i = 0; i < n; i++)
            a[i] = 0.5f * a[i] + b[i];
        for (int i = 0; i < n; i++)
            a[i] = a[i] > 1.0f ? 1.0f : a[i];
    }
}

/* PolyBench-style gemm (i-k-j): the plan keeps the C body's `for k for j`
 * below its parallel rows (the GPU's row kernel runs j outside k) */
GPUFUSE void hp_gemm(int ni, int nj, int nk, double alpha, double beta, double C[ni][nj], const double A[ni][nk],
                     const double B[nk][nj])
{
    for (int i = 0; i < ni; i++) {
        for (int j = 0; j < nj; j++)
            C[i][j] *= beta;
        for (int k = 0; k < nk; k++)
            for (int j = 0; j < nj; j++)
                C[i][j] += alpha * A[i][k] * B[k][j];
    }
}

/* Gauss-Seidel in time: no parallel loop as written; isl's order runs it
 * by wavefronts whose bounds are minima and maxima of affine forms, which
 * the cost model counts (bound_print) */
GPUFUSE void hp_wave(int steps, int n, float A[n][n])
{
    for (int t = 0; t < steps; t++)
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++)
                A[i][j] = (A[i - 1][j] + A[i][j - 1] + A[i][j] + A[i][j + 1] + A[i + 1][j]) * 0.2f;
}
