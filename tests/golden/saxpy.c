// saxpy: the simplest element-wise region, restrict pointers.
#include <gpufuse.h>

GPUFUSE void saxpy(int n, float a, const float *restrict x, float *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}

// CHECK-LABEL: region saxpy
// CHECK: param float x[] in restrict
// CHECK: param float y[] inout restrict
// CHECK: for i in [0, n) step 1 ; line 6, parallel
// CHECK-NEXT: S0: y[i] = ((a * x[i]) + y[i])
// CHECK: deps: [n] -> { }
// REPORT: region saxpy ({{.*}}): 1 loop nest -> 1 kernel
// REPORT-NEXT: kernel saxpy_k0 [map, 1-D
