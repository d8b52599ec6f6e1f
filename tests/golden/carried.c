// Values handed from one step of a sequential loop to the next in a
// register (compiler/back/lower.c, Carried): a loop inside each thread's
// work that stores an element and reads it back one step later.  nvcc loads
// it again from the memory the store has just written (the load sits on the
// recurrence's chain); the kernel keeps it in gf_p<id>, the store still goes
// to memory, and the first step reads memory as the loop did.
#include <gpufuse.h>

// PolyBench adi's column sweep: two recurrences in one loop (p and q, both
// read one step back, p again after its store), then a backward sweep that
// reads v one step ahead (j + 1, a step back of the reversed loop).
GPUFUSE void sweep(int n, const double u[n][n], double p[n][n], double q[n][n], double v[n][n])
{
    for (int i = 1; i < n - 1; i++) {
        p[i][0] = 0.0;
        q[i][0] = 1.0;
        for (int j = 1; j < n - 1; j++) {
            p[i][j] = -0.5 / (0.5 * p[i][j - 1] + 2.0);
            q[i][j] = (u[j][i] - 0.5 * q[i][j - 1]) / (0.5 * p[i][j - 1] + 2.0);
        }
        v[n - 1][i] = 1.0;
        for (int j = n - 2; j >= 1; j--)
            v[j][i] = p[i][j] * v[j + 1][i] + q[i][j];
    }
}
// CHECK-LABEL: region sweep
// CHECK: for i in [1, (n - 1)) step 1  ; line 14, parallel
// CHECK: for j in [1, (n - 1)) step 1  ; line 17, sequential
// CHECK: for j_rev in [0, (n - 2)) step 1  ; line 22, sequential
// CU-LABEL: sweep_k0(
// CU: double gf_p0 = 0, gf_w0 = 0; /* p[((GF_I)i * n + j)] handed to the next step of the loop of line 17 */
// CU-NEXT: double gf_p1 = 0, gf_w1 = 0; /* q[((GF_I)i * n + j)] handed to the next step of the loop of line 17 */
// CU-NEXT: for (int j = 1; j < n - 1; j++) {
// CU-NEXT: gf_w0 = -0.5 / (0.5 * (j == 1 ? p[((GF_I)i * n + (j - 1))] : gf_p0) + 2.0);
// CU-NEXT: p[((GF_I)i * n + j)] = gf_w0;
// the read after p's store still sees the step before's p
// CU-NEXT: gf_w1 = (u[((GF_I)j * n + i)] - 0.5 * (j == 1 ? q[((GF_I)i * n + (j - 1))] : gf_p1)) / (0.5 * (j == 1 ? p[((GF_I)i * n + (j - 1))] : gf_p0) + 2.0);
// CU-NEXT: q[((GF_I)i * n + j)] = gf_w1;
// CU-NEXT: gf_p0 = gf_w0;
// CU-NEXT: gf_p1 = gf_w1;
// CU-NEXT: }
// CU: double gf_p2 = 0, gf_w2 = 0; /* v[((GF_I)(n - 2 - j_rev) * n + i)] handed to the next step of the loop of line 22 */
// CU-NEXT: for (int j_rev = 0; j_rev < n - 2; j_rev++) {
// CU-NEXT: gf_w2 = p[((GF_I)i * n + (n - 2 - j_rev))] * (j_rev == 0 ? v[((GF_I)(n - 2 - j_rev + 1) * n + i)] : gf_p2) + q[((GF_I)i * n + (n - 2 - j_rev))];
// CU-NEXT: v[((GF_I)(n - 2 - j_rev) * n + i)] = gf_w2;
// CU-NEXT: gf_p2 = gf_w2;
// CU-NEXT: }
// the few, heavy threads spread over the SMs
// CU-LABEL: static void gf_launch_sweep(
// CU: const unsigned gf_bt = gf_cover_threads(gf_n0, gf_sms);
// CU-NEXT: const long long gf_need = gf_blocks_for(gf_n0, gf_bt);

