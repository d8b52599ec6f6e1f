// typedef'd element and scalar types.
#include <gpufuse.h>

typedef float real;
typedef int idx_t;

GPUFUSE void tscale(idx_t n, real a, const real *restrict x, real *restrict y)
{
    for (idx_t i = 0; i < n; i++)
        y[i] = a * x[i];
}

// CHECK-LABEL: region tscale
// CHECK-NEXT: param int n
// CHECK-NEXT: param float a
// CHECK-NEXT: param float x[] in restrict
// CHECK: for i in [0, n) step 1 ; line 9, parallel
