// Constant-size array parameters (PolyBench style).
#include <gpufuse.h>

GPUFUSE void copy_const(float C[100][110], const float A[100][110])
{
    for (int i = 0; i < 100; i++)
        for (int j = 0; j < 110; j++)
            C[i][j] = 2.0f * A[i][j];
}

// CHECK-LABEL: region copy_const
// CHECK-NEXT: param float C[100][110] out
// CHECK-NEXT: param float A[100][110] in
// CHECK: for i in [0, 100) step 1 ; line 6, parallel
// CHECK-NEXT: for j in [0, 110) step 1 ; line 7, parallel
