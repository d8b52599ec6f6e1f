#include <gpufuse.h>

GPUFUSE void fence(int n, float *restrict x)
{
    for (int i = 0; i < n; i++) {
        x[i] = 0.0f;
        __asm__ volatile("" ::: "memory"); // expected-warning {{inline assembly cannot run on the GPU}} [-Wgpufuse-asm]
    }
}
