// A static helper is compiled as a device function only when it is pure.
#include <gpufuse.h>

static int ncalls;
static float counted(float x) { ncalls++; return x * 2.0f; }

GPUFUSE void use(int n, float *restrict x)
{
    for (int i = 0; i < n; i++)
        x[i] = counted(x[i]); // expected-warning {{helper 'counted' uses the global variable 'ncalls'}} [-Wgpufuse-global]
}
