#include "rw.h"

void rope_llama2(int dim, int kv_dim, int head_size, int pos, float *q, float *k);
void rope_table(int heads, int half, const float cos_t[half], const float sin_t[half], float x[heads][2 * half]);
void rope_positions(int npos, int dim, float x[npos][dim], float base);

int main(void)
{
    const int dim = 512, kv_dim = 256, head_size = 64, pos = 37;
    const int heads = 8, half = 32, npos = 64, pdim = 128;
    rw_seed(32);
    float *q = rw_alloc(dim, 4), *k = rw_alloc(kv_dim, 4), *ct = rw_alloc(half, 4), *st = rw_alloc(half, 4);
    float *x = rw_alloc(heads * 2 * half, 4), *xp = rw_alloc(npos * pdim, 4);
    rw_fill_f(q, dim, -1, 1);
    rw_fill_f(k, kv_dim, -1, 1);
    rw_fill_f(x, heads * 2 * half, -1, 1);
    rw_fill_f(xp, npos * pdim, -1, 1);
    for (int i = 0; i < half; i++) {
        ct[i] = (float)cos(0.3 * i);
        st[i] = (float)sin(0.3 * i);
    }
    rope_llama2(dim, kv_dim, head_size, pos, q, k);
    /* angles up to 37 rad: cosf/sinf of a large argument differ by ulps between libraries */
    rw_out_f("rope_llama2.q", q, dim, 1e-4, 1e-5);
    rw_out_f("rope_llama2.k", k, kv_dim, 1e-4, 1e-5);
    rope_table(heads, half, ct, st, (float (*)[2 * half])x);
    rw_out_f("rope_table.x", x, heads * 2 * half, 1e-5, 1e-6);
    rope_positions(npos, pdim, (float (*)[pdim])xp, 10000.0f);
    rw_out_f("rope_positions.x", xp, npos * pdim, 1e-4, 1e-5);
    return 0;
}
