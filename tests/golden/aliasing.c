// Non-restrict arrays accessed at the same subscript may be the same pointer.
#include <gpufuse.h>

GPUFUSE void axpy_alias(int n, float a, const float *x, float *y)
{
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}

// CHECK-LABEL: region axpy_alias
// CHECK: param float x[] in
// CHECK-NOT: restrict
// CHECK: param float y[] inout
// CHECK-NOT: restrict
// CHECK: for i in [0, n) step 1 ; line 6, parallel
