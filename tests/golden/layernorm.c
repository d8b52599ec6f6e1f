// Layer normalisation over rows, with gamma and beta.
#include <gpufuse.h>
#include <math.h>

GPUFUSE void layernorm(int rows, int cols, float eps, const float x[rows][cols], const float gamma[cols],
                       const float beta[cols], float y[rows][cols])
{
    for (int i = 0; i < rows; i++) {
        float mean = 0.0f;
        for (int j = 0; j < cols; j++)
            mean += x[i][j];
        mean = mean / (float)cols;
        float var = 0.0f;
        for (int j = 0; j < cols; j++)
            var += (x[i][j] - mean) * (x[i][j] - mean);
        float inv = 1.0f / sqrtf(var / (float)cols + eps);
        for (int j = 0; j < cols; j++)
            y[i][j] = (x[i][j] - mean) * inv * gamma[j] + beta[j];
    }
}

// CHECK-LABEL: region layernorm
// CHECK: param float gf_u_gamma[cols] in
// CHECK: for i in [0, rows) step 1 ; line 8, parallel
// CHECK: for j in [0, cols) step 1 ; line 10, parallel reduction
// CHECK-NEXT: S1: mean += x[i][j] ; reduction + on mean
// CHECK-NEXT: S2: mean = (mean / (float)cols)
// CHECK: for j_1 in [0, cols) step 1 ; line 14, parallel reduction
// CHECK-NEXT: S4: var += {{.*}} ; reduction + on var
// CHECK: for j_2 in [0, cols) step 1 ; line 17, parallel
// REPORT: kernel layernorm_k0 [row, 1-D, a warp per row up to 512, else a block]: lines 8-19
