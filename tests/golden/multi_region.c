// Several regions in one file.
#include <gpufuse.h>

GPUFUSE void scale_r(int n, float a, float *restrict x)
{
    for (int i = 0; i < n; i++)
        x[i] = a * x[i];
}

GPUFUSE long long count_pos(int n, const float *restrict x)
{
    long long c = 0;
    for (int i = 0; i < n; i++)
        c += x[i] > 0.5f ? 1 : 0;
    return c;
}

// CHECK-LABEL: region scale_r
// CHECK: for i in [0, n) step 1 ; line 6, parallel
// CHECK-LABEL: region count_pos
// CHECK: S0: decl long long c = 0
// CHECK: for i in [0, n) step 1 ; line 13, parallel reduction
// CHECK-NEXT: S1: c += ((x[i] > 0.5f) ? 1 : 0) ; reduction + on c
// REPORT: region scale_r
// REPORT: region count_pos
