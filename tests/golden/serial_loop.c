// LU decomposition in ludcmp's style (PolyBench ludcmp, issue 13, item 2):
// the first j loop runs a sum in a scalar, so it is a sequential nest with
// no parallel loop inside, and isl's rescheduling does not apply (a scalar
// is written): one serial kernel per row, not a launch per statement per
// iteration; the launcher weighs the launches against the work before
// choosing the GPU.  (PolyBench lu as published is rescheduled:
// reschedule.c.)
#include <gpufuse.h>

GPUFUSE void lu(int n, double A[n][n])
{
    double w;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < i; j++) {
            w = A[i][j];
            for (int k = 0; k < j; k++)
                w -= A[i][k] * A[k][j];
            A[i][j] = w / A[j][j];
        }
        for (int j = i; j < n; j++)
            for (int k = 0; k < i; k++)
                A[i][j] -= A[i][k] * A[k][j];
    }
}

// CHECK-LABEL: region lu
// CHECK: for i in [0, n) step 1 ; line 13, sequential
// CHECK-NEXT: block
// CHECK-NEXT: for j in [0, i) step 1 ; line 14, sequential
// CHECK: for j_1 in [i, n) step 1 ; line 20, parallel
// REPORT: region lu ({{.*}}): 1 loop nest -> 2 kernels
// REPORT-NEXT: kernel lu_k0 [serial, one thread, in order]: lines 14-19
// REPORT-NEXT: kernel lu_k1 [map, 1-D]: lines 20-22
// REPORT: line 13: the loop over 'i' runs on the host, 2 kernels in each iteration: each call weighs the launches against their work and runs the C body when the GPU cannot win
// REPORT: loops in a serial kernel run in one GPU thread
// the whole j loop is one kernel
// CU-LABEL: __global__ void __launch_bounds__(1) lu_k0(int i, double w, int n, double *__restrict__ A)
// CU: /* serial_loop.c:14-19 */
// CU-NEXT: for (int j = 0; j < i; j++) {
// CU-NEXT: w = A[
// CU-NEXT: for (int k = 0; k < j; k++) {
// the cost model: trip counts at the middle of the ranges around them
// CU-LABEL: extern "C" void lu(
// the GPU's cost model only where there is a GPU (the CPU fallback has its own choice)
// CU: if (gf_have_device()) { /* the cost model: can the GPU win this call? (docs/performance.md) */
// CU: const double gf_ct0 = gf_trips(0, (double)n, 1); /* trips of line 13 */
// CU: const double gf_ct1 = gf_trips(0, gf_cm0, 1); /* trips of line 14 */
// CU: const double gf_ct2 = gf_trips(0, gf_cm1, 1); /* trips of line 16 */
// CU: gf_launches += gf_ct0; gf_ser += gf_ct0 * (gf_ct1 * (gf_ct2 + 2)); /* lu_k0 */
// CU: gf_launches += gf_ct0; gf_par += gf_ct0 * (gf_ct3 * gf_ct4); /* lu_k1 */
// where the GPU cannot win, the host plan when it beats the C body (not only the C body)
// CU: if (!gf_gpu_wins(gf_launches, gf_syncs, gf_par, gf_ser)) { /* the CPU: the host plan or the C body */
// CU-NEXT: if (gf_host_wins_lu(n))
// CU-NEXT: gf_call_prefer_host(gf_c);
// CU-NEXT: else
// CU-NEXT: gf_call_prefer_c_body(gf_c);
// CU: switch (gf_call_map(gf_c)) {
// one launch of each kernel per row, nothing else in the loop
// CU: for (int i = 0; i < n; i += 1) { /* sequential loop, line 13 */
// CU-NEXT: { /* lu_k0: serial_loop.c lines 14-19, one thread in order */
// CU: lu_k0<int><<<1, 1, 0, gf_s>>>(i, w, n, gf_d_A);
// CU-NOT: for (
// CU: { /* lu_k1: serial_loop.c lines 20-22 */
// the warm-up loads every kernel instance the launcher launches, and the staging ring
// CU-LABEL: static void gf_load_kernels(void)
// CU: (const void *)&lu_k0<int>,
// CU-NEXT: (const void *)&lu_k0<long long>,
// CU-NEXT: (const void *)&lu_k1<int>,
// CU-NEXT: (const void *)&lu_k1<long long>,
// CU-NEXT: };
// CU: cudaFuncGetAttributes(&gf_a, gf_k[gf_i]);
// CU: static int gf_omp_team(void (*gf_part)(void *, int, int), void *gf_ctx)
// CU: if (omp_in_parallel() || omp_get_max_threads() < 2 || (gf_w && (*gf_w == 'p' || *gf_w == 'P')))
// CU: #pragma omp parallel
// CU-NEXT: gf_part(gf_ctx, omp_get_thread_num(), omp_get_num_threads());
// CU: __attribute__((destructor)) static void gf_team_unit_end(void) { gf_host_team(gf_omp_team, 0); }
// CU: __attribute__((constructor)) static void gf_prewarm_unit(void)
// CU-NEXT: {
// CU-NEXT: #if defined(_OPENMP)
// CU-NEXT: gf_host_team(gf_omp_team, 1);
// CU-NEXT: #endif
// CU-NEXT: gf_prewarm_load(GF_WARM_CONTEXT | GF_WARM_STAGING, gf_load_kernels);
