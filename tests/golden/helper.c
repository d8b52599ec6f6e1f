// Pure static helper functions of the same file.
#include <gpufuse.h>
#include <math.h>

static float sigmoid(float x) { return 1.0f / (1.0f + expf(-x)); }
static inline float sq(float x) { return x * x; }

GPUFUSE void gate(int n, const float *restrict x, float *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] = sigmoid(x[i]) * sq(x[i]);
}

// CHECK-LABEL: region gate
// CHECK: for i in [0, n) step 1 ; line 10, parallel
// CHECK-NEXT: S0: y[i] = (sigmoid(x[i]) * sq(x[i]))
