// Privatisation of small constant-size temporaries: declared at the top of
// the function, but each iteration of 'i' writes every element it reads
// (isl's value-based flow analysis), so each iteration gets its own copy.
// With a constant size (at most 1024 elements) the copy is declared inside
// the loop: a per-thread array on the GPU, a local of the iteration on the
// host; no device scratch, and the malloc/free pair is gone from the plan.
#include <math.h>
#include <stdlib.h>
#include <gpufuse.h>

GPUFUSE void two_scratch(int n, const float x[n][16], float y[n][16])
{
    float *t = malloc(16 * sizeof *t);
    float u[16];
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < 16; j++)
            t[j] = expf(x[i][j]) * sinf(x[i][j]) + cosf(x[i][j]);
        for (int j = 0; j < 16; j++)
            u[j] = t[15 - j] * t[j];
        for (int j = 0; j < 16; j++)
            y[i][j] = u[j] + 0.5f * u[15 - j];
    }
    free(t);
}

// A scratch value the iteration writes only under a condition it also
// reads under: still written before read in every iteration.
GPUFUSE void guarded(int n, const float x[n][4], float y[n][4])
{
    float t[4];
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < 4; j++)
            if (j < 2)
                t[j] = tanhf(x[i][j]) * expf(x[i][j]) + logf(2.0f + x[i][j]);
        for (int j = 0; j < 2; j++)
            y[i][j] = t[1 - j] * t[j];
    }
}

// CHECK-LABEL: region two_scratch
// CHECK-NOT: (malloc)
// CHECK: for i in [0, n) step 1  ; line 15, parallel
// CHECK-NEXT: block
// CHECK-NEXT: S1: decl float u[16]
// CHECK-NEXT: S0: decl float t[16]
// CHECK-NOT: free t
// CHECK-LABEL: region guarded
// CHECK: for i in [0, n) step 1  ; line 31, parallel
// CHECK-NEXT: block
// CHECK-NEXT: S0: decl float t[4]
// REPORT: region two_scratch ({{.*}}): 1 loop nest -> 1 kernel
// REPORT-NEXT: kernel two_scratch_k0 [map, 1-D]: lines 15-22
// REPORT-DAG: line 13: temporary 't' is private to each iteration of loop 'i' (line 15; isl: every element read is written earlier in the same iteration): declared inside the loop, 16 elements per iteration (a per-thread array on the GPU)
// REPORT-DAG: line 14: temporary 'u' is private to each iteration of loop 'i' (line 15; isl: every element read is written earlier in the same iteration): declared inside the loop, 16 elements per iteration (a per-thread array on the GPU)
// REPORT: region guarded ({{.*}}): 1 loop nest -> 1 kernel
// REPORT: line 30: temporary 't' is private to each iteration of loop 'i'
// CU-LABEL: two_scratch_k0(int n, const float *x, float *y, GF_I gf_n0)
// CU: float u[16]; /* private to each iteration */
// CU-NEXT: float t[16]; /* private to each iteration */
// CU-LABEL: static void gf_seq_two_scratch(
// CU-NEXT: {
// CU-NEXT: float *t = (float *)gf_tmp_alloc((size_t)(16) * sizeof(float));
// CU-NEXT: float *u = (float *)gf_tmp_alloc((size_t)(16) * sizeof(float));
// CU: gf_tmp_free(t);
// CU: gf_tmp_free(u);
// CU-LABEL: extern "C" void two_scratch(
// CU-NOT: gf_call_reserve
// CU: two_scratch_k0<int>
