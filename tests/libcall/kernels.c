/* kernels.c - matrix-product nests gpufuse sends to cuBLAS / cuBLASLt
 * (compiler/plan/libcall.c), and one it must not (notmm).  libcall.c checks each
 * launcher against its C body. */
#include <gpufuse.h>
#include <math.h>

GPUFUSE void matmul(int n, int m, int p, const float A[n][p], const float B[p][m], float C[n][m])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            float acc = 0.0f;
            for (int k = 0; k < p; k++)
                acc += A[i][k] * B[k][j];
            C[i][j] = acc;
        }
}

GPUFUSE void matmul_flat_tb(int n, int m, int p, const double *A, const double *Bt, double *C)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            C[i * m + j] = 0;
            for (int k = 0; k < p; k++)
                C[i * m + j] += Bt[j * p + k] * A[i * p + k];
        }
}

GPUFUSE void dense_relu(int n, int m, int p, const float x[n][p], const float w[p][m], const float b[m], float y[n][m])
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

GPUFUSE void dense_inline(int n, int m, int p, const float x[n][p], const float w[p][m], const float b[m], float y[n][m])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            float acc = 0.0f;
            for (int k = 0; k < p; k++)
                acc += x[i][k] * w[k][j];
            y[i][j] = acc + b[j] > 0 ? acc + b[j] : 0.0f;
        }
}

GPUFUSE void gemm_acc(int n, int m, int p, const float A[p][n], const float B[p][m], float C[n][m])
{
    for (int j = 0; j < m; j++)
        for (int i = 0; i < n; i++)
            for (int k = 0; k < p; k++)
                C[i][j] += A[k][i] * B[k][j];
}

GPUFUSE void scaled(int n, int m, int p, float alpha, const float A[n][p], const float B[p][m], float C[n][m])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            float acc = 0.0f;
            for (int k = 0; k < p; k++)
                acc += A[i][k] * B[k][j];
            C[i][j] = alpha * acc;
        }
}

GPUFUSE void notmm(int n, int m, int p, const float A[n][p], const float B[p][m], float C[n][m])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            float acc = 0.0f;
            for (int k = 0; k < p; k++)
                acc += A[i][k] * B[k][i];
            C[i][j] = acc;
        }
}

/* a row stride longer than the rows used: lda = ld, not p */
GPUFUSE void matmul_ld(int n, int m, int p, int ld, const float A[n][ld], const float B[p][m], float C[n][m])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            float acc = 0.0f;
            for (int k = 0; k < p; k++)
                acc += A[i][k] * B[k][j];
            C[i][j] = acc;
        }
}

/* the product, then an epilogue that is not bias/ReLU: two kernels' worth,
 * the second a plain element-wise kernel */
GPUFUSE void matmul_tanh(int n, int m, int p, const float A[n][p], const float B[p][m], float C[n][m])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            float acc = 0.0f;
            for (int k = 0; k < p; k++)
                acc += A[i][k] * B[k][j];
            C[i][j] = acc;
        }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            C[i][j] = tanhf(C[i][j]);
}

/* library builtins inside a region: one cuBLASLt call with its bias + ReLU
 * epilogue into a temporary, an element-wise kernel, a cuBLAS GEMM, and an
 * element-wise kernel reading the input again */
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

/* a double GEMM builtin accumulating (beta = 1) in a sequential loop */
GPUFUSE void dgemm_steps(int steps, int n, const double A[n][n], double X[n][n], double Y[n][n])
{
    for (int s = 0; s < steps; s++) {
        gf_dgemm(GF_OP_N, GF_OP_T, n, n, n, 0.25, &A[0][0], n, &X[0][0], n, 1.0, &Y[0][0], n);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                X[i][j] = 0.5 * X[i][j] + 0.001 * Y[i][j];
    }
}

/* a windowed 2-D power spectrum: an element-wise kernel fills a complex
 * temporary, cuFFT transforms it in place, an element-wise kernel takes
 * |X|^2; the temporary never leaves the GPU */
GPUFUSE void power_spectrum(int n, int m, const float x[n][m], float p[n][m])
{
    float z[n][2 * m];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            z[i][2 * j] = x[i][j] * (0.5f - 0.5f * cosf(6.2831853f * j / m));
            z[i][2 * j + 1] = 0.0f;
        }
    gf_fft_c2c_n(2, n, m, 0, 1, &z[0][0], &z[0][0], GF_FFT_FORWARD, GF_C32);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            p[i][j] = z[i][2 * j] * z[i][2 * j] + z[i][2 * j + 1] * z[i][2 * j + 1];
}

/* a real-to-complex transform of each row (batched 1-D), then magnitudes */
GPUFUSE void row_spectrum(int n, int m, const float x[n][m], float spec[n][m + 2], float mag[n][m / 2 + 1])
{
    gf_fft_r2c_n(1, m, 0, 0, n, &x[0][0], &spec[0][0], GF_F32);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < m / 2 + 1; k++)
            mag[i][k] = sqrtf(spec[i][2 * k] * spec[i][2 * k] + spec[i][2 * k + 1] * spec[i][2 * k + 1]);
}

/* GELU (tanh form) after the product: in the next nest with a bias, and in
 * the store written with powf and the factors in another order */
GPUFUSE void dense_gelu(int n, int m, int p, const float x[n][p], const float w[p][m], const float b[m], float y[n][m])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            float acc = 0.0f;
            for (int k = 0; k < p; k++)
                acc += x[i][k] * w[k][j];
            y[i][j] = acc;
        }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            y[i][j] = 0.5f * (y[i][j] + b[j]) *
                      (1.0f + tanhf(0.7978845608f * ((y[i][j] + b[j]) + 0.044715f * (y[i][j] + b[j]) *
                                                                              (y[i][j] + b[j]) * (y[i][j] + b[j]))));
        }
}

GPUFUSE void gelu_inline(int n, int m, int p, const float x[n][p], const float w[p][m], float y[n][m])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            float acc = 0.0f;
            for (int k = 0; k < p; k++)
                acc += x[i][k] * w[k][j];
            y[i][j] = acc * (1.0f + tanhf((acc + 0.044715f * powf(acc, 3.0f)) * 0.7978845608f)) * 0.5f;
        }
}
