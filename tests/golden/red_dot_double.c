// A double accumulator of float products.
#include <gpufuse.h>

GPUFUSE double dotd(int n, const float *restrict x, const float *restrict y)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += (double)x[i] * (double)y[i];
    return s;
}

// CHECK-LABEL: region dotd
// CHECK: S0: decl double s = 0.0
// CHECK: for i in [0, n) step 1 ; line 7, parallel reduction
// CHECK-NEXT: S1: s += ((double)x[i] * (double)y[i]) ; reduction + on s
