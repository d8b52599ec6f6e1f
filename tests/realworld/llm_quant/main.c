#include "rw.h"

void quantize(int n, const float *x, int8_t *q, float *s);
void dequantize(int n, const int8_t *q, const float *s, float *x);
void qmatvec(int n, int d, const int8_t *wq, const float *ws, const int8_t *xq, const float *xs, float *out);

int main(void)
{
    const int n = 1024, d = 256, gs = 64;
    rw_seed(36);
    float *w = rw_alloc(n * d, 4), *x = rw_alloc(n, 4), *ws = rw_alloc(n * d / gs, 4), *xs = rw_alloc(n / gs, 4);
    float *back = rw_alloc(n * d, 4), *out = rw_alloc(d, 4);
    int8_t *wq = rw_alloc(n * d, 1), *xq = rw_alloc(n, 1);
    rw_fill_f(w, n * d, -0.5, 0.5);
    rw_fill_f(x, n, -2, 2);
    quantize(n * d, w, wq, ws);
    /* x / scale is rounded: a quotient within an ulp of .5 may round either way on another machine */
    int *qi = rw_alloc(n * d, sizeof(int));
    for (int i = 0; i < n * d; i++)
        qi[i] = wq[i];
    rw_out_i("quantize.q", qi, n * d, 1);
    rw_out_f("quantize.s", ws, n * d / gs, 0, 0);
    quantize(n, x, xq, xs);
    dequantize(n * d, wq, ws, back);
    rw_out_f("dequantize.x", back, n * d, 1e-6, 0);
    qmatvec(n, d, wq, ws, xq, xs, out);
    rw_out_f("qmatvec.out", out, d, 1e-4, 1e-4);
    return 0;
}
