#include <gpufuse.h>

float lut[256];

GPUFUSE void lookup(int n, const unsigned char *restrict c, float *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] = lut[c[i]]; // expected-warning {{global array 'lut' is not visible to a kernel}} [-Wgpufuse-global]
}
