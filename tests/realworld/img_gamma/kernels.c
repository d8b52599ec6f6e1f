/* img_gamma: tone curves with read-only global tables, size_t counters,
 * no restrict, a macro for the channel count. */
#include <gpufuse.h>
#include <math.h>
#include <stddef.h>

#define CHANNELS 3
#define POSTER_LEVELS 8

/* posterisation levels, a global read-only table */
static const unsigned char poster[POSTER_LEVELS] = {0, 36, 73, 109, 146, 182, 219, 255};
/* per-channel white balance, a non-static const global */
const float wb_gain[CHANNELS] = {1.08f, 1.0f, 0.87f};

GPUFUSE void gamma_correct(size_t n, const unsigned char *in, unsigned char *out, float gamma)
{
    for (size_t i = 0; i < n; i++) {
        float v = powf(in[i] / 255.0f, 1.0f / gamma);
        out[i] = (unsigned char)(v * 255.0f + 0.5f);
    }
}

GPUFUSE void posterize(size_t n, const unsigned char *in, unsigned char *out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = poster[in[i] >> 5];
}

GPUFUSE void white_balance(size_t pixels, const unsigned char *in, unsigned char *out)
{
    for (size_t p = 0; p < pixels; p++)
        for (size_t c = 0; c < CHANNELS; c++) {
            float v = in[p * CHANNELS + c] * wb_gain[c];
            out[p * CHANNELS + c] = v >= 255.0f ? 255 : (unsigned char)v;
        }
}

GPUFUSE void brightness_contrast(size_t n, unsigned char *px, int brightness, float contrast)
{
    for (size_t i = 0; i < n; i++) {
        float v = (px[i] - 128) * contrast + 128 + brightness;
        px[i] = (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v);
    }
}

GPUFUSE void invert(size_t n, unsigned char *px)
{
    for (size_t i = 0; i < n; i++)
        px[i] = 255 - px[i];
}
