/* img_rgb2gray: pixels as structs (array of structures), integer and float */
#include <gpufuse.h>
#include "kernels.h"

_Static_assert(sizeof(rgb_t) == 3, "packed RGB");

GPUFUSE void rgb_to_gray(int n, const rgb_t *px, unsigned char *gray)
{
    /* BT.601 in 8-bit fixed point */
    for (int i = 0; i < n; i++)
        gray[i] = (unsigned char)((77 * px[i].r + 150 * px[i].g + 29 * px[i].b + 128) >> 8);
}

static inline unsigned char sat(float v)
{
    return v > 255.0f ? 255 : (unsigned char)v;
}

GPUFUSE void sepia(int n, const rgb_t *in, rgb_t *out)
{
    for (int i = 0; i < n; i++) {
        float r = in[i].r, g = in[i].g, b = in[i].b;
        out[i].r = sat(0.393f * r + 0.769f * g + 0.189f * b);
        out[i].g = sat(0.349f * r + 0.686f * g + 0.168f * b);
        out[i].b = sat(0.272f * r + 0.534f * g + 0.131f * b);
    }
}

GPUFUSE void premultiply(int n, rgba *px)
{
    for (int i = 0; i < n; i++) {
        unsigned a = px[i].a;
        px[i].r = (unsigned char)((px[i].r * a + 127) / 255);
        px[i].g = (unsigned char)((px[i].g * a + 127) / 255);
        px[i].b = (unsigned char)((px[i].b * a + 127) / 255);
    }
}

GPUFUSE void split_planes(int n, const rgba *px, float *r, float *g, float *b)
{
    for (int i = 0; i < n; i++) {
        float inv = px[i].a ? 1.0f / px[i].a : 0.0f;
        r[i] = px[i].r * inv;
        g[i] = px[i].g * inv;
        b[i] = px[i].b * inv;
    }
}
