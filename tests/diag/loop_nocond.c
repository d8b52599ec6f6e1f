#include <gpufuse.h>

GPUFUSE void nocond(int n, float *restrict x)
{
    for (int i = 0;; i++) { // expected-warning {{a fused loop needs an initialisation, a condition and an increment}} [-Wgpufuse-loop]
        if (i < n)
            x[i] = 0.0f;
    }
}
