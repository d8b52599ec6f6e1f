/* colorspace: RGB to HSV with branches and MIN3/MAX3 macros, JPEG's YCbCr in
 * 16-bit fixed point both ways, interleaved bytes */
#include <gpufuse.h>
#include <math.h>
#include "kernels.h"

GPUFUSE void rgb_to_hsv(int n, const float rgb[][3], hsv_t *hsv)
{
    for (int i = 0; i < n; i++) {
        float r = rgb[i][0], g = rgb[i][1], b = rgb[i][2];
        float mx = MAX3(r, g, b), mn = MIN3(r, g, b), d = mx - mn;
        float h;
        if (d == 0.0f)
            h = 0.0f;
        else if (mx == r)
            h = 60.0f * fmodf((g - b) / d, 6.0f);
        else if (mx == g)
            h = 60.0f * ((b - r) / d + 2.0f);
        else
            h = 60.0f * ((r - g) / d + 4.0f);
        if (h < 0.0f)
            h += 360.0f;
        hsv[i].h = h;
        hsv[i].s = mx == 0.0f ? 0.0f : d / mx;
        hsv[i].v = mx;
    }
}

#define FIX(x) ((int)((x) * 65536.0 + 0.5))
#define CLAMP255(v) ((v) < 0 ? 0 : ((v) > 255 ? 255 : (v)))

GPUFUSE void rgb_to_ycbcr(int n, const unsigned char *rgb, unsigned char *ycc)
{
    for (int i = 0; i < n; i++) {
        int r = rgb[3 * i], g = rgb[3 * i + 1], b = rgb[3 * i + 2];
        int y = (FIX(0.299) * r + FIX(0.587) * g + FIX(0.114) * b + 32768) >> 16;
        int cb = ((-FIX(0.168736) * r - FIX(0.331264) * g + FIX(0.5) * b + 32768) >> 16) + 128;
        int cr = ((FIX(0.5) * r - FIX(0.418688) * g - FIX(0.081312) * b + 32768) >> 16) + 128;
        ycc[3 * i] = (unsigned char)CLAMP255(y);
        ycc[3 * i + 1] = (unsigned char)CLAMP255(cb);
        ycc[3 * i + 2] = (unsigned char)CLAMP255(cr);
    }
}

GPUFUSE void ycbcr_to_rgb(int n, const unsigned char *ycc, unsigned char *rgb)
{
    for (int i = 0; i < n; i++) {
        int y = ycc[3 * i], cb = ycc[3 * i + 1] - 128, cr = ycc[3 * i + 2] - 128;
        int r = y + ((FIX(1.402) * cr + 32768) >> 16);
        int g = y - ((FIX(0.344136) * cb + FIX(0.714136) * cr - 32768) >> 16);
        int b = y + ((FIX(1.772) * cb + 32768) >> 16);
        rgb[3 * i] = (unsigned char)CLAMP255(r);
        rgb[3 * i + 1] = (unsigned char)CLAMP255(g);
        rgb[3 * i + 2] = (unsigned char)CLAMP255(b);
    }
}
