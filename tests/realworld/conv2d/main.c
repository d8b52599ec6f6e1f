#include "rw.h"
#include "kernels.h"

int main(void)
{
    rw_seed(23);
    float *in = rw_alloc(N * N, 4), *a = rw_alloc(N * N, 4), *b = rw_alloc(N * N, 4), *c = rw_alloc(N * N, 4);
    float k[KS][KS];
    rw_fill_f(in, N * N, 0, 1);
    rw_fill_f(&k[0][0], KS * KS, -0.1, 0.2);
    conv2d_5x5(in, (const float (*)[KS])k, a);
    rw_out_f("conv2d_5x5.out", a, N * N, 1e-5, 1e-6);
    gaussian_3x3(in, b);
    rw_out_f("gaussian_3x3.out", b, N * N, 1e-5, 1e-6);
    laplacian(in, c);
    rw_out_f("laplacian.out", c, N * N, 1e-5, 1e-6);
    return 0;
}
