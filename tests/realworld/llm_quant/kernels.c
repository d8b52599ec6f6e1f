/* llm_quant: int8 group quantisation as llama2.c's runq writes it (a max
 * per group, a scale, round()), dequantisation, and an int8 dot product with
 * an int32 accumulator per group */
#include <gpufuse.h>
#include <math.h>
#include <stdint.h>

#define GS 64

GPUFUSE void quantize(int n, const float *x, int8_t *q, float *s)
{
    int num_groups = n / GS;
    float Q_MAX = 127.0f;
    for (int group = 0; group < num_groups; group++) {
        /* find the max absolute value in the current group */
        float wmax = 0.0;
        for (int i = 0; i < GS; i++) {
            float val = fabsf(x[group * GS + i]);
            if (val > wmax) {
                wmax = val;
            }
        }
        /* calculate and write the scaling factor */
        float scale = wmax / Q_MAX;
        s[group] = scale;
        /* calculate and write the quantized values */
        for (int i = 0; i < GS; i++) {
            float quant_value = x[group * GS + i] / scale; /* scale */
            int8_t quantized = (int8_t)roundf(quant_value); /* round and clamp */
            q[group * GS + i] = quantized;
        }
    }
}

GPUFUSE void dequantize(int n, const int8_t *q, const float *s, float *x)
{
    for (int i = 0; i < n; i++)
        x[i] = q[i] * s[i / GS];
}

GPUFUSE void qmatvec(int n, int d, const int8_t *wq, const float *ws, const int8_t *xq, const float *xs, float *out)
{
    for (int i = 0; i < d; i++) {
        float val = 0.0f;
        int32_t ival = 0;
        int in = i * n;
        /* do the matmul in groups of GS */
        for (int j = 0; j <= n - GS; j += GS) {
            for (int k = 0; k < GS; k++) {
                ival += ((int32_t)xq[j + k]) * ((int32_t)wq[in + j + k]);
            }
            val += ((float)ival) * ws[(in + j) / GS] * xs[j / GS];
            ival = 0;
        }
        out[i] = val;
    }
}
