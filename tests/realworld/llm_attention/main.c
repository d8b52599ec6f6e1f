#include "rw.h"

void attention(int n_heads, int kv_mul, int head_size, int kv_dim, int pos, const float *q, const float *key_cache,
               const float *value_cache, float *att, float *xb, int seq_len);
void attention_scores(int n_heads, int npos, int hs, const float q[n_heads][hs], const float kc[npos][n_heads][hs],
                      float att[n_heads][npos]);
void attention_values(int n_heads, int npos, int hs, const float att[n_heads][npos],
                      const float vc[npos][n_heads][hs], float out[n_heads][hs]);

int main(void)
{
    const int n_heads = 8, n_kv = 4, hs = 64, seq = 256, pos = 200;
    const int kv_dim = n_kv * hs, kv_mul = n_heads / n_kv;
    rw_seed(35);
    float *q = rw_alloc(n_heads * hs, 4), *kc = rw_alloc(seq * kv_dim, 4), *vc = rw_alloc(seq * kv_dim, 4);
    float *att = rw_alloc(n_heads * seq, 4), *xb = rw_alloc(n_heads * hs, 4);
    rw_fill_f(q, n_heads * hs, -1, 1);
    rw_fill_f(kc, seq * kv_dim, -1, 1);
    rw_fill_f(vc, seq * kv_dim, -1, 1);
    attention(n_heads, kv_mul, hs, kv_dim, pos, q, kc, vc, att, xb, seq);
    rw_out_f("attention.att", att, n_heads * seq, 1e-4, 1e-7);
    rw_out_f("attention.xb", xb, n_heads * hs, 1e-4, 1e-5);
    /* the 2-D/3-D form: n_kv heads, the caches read as [pos][head][i] */
    float *att2 = rw_alloc(n_kv * pos, 4), *out2 = rw_alloc(n_kv * hs, 4);
    attention_scores(n_kv, pos, hs, (const float (*)[hs])q, (const float (*)[n_kv][hs])kc, (float (*)[pos])att2);
    rw_out_f("attention_scores.att", att2, n_kv * pos, 1e-4, 1e-5);
    attention_values(n_kv, pos, hs, (const float (*)[pos])att2, (const float (*)[n_kv][hs])vc, (float (*)[hs])out2);
    rw_out_f("attention_values.out", out2, n_kv * hs, 1e-4, 1e-3);
    return 0;
}
