#include "rw.h"

void matmul(float *xout, float *x, float *w, int n, int d);
void matmul_batch(int b, int n, int d, const float x[b][n], const float w[d][n], float out[b][d]);
void matvec_t(int n, int d, const float wt[n][d], const float *x, float *out);
void logits_bias(int vocab, int dim, const float *emb, const float *h, const float *bias, float *logits);

int main(void)
{
    const int n = 512, d = 384, b = 8, vocab = 4000;
    rw_seed(34);
    float *w = rw_alloc(n * d, 4), *x = rw_alloc(b * n, 4), *xo = rw_alloc(d, 4), *ob = rw_alloc(b * d, 4),
          *ot = rw_alloc(d, 4), *emb = rw_alloc(vocab * n, 4), *bias = rw_alloc(vocab, 4), *lg = rw_alloc(vocab, 4);
    rw_fill_f(w, n * d, -0.1, 0.1);
    rw_fill_f(x, b * n, -1, 1);
    rw_fill_f(emb, vocab * n, -0.1, 0.1);
    rw_fill_f(bias, vocab, -0.5, 0.5);
    /* float dot products of 512 terms of size 0.1: the order of the sum moves
       the result by ~1e-6 */
    matmul(xo, x, w, n, d);
    rw_out_f("matmul.xout", xo, d, 1e-4, 1e-5);
    matmul_batch(b, n, d, (const float (*)[n])x, (const float (*)[n])w, (float (*)[d])ob);
    rw_out_f("matmul_batch.out", ob, b * d, 1e-4, 1e-5);
    matvec_t(n, d, (const float (*)[d])w, x, ot);
    rw_out_f("matvec_t.out", ot, d, 1e-4, 1e-5);
    logits_bias(vocab, n, emb, x, bias, lg);
    rw_out_f("logits_bias.logits", lg, vocab, 1e-6, 1e-7);
    return 0;
}
