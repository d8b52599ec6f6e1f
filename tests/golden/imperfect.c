// Imperfect nest: statements between loops, scratch scalar per row.
#include <gpufuse.h>

GPUFUSE void rownorm(int rows, int cols, float a[rows][cols])
{
    for (int i = 0; i < rows; i++) {
        float s = 0.0f;
        for (int j = 0; j < cols; j++)
            s += a[i][j] * a[i][j];
        float inv = s > 0.0f ? 1.0f / s : 0.0f;
        for (int j = 0; j < cols; j++)
            a[i][j] = a[i][j] * inv;
    }
}

// CHECK-LABEL: region rownorm
// CHECK: for i in [0, rows) step 1 ; line 6, parallel
// CHECK: for j in [0, cols) step 1 ; line 8, parallel reduction
// CHECK: S2: decl float inv = ((s > 0.0f) ? (1.0f / s) : 0.0f)
// CHECK-NEXT: for j_1 in [0, cols) step 1 ; line 11, parallel
// REPORT: region rownorm ({{.*}}): 1 loop nest -> 1 kernel
// REPORT-NEXT: kernel rownorm_k0 [row,
