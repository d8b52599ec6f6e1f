// A local VLA temporary consumed by the next nest.
#include <gpufuse.h>
#include <math.h>

GPUFUSE void vla_tmp(int n, const float *restrict x, float *restrict y)
{
    float t[n];
    for (int i = 0; i < n; i++)
        t[i] = x[i] * x[i];
    for (int i = 0; i < n; i++)
        y[i] = sqrtf(t[i] + 1.0f);
}

// CHECK-LABEL: region vla_tmp
// CHECK: S0: decl float t[n]
// CHECK-NOT: (malloc)
// CHECK: for i in [0, n) step 1 ; line 8, parallel
// CHECK: for i_1 in [0, n) step 1 ; line 10, parallel
// CHECK: deps: [n] -> { S1[i] -> S2[i_1 = i] : 0 <= i < n }
// REPORT: region vla_tmp ({{.*}}): 2 loop nests -> 1 kernel
// REPORT-NEXT: kernel vla_tmp_k0 [map, 1-D{{.*}}]: lines 8-9, 10-11
// REPORT-NEXT: temporary 't' (line 7) lives in registers: never allocated
