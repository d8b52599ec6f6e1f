// In-place update of one array (no restrict needed: a single pointer).
#include <gpufuse.h>

GPUFUSE void relu_inplace(int n, float *x)
{
    for (int i = 0; i < n; i++)
        x[i] = x[i] > 0.0f ? x[i] : 0.0f;
}

// CHECK-LABEL: region relu_inplace
// CHECK: param float x[] inout
// CHECK: for i in [0, n) step 1 ; line 6, parallel
