#include <gpufuse.h>

static void set(float *p, float v) { *p = v; }

GPUFUSE void addr(int n, float *restrict x)
{
    for (int i = 0; i < n; i++)
        set(&x[i], 1.0f); // expected-warning {{taking an address is not supported}} [-Wgpufuse-pointer]
}
