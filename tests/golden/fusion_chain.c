// Three element-wise nests over the same space: vertical fusion of a chain.
#include <gpufuse.h>
#include <math.h>
#include <stdlib.h>

GPUFUSE void fchain(int n, const float *restrict x, float *restrict y)
{
    float *t1 = malloc(n * sizeof(float));
    float *t2 = malloc(n * sizeof(float));
    for (int i = 0; i < n; i++)
        t1[i] = x[i] * 2.0f;
    for (int i = 0; i < n; i++)
        t2[i] = t1[i] + 1.0f;
    for (int i = 0; i < n; i++)
        y[i] = sqrtf(fabsf(t2[i]));
    free(t1);
    free(t2);
}

// CHECK-LABEL: region fchain
// CHECK: for i in [0, n) step 1 ; line 10, parallel
// CHECK: for i_1 in [0, n) step 1 ; line 12, parallel
// CHECK: for i_2 in [0, n) step 1 ; line 14, parallel
// REPORT: region fchain ({{.*}}): 3 loop nests -> 1 kernel
// REPORT-NEXT: kernel fchain_k0 [map, 1-D{{.*}}]: lines 10-11, 12-13, 14-15
// REPORT-NEXT: temporary 't1' (line 8) lives in registers: never allocated
// REPORT-NEXT: temporary 't2' (line 9) lives in registers: never allocated
// REPORT-NEXT: global traffic per element: 40 B unfused (a pass per statement) -> 8 B fused (80% saved)
