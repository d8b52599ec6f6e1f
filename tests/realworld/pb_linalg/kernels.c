/* pb_linalg: linear algebra kernels written the way PolyBench writes them
 * (declared loop counters, _PB_ bounds, DATA_TYPE, fixed-size arrays, the
 * scop pragmas) -- our own code, not PolyBench's */
#include <gpufuse.h>
#include "kernels.h"

GPUFUSE void kernel_two_mm(int ni, int nj, int nk, int nl, DATA_TYPE alpha, DATA_TYPE beta,
                           DATA_TYPE tmp[NI][NJ], DATA_TYPE A[NI][NK], DATA_TYPE B[NK][NJ], DATA_TYPE C[NJ][NL],
                           DATA_TYPE D[NI][NL])
{
    int i, j, k;
#pragma scop
    /* D := alpha*A*B*C + beta*D */
    for (i = 0; i < _PB_NI; i++)
        for (j = 0; j < _PB_NJ; j++) {
            tmp[i][j] = SCALAR_VAL(0.0);
            for (k = 0; k < _PB_NK; ++k)
                tmp[i][j] += alpha * A[i][k] * B[k][j];
        }
    for (i = 0; i < _PB_NI; i++)
        for (j = 0; j < _PB_NL; j++) {
            D[i][j] *= beta;
            for (k = 0; k < _PB_NJ; ++k)
                D[i][j] += tmp[i][k] * C[k][j];
        }
#pragma endscop
}

GPUFUSE void kernel_atax(int m, int n, DATA_TYPE A[M][N], DATA_TYPE x[N], DATA_TYPE y[N], DATA_TYPE tmp[M])
{
    int i, j;
#pragma scop
    for (i = 0; i < _PB_N; i++)
        y[i] = 0;
    for (i = 0; i < _PB_M; i++) {
        tmp[i] = SCALAR_VAL(0.0);
        for (j = 0; j < _PB_N; j++)
            tmp[i] = tmp[i] + A[i][j] * x[j];
        for (j = 0; j < _PB_N; j++)
            y[j] = y[j] + A[i][j] * tmp[i];
    }
#pragma endscop
}

GPUFUSE void kernel_gesummv(int n, DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE A[N][N], DATA_TYPE B[N][N],
                            DATA_TYPE tmp[N], DATA_TYPE x[N], DATA_TYPE y[N])
{
    int i, j;
#pragma scop
    for (i = 0; i < _PB_N; i++) {
        tmp[i] = SCALAR_VAL(0.0);
        y[i] = SCALAR_VAL(0.0);
        for (j = 0; j < _PB_N; j++) {
            tmp[i] = A[i][j] * x[j] + tmp[i];
            y[i] = B[i][j] * x[j] + y[i];
        }
        y[i] = alpha * tmp[i] + beta * y[i];
    }
#pragma endscop
}

GPUFUSE void kernel_mvt(int n, DATA_TYPE x1[N], DATA_TYPE x2[N], DATA_TYPE y_1[N], DATA_TYPE y_2[N],
                        DATA_TYPE A[N][N])
{
    int i, j;
#pragma scop
    for (i = 0; i < _PB_N; i++)
        for (j = 0; j < _PB_N; j++)
            x1[i] = x1[i] + A[i][j] * y_1[j];
    for (i = 0; i < _PB_N; i++)
        for (j = 0; j < _PB_N; j++)
            x2[i] = x2[i] + A[j][i] * y_2[j];
#pragma endscop
}

GPUFUSE void kernel_syrk(int n, int m, DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE C[N][N], DATA_TYPE A[N][M])
{
    int i, j, k;
#pragma scop
    for (i = 0; i < _PB_N; i++) {
        for (j = 0; j <= i; j++)
            C[i][j] *= beta;
        for (k = 0; k < _PB_M; k++)
            for (j = 0; j <= i; j++)
                C[i][j] += alpha * A[i][k] * A[j][k];
    }
#pragma endscop
}
