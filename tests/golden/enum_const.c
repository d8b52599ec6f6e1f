// Enum constants and const globals are folded into the kernel.
#include <gpufuse.h>

enum { TILE = 4 };
static const float GAIN = 1.5f;

GPUFUSE void tiles(int n, float *restrict x)
{
    for (int i = 0; i < n * TILE; i++)
        x[i] = x[i] * GAIN + (float)(i % TILE);
}

// CHECK-LABEL: region tiles
// CHECK: for i in [0, (n * 4)) step 1 ; line 9, parallel
// CHECK-NEXT: S0: x[i] = ((x[i] * 1.5f) + (float)(i % 4))
