/* fir_iir: a bank of FIR filters (one per channel), a first-order IIR per
 * channel (a recurrence along time, channels independent), decimation by 2,
 * an envelope with a global constant */
#include <gpufuse.h>
#include <math.h>

#define TAPS 16
static const float smoothing = 0.95f;

GPUFUSE void fir_bank(int channels, int len, const float x[channels][len + TAPS - 1], const float h[channels][TAPS],
                      float y[channels][len])
{
    for (int c = 0; c < channels; c++)
        for (int t = 0; t < len; t++) {
            float acc = 0;
            for (int k = 0; k < TAPS; k++)
                acc += h[c][k] * x[c][t + TAPS - 1 - k];
            y[c][t] = acc;
        }
}

GPUFUSE void iir_lowpass(int channels, int len, const float x[channels][len], float y[channels][len], float alpha)
{
    for (int c = 0; c < channels; c++) {
        y[c][0] = x[c][0];
        for (int t = 1; t < len; t++)
            y[c][t] = alpha * x[c][t] + (1 - alpha) * y[c][t - 1];
    }
}

GPUFUSE void decimate2(int len, const float *x, float *y)
{
    for (int i = 0; i < len / 2; i++)
        y[i] = 0.5f * (x[2 * i] + x[2 * i + 1]);
}

GPUFUSE void envelope(int len, const float *x, float *env)
{
    for (int i = 0; i < len; i++)
        env[i] = fabsf(x[i]) * (1.0f - smoothing) + smoothing * 0.5f;
}
