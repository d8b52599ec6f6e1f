// Nests with no parallel loop as written, run in the order isl's scheduler
// finds (the Pluto-style scheduler PPCG uses): every dependence among the
// nest's statements kept, the loops written by isl's AST generator, the C
// body as written.
#include <gpufuse.h>
#include <math.h>

// PolyBench lu as published: row by row, each row's lower part a
// triangular solve.  In isl's order the elimination step k is outermost
// (on the host), the division and the two updates are kernels of their own,
// the updates' triangles run over their bounding boxes (2-D grids) with
// the bounds as a guard.
GPUFUSE void lu(int n, double A[n][n])
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < i; j++) {
            for (int k = 0; k < j; k++)
                A[i][j] -= A[i][k] * A[k][j];
            A[i][j] /= A[j][j];
        }
        for (int j = i; j < n; j++)
            for (int k = 0; k < i; k++)
                A[i][j] -= A[i][k] * A[k][j];
    }
}

// A forward substitution, row-oriented as written: in isl's order
// column-oriented, each x[j] finished before the rows below use it.
GPUFUSE void trisolv(int n, const float L[n][n], const float b[n], float x[n])
{
    for (int i = 0; i < n; i++) {
        x[i] = b[i];
        for (int j = 0; j < i; j++)
            x[i] -= L[i][j] * x[j];
        x[i] = x[i] / L[i][i];
    }
}

// Cholesky (PolyBench's): a square root on the diagonal.
GPUFUSE void cholesky(int n, double A[n][n])
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < i; j++) {
            for (int k = 0; k < j; k++)
                A[i][j] -= A[i][k] * A[j][k];
            A[i][j] /= A[j][j];
        }
        for (int k = 0; k < i; k++)
            A[i][i] -= A[i][k] * A[i][k];
        A[i][i] = sqrt(A[i][i]);
    }
}

// Gauss-Seidel sweeps in place: by anti-diagonals (a wavefront) in time
// and space.
GPUFUSE void seidel(int steps, int n, float A[n][n])
{
    for (int t = 0; t < steps; t++)
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++)
                A[i][j] = (A[i - 1][j] + A[i][j - 1] + A[i][j] + A[i][j + 1] + A[i + 1][j]) * 0.2f;
}

// Floyd-Warshall: isl's order has two sequential loops around the
// parallel one (a launch per anti-diagonal per k), so the nest stays as
// written, and on the CPU.
GPUFUSE void floyd(int n, int path[n][n])
{
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                path[i][j] = path[i][j] < path[i][k] + path[k][j] ? path[i][j] : path[i][k] + path[k][j];
}

// A sum in a scalar: no rescheduling (a scalar is written), a serial
// kernel per row (serial_loop.c).

