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

// CHECK-LABEL: region gemm_ikj
// CHECK: for i in [0, n{{i}}) step 1 ; line 10, parallel
// HOST-LABEL: /* row gemm_ikj_k0:
// HOST: #pragma omp parallel for
// HOST-NEXT: #endif
// HOST-NEXT: for (int i = 0; i < ni; i++) {
// HOST: for (int k = 0; k < nk; k++) {
// HOST-NEXT: for (int j_1 = 0; j_1 < nj; j_1++) {
// HOST-NEXT: C[((long long)i * nj + j_1)] += alpha * A[((long long)i * nk + k)] * B[((long long)k * nj + j_1)];
// CU: gf_call_gemm(gf_c, GF_OP_N, GF_OP_N, (long long)(ni), (long long)(nj), (long long)(nk)
