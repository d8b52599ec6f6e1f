/* double_kernels.c - kernels over 8-byte elements whose GPU results must
 * equal their C bodies bit for bit (tests/edge/double.c): a fma chain
 * (correctly rounded on both sides), float and double arrays in one map
 * (products and sums that leave nothing to contract, conversions rounded
 * once), 8-byte integer arithmetic, and a double sum of squares of small
 * integers (exact in any order, so the vector kernel's partials add up to
 * the C loop's result). */
#include <gpufuse.h>
#include <math.h>

GPUFUSE void d_fma(int n, const double *restrict x, const double *restrict w, const double *restrict z,
                   double *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] = fma(x[i], w[i], fma(w[i], z[i], x[i]));
}

/* float and double arrays in one map: 4 elements a thread, one 16-byte
 * access of each float array and two of each double array */
GPUFUSE void d_mix(int n, const float *restrict x, const double *restrict s, double *restrict p,
                   float *restrict q)
{
    for (int i = 0; i < n; i++) {
        p[i] = x[i] * s[i];
        q[i] = (float)(x[i] + s[i]);
    }
}

GPUFUSE void d_i64(int n, const long long *restrict a, const unsigned long long *restrict b, long long *restrict c)
{
    for (int i = 0; i < n; i++)
        c[i] = (a[i] * 3 - (long long)(b[i] >> 5)) ^ (long long)(b[i] & 0xffffu);
}

GPUFUSE double d_sumsq(int n, const double *restrict x)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += x[i] * x[i];
    return s;
}
