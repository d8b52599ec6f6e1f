// Privatisation by expansion: a scratch row that each iteration of 'i'
// fills before reading it, with a producer too expensive to recompute at
// each read (three math calls; inline.c leaves it).  isl's value-based
// flow analysis shows every element read in iteration i was written in
// iteration i, and 't' is not used after the loop: each iteration gets its
// own row, t[m] becomes t[n][m] indexed by i (device scratch reserved by
// the launcher), and 'i' is parallel: one row kernel instead of a host
// loop launching two kernels per row.  The original body (gf_seq_) keeps
// the single row.
#include <math.h>
#include <stdlib.h>
#include <gpufuse.h>

GPUFUSE void smooth_rows(int n, int m, const float x[n][m], float y[n][m])
{
    float *t = malloc(m * sizeof *t);
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < m; j++)
            t[j] = expf(x[i][j]) * sinf(x[i][j]) + cosf(x[i][j]);
        for (int j = 0; j < m; j++)
            y[i][j] = t[j] - t[m - 1 - j];
    }
    free(t);
}

// A VLA, a loop from 1: the copy of iteration i is t[i - 1].
GPUFUSE void pairs(int n, int m, const float x[n][m], float y[n][m])
{
    float t[m];
    for (int i = 1; i < n; i++) {
        for (int j = 0; j < m; j++)
            t[j] = sqrtf(x[i][j] * x[i - 1][j]) + logf(1.0f + x[i][j] * x[i][j]) + expf(-x[i][j]);
        for (int j = 1; j < m; j++)
            y[i][j] = t[j] * t[j - 1];
    }
}
// DIFF-INIT: x in [0, 1)

// CHECK-LABEL: region smooth_rows
// CHECK: S0: decl float t[((n > 0) ? n : 0)][m] (malloc)
// CHECK-NEXT: for i in [0, n) step 1  ; line 17, parallel
// CHECK: S1: t[i][j] = ((expf(x[i][j]) * sinf(x[i][j])) + cosf(x[i][j]))
// CHECK: S2: y[i][j_1] = (t[i][j_1] - t[i][((m - 1) - j_1)])
// CHECK: free t
// CHECK-LABEL: region pairs
// CHECK: S0: decl float t[((n > 1) ? (n - 1) : 0)][m]
// CHECK-NEXT: for i in [1, n) step 1  ; line 30, parallel
// CHECK: S1: t[(i - 1)][j] =
// CHECK: S2: y[i][j_1] = (t[(i - 1)][j_1] * t[(i - 1)][(j_1 - 1)])
// REPORT: region smooth_rows ({{.*}}): 1 loop nest -> 1 kernel
// REPORT-NEXT: kernel smooth_rows_k0 [row, 1-D, a warp per row up to 512, else a block]: lines 17-22
// REPORT-NEXT: line 16: temporary 't' is private to each iteration of loop 'i' (line 17; isl: every element read is written earlier in the same iteration): expanded to one copy per iteration, indexed by 'i'
// REPORT: region pairs ({{.*}}): 1 loop nest -> 1 kernel
// REPORT: line 29: temporary 't' is private to each iteration of loop 'i' (line 30; isl: every element read is written earlier in the same iteration): expanded to one copy per iteration, indexed by 'i'
// CU-LABEL: row kernel for priv_expand.c lines 17-22
// CU: smooth_rows_k0(int n, int m, float *__restrict__ t, const float *x, float *y, GF_I gf_n0)
// CU: gf_group_sync<GF_G>(); /* a later inner loop reads what this one wrote */
// CU-LABEL: static void gf_seq_smooth_rows(
// CU-NEXT: {
// CU-NEXT: float *t = (float *)gf_tmp_alloc((size_t)(m) * sizeof(float));
// CU: t[j] = expf(
// CU-LABEL: extern "C" void smooth_rows(
// CU: gf_call_reserve(gf_c, (size_t)gf_max(0, (long long)((n > 0 ? n : 0))) * (size_t)gf_max(0, (long long)(m)) * sizeof(float)); /* 0: temporary 't' */
// CU: float *gf_d_t = (float *)gf_call_reserved(gf_c, 0); /* temporary 't' */
// CU: smooth_rows_k0<int, {{.*}}>
// CU-NOT: smooth_rows_k1
