// Constant steps > 1: even elements only, odd ones untouched.
#include <gpufuse.h>

GPUFUSE void even_scale(int n, float *restrict x)
{
    for (int i = 0; i < n; i += 2)
        x[i] = x[i] * 3.0f;
    for (int j = 1; j < n; j = j + 4)
        x[j] = -x[j];
}

// CHECK-LABEL: region even_scale
// CHECK: for i in [0, n) step 2 ; line 6, parallel
// CHECK: for j in [1, n) step 4 ; line 8, parallel
// CHECK: domain: {{.*}}S1[j] : (-1 + j) mod 4 = 0 and 0 < j < n; S0[i] : (i) mod 2 = 0 and 0 <= i < n }
