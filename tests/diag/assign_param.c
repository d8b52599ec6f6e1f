#include <gpufuse.h>

GPUFUSE void clampn(int n, float *restrict x)
{
    n = n > 100 ? 100 : n; // expected-warning {{assignment to parameter 'n'}} [-Wgpufuse-param]
    for (int i = 0; i < n; i++)
        x[i] = 0.0f;
}
