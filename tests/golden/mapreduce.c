// Map-reduce: an element-wise producer fused into the reduction that consumes it.
#include <gpufuse.h>
#include <stdlib.h>

GPUFUSE float sumsq_diff(int n, const float *restrict a, const float *restrict b)
{
    float *d = malloc(n * sizeof(float));
    for (int i = 0; i < n; i++)
        d[i] = a[i] - b[i];
    float s = 0.0f;
    for (int i = 0; i < n; i++)
        s += d[i] * d[i];
    free(d);
    return s;
}

// CHECK-LABEL: region sumsq_diff
// CHECK: for i in [0, n) step 1 ; line 8, parallel
// CHECK: for i_1 in [0, n) step 1 ; line 11, parallel reduction
// CHECK-NEXT: S3: s += (d[i_1] * d[i_1]) ; reduction + on s
// REPORT: region sumsq_diff ({{.*}}): 2 loop nests -> 1 kernel
// REPORT-NEXT: kernel sumsq_diff_k0 [reduce, 1-D{{.*}}]: lines 8-9, 11-12
// REPORT-NEXT: reduces into 's'
// REPORT-NEXT: temporary 'd' (line 7) lives in registers: never allocated
