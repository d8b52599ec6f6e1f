/* audio_pcm: 16-bit PCM mixing with saturation, a Q15 fixed-point gain, the
 * peak of a buffer, DC removal, stereo to mono */
#include <gpufuse.h>
#include <stdint.h>
#include <stdlib.h>

static inline int16_t sat16(int32_t v)
{
    return (int16_t)(v > INT16_MAX ? INT16_MAX : (v < INT16_MIN ? INT16_MIN : v));
}

GPUFUSE void mix(int n, const int16_t *a, const int16_t *b, int16_t *out)
{
    for (int i = 0; i < n; i++)
        out[i] = sat16((int32_t)a[i] + b[i]);
}

GPUFUSE void gain_q15(int n, int16_t *x, int16_t gain)
{
    for (int i = 0; i < n; i++)
        x[i] = sat16(((int32_t)x[i] * gain + (1 << 14)) >> 15);
}

GPUFUSE int peak(int n, const int16_t *x)
{
    int p = 0;
    for (int i = 0; i < n; i++) {
        int a = abs(x[i]);
        if (a > p)
            p = a;
    }
    return p;
}

GPUFUSE void remove_dc(int n, const int16_t *x, int16_t *y)
{
    long long s = 0;
    for (int i = 0; i < n; i++)
        s += x[i];
    int mean = (int)(s / n);
    for (int i = 0; i < n; i++)
        y[i] = sat16(x[i] - mean);
}

GPUFUSE void stereo_to_mono(int frames, const short *interleaved, short *mono)
{
    for (int f = 0; f < frames; f++)
        mono[f] = (short)((interleaved[2 * f] + interleaved[2 * f + 1]) / 2);
}
