/* kernels.c - a PolyBench-style matrix-vector function (gesummv's shape: two
 * cuBLAS GEMVs) and a plain map (a generated kernel) for the first-call
 * probe (first_call.c). */
#include <gpufuse.h>

GPUFUSE void fc_gesummv(int n, double alpha, double beta, const double A[n][n], const double B[n][n],
                        const double x[n], double y[n])
{
    for (int i = 0; i < n; i++) {
        double t = 0.0, s = 0.0;
        for (int j = 0; j < n; j++) {
            t += A[i][j] * x[j];
            s += B[i][j] * x[j];
        }
        y[i] = alpha * t + beta * s;
    }
}

GPUFUSE void fc_scale(int n, double a, const double x[n], double y[n])
{
    for (int i = 0; i < n; i++)
        y[i] = a * x[i];
}
