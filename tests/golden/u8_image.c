// 8-bit RGB to grey: interleaved channels rgb[3*p+c], unsigned char in and out.
#include <gpufuse.h>

GPUFUSE void rgb_to_grey(int npix, const unsigned char *restrict rgb, unsigned char *restrict grey)
{
    for (int p = 0; p < npix; p++) {
        float y = 0.299f * rgb[3 * p] + 0.587f * rgb[3 * p + 1] + 0.114f * rgb[3 * p + 2];
        grey[p] = (unsigned char)(y > 255.0f ? 255.0f : y);
    }
}

// CHECK-LABEL: region rgb_to_grey
// CHECK: param unsigned char rgb[] in restrict
// CHECK: param unsigned char grey[] out restrict
// CHECK: for p in [0, npix) step 1 ; line 6, parallel
// CHECK: rgb[((3 * p) + 1)]
// CHECK: S1: grey[p] = (unsigned char)((y > 255.0f) ? 255.0f : y)
// CHECK: domain: [npix] -> { S1[p] : 0 <= p < npix; S0[p] : 0 <= p < npix }
// CHECK-NOT: S1[p] -> S1
