// Sum reduction returned.
#include <gpufuse.h>

GPUFUSE float sum(int n, const float *restrict x)
{
    float s = 0.0f;
    for (int i = 0; i < n; i++)
        s += x[i];
    return s;
}

// CHECK-LABEL: region sum
// CHECK: S0: decl float s = 0.0f
// CHECK-NEXT: for i in [0, n) step 1 ; line 7, parallel reduction
// CHECK-NEXT: S1: s += x[i] ; reduction + on s
// CHECK-NEXT: S2: return s
// REPORT: kernel sum_k0 [reduce, 1-D
// REPORT-NEXT: reduces into 's'
