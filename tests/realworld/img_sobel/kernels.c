/* img_sobel: gradient magnitude, edge map and non-maximum thinning.  The
 * image size is a parameter; rows are flattened with the width as stride. */
#include <gpufuse.h>
#include <math.h>
#include "img_util.h"

GPUFUSE void sobel_l1(int w, int h, const unsigned char img[h][w], unsigned char out[h][w])
{
    for (int y = 1; y < h - 1; y++)
        for (int x = 1; x < w - 1; x++) {
            int gx = -img[y - 1][x - 1] + img[y - 1][x + 1] - 2 * img[y][x - 1] + 2 * img[y][x + 1]
                     - img[y + 1][x - 1] + img[y + 1][x + 1];
            int gy = -img[y - 1][x - 1] - 2 * img[y - 1][x] - img[y - 1][x + 1] + img[y + 1][x - 1]
                     + 2 * img[y + 1][x] + img[y + 1][x + 1];
            out[y][x] = clamp_u8((iabs(gx) + iabs(gy)) / 4);
        }
}

GPUFUSE void sobel_mag(int w, int h, const unsigned char *img, float *mag, float *angle)
{
    for (int y = 1; y < h - 1; y++)
        for (int x = 1; x < w - 1; x++) {
            const unsigned char *r0 = img + (y - 1) * w, *r1 = img + y * w, *r2 = img + (y + 1) * w;
            float gx = (float)(r0[x + 1] + 2 * r1[x + 1] + r2[x + 1] - r0[x - 1] - 2 * r1[x - 1] - r2[x - 1]);
            float gy = (float)(r2[x - 1] + 2 * r2[x] + r2[x + 1] - r0[x - 1] - 2 * r0[x] - r0[x + 1]);
            mag[y * w + x] = sqrtf(gx * gx + gy * gy);
            angle[y * w + x] = atan2f(gy, gx);
        }
}

GPUFUSE int edge_count(int n, const float *mag, float threshold, unsigned char *edges)
{
    int count = 0;
    for (int i = 0; i < n; i++) {
        edges[i] = mag[i] > threshold ? 255 : 0;
        count += mag[i] > threshold;
    }
    return count;
}
