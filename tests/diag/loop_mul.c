#include <gpufuse.h>

GPUFUSE void pow2(int n, float *restrict x)
{
    for (int i = 1; i < n; i *= 2) // expected-warning {{the loop increment must be 'i++', '++i' or 'i += c'}} [-Wgpufuse-loop]
        x[i] = 0.0f;
}
