#include "rw.h"

void softmax(float *x, int size);
void causal_softmax(int t, int n, float scores[t][n], float temperature);
void log_softmax(int rows, int vocab, const float logits[rows][vocab], float out[rows][vocab]);
float cross_entropy(int rows, int vocab, const float logp[rows][vocab], const int target[rows]);

int main(void)
{
    const int size = 32000, t = 128, rows = 16, vocab = 5000;
    rw_seed(31);
    float *x = rw_alloc(size, 4), *sc = rw_alloc(t * t, 4), *lg = rw_alloc(rows * vocab, 4),
          *lp = rw_alloc(rows * vocab, 4);
    int *tgt = rw_alloc(rows, sizeof(int));
    rw_fill_f(x, size, -5, 5);
    rw_fill_f(sc, t * t, -3, 3);
    rw_fill_f(lg, rows * vocab, -8, 8);
    rw_fill_i(tgt, rows, 0, vocab - 1);
    softmax(x, size);
    rw_out_f("softmax.x", x, size, 1e-4, 1e-9);
    causal_softmax(t, t, (float (*)[t])sc, 0.8f);
    rw_out_f("causal_softmax.scores", sc, t * t, 1e-4, 1e-8);
    log_softmax(rows, vocab, (const float (*)[vocab])lg, (float (*)[vocab])lp);
    rw_out_f("log_softmax.out", lp, rows * vocab, 1e-5, 1e-5);
    rw_out_scalar("cross_entropy.return",
                  cross_entropy(rows, vocab, (const float (*)[vocab])lp, tgt), 1e-5, 1e-5);
    return 0;
}
