#include "rw.h"

void conv_valid(int n, const float *in, float *out);
void conv_same(int n, const float *in, float *out);
void conv_param(int n, int m, const double *x, const double *h, double *y);
void moving_average(int n, int w, const float *x, float *y);

int main(void)
{
    const int n = 20000, m = 33;
    rw_seed(22);
    float *in = rw_alloc(n, 4), *a = rw_alloc(n, 4), *b = rw_alloc(n, 4), *c = rw_alloc(n, 4);
    double *x = rw_alloc(n, 8), *h = rw_alloc(m, 8), *y = rw_alloc(n, 8);
    rw_fill_f(in, n, -1, 1);
    rw_fill_d(x, n, -1, 1);
    rw_fill_d(h, m, -0.2, 0.2);
    conv_valid(n, in, a);
    rw_out_f("conv_valid.out", a, n, 1e-5, 1e-6);
    conv_same(n, in, b);
    rw_out_f("conv_same.out", b, n, 1e-5, 1e-6);
    conv_param(n, m, x, h, y);
    rw_out_d("conv_param.y", y, n, 1e-12, 1e-13);
    moving_average(n, 16, in, c);
    rw_out_f("moving_average.y", c, n, 1e-5, 1e-6);
    return 0;
}
