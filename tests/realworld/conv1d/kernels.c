/* conv1d: FIR filtering with a global coefficient table (#define sizes),
 * 'valid' and 'same' modes, a parametric kernel, a moving average */
#include <gpufuse.h>

#define KSIZE 7
#define HALF (KSIZE / 2)

static const float taps[KSIZE] = {0.03125f, 0.109375f, 0.21875f, 0.28125f, 0.21875f, 0.109375f, 0.03125f};

GPUFUSE void conv_valid(int n, const float *in, float *out)
{
    for (int i = 0; i < n - KSIZE + 1; i++) {
        float acc = 0.0f;
        for (int k = 0; k < KSIZE; k++)
            acc += taps[k] * in[i + k];
        out[i] = acc;
    }
}

GPUFUSE void conv_same(int n, const float *in, float *out)
{
    for (int i = 0; i < n; i++) {
        float acc = 0.0f;
        for (int k = -HALF; k <= HALF; k++) {
            int j = i + k;
            if (j >= 0 && j < n)
                acc += taps[k + HALF] * in[j];
        }
        out[i] = acc;
    }
}

GPUFUSE void conv_param(int n, int m, const double *x, const double *h, double *y)
{
    for (int i = 0; i + m <= n; i++) {
        double s = 0;
        for (int k = 0; k < m; k++)
            s += h[k] * x[i + m - 1 - k];
        y[i] = s;
    }
}

GPUFUSE void moving_average(int n, int w, const float *x, float *y)
{
    for (int i = w - 1; i < n; i++) {
        float s = 0;
        for (int k = 0; k < w; k++)
            s += x[i - k];
        y[i] = s / w;
    }
}
