/* llm_softmax: llama2.c's in-place softmax, a batched one with temperature
 * and a causal mask, log-softmax, and the cross-entropy of a batch */
#include <gpufuse.h>
#include <math.h>

GPUFUSE void softmax(float *x, int size)
{
    /* find max value (for numerical stability) */
    float max_val = x[0];
    for (int i = 1; i < size; i++) {
        if (x[i] > max_val) {
            max_val = x[i];
        }
    }
    /* exp and sum */
    float sum = 0.0f;
    for (int i = 0; i < size; i++) {
        x[i] = expf(x[i] - max_val);
        sum += x[i];
    }
    /* normalize */
    for (int i = 0; i < size; i++) {
        x[i] /= sum;
    }
}

GPUFUSE void causal_softmax(int t, int n, float scores[t][n], float temperature)
{
    for (int r = 0; r < t; r++) {
        float m = -INFINITY;
        for (int c = 0; c <= r; c++)
            m = fmaxf(m, scores[r][c] / temperature);
        float s = 0.0f;
        for (int c = 0; c < n; c++) {
            float e = c <= r ? expf(scores[r][c] / temperature - m) : 0.0f;
            scores[r][c] = e;
            s += e;
        }
        for (int c = 0; c <= r; c++)
            scores[r][c] /= s;
    }
}

GPUFUSE void log_softmax(int rows, int vocab, const float logits[rows][vocab], float out[rows][vocab])
{
    for (int r = 0; r < rows; r++) {
        float m = logits[r][0];
        for (int v = 1; v < vocab; v++)
            m = logits[r][v] > m ? logits[r][v] : m;
        double s = 0.0;
        for (int v = 0; v < vocab; v++)
            s += exp((double)(logits[r][v] - m));
        float lse = m + (float)log(s);
        for (int v = 0; v < vocab; v++)
            out[r][v] = logits[r][v] - lse;
    }
}

GPUFUSE float cross_entropy(int rows, int vocab, const float logp[rows][vocab], const int target[rows])
{
    float loss = 0.0f;
    for (int r = 0; r < rows; r++)
        loss -= logp[r][target[r]];
    return loss / rows;
}
