#include "rw.h"
#include "kernels.h"

int main(void)
{
    const int n = 40000;
    rw_seed(54);
    float (*rgbf)[3] = rw_alloc(n, sizeof *rgbf);
    hsv_t *hsv = rw_alloc(n, sizeof *hsv);
    unsigned char *rgb = rw_alloc(3 * n, 1), *ycc = rw_alloc(3 * n, 1), *back = rw_alloc(3 * n, 1);
    /* multiples of 1/256, some grey pixels */
    for (int i = 0; i < n; i++)
        for (int c = 0; c < 3; c++)
            rgbf[i][c] = (i % 17 == 0) ? rgbf[i][0] : rw_int(0, 255) / 256.0f;
    rgb_to_hsv(n, (const float (*)[3])rgbf, hsv);
    rw_out_f("rgb_to_hsv.hsv", (float *)hsv, 3 * (size_t)n, 1e-5, 1e-4);
    rw_fill_u8(rgb, 3 * n);
    rgb_to_ycbcr(n, rgb, ycc);
    rw_out_u8("rgb_to_ycbcr.ycc", ycc, 3 * n, 0);
    ycbcr_to_rgb(n, ycc, back);
    rw_out_u8("ycbcr_to_rgb.rgb", back, 3 * n, 0);
    return 0;
}
