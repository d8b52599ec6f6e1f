// LU decomposition (PolyBench lu, issue 13, item 2): the first j loop is a
// sequential nest with no parallel loop inside: one serial kernel per row,
// not a launch per statement per iteration; the launcher weighs the
// launches against the work before choosing the GPU.
#include <gpufuse.h>

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

// CHECK-LABEL: region lu
// CHECK: for i in [0, n) step 1 ; line 9, sequential
// CHECK-NEXT: block
// CHECK-NEXT: for j in [0, i) step 1 ; line 10, sequential
// CHECK: for j_1 in [i, n) step 1 ; line 15, parallel
// REPORT: region lu ({{.*}}): 1 loop nest -> 2 kernels
// REPORT-NEXT: kernel lu_k0 [serial, one thread, in order]: lines 10-14
// REPORT-NEXT: kernel lu_k1 [map, 1-D]: lines 15-17
// REPORT: line 9: the loop over 'i' runs on the host and launches 2 kernels per iteration: each call weighs the launches against their work and runs the C body when the GPU cannot win
// REPORT: loops in a serial kernel run in one GPU thread
// the whole j loop is one kernel
// CU-LABEL: __global__ void __launch_bounds__(1) lu_k0(int i, int n, double *__restrict__ A)
// CU: /* serial_loop.c:10-14 */
// CU-NEXT: for (int j = 0; j < i; j++) {
// CU-NEXT: for (int k = 0; k < j; k++) {
// the cost model: trip counts at the middle of the ranges around them
// CU-LABEL: extern "C" void lu(
// the GPU's cost model only where there is a GPU (the CPU fallback has its own choice)
// CU: if (gf_have_device()) { /* the cost model: can the GPU win this call? (docs/performance.md) */
// CU: const double gf_ct0 = gf_trips(0, (double)n, 1); /* trips of line 9 */
// CU: const double gf_ct1 = gf_trips(0, gf_cm0, 1); /* trips of line 10 */
// CU: const double gf_ct2 = gf_trips(0, gf_cm1, 1); /* trips of line 11 */
// CU: gf_launches += gf_ct0; gf_ser += gf_ct0 * (gf_ct1 * (gf_ct2 + 1)); /* lu_k0 */
// CU: gf_launches += gf_ct0; gf_par += gf_ct0 * (gf_ct3 * gf_ct4); /* lu_k1 */
// where the GPU cannot win, the host plan when it beats the C body (not only the C body)
// CU: if (!gf_gpu_wins(gf_launches, gf_syncs, gf_par, gf_ser)) { /* the CPU: the host plan or the C body */
// CU-NEXT: if (gf_host_wins_lu(n))
// CU-NEXT: gf_call_prefer_host(gf_c);
// CU-NEXT: else
// CU-NEXT: gf_call_prefer_c_body(gf_c);
// CU: switch (gf_call_map(gf_c)) {
// one launch of each kernel per row, nothing else in the loop
// CU: for (int i = 0; i < n; i += 1) { /* sequential loop, line 9 */
// CU-NEXT: { /* lu_k0: serial_loop.c lines 10-14, one thread in order */
// CU: lu_k0<int><<<1, 1, 0, gf_s>>>(i, n, gf_d_A);
// CU-NOT: for (
// CU: { /* lu_k1: serial_loop.c lines 15-17 */
// the warm-up loads every kernel instance the launcher launches, and the staging ring
// CU-LABEL: static void gf_load_kernels(void)
// CU: (const void *)&lu_k0<int>,
// CU-NEXT: (const void *)&lu_k0<long long>,
// CU-NEXT: (const void *)&lu_k1<int>,
// CU-NEXT: (const void *)&lu_k1<long long>,
// CU-NEXT: };
// CU: cudaFuncGetAttributes(&gf_a, gf_k[gf_i]);
// CU: __attribute__((constructor)) static void gf_prewarm_unit(void)
// CU-NEXT: {
// CU-NEXT: gf_prewarm_load(GF_WARM_CONTEXT | GF_WARM_STAGING, gf_load_kernels);
