// A parameter array private to each iteration, its last values copied out
// (PolyBench doitgen as published: `sum` is a parameter).  Every iteration
// of 'r' and of 'q' fills sum[0..np) before reading it (isl's value-based
// flow analysis), and every iteration writes the same elements: the loops
// get a temporary in its place, expanded per (r, q) like any temporary,
// and the last iteration copies its row into 'sum', which the caller sees
// as the C body leaves it.  'r' and 'q' are parallel: one 2-D kernel
// instead of a host loop launching two kernels per (r, q).
#include <gpufuse.h>

GPUFUSE void doitgen(int nr, int nq, int np, double A[nr][nq][np], const double C4[np][np], double sum[np])
{
    for (int r = 0; r < nr; r++)
        for (int q = 0; q < nq; q++) {
            for (int p = 0; p < np; p++) {
                sum[p] = 0.0;
                for (int s = 0; s < np; s++)
                    sum[p] += A[r][q][s] * C4[s][p];
            }
            for (int p = 0; p < np; p++)
                A[r][q][p] = sum[p];
        }
}

// Read after the loop too: the copy in the last iteration comes first.
GPUFUSE void rows_then_use(int n, int m, const float x[n][m], float y[n][m], float t[m], float out[m])
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < m; j++)
            t[j] = x[i][j] * x[i][j] + 1.0f;
        for (int j = 0; j < m; j++)
            y[i][j] = t[j] - t[m - 1 - j];
    }
    for (int j = 0; j < m; j++)
        out[j] = 2.0f * t[j];
}

// Iteration i writes t[0..i): not the same elements each time (the last
// values of t[j] come from different iterations), so 't' stays shared and
// the loop over 'i' runs on the host.
GPUFUSE void growing(int n, const float x[n], float t[n], float y[n][n])
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < i; j++)
            t[j] = x[j] * (float)i;
        for (int j = 0; j < i; j++)
            y[i][j] = t[j] + t[i - 1 - j];
    }
}

// Iteration i reads t[0] before writing it (a value from the iteration
// before): not private.
GPUFUSE void carried(int n, int m, const float x[n][m], float t[m], float y[n][m])
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < m; j++)
            y[i][j] = t[0] + x[i][j];
        for (int j = 0; j < m; j++)
            t[j] = x[i][j];
    }
}

// A pointer: the private copy would need the extent the caller holds.
GPUFUSE void by_pointer(int n, int m, const float x[n][m], float *tp, float y[n][m])
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < m; j++)
            tp[j] = x[i][j] * 3.0f;
        for (int j = 0; j < m; j++)
            y[i][j] = tp[j] * tp[m - 1 - j];
    }
}
// DIFF-SIZE: tp = m

// Iteration i reads t[m], which no iteration writes (the caller's value):
// a private copy would not hold it, so 't' stays shared.
GPUFUSE void live_in(int n, int m, const float x[n][m], float t[m + 1], float y[n][m])
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < m; j++)
            t[j] = x[i][j];
        for (int j = 0; j < m; j++)
            y[i][j] = t[j] + t[m];
    }
}

// CHECK-LABEL: region doitgen
// CHECK: param double sum[np] inout
// CHECK: S3: decl double sum_1[((nq > 0) ? nq : 0)][((nr > 0) ? nr : 0)][np] (malloc)
// CHECK-NEXT: for r in [0, nr) step 1  ; line 13, parallel
// CHECK-NEXT: for q in [0, nq) step 1  ; line 14, parallel
// CHECK: S0: sum_1[q][r][p] = 0.0
// CHECK: S1: sum_1[q][r][p] += (A[r][q][s] * C4[s][p])
// CHECK: S2: A[r][q][p_1] = sum_1[q][r][p_1]
// CHECK-NEXT: if ((r == (nr - 1)) && (q == (nq - 1)))
// CHECK-NEXT: block
// CHECK-NEXT: for p_2 in [0, np) step 1  ; line 15, parallel
// CHECK-NEXT: S4: sum[p_2] = sum_1[q][r][p_2]
// CHECK-NEXT: free sum_1
// CHECK-LABEL: region rows_then_use
// CHECK: for i in [0, n) step 1  ; line 28, parallel
// CHECK: if (i == (n - 1))
// CHECK: S4: t[j_3] = t_1[i][j_3]
// CHECK: free t_1
// CHECK-NEXT: for j_2 in [0, m) step 1  ; line 34, parallel
// CHECK-NEXT: S2: out[j_2] = (2.0f * t[j_2])
// CHECK-LABEL: region growing
// CHECK: for i in [0, n) step 1  ; line 43, sequential
// CHECK-LABEL: region carried
// CHECK: for i in [0, n) step 1  ; line 55, sequential
// CHECK-LABEL: region by_pointer
// CHECK: for i in [0, n) step 1  ; line 66, sequential
// CHECK-LABEL: region live_in
// CHECK: for i in [0, n) step 1  ; line {{[0-9]+}}, sequential
// REPORT: region doitgen ({{.*}}): 1 loop nest -> 1 kernel
// REPORT-NEXT: kernel doitgen_k0 [map, 2-D]: lines 13-22
// REPORT-NEXT: line 13: parameter 'sum' is written before it is read in each iteration of loops 'r' and 'q' (lines 13, 14; isl: every element read is written earlier in the same iteration): a temporary in the loop, private to each iteration, copied into 'sum' in the last iteration (every iteration writes the same elements)
// REPORT-NEXT: line 13: temporary 'sum' is private to each iteration of loop 'r' (line 13; {{.*}}): expanded to one copy per iteration, indexed by 'r'
// REPORT-NEXT: line 13: temporary 'sum' is private to each iteration of loop 'q' (line 14; {{.*}}): expanded to one copy per iteration, indexed by 'q'
// REPORT-LABEL: region growing
// REPORT: the loop over 'i' runs on the host
// CU-LABEL: map kernel for priv_param.c lines 13-22
// CU: if (r == nr - 1 && q == nq - 1) {
// CU-NEXT: for (int p_2 = 0; p_2 < np; p_2++) {
// CU-NEXT: sum[p_2] = sum_1[
