// Product reduction with '*=' and with 'p = p * e'.
#include <gpufuse.h>

GPUFUSE double prod(int n, const double *restrict x)
{
    double p = 1.0, q = 1.0;
    for (int i = 0; i < n; i++)
        p *= x[i];
    for (int i = 0; i < n; i++)
        q = q * (1.0 + x[i] * 0.001);
    return p + q;
}

// CHECK-LABEL: region prod
// CHECK: for i in [0, n) step 1 ; line 7, parallel reduction
// CHECK-NEXT: S2: p *= x[i] ; reduction * on p
// CHECK: for i_1 in [0, n) step 1 ; line 9, parallel reduction
// CHECK-NEXT: S3: q = (q * (1.0 + (x[i_1] * 0.001))) ; reduction * on q
