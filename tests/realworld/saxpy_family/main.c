#include "rw.h"
#include <stddef.h>

void saxpy(long n, float a, const float *x, float *y);
void daxpby(size_t n, double a, const double *x, double b, double *y);
void sscal_strided(int n, float a, float *x, int incx);
void scopy(int n, const float *x, float *y);
void sswap(int n, float *x, float *y);
void srot(int n, float *x, float *y, float c, float s);

int main(void)
{
    const int n = 100000;
    rw_seed(42);
    float *x = rw_alloc(n, 4), *y = rw_alloc(n, 4), *z = rw_alloc(n, 4);
    double *xd = rw_alloc(n, 8), *yd = rw_alloc(n, 8);
    rw_fill_f(x, n, -1, 1);
    rw_fill_f(y, n, -1, 1);
    rw_fill_d(xd, n, -1, 1);
    rw_fill_d(yd, n, -1, 1);
    saxpy(n, 2.5f, x, y);
    rw_out_f("saxpy.y", y, n, 1e-6, 1e-6);
    daxpby(n, 0.5, xd, -1.25, yd);
    rw_out_d("daxpby.y", yd, n, 1e-15, 1e-15);
    sscal_strided(n / 3, 0.5f, y, 3);
    rw_out_f("sscal_strided.x", y, n, 1e-6, 1e-6);
    scopy(n, y, z);
    rw_out_f("scopy.y", z, n, 0, 0);
    sswap(n, x, z);
    rw_out_f("sswap.x", x, n, 0, 0);
    rw_out_f("sswap.y", z, n, 0, 0);
    srot(n, x, z, 0.8f, 0.6f);
    rw_out_f("srot.x", x, n, 1e-6, 1e-6);
    rw_out_f("srot.y", z, n, 1e-6, 1e-6);
    return 0;
}
