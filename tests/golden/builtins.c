// Library builtins inside a region: each call is a step of the plan between
// the kernels; isl sees it touch its arrays anywhere, so the nests before and
// after it are not fused across it, and a loop around it is sequential.
#include <gpufuse.h>
#include <math.h>

GPUFUSE void mlp(int n, int d, int h, const float x[n][d], const float w1[d][h], const float b1[h],
                 const float w2[h][d], float y[n][d])
{
    float t[n][h];
    gf_gemm_epilogue(n, h, d, &x[0][0], &w1[0][0], b1, &t[0][0], GF_EPI_BIAS | GF_EPI_RELU);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < h; j++)
            t[i][j] = t[i][j] * 0.5f;
    gf_sgemm(GF_OP_N, GF_OP_N, n, d, h, 1.0f, &t[0][0], h, &w2[0][0], d, 0.0f, &y[0][0], d);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < d; j++)
            y[i][j] = tanhf(y[i][j]) + x[i][j];
}

GPUFUSE void steps(int s, int n, const double A[n][n], double X[n][n], double Y[n][n])
{
    for (int k = 0; k < s; k++) {
        gf_dgemm(GF_OP_N, GF_OP_T, n, n, n, 0.25, &A[0][0], n, (double *)X, n, 1.0, Y[0], n);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                X[i][j] = 0.5 * X[i][j] + 0.001 * Y[i][j];
    }
}

GPUFUSE void spectrum(int n, int m, const float x[n][m], float p[n][m])
{
    float z[n][2 * m];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            z[i][2 * j] = x[i][j];
            z[i][2 * j + 1] = 0.0f;
        }
    gf_fft_c2c_n(2, n, m, 0, 1, &z[0][0], &z[0][0], GF_FFT_FORWARD, GF_C32);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            p[i][j] = z[i][2 * j] * z[i][2 * j] + z[i][2 * j + 1] * z[i][2 * j + 1];
}

// NO-DIFF: library calls need libgpufuse (tests/libcall runs these against their C bodies)
// CHECK-LABEL: region mlp
// CHECK: S1: library call gf_gemm_epilogue(n, h, d, x, w1, b1, t, (1 | 2))
// CHECK-NEXT: for i in [0, n) step 1 ; line 12, parallel
// CHECK: S3: library call gf_sgemm(0, 0, n, d, h, 1.0f, t, h, w2, d, 0.0f, y, d)
// CHECK: deps: {{.*}}S1[] -> S2[i, j]
// CHECK-LABEL: region steps
// CHECK: for k in [0, s) step 1 ; line 23, sequential
// CHECK-NEXT: block
// CHECK-NEXT: S0: library call gf_dgemm(0, 1, n, n, n, 0.25, A, n, X, n, 1.0, Y, n)
// CHECK-NEXT: for i in [0, n) step 1 ; line 25, parallel
// REPORT-LABEL: region mlp
// REPORT: 2 loop nests -> 2 kernels
// REPORT: line 11: gf_gemm_epilogue: a library call (cuBLASLt), between the kernels before and after it
// REPORT: line 15: gf_sgemm: a library call (cuBLAS), between the kernels before and after it
// CU-LABEL: extern "C" void mlp(
// CU: gf_call_gemm_epilogue(gf_c, n, h, d, gf_d_x, gf_d_w1, gf_d_b1, gf_d_t, (1 | 2), "gf_gemm_epilogue at line 11");
// CU: gf_call_gemm(gf_c, (gf_op)(0), (gf_op)(0), n, d, h, (double)(1.0f), gf_d_t, h, gf_d_w2, d, (double)(0.0f), gf_d_y, d, GF_F32, "gf_sgemm at line 15");
// REPORT-LABEL: region spectrum
// REPORT: line 39: gf_fft_c2c_n: a library call (cuFFT), between the kernels before and after it
// CU-LABEL: extern "C" void spectrum(
// CU: gf_call_fft(gf_c, 0, 2, n, m, 0, 1, gf_d_z, gf_d_z, -1, (gf_dtype)(5), "gf_fft_c2c_n at line 39");
