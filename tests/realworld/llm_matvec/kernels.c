/* llm_matvec: llama2.c's matmul (W (d,n) @ x (n,) -> xout (d,)) with its
 * OpenMP pragma, a batched form, a transposed weight layout, a
 * vocabulary projection with a bias */
#include <gpufuse.h>

GPUFUSE void matmul(float *xout, float *x, float *w, int n, int d)
{
    /* W (d,n) @ x (n,) -> xout (d,)
       by far the most amount of time is spent inside this little function */
    int i;
#pragma omp parallel for private(i)
    for (i = 0; i < d; i++) {
        float val = 0.0f;
        for (int j = 0; j < n; j++) {
            val += w[i * n + j] * x[j];
        }
        xout[i] = val;
    }
}

GPUFUSE void matmul_batch(int b, int n, int d, const float x[b][n], const float w[d][n], float out[b][d])
{
    for (int t = 0; t < b; t++)
        for (int i = 0; i < d; i++) {
            float acc = 0.0f;
            for (int j = 0; j < n; j++)
                acc += w[i][j] * x[t][j];
            out[t][i] = acc;
        }
}

GPUFUSE void matvec_t(int n, int d, const float wt[n][d], const float *x, float *out)
{
    for (int i = 0; i < d; i++)
        out[i] = 0.0f;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < d; i++)
            out[i] += wt[j][i] * x[j];
}

GPUFUSE void logits_bias(int vocab, int dim, const float *emb, const float *h, const float *bias, float *logits)
{
    for (int v = 0; v < vocab; v++) {
        double acc = bias[v];
        for (int k = 0; k < dim; k++)
            acc += (double)emb[(long)v * dim + k] * h[k];
        logits[v] = (float)acc;
    }
}
