/* matmul.c - the matrix products of the library benchmark (bench/libs) as a
 * C programmer writes them: gpufuse recognises the nests and calls cuBLAS
 * (matmul_nn) and one cuBLASLt call with its bias + ReLU epilogue
 * (dense_bias_relu), keeping the kernels as the fallback. */
#include <gpufuse.h>
#include <math.h>

GPUFUSE void matmul_nn(int n, const float A[n][n], const float B[n][n], float C[n][n])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float acc = 0.0f;
            for (int k = 0; k < n; k++)
                acc += A[i][k] * B[k][j];
            C[i][j] = acc;
        }
}

GPUFUSE void dense_bias_relu(int n, const float A[n][n], const float B[n][n], const float bias[n], float C[n][n])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float acc = 0.0f;
            for (int k = 0; k < n; k++)
                acc += A[i][k] * B[k][j];
            C[i][j] = acc;
        }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            C[i][j] = fmaxf(C[i][j] + bias[j], 0.0f);
}
