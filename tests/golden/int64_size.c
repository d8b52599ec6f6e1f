// 64-bit sizes and indices: int64_t bound, long index.
#include <gpufuse.h>
#include <stdint.h>

GPUFUSE void scale64(int64_t n, double a, double *restrict x)
{
    for (int64_t i = 0; i < n; i++)
        x[i] = a * x[i];
}

// CHECK-LABEL: region scale64
// CHECK: param long n
// CHECK: param double x[] inout restrict
// CHECK: for i in [0, n) step 1 ; line 7, parallel
