/* kernels.c - a PolyBench-style matrix-vector function (gesummv's shape) for
 * the first-call probe (first_call.c). */
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
