// Per-row reductions inside a parallel row loop.
#include <gpufuse.h>

GPUFUSE void row_sums(int rows, int cols, const float a[rows][cols], float out[rows])
{
    for (int i = 0; i < rows; i++) {
        float s = 0.0f;
        for (int j = 0; j < cols; j++)
            s += a[i][j];
        out[i] = s;
    }
}

// CHECK-LABEL: region row_sums
// CHECK: param float out[rows] out
// CHECK: for i in [0, rows) step 1 ; line 6, parallel
// CHECK: S0: decl float s = 0.0f
// CHECK-NEXT: for j in [0, cols) step 1 ; line 8, parallel reduction
// CHECK-NEXT: S1: s += a[i][j] ; reduction + on s
// CHECK-NEXT: S2: out[i] = s
