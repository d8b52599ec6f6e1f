/* img_resize: 2x2 box downsampling, nearest and bilinear upsampling of a
 * float image; sizes are parameters, the images VLA parameters. */
#include <gpufuse.h>
#include <math.h>

GPUFUSE void downsample2(int h, int w, const float in[2 * h][2 * w], float out[h][w])
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            out[y][x] = 0.25f * (in[2 * y][2 * x] + in[2 * y][2 * x + 1] + in[2 * y + 1][2 * x] +
                                 in[2 * y + 1][2 * x + 1]);
}

GPUFUSE void upsample_nearest(int h, int w, const float in[h][w], float out[2 * h][2 * w])
{
    for (int y = 0; y < 2 * h; y++)
        for (int x = 0; x < 2 * w; x++)
            out[y][x] = in[y / 2][x / 2];
}

GPUFUSE void resize_bilinear(int sh, int sw, const float *src, int dh, int dw, float *dst)
{
    float sy = (float)(sh - 1) / (float)(dh - 1);
    float sx = (float)(sw - 1) / (float)(dw - 1);
    for (int y = 0; y < dh; y++) {
        for (int x = 0; x < dw; x++) {
            float fy = y * sy, fx = x * sx;
            int y0 = (int)fy, x0 = (int)fx;
            int y1 = y0 + 1 < sh ? y0 + 1 : y0;
            int x1 = x0 + 1 < sw ? x0 + 1 : x0;
            float ay = fy - y0, ax = fx - x0;
            float top = src[y0 * sw + x0] * (1 - ax) + src[y0 * sw + x1] * ax;
            float bot = src[y1 * sw + x0] * (1 - ax) + src[y1 * sw + x1] * ax;
            dst[y * dw + x] = top * (1 - ay) + bot * ay;
        }
    }
}
