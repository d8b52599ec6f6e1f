// `continue`: a flag local to the iteration, set where the loop continued;
// the statements after it run under `if (!gf_skip)`.  The loops stay
// parallel, reductions under the guards stay reductions.
#include <gpufuse.h>
#include <math.h>

GPUFUSE void skip_neg(int n, const float *restrict x, float *restrict y)
{
    for (int i = 0; i < n; i++) {
        if (x[i] < 0.0f)
            continue;
        y[i] = sqrtf(x[i]);
    }
}

GPUFUSE float sum_pos(int rows, int cols, const float a[rows][cols], float out[rows])
{
    float total = 0.0f;
    for (int i = 0; i < rows; i++) {
        float s = 0.0f;
        for (int j = 0; j < cols; j++) {
            if (a[i][j] <= 0.0f)
                continue;
            if (a[i][j] > 0.5f) {
                s += 0.5f;
                continue;
            }
            s += a[i][j];
        }
        out[i] = s;
        total += s;
    }
    return total;
}

// CHECK-LABEL: region skip_neg
// CHECK: for i in [0, n) step 1 ; line 9, parallel
// CHECK-NEXT: block
// CHECK-NEXT: S2: decl int gf_skip = 0
// CHECK-NEXT: if (x[i] < 0.0f)
// CHECK-NEXT: S0: gf_skip = 1
// CHECK-NEXT: if (!gf_skip)
// CHECK-NEXT: block
// CHECK-NEXT: S1: y[i] = sqrtf(x[i])
// CHECK-LABEL: region sum_pos
// CHECK: for i in [0, rows) step 1 ; line 19, parallel reduction
// CHECK: for j in [0, cols) step 1 ; line 21, parallel reduction
// CHECK: S3: s += 0.5f ; reduction + on s
// CHECK-NEXT: S4: gf_skip = 1
// CHECK-NEXT: if (!gf_skip)
// CHECK-NEXT: block
// CHECK-NEXT: S5: s += a[i][j] ; reduction + on s
// REPORT-LABEL: region skip_neg
// REPORT: kernel skip_neg_k0 [map, 1-D, 128-bit vectors]: lines 9-13
// REPORT-LABEL: region sum_pos
// REPORT: kernel sum_pos_k0 [reduce, 1-D, deterministic reduction]: lines 19-32
