// Matrix products with epilogues: bias + ReLU in the next nest (folded into
// one cuBLASLt call), ReLU in the product's own store, a transposed operand
// accumulated into C, and a nest that is not a product (B[k][i]).
#include <gpufuse.h>
#include <math.h>

GPUFUSE void dense(int n, int m, int p, const float x[n][p], const float w[p][m], const float b[m], float y[n][m])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            float acc = 0.0f;
            for (int k = 0; k < p; k++)
                acc += x[i][k] * w[k][j];
            y[i][j] = acc;
        }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            y[i][j] = fmaxf(y[i][j] + b[j], 0.0f);
}

GPUFUSE void relu_inline(int n, int m, int p, const float *x, const float *w, float *y)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            float acc = 0.0f;
            for (int k = 0; k < p; k++)
                acc += x[i * p + k] * w[k * m + j];
            y[i * m + j] = acc > 0.0f ? acc : 0.0f;
        }
}

GPUFUSE void acc_t(int n, int m, int p, const double A[p][n], const double B[m][p], double C[n][m])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            for (int k = 0; k < p; k++)
                C[i][j] += A[k][i] * B[j][k];
}

GPUFUSE void not_product(int n, int m, int p, const float A[n][p], const float B[p][n], float C[n][m])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            float acc = 0.0f;
            for (int k = 0; k < p; k++)
                acc += A[i][k] * B[k][i];
            C[i][j] = acc;
        }
}

// CHECK-LABEL: region dense
// CHECK: for k in [0, p) step 1 ; line 12, parallel reduction
// CHECK: S3: y[i_1][j_1] = fmaxf((y[i_1][j_1] + b[j_1]), 0.0f)
// CHECK-LABEL: region acc_t
// CHECK: for k in [0, p) step 1 ; line 36, sequential
// CHECK-NEXT: S0: C[i][j] += (A[k][i] * B[j][k])
// REPORT-LABEL: region dense
// REPORT: kernel dense_k0 [map, 2-D, cuBLASLt, else its kernel tiled 64x64 (4x4 per thread, k by 16), shared: x, w]: lines 9-15
// REPORT-NEXT: kernel dense_k1 [map, 2-D, folded into the cuBLASLt call of dense_k0]: lines 16-18
// REPORT: line 9: kernel dense_k0 (lines 9-15) is a library call: y = relu(x * w + b) (float, one cuBLASLt call with its epilogue); kernel dense_k1 (line 16) is its epilogue
// REPORT-LABEL: region relu_inline
// REPORT: kernel relu_inline_k0 [map, 2-D, cuBLASLt, else its kernel tiled 64x64 (4x4 per thread, k by 16), shared: x, w]: lines 23-29
// REPORT: line 23: kernel relu_inline_k0 (lines 23-29) is a library call: y = relu(x * w) (float, one cuBLASLt call with its epilogue)
// REPORT-LABEL: region acc_t
// REPORT: kernel acc_t_k0 [map, 2-D, cuBLAS, else its kernel tiled 64x64 (4x4 per thread, k by 16), shared: A, B]: lines 34-37
// REPORT: line 34: kernel acc_t_k0 (lines 34-37) is a library call: C = A^T * B^T + C (double, cuBLAS GEMM)
// REPORT-LABEL: region not_product
// REPORT: kernel not_product_k0 [map, 2-D, tiled 64x64 (4x4 per thread, k by 16), shared: A, B]: lines 42-48
// REPORT: line 42: not a library call: line 46: the sum over 'k' of A[i][k] * B[k][i] is no form cuBLAS computes
// REPORT-NOT: is a library call
// DIFF-SIZE: x = n * p
// DIFF-SIZE: w = p * m
// DIFF-SIZE: y = n * m
// CU-LABEL: extern "C" void dense(
// CU: bool gf_epi_dense_k0 = false; /* dense_k1 is done by the cuBLASLt call */
// CU: const bool gf_lib_dense_k0 = gf_blas_fits((long long)(n), (long long)(p), (long long)(p)) && gf_blas_fits((long long)(p), (long long)(m), (long long)(m)) && gf_blas_fits((long long)(n), (long long)(m), (long long)(m)) && gf_blas_use(gf_c, (double)(long long)(n) * (long long)(m) * (long long)(p) * 0.00011);
// CU: if (gf_lib_dense_k0) {
// CU-NEXT: gf_call_gemm_epilogue(gf_c, (long long)(n), (long long)(m), (long long)(p), gf_d_x, gf_d_w, gf_d_b, gf_d_y, GF_EPI_BIAS | GF_EPI_RELU, "dense_k0");
// CU-NEXT: gf_epi_dense_k0 = true;
// CU-NEXT: } else if (gf_lib_dense_k0) {
// CU-NEXT: /* y = x * w (float, cuBLAS GEMM) */
// CU-NEXT: gf_call_gemm(gf_c, GF_OP_N, GF_OP_N, (long long)(n), (long long)(m), (long long)(p), (double)1, gf_d_x, (long long)(p), gf_d_w, (long long)(m), (double)0, gf_d_y, (long long)(m), GF_F32, "dense_k0");
// CU-NEXT: } else {
// CU: if (!gf_epi_dense_k0) /* the matrix product did not take its epilogue */
// CU-LABEL: extern "C" void acc_t(
// CU: gf_call_gemm(gf_c, GF_OP_T, GF_OP_T, (long long)(n), (long long)(m), (long long)(p), (double)1, gf_d_A, (long long)(n), gf_d_B, (long long)(p), (double)1, gf_d_C, (long long)(m), GF_F64, "acc_t_k0");

GPUFUSE void gelu_t(int n, int m, int p, const float x[n][p], const float w[p][m], float y[n][m])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            float acc = 0.0f;
            for (int k = 0; k < p; k++)
                acc += x[i][k] * w[k][j];
            y[i][j] = 0.5f * acc * (1.0f + tanhf(0.7978845608f * (acc + 0.044715f * acc * acc * acc)));
        }
}

// REPORT-LABEL: region gelu_t
// REPORT: line 90: kernel gelu_t_k0 (lines 90-96) is a library call: y = gelu(x * w) (float, one cuBLASLt call with its epilogue)
// CU-LABEL: extern "C" void gelu_t(
// CU: gf_call_gemm_epilogue(gf_c, (long long)(n), (long long)(m), (long long)(p), gf_d_x, gf_d_w, NULL, gf_d_y, 0 | GF_EPI_GELU, "gelu_t_k0");
