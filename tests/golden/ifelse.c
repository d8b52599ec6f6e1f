// if / else and ?: in a parallel body.
#include <gpufuse.h>

GPUFUSE void clampsign(int n, float lo, float hi, const float *restrict x, float *restrict y, int *restrict s)
{
    for (int i = 0; i < n; i++) {
        float v = x[i];
        if (v < lo)
            y[i] = lo;
        else if (v > hi)
            y[i] = hi;
        else
            y[i] = v;
        s[i] = v > 0.0f ? 1 : (v < 0.0f ? -1 : 0);
    }
}

// CHECK-LABEL: region clampsign
// CHECK: param float y[] out restrict
// CHECK: for i in [0, n) step 1 ; line 6, parallel
// CHECK: if (v < lo)
// CHECK-NEXT: S1: y[i] = lo
// CHECK-NEXT: else
// CHECK-NEXT: if (v > hi)
// CHECK: S4: s[i] = ((v > 0.0f) ? 1 : ((v < 0.0f) ? (-1) : 0))
