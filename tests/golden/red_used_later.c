// A reduction result used by a later parallel nest (mean subtraction).
#include <gpufuse.h>

GPUFUSE void center(int n, float *restrict x)
{
    float s = 0.0f;
    for (int i = 0; i < n; i++)
        s += x[i];
    float mean = s / (float)n;
    for (int i = 0; i < n; i++)
        x[i] = x[i] - mean;
}

// CHECK-LABEL: region center
// CHECK: for i in [0, n) step 1 ; line 7, parallel reduction
// CHECK-NEXT: S1: s += x[i] ; reduction + on s
// CHECK: S2: decl float mean = (s / (float)n)
// CHECK: for i_1 in [0, n) step 1 ; line 10, parallel
// CHECK-NOT: reduction
// CHECK: deps:
// REPORT: region center ({{.*}}): 2 loop nests -> 2 kernels
// REPORT-NEXT: kernel center_k0 [reduce, 1-D
// REPORT-NEXT: reduces into 's'
// REPORT-NEXT: kernel center_k1 [map, 1-D
