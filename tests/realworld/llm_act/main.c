#include "rw.h"

void swiglu(int hidden_dim, float *hb, const float *hb2);
void gelu_tanh(int n, const float *x, float *y);
void silu_mul(int n, const float *gate, const float *up, float *out);
void residual_relu2(int n, float *x, const float *delta);

int main(void)
{
    const int n = 11008;
    rw_seed(33);
    float *hb = rw_alloc(n, 4), *hb2 = rw_alloc(n, 4), *y = rw_alloc(n, 4), *z = rw_alloc(n, 4);
    rw_fill_f(hb, n, -6, 6);
    rw_fill_f(hb2, n, -2, 2);
    gelu_tanh(n, hb, y);
    rw_out_f("gelu_tanh.y", y, n, 1e-4, 1e-6);
    silu_mul(n, hb, hb2, z);
    rw_out_f("silu_mul.out", z, n, 1e-4, 1e-6);
    swiglu(n, hb, hb2);
    rw_out_f("swiglu.hb", hb, n, 1e-4, 1e-6);
    residual_relu2(n, hb, hb2);
    rw_out_f("residual_relu2.x", hb, n, 1e-4, 1e-5);
    return 0;
}
