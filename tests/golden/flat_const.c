// Flattened subscripts with a constant row length are affine.
#include <gpufuse.h>

GPUFUSE void flatc(int n, const float a[n * 64], float b[n * 64])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < 64; j++)
            b[i * 64 + j] = a[i * 64 + j] + 1.0f;
}

// CHECK-LABEL: region flatc
// CHECK: param float a[(n * 64)] in
// CHECK: for i in [0, n) step 1 ; line 6, parallel
// CHECK-NEXT: for j in [0, 64) step 1 ; line 7, parallel
// CHECK-NEXT: S0: b[((i * 64) + j)] = (a[((i * 64) + j)] + 1.0f)
// CHECK: deps: [n] -> { }
