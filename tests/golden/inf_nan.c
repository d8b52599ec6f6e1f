// INFINITY and NAN as values: guard against division by zero.
#include <gpufuse.h>
#include <math.h>

GPUFUSE void safe_div(int n, const float *restrict a, const float *restrict b, float *restrict q)
{
    for (int i = 0; i < n; i++)
        q[i] = b[i] == 0.0f ? (a[i] == 0.0f ? NAN : (a[i] > 0.0f ? INFINITY : -INFINITY)) : a[i] / b[i];
}

// CHECK-LABEL: region safe_div
// CHECK: for i in [0, n) step 1 ; line 7, parallel
// CHECK-NEXT: __builtin_nanf("") : ((a[i] > 0.0f) ? __builtin_inff() : (-__builtin_inff()))
