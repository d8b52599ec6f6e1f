#include <gpufuse.h>

GPUFUSE void down(int n, float *restrict x)
{
    for (int i = n - 1; i >= 0; i--) // expected-warning {{the loop condition must be 'index < bound' or 'index <= bound'}} [-Wgpufuse-loop]
        x[i] = 0.0f;
}
