/* llm_rmsnorm: RMS and layer normalisation as inference engines write them
 * (llama2.c's rmsnorm, a batched form with size_t counters) */
#include <gpufuse.h>
#include <math.h>
#include <stddef.h>

GPUFUSE void rmsnorm(float *o, float *x, float *weight, int size)
{
    /* calculate sum of squares */
    float ss = 0.0f;
    for (int j = 0; j < size; j++) {
        ss += x[j] * x[j];
    }
    ss /= size;
    ss += 1e-5f;
    ss = 1.0f / sqrtf(ss);
    /* normalize and scale */
    for (int j = 0; j < size; j++) {
        o[j] = weight[j] * (ss * x[j]);
    }
}

GPUFUSE void rmsnorm_batch(size_t tokens, size_t dim, const float *x, const float *w, float *out, float eps)
{
    for (size_t t = 0; t < tokens; t++) {
        const float *row = x + t * dim;
        float ss = 0.0f;
        for (size_t j = 0; j < dim; j++)
            ss += row[j] * row[j];
        float scale = 1.0f / sqrtf(ss / dim + eps);
        for (size_t j = 0; j < dim; j++)
            out[t * dim + j] = row[j] * scale * w[j];
    }
}

GPUFUSE void layernorm(int tokens, int dim, const float x[tokens][dim], const float gamma[dim],
                       const float beta[dim], float y[tokens][dim])
{
    for (int t = 0; t < tokens; t++) {
        float mean = 0.0f;
        for (int j = 0; j < dim; j++)
            mean += x[t][j];
        mean /= dim;
        float var = 0.0f;
        for (int j = 0; j < dim; j++) {
            float d = x[t][j] - mean;
            var += d * d;
        }
        var /= dim;
        float rstd = 1.0f / sqrtf(var + 1e-5f);
        for (int j = 0; j < dim; j++)
            y[t][j] = (x[t][j] - mean) * rstd * gamma[j] + beta[j];
    }
}
