/* llm_attention: one attention layer's inner part for one token, as
 * llama2.c writes it per head (scores, softmax, weighted values), with a key
 * cache laid out [pos][kv_dim], grouped-query heads */
#include <gpufuse.h>
#include <math.h>

GPUFUSE void attention(int n_heads, int kv_mul, int head_size, int kv_dim, int pos, const float *q,
                       const float *key_cache, const float *value_cache, float *att, float *xb, int seq_len)
{
    for (int h = 0; h < n_heads; h++) {
        /* get the query vector for this head */
        const float *qh = q + h * head_size;
        /* attention scores for this head */
        float *atth = att + h * seq_len;
        /* iterate over all timesteps, including the current one */
        for (int t = 0; t <= pos; t++) {
            /* get the key vector for this head and at this timestep */
            const float *k = key_cache + t * kv_dim + (h / kv_mul) * head_size;
            /* calculate the attention score as the dot product of q and k */
            float score = 0.0f;
            for (int i = 0; i < head_size; i++) {
                score += qh[i] * k[i];
            }
            score /= sqrtf(head_size);
            /* save the score to the attention buffer */
            atth[t] = score;
        }
        /* softmax the scores to get attention weights, from 0..pos inclusively */
        float max_val = atth[0];
        for (int t = 1; t <= pos; t++)
            if (atth[t] > max_val)
                max_val = atth[t];
        float sum = 0.0f;
        for (int t = 0; t <= pos; t++) {
            atth[t] = expf(atth[t] - max_val);
            sum += atth[t];
        }
        for (int t = 0; t <= pos; t++)
            atth[t] /= sum;
        /* weighted sum of the values, store back into xb */
        float *xbh = xb + h * head_size;
        for (int i = 0; i < head_size; i++)
            xbh[i] = 0.0f;
        for (int t = 0; t <= pos; t++) {
            const float *v = value_cache + t * kv_dim + (h / kv_mul) * head_size;
            float a = atth[t];
            for (int i = 0; i < head_size; i++)
                xbh[i] += a * v[i];
        }
    }
}

/* the same with 2-D and 3-D array parameters: what gpufuse can analyse */
GPUFUSE void attention_scores(int n_heads, int npos, int hs, const float q[n_heads][hs],
                              const float kc[npos][n_heads][hs], float att[n_heads][npos])
{
    float scale = 1.0f / sqrtf((float)hs);
    for (int h = 0; h < n_heads; h++)
        for (int t = 0; t < npos; t++) {
            float s = 0.0f;
            for (int i = 0; i < hs; i++)
                s += q[h][i] * kc[t][h][i];
            att[h][t] = s * scale;
        }
}

GPUFUSE void attention_values(int n_heads, int npos, int hs, const float att[n_heads][npos],
                              const float vc[npos][n_heads][hs], float out[n_heads][hs])
{
    for (int h = 0; h < n_heads; h++)
        for (int i = 0; i < hs; i++) {
            float acc = 0.0f;
            for (int t = 0; t < npos; t++)
                acc += att[h][t] * vc[t][h][i];
            out[h][i] = acc;
        }
}
