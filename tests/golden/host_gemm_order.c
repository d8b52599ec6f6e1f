// PolyBench-style gemm (i-k-j): the CUDA row kernel runs j outside k (a
// thread per element of the row, each summing over k), while the host plan
// keeps the C body's `for k { for j }` below its parallel rows, reading B by
// rows; for each C[i][j] the sum over k runs in the same order either way.
#include <gpufuse.h>

GPUFUSE void gemm_ikj(int ni, int nj, int nk, double alpha, double beta, double C[ni][nj], const double A[ni][nk],
                      const double B[nk][nj])
{
    for (int i = 0; i < ni; i++) {
        for (int j = 0; j < nj; j++)
            C[i][j] *= beta;
        for (int k = 0; k < nk; k++)
            for (int j = 0; j < nj; j++)
                C[i][j] += alpha * A[i][k] * B[k][j];
    }
}

// The two column loops fused (deps_fuse_siblings): a 2-D map over (i, j),
// the scaling before the sum over k for each element; the C body keeps the
// loops apart.  The host plan runs j by blocks, the scaling in a loop of its
// own per block, then k around the block's j: B read by rows.
// CHECK-LABEL: region gemm_ikj
// CHECK: for i in [0, n{{i}}) step 1 ; line 10, parallel
// CHECK: for j in [0, n{{j}}) step 1 ; line 11, parallel
// CHECK-NEXT: block
// CHECK-NEXT: S0: C[i][j] *= beta
// CHECK-NEXT: for k in [0, n{{k}}) step 1 ; line 14, sequential
// REPORT: kernel gemm_ikj_k0 [map, 2-D, cuBLAS, else its kernel tiled 64x64 (4x4 per thread, k by 16), shared: A, B]: lines 10-16
// REPORT: line 11: the loop of line 13 fused into it: one loop over 'j' runs both bodies
// REPORT: host plan: kernel gemm_ikj_k0 runs 'j' by blocks inside the loop over 'k'
// the C body: the loops as written
// HOST-LABEL: GF_UNUSED static void gf_seq_gemm_ikj(
// HOST: for (int j = 0; j < nj; j++) {
// HOST-NEXT: C[((long long)i * nj + j)] *= beta;
// HOST-NEXT: }
// HOST-NEXT: for (int k = 0; k < nk; k++) {
// HOST-NEXT: for (int j_1 = 0; j_1 < nj; j_1++) {
// HOST-LABEL: /* map gemm_ikj_k0:
// HOST: #pragma omp parallel for collapse(2)
// HOST-NEXT: #endif
// HOST-NEXT: for (int i = 0; i < ni; i++) {
// HOST-NEXT: for (long long gf_blk = 0; gf_blk < (long long)(nj); gf_blk += gf_bs) {
// HOST-NEXT: const long long gf_blk_end
// HOST-NEXT: for (int j = (int)gf_blk; j < gf_blk_end; j++) {
// HOST-NEXT: C[((long long)i * nj + j)] *= beta;
// HOST-NEXT: }
// HOST-NEXT: for (int k = 0; k < nk; k++) {
// HOST-NEXT: for (int j = (int)gf_blk; j < gf_blk_end; j++) {
// HOST-NEXT: C[((long long)i * nj + j)] += alpha * A[((long long)i * nk + k)] * B[((long long)k * nj + j)];
// CU: gf_call_gemm(gf_c, GF_OP_N, GF_OP_N, (long long)(ni), (long long)(nj), (long long)(nk)

// A 2-D and a 3-D map: the innermost parallel loop stays out of OpenMP's
// collapse, so that the compiler can vectorise it (a collapsed loop is one
// flattened loop, which gcc does not vectorise).
GPUFUSE void smooth2(int n, int m, const float u[n][m], float v[n][m])
{
    for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < m - 1; j++)
            v[i][j] = 0.25f * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
}

GPUFUSE void scale3(int n, int m, int p, float a[n][m][p], float s)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            for (int k = 0; k < p; k++)
                a[i][j][k] *= s;
}
// HOST-LABEL: /* map smooth2_k0:
// HOST-NEXT: #if defined(_OPENMP)
// HOST-NEXT: #pragma omp parallel for{{$}}
// HOST-NEXT: #endif
// HOST-NEXT: for (int i = 1; i < n - 1; i++) {
// HOST-NEXT: for (int j = 1; j < m - 1; j++) {
// HOST-LABEL: /* map scale3_k0:
// HOST-NEXT: #if defined(_OPENMP)
// HOST-NEXT: #pragma omp parallel for collapse(2){{$}}
// HOST-NEXT: #endif
// HOST-NEXT: for (int i = 0; i < n; i++) {
// HOST-NEXT: for (int j = 0; j < m; j++) {
// HOST-NEXT: for (int k = 0; k < p; k++) {
