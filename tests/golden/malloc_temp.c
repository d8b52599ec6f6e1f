// malloc / free temporaries: two producers and a consumer.
#include <gpufuse.h>
#include <stdlib.h>

GPUFUSE void mtmp(int n, const float *restrict a, const float *restrict b, float *restrict out)
{
    float *s = malloc(n * sizeof(float));
    float *d = malloc(sizeof(float) * n);
    for (int i = 0; i < n; i++)
        s[i] = a[i] + b[i];
    for (int i = 0; i < n; i++)
        d[i] = a[i] - b[i];
    for (int i = 0; i < n; i++)
        out[i] = s[i] * d[i];
    free(s);
    free(d);
}

// CHECK-LABEL: region mtmp
// CHECK: S0: decl float s[n] (malloc)
// CHECK-NEXT: S1: decl float d[n] (malloc)
// CHECK: for i_2 in [0, n) step 1 ; line 13, parallel
// CHECK: free s
// CHECK-NEXT: free d
// REPORT: region mtmp ({{.*}}): 3 loop nests -> 1 kernel
// REPORT-NEXT: kernel mtmp_k0 [map, 1-D{{.*}}]: lines 9-10, 11-12, 13-14
// REPORT-NEXT: temporary 's' (line 7) lives in registers: never allocated
// REPORT-NEXT: temporary 'd' (line 8) lives in registers: never allocated