// CHECK-LABEL: region lu
// CHECK: for c0 in [0, ((long long)n - 1)) step 1 ; line 15, sequential
// CHECK: for c1 in [(c0 + 1), (long long)n) step 1 ; line 15, parallel
// CHECK: S1: A[c1][c0] /= A[c0][c0]
// the lower triangle's update over its bounding box, guarded
// CHECK: for c1 in [(c0 + 2), (long long)n) step 1 ; line 15, parallel
// CHECK: for c2 in [(c0 + 1), ((long long)n - 1)) step 1 ; line 15, parallel
// CHECK: if (c2 < c1)
// CHECK: S0: A[c1][c2] -= (A[c1][c0] * A[c0][c2])
// CHECK: for c2 in [(c0 + 1), (long long)n) step 1 ; line 15, parallel
// CHECK: if (c2 >= c1)
// CHECK: S2: A[c1][c2] -= (A[c1][c0] * A[c0][c2])
// CHECK-LABEL: region trisolv
// CHECK: for c0 in [0, (long long)n) step 1 ; line 31, parallel
// CHECK: S0: x[c0] = b[c0]
// CHECK: for c0 in [0, (long long)n) step 1 ; line 31, sequential
// CHECK: S2: x[c0] = (x[c0] / L[c0][c0])
// CHECK: for c1 in [(c0 + 1), (long long)n) step 1 ; line 31, parallel
// CHECK: S1: x[c1] -= (L[c1][c0] * x[c0])
// CHECK-LABEL: region cholesky
// CHECK: for c0 in [0, (long long)n) step 1 ; line 42, sequential
// CHECK: S3: A[c0][c0] = sqrt(A[c0][c0])
// CHECK-LABEL: region seidel
// CHECK: for c0 in [2, (((2 * (long long)steps) + (2 * (long long)n)) - 5)) step 1 ; line 58, sequential
// CHECK: for c1 in [gf_max(0, {{.*}}), gf_min((long long)steps, (c0 / 2))) step 1 ; line 58, parallel
// REPORT: region lu ({{.*}}): 3 loop nests -> 3 kernels
// REPORT-NEXT: kernel lu_k0 [map, 1-D]: lines 15-24
// REPORT-NEXT: kernel lu_k1 [map, 2-D]: lines 15-24
// REPORT-NEXT: kernel lu_k2 [map, 2-D]: lines 15-24
// REPORT: line 15: the nest runs in the order isl's scheduler found: 2 of its statements had no parallel loop around them as written, 0 now
// REPORT: line 15: the loop over 'c0' runs on the host, 3 kernels in each iteration
// REPORT: region trisolv ({{.*}}): 2 loop nests -> 3 kernels
// REPORT: line 31: the nest runs in the order isl's scheduler found: 3 of its statements had no parallel loop around them as written, 1 now
// the serial kernel runs in the next map's threads: one launch a row
// REPORT: line 31: the loop over 'c0' runs on the host, 2 kernels in each iteration
// REPORT-NEXT: line 31: on the GPU 1 launch in each iteration: trisolv_k1 runs in the threads of trisolv_k2
// the diagonal's update moves up past the trailing update (they touch no
// element in common) and joins the column's division: 3 kernels, 2 launched
// REPORT: region cholesky ({{.*}}): 2 loop nests -> 3 kernels
// REPORT: kernel cholesky_k0 [serial, one thread, in order; on the GPU run by every thread of cholesky_k1 at its start
// REPORT: line 42: the nest runs in the order isl's scheduler found: 4 of its statements had no parallel loop around them as written, 1 now
// REPORT: line 42: the loop of line 42 fused into it: one loop over 'c1' runs both bodies
// REPORT: line 42: the loop over 'c0' runs on the host, 3 kernels in each iteration
// REPORT-NEXT: line 42: on the GPU 2 launches in each iteration: cholesky_k0 runs in the threads of cholesky_k1
// REPORT: region seidel ({{.*}}): 1 loop nest -> 1 kernel
// REPORT: line 58: the nest runs in the order isl's scheduler found: 1 of its statements had no parallel loop around them as written, 0 now
// the wavefronts' bounds (minima and maxima of affine forms) have a cost model
// REPORT: line 58: the loop over 'c0' runs on the host, 1 kernel in each iteration: each call weighs the launches against their work
// REPORT: host plan: 1 OpenMP parallel loop; at each call the C body runs instead when the forks and atomic updates cost more than the threads save (cost model)
// REPORT: region floyd ({{.*}}): kept on the CPU
// WARN: reschedule.c:69:5: warning: loop carries a dependence on 'path' (an iteration uses what an earlier one wrote); no loop of this nest is parallel, so 'floyd' keeps its CPU body
// the update of lu runs on a 2-D grid, the contiguous index on x, the guard inside
// CU-LABEL: __global__ void __launch_bounds__(GF_THREADS) lu_k1(int c0, int n, double *__restrict__ A, GF_I gf_n0, GF_I gf_n1)
// CU: const int c2 = (int)(c0 + 1 + (gf_x) * 1);
// CU: const int c1 = (int)(c0 + 2 + (gf_y) * 1);
// CU-NEXT: if (c2 < c1) {
// CU-NEXT: A[((GF_I)c1 * n + c2)] -= A[((GF_I)c1 * n + c0)] * A[((GF_I)c0 * n + c2)];
// the C body keeps the loops as written
// CU-LABEL: static void gf_seq_lu(int n, double *A)
// CU-NEXT: {
// CU-NEXT: for (int i = 0; i < n; i++) {
// CU-NEXT: for (int j = 0; j < i; j++) {
// CU-NEXT: for (int k = 0; k < j; k++) {
// the launcher: one step of the elimination per host iteration
// CU-LABEL: extern "C" void lu(
// CU: for (int c0 = 0; c0 < (long long)n - 1; c0 += 1) { /* sequential loop, line 15 */
// CU: lu_k0<int><<<gf_cover_1d(gf_need), GF_THREADS, 0, gf_s>>>(c0, n, gf_d_A, gf_n0);
// CU: lu_k1<int><<<gf_cover_2d(gf_gx, gf_chunks), GF_THREADS, 0, gf_s>>>(c0, n, gf_d_A, gf_n0, gf_n1);
// CU: lu_k2<int><<<gf_cover_2d(gf_gx, gf_chunks), GF_THREADS, 0, gf_s>>>(c0, n, gf_d_A, gf_n0, gf_n1);
// seidel's cost block counts isl's bounds in doubles (bound_print)
// CU-LABEL: extern "C" void seidel(
// CU: const double gf_ct0 = gf_trips(2, 2 * (double)steps + 2 * (double)n - 5, 1); /* trips of line 58 */
// CU: const double gf_ct2 = gf_trips(0 > {{.*}} ? 0 : {{.*}}, (double)steps < (gf_cm0 / 2.0) ? (double)steps : (gf_cm0 / 2.0), 1); /* trips of line 58 */
