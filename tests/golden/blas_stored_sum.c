// A scalar sum stored in one output and read again by another (gesummv
// written with scalar sums): the second output takes the stored one (a GEAM
// of t) instead of a second GEMV over A.  The sum is evaluated once per
// statement that reads the scalar, so the match compares sums by what they
// are (the same update over the same instances with the same factors).
#include <gpufuse.h>

GPUFUSE void stored_sum(int n, double alpha, double beta, const double A[n][n], const double B[n][n], double t[n],
                        const double x[n], double y[n])
{
    for (int i = 0; i < n; i++) {
        double s = 0, u = 0;
        for (int j = 0; j < n; j++) {
            s += A[i][j] * x[j];
            u += B[i][j] * x[j];
        }
        t[i] = s;
        y[i] = alpha * s + beta * u;
    }
}

// Two sums of different matrices: nothing to reuse, two GEMVs.
GPUFUSE void two_sums(int n, float alpha, const float A[n][n], const float B[n][n], const float x[n], float t[n],
                      float y[n])
{
    for (int i = 0; i < n; i++) {
        float s = 0, u = 0;
        for (int j = 0; j < n; j++) {
            s += A[i][j] * x[j];
            u += B[i][j] * x[j];
        }
        t[i] = s;
        y[i] = alpha * u;
    }
}

// CHECK-LABEL: region stored_sum
// CHECK: param double t[n] out
// CHECK: S2: s += (A[i][j] * x[j])  ; reduction + on s
// CHECK: S5: y[i] = ((alpha * s) + (beta * u))
// CHECK-LABEL: region two_sums
// REPORT-LABEL: region stored_sum
// REPORT: is 3 library calls: t = A * x (double, cuBLAS GEMV); y = beta * B * x (double, cuBLAS GEMV); y = alpha * t + y (double, cuBLAS GEAM)
// REPORT-LABEL: region two_sums
// REPORT: is 2 library calls: t = A * x (float, cuBLAS GEMV); y = alpha * B * x (float, cuBLAS GEMV)
