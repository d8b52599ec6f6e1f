#include <gpufuse.h>
#include <stdlib.h>
#include "kernels.h"

static inline int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

GPUFUSE void box_blur3(const unsigned char *src, unsigned char *dst)
{
    for (int y = 1; y < H - 1; y++)
        for (int x = 1; x < W - 1; x++) {
            int s = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    s += src[IDX(x + dx, y + dy)];
            dst[IDX(x, y)] = (unsigned char)(s / 9);
        }
    /* the border is copied */
    for (int x = 0; x < W; x++) {
        dst[IDX(x, 0)] = src[IDX(x, 0)];
        dst[IDX(x, H - 1)] = src[IDX(x, H - 1)];
    }
    for (int y = 1; y < H - 1; y++) {
        dst[IDX(0, y)] = src[IDX(0, y)];
        dst[IDX(W - 1, y)] = src[IDX(W - 1, y)];
    }
}

/* 1 4 6 4 1 in each direction, edges clamped */
GPUFUSE void separable_blur5(const unsigned char *src, unsigned char *dst)
{
    unsigned short *tmp = malloc(W * H * sizeof *tmp);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int a = src[IDX(clampi(x - 2, 0, W - 1), y)];
            int b = src[IDX(clampi(x - 1, 0, W - 1), y)];
            int c = src[IDX(x, y)];
            int d = src[IDX(clampi(x + 1, 0, W - 1), y)];
            int e = src[IDX(clampi(x + 2, 0, W - 1), y)];
            tmp[IDX(x, y)] = (unsigned short)(a + 4 * b + 6 * c + 4 * d + e);
        }
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int a = tmp[IDX(x, clampi(y - 2, 0, H - 1))];
            int b = tmp[IDX(x, clampi(y - 1, 0, H - 1))];
            int c = tmp[IDX(x, y)];
            int d = tmp[IDX(x, clampi(y + 1, 0, H - 1))];
            int e = tmp[IDX(x, clampi(y + 2, 0, H - 1))];
            dst[IDX(x, y)] = (unsigned char)((a + 4 * b + 6 * c + 4 * d + e + 128) >> 8);
        }
    free(tmp);
}

GPUFUSE void unsharp(const unsigned char *src, const unsigned char *blurred, unsigned char *dst, float amount)
{
    for (int i = 0; i < W * H; i++) {
        float v = src[i] + amount * (float)(src[i] - blurred[i]);
        if (v < 0.0f)
            v = 0.0f;
        if (v > 255.0f)
            v = 255.0f;
        dst[i] = (unsigned char)(v + 0.5f);
    }
}
