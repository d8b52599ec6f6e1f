// Row softmax: max, sum of exponentials, normalisation.
#include <gpufuse.h>
#include <math.h>

GPUFUSE void softmax(int rows, int cols, const float x[rows][cols], float y[rows][cols])
{
    for (int i = 0; i < rows; i++) {
        float m = -INFINITY;
        for (int j = 0; j < cols; j++)
            m = fmaxf(m, x[i][j]);
        float s = 0.0f;
        for (int j = 0; j < cols; j++)
            s += expf(x[i][j] - m);
        for (int j = 0; j < cols; j++)
            y[i][j] = expf(x[i][j] - m) / s;
    }
}

// CHECK-LABEL: region softmax
// CHECK: for i in [0, rows) step 1 ; line 7, parallel
// CHECK: S0: decl float m = (-__builtin_inff())
// CHECK-NEXT: for j in [0, cols) step 1 ; line 9, parallel reduction
// CHECK-NEXT: S1: m = fmaxf(m, x[i][j]) ; reduction max on m
// CHECK: for j_1 in [0, cols) step 1 ; line 12, parallel reduction
// CHECK-NEXT: S3: s += expf((x[i][j_1] - m)) ; reduction + on s
// CHECK-NEXT: for j_2 in [0, cols) step 1 ; line 14, parallel
// CHECK-NOT: reduction
// CHECK: deps:
// REPORT: region softmax ({{.*}}): 1 loop nest -> 1 kernel
// REPORT-NEXT: kernel softmax_k0 [row, 1-D, a warp per row up to 512, else a block]: lines 7-16