// Steps of 2 read two back; the value is read inside an inner loop, and
// from a lower bound that is a parameter.
GPUFUSE void strided(int n, int m, int lo, const float a[n][m], const float w[3], float x[n][m], float y[n][m])
{
    for (int i = 0; i < n; i++) {
        for (int j = 2; j < m; j += 2)
            x[i][j] = 0.5f * x[i][j - 2] + a[i][j];
        for (int j = lo; j < m; j++) {
            float t = 0;
            for (int k = 0; k < 3; k++)
                t += w[k] * y[i][j - 1];
            y[i][j] = 0.1f * t + a[i][j];
        }
    }
}
// CHECK-LABEL: region strided
// CHECK: for j in [2, m) step 2
// CU-LABEL: strided_k0(
// CU: float gf_p0 = 0, gf_w0 = 0; /* x[((GF_I)i * m + j)] handed to the next step of the loop of line 58 */
// CU-NEXT: for (int j = 2; j < m; j += 2) {
// CU-NEXT: gf_w0 = 0.5f * (j == 2 ? x[((GF_I)i * m + (j - 2))] : gf_p0) + a[((GF_I)i * m + j)];
// CU: float gf_p1 = 0, gf_w1 = 0; /* y[((GF_I)i * m + j_1)] handed to the next step of the loop of line 60 */
// CU-NEXT: for (int j_1 = lo; j_1 < m; j_1++) {
// CU: t += w[k] * (j_1 == lo ? y[((GF_I)i * m + (j_1 - 1))] : gf_p1);
// CU: y[((GF_I)i * m + j_1)] = gf_w1;
// CU-NEXT: gf_p1 = gf_w1;

// What must keep reading memory: the store under a condition (a step that
// does not store leaves the element before), a second store to the array
// in the loop, a read two steps back of a loop of step 1, an index the
// loop does not move.
GPUFUSE void kept(int n, int m, const float a[n][m], float x[n][m], float y[n][m], float z[n][m], float s[n])
{
    for (int i = 0; i < n; i++) {
        for (int j = 1; j < m; j++)
            if ((i + j) % 3 != 1)
                x[i][j] = 0.5f * x[i][j - 1] + a[i][j];
        for (int j = 1; j < m; j++) {
            y[i][j] = 0.5f * y[i][j - 1] + a[i][j];
            y[i][j] += a[i][j];
        }
        for (int j = 2; j < m; j++)
            z[i][j] = 0.5f * z[i][j - 2] + a[i][j];
        for (int j = 0; j < m; j++)
            s[i] = s[i] * 0.5f + a[i][j];
    }
}
// CHECK-LABEL: region kept
// CU-LABEL: kept_k0(
// CU-NOT: handed to the next step
// CU: x[((GF_I)i * m + j)] = 0.5f * x[((GF_I)i * m + (j - 1))] + a[((GF_I)i * m + j)];
// CU-NOT: handed to the next step
// CU: y[((GF_I)i * m + j_1)] = 0.5f * y[((GF_I)i * m + (j_1 - 1))] + a[((GF_I)i * m + j_1)];
// CU-NOT: handed to the next step
// CU: z[((GF_I)i * m + j_2)] = 0.5f * z[((GF_I)i * m + (j_2 - 2))] + a[((GF_I)i * m + j_2)];
// CU-NOT: handed to the next step
// an element the loop does not move stays in a register over it (RegAcc)
// CU: float gf_a0 = s[i];
// CU-NOT: handed to the next step
// CU-LABEL: The work of the host plan of kept()

// A thread per column whose loop walks down it: every access coalesced
// (A[i][j], j the thread's index) or the same for all threads (q[i]): warps
// of one SM share q's lines, so the blocks keep 256 threads (lower.c,
// KernelLow.spread); only loops that access across rows spread them.
GPUFUSE void column_dots(int m, int n, const double q[m], const double A[m][n], double r[n])
{
    for (int j = 0; j < n; j++) {
        r[j] = 0.0;
        for (int i = 0; i < m; i++)
            r[j] += q[i] * A[i][j] * A[i][j];
    }
}
// CHECK-LABEL: region column_dots
// CU-LABEL: static void gf_launch_column_dots(
// CU-NOT: gf_cover_threads
// CU: const long long gf_need = gf_blocks_for(gf_n0);
// CU: gf_launch(gf_c, "column_dots_k0", column_dots_k0<int>, gf_cover_1d(gf_need), GF_THREADS, 0, gf_s,
