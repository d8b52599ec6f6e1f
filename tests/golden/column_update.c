// y[j] += A[i][j]*t[i] in a row loop: i carries the dependence, j is
// parallel, and every dependence keeps j equal, so gpufuse interchanges the
// loops: one kernel over j, each thread summing its column over i in the
// written order (the fallback of the GEMV it is: y = A^T t + y).  A time loop around a single element-wise update is
// interchanged the same way; a sweep whose dependence moves along j is not.
#include <gpufuse.h>

GPUFUSE void atx(int n, int m, const float A[n][m], const float t[n], float y[m])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            y[j] += A[i][j] * t[i];
}

GPUFUSE void decay(int steps, int n, float a[n], const float b[n])
{
    for (int s = 0; s < steps; s++)
        for (int i = 0; i < n; i++)
            a[i] = 0.5f * a[i] + b[i];
}

GPUFUSE void sweep(int n, int m, float A[n][m + 1])
{
    for (int i = 1; i < n; i++)
        for (int j = 0; j < m; j++)
            A[i][j] = 0.5f * (A[i - 1][j] + A[i - 1][j + 1]);
}

// CHECK-LABEL: region atx
// CHECK: param float y[m] inout
// CHECK: for j in [0, m) step 1 ; line 10, parallel
// CHECK-NEXT: for i in [0, n) step 1 ; line 11, sequential
// CHECK-NEXT: S0: y[j] += (A[i][j] * t[i])
// CHECK-LABEL: region decay
// CHECK: for i in [0, n) step 1 ; line 17, parallel
// CHECK-NEXT: for s in [0, steps) step 1 ; line 18, sequential
// CHECK-LABEL: region sweep
// CHECK: for i in [1, n) step 1 ; line 24, sequential
// CHECK-NEXT: for j in [0, m) step 1 ; line 25, parallel
// REPORT-LABEL: region atx
// REPORT: kernel atx_k0 [map, 1-D, cuBLAS]: lines 10-12
// REPORT: line 10: loops interchanged: 'j' runs outside (parallel), 'i' inside it (sequential, per element, in the original order)
// REPORT: line 10: kernel atx_k0 (lines 10-12) is a library call: y = A^T * t + y (float, cuBLAS GEMV)
// REPORT: host plan: kernel atx_k0 runs 'j' by blocks inside the loop over 'i' (rows read contiguously)
// REPORT: host plan: 1 OpenMP parallel loop; at each call the C body runs instead
// REPORT-LABEL: region decay
// REPORT: kernel decay_k0 [map, 1-D]: lines 17-19
// REPORT: line 17: loops interchanged: 'i' runs outside (parallel), 's' inside it
// REPORT-NOT: by blocks
// REPORT: host plan: 1 OpenMP parallel loop
// REPORT-LABEL: region sweep
// REPORT-NOT: interchanged
// The host plan runs atx's columns by blocks inside the row loop (rows read
// contiguously, each column still summed in the written order), its C body in
// the written loop order; decay's time loop stays inside (a[i] is 1-D).
// HOST-LABEL: static void gf_seq_atx(
// HOST-NEXT: {
// HOST-NEXT: for (int i = 0; i < n; i++) {
// HOST-NEXT: for (int j = 0; j < m; j++) {
// HOST-LABEL: static gf_host_work gf_host_work_atx(int n, int m)
// HOST: gf_forks += 1; gf_par += gf_ct0 * gf_ct1; /* atx_k0 */
// HOST-NEXT: const gf_host_work gf_w = {gf_forks, gf_par, gf_atom, gf_seq};
// HOST-LABEL: static int gf_host_wins_atx(int n, int m)
// HOST-NEXT: {
// HOST-NEXT: const gf_host_work gf_w = gf_host_work_atx(n, m);
// HOST-NEXT: return gf_host_plan_wins(gf_w.forks, gf_w.par, gf_w.atom);
// HOST-LABEL: void atx(
// HOST: const int gf_plan = gf_host_wins_atx(n, m);
// HOST: if (!gf_plan) {
// HOST-NEXT: gf_seq_atx(n, m, A, t, y);
// HOST: const long long gf_bs = gf_host_block(gf_host_trips(0, m, 1));
// HOST-NEXT: #if defined(_OPENMP)
// HOST-NEXT: #pragma omp parallel for
// HOST-NEXT: #endif
// HOST-NEXT: for (long long gf_blk = 0; gf_blk < (long long)(m); gf_blk += gf_bs) {
// HOST-NEXT: const long long gf_blk_end = gf_min(gf_blk + gf_bs, (long long)(m));
// HOST-NEXT: for (int i = 0; i < n; i++) {
// HOST-NEXT: for (int j = (int)gf_blk; j < gf_blk_end; j++) {
// HOST-NEXT: y[j] += A[((long long)i * m + j)] * t[i];
// HOST-LABEL: void decay(
// HOST-NOT: gf_blk
// HOST: for (int i = 0; i < n; i++) {
// HOST-NEXT: for (int s = 0; s < steps; s++) {
