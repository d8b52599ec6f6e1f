/* saxpy_family: BLAS level-1 as plain C: long and size_t counters, strides,
 * no restrict, in-place updates, a swap */
#include <gpufuse.h>
#include <stddef.h>

GPUFUSE void saxpy(long n, float a, const float *x, float *y)
{
    for (long i = 0; i < n; ++i)
        y[i] = a * x[i] + y[i];
}

GPUFUSE void daxpby(size_t n, double a, const double *x, double b, double *y)
{
    for (size_t i = 0; i < n; i++)
        y[i] = a * x[i] + b * y[i];
}

GPUFUSE void sscal_strided(int n, float a, float *x, int incx)
{
    for (int i = 0; i < n; i++)
        x[i * incx] *= a;
}

GPUFUSE void scopy(int n, const float *x, float *y)
{
    for (int i = 0; i < n; i++)
        y[i] = x[i];
}

GPUFUSE void sswap(int n, float *x, float *y)
{
    for (int i = 0; i < n; i++) {
        float t = x[i];
        x[i] = y[i];
        y[i] = t;
    }
}

GPUFUSE void srot(int n, float *x, float *y, float c, float s)
{
    for (int i = 0; i < n; i++) {
        float tx = c * x[i] + s * y[i];
        y[i] = c * y[i] - s * x[i];
        x[i] = tx;
    }
}
