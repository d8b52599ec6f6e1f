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
