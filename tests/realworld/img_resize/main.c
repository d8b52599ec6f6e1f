#include "rw.h"

void downsample2(int h, int w, const float in[2 * h][2 * w], float out[h][w]);
void upsample_nearest(int h, int w, const float in[h][w], float out[2 * h][2 * w]);
void resize_bilinear(int sh, int sw, const float *src, int dh, int dw, float *dst);

int main(void)
{
    int h = 90, w = 120;
    rw_seed(16);
    float *big = rw_alloc(4 * h * w, sizeof(float)), *small = rw_alloc(h * w, sizeof(float));
    float *up = rw_alloc(4 * h * w, sizeof(float)), *bl = rw_alloc(157 * 211, sizeof(float));
    rw_fill_f(big, 4 * h * w, 0, 1);
    downsample2(h, w, (const float (*)[2 * w])big, (float (*)[w])small);
    rw_out_f("downsample2.out", small, h * w, RW_F32_TOL);
    upsample_nearest(h, w, (const float (*)[w])small, (float (*)[2 * w])up);
    rw_out_f("upsample_nearest.out", up, 4 * h * w, RW_F32_TOL);
    resize_bilinear(2 * h, 2 * w, big, 157, 211, bl);
    /* the sample positions are products of floats: an FMA moves them by an ulp,
       which moves the result by at most the local slope times that */
    rw_out_f("resize_bilinear.dst", bl, 157 * 211, 1e-3, 1e-3);
    return 0;
}
