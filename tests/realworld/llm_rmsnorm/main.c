#include "rw.h"
#include <stddef.h>

void rmsnorm(float *o, float *x, float *weight, int size);
void rmsnorm_batch(size_t tokens, size_t dim, const float *x, const float *w, float *out, float eps);
void layernorm(int tokens, int dim, const float x[tokens][dim], const float gamma[dim], const float beta[dim],
               float y[tokens][dim]);

int main(void)
{
    const int dim = 768, tokens = 64;
    rw_seed(30);
    float *x = rw_alloc(tokens * dim, 4), *w = rw_alloc(dim, 4), *b = rw_alloc(dim, 4);
    float *o = rw_alloc(dim, 4), *ob = rw_alloc(tokens * dim, 4), *y = rw_alloc(tokens * dim, 4);
    rw_fill_f(x, tokens * dim, -2, 2);
    rw_fill_f(w, dim, 0.5, 1.5);
    rw_fill_f(b, dim, -0.1, 0.1);
    rmsnorm(o, x, w, dim);
    rw_out_f("rmsnorm.o", o, dim, 1e-4, 1e-5);
    rmsnorm_batch(tokens, dim, x, w, ob, 1e-5f);
    rw_out_f("rmsnorm_batch.out", ob, tokens * dim, 1e-4, 1e-5);
    layernorm(tokens, dim, (const float (*)[dim])x, w, b, (float (*)[dim])y);
    rw_out_f("layernorm.y", y, tokens * dim, 1e-4, 1e-4);
    return 0;
}
