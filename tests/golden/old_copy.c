// Reads that see only values from before the loop read a copy taken before
// it.  PolyBench trmm adds to B[i][j] the products with B[k][j], k > i:
// rows later iterations of 'i' rewrite.  isl's value-based flow analysis
// shows every value those reads see is from before the loop, so through
// them the loop carries anti-dependences only; reading them from a copy of
// B made before the loop, 'i' carries nothing and is parallel (a 2-D map
// instead of a thread per column walking the rows in order).  The copy's
// reads are B's values from before the nest, so the nest is still cuBLAS's
// TRMM in place (libcall.c: Var.copy_of); the launcher keeps both.
#include <gpufuse.h>

GPUFUSE void trmm(int m, int n, double alpha, const double A[m][m], double B[m][n])
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            for (int k = i + 1; k < m; k++)
                B[i][j] += A[k][i] * B[k][j];
            B[i][j] = alpha * B[i][j];
        }
}

// A shift left in place: each a[i + 1] is read before iteration i + 1
// rewrites it (the C body's CPU fallback only, before).
GPUFUSE void shift(int n, float a[n])
{
    for (int i = 0; i < n - 1; i++)
        a[i] = a[i + 1] * 2.0f;
}

// A row from the row below, in place, and the element itself: the read of
// A[i][j] sees the value its own iteration has not changed yet, from
// before the loop too.
GPUFUSE void rows_up(int n, int m, float A[n][m])
{
    for (int i = 0; i < n - 1; i++)
        for (int j = 0; j < m; j++)
            A[i][j] = 0.5f * (A[i][j] + A[i + 1][j]);
}

// Reversal in place: iterations past the middle read what earlier ones
// wrote, through the same read: no copy, the loop stays serial.
GPUFUSE void reverse_in_place(int n, float a[n])
{
    for (int i = 0; i < n; i++)
        a[i] = a[n - 1 - i];
}

// Gauss-Seidel: the row above is this sweep's (a true dependence), so a
// copy for the row below would not free the loop; isl's scheduler runs the
// nest by anti-diagonals instead (reschedule.c).
GPUFUSE void seidel(int n, float A[n][n])
{
    for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < n - 1; j++)
            A[i][j] = (A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]) * 0.25f;
}

// CHECK-LABEL: region trmm
// CHECK: S2: decl double B_1[m][n] (malloc)
// CHECK-NEXT: for B_c0 in [0, m) step 1  ; line 14, parallel
// CHECK-NEXT: for B_c1 in [0, n) step 1  ; line 14, parallel
// CHECK-NEXT: S3: B_1[B_c0][B_c1] = B[B_c0][B_c1]
// CHECK-NEXT: for i in [0, m) step 1  ; line 14, parallel
// CHECK-NEXT: for j in [0, n) step 1  ; line 15, parallel
// CHECK: S0: B[i][j] += (A[k][i] * B_1[k][j])
// CHECK-NEXT: S1: B[i][j] = (alpha * B[i][j])
// CHECK-NEXT: free B_1
// CHECK-LABEL: region shift
// CHECK: for i in [0, (n - 1)) step 1  ; line 26, parallel
// CHECK-NEXT: S0: a[i] = (a_1[(i + 1)] * 2.0f)
// CHECK-LABEL: region rows_up
// CHECK: for i in [0, (n - 1)) step 1  ; line 35, parallel
// CHECK: A[i][j] = (0.5f * (A_1[i][j] + A_1[(i + 1)][j]))
// REPORT: region trmm ({{.*}}): 2 loop nests -> 2 kernels
// REPORT: line 14: the read of 'B' on line 17 sees only values from before the loop over 'i' (isl: value-based flow): read from a copy of 'B' taken before the loop, which then carries no dependence
// REPORT: line 14: kernel trmm_k1 (lines 14-19) is a library call: B = alpha * unit_tri(A)^T * B (double, cuBLAS TRMM, A's lower triangle)
// WARN: old_copy.c:44:5: warning: loop carries a dependence on 'a'
// REPORT: line 53: the nest runs in the order isl's scheduler found: 1 of its statements had no parallel loop around them as written, 0 now
