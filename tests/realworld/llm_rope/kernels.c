/* llm_rope: rotary position embeddings as llama2.c writes them (the pointer
 * chosen per pass, head dimension by modulo), a precomputed-table form, and
 * a multi-position form over a [pos][dim] array */
#include <gpufuse.h>
#include <math.h>

GPUFUSE void rope_llama2(int dim, int kv_dim, int head_size, int pos, float *q, float *k)
{
    for (int i = 0; i < dim; i += 2) {
        int head_dim = i % head_size;
        float freq = 1.0f / powf(10000.0f, head_dim / (float)head_size);
        float val = pos * freq;
        float fcr = cosf(val);
        float fci = sinf(val);
        int rotn = i < kv_dim ? 2 : 1; /* how many vectors? 2 = q & k, 1 = q only */
        for (int v = 0; v < rotn; v++) {
            float *vec = v == 0 ? q : k; /* the vector to rotate (query or key) */
            float v0 = vec[i];
            float v1 = vec[i + 1];
            vec[i] = v0 * fcr - v1 * fci;
            vec[i + 1] = v0 * fci + v1 * fcr;
        }
    }
}

GPUFUSE void rope_table(int heads, int half, const float cos_t[half], const float sin_t[half],
                        float x[heads][2 * half])
{
    for (int h = 0; h < heads; h++)
        for (int i = 0; i < half; i++) {
            float a = x[h][2 * i], b = x[h][2 * i + 1];
            x[h][2 * i] = a * cos_t[i] - b * sin_t[i];
            x[h][2 * i + 1] = a * sin_t[i] + b * cos_t[i];
        }
}

GPUFUSE void rope_positions(int npos, int dim, float x[npos][dim], float base)
{
    for (int p = 0; p < npos; p++)
        for (int i = 0; i < dim / 2; i++) {
            float theta = p * powf(base, -2.0f * i / dim);
            float c = cosf(theta), s = sinf(theta);
            float a = x[p][i], b = x[p][i + dim / 2];
            x[p][i] = a * c - b * s;
            x[p][i + dim / 2] = a * s + b * c;
        }
}
