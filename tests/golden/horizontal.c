// Two independent nests over the same space: horizontal fusion.
#include <gpufuse.h>

GPUFUSE void twin(int n, const float *restrict a, const float *restrict b, float *restrict x, float *restrict y)
{
    for (int i = 0; i < n; i++)
        x[i] = a[i] + 1.0f;
    for (int i = 0; i < n; i++)
        y[i] = b[i] * 2.0f;
}

// CHECK-LABEL: region twin
// CHECK: for i in [0, n) step 1 ; line 6, parallel
// CHECK: for i_1 in [0, n) step 1 ; line 8, parallel
// CHECK: deps: [n] -> { }
// REPORT: region twin ({{.*}}): 2 loop nests -> 1 kernel
// REPORT-NEXT: kernel twin_k0 [map, 1-D{{.*}}]: lines 6-7, 8-9
// REPORT-NOT: not fused
