// A stencil read of a produced array: the nests cannot fuse (dependence crosses iterations).
#include <gpufuse.h>

GPUFUSE void smooth(int n, const float *restrict x, float *restrict t, float *restrict y)
{
    for (int i = 0; i < n; i++)
        t[i] = x[i] * x[i];
    for (int i = 1; i < n - 1; i++)
        y[i] = t[i - 1] + t[i] + t[i + 1];
}

// CHECK-LABEL: region smooth
// CHECK: for i in [0, n) step 1 ; line 6, parallel
// CHECK: for i_1 in [1, (n - 1)) step 1 ; line 8, parallel
// CHECK: deps: {{.*}}S0[i] -> S1[i_1 = 1 + i]{{.*}}S0[i] -> S1[i_1 = -1 + i]
// REPORT: region smooth ({{.*}}): 2 loop nests -> 2 kernels
// REPORT: line 8: not fused with kernel smooth_k0
