/* pb_linalg: sizes and bounds in the PolyBench style (our own code) */
#ifndef PB_LINALG_H
#define PB_LINALG_H
#define NI 60
#define NJ 70
#define NK 80
#define NL 90
#define N 120
#define M 100
#define _PB_NI NI
#define _PB_NJ NJ
#define _PB_NK NK
#define _PB_NL NL
#define _PB_N N
#define _PB_M M
#define DATA_TYPE double
#define SCALAR_VAL(x) x
void kernel_two_mm(int ni, int nj, int nk, int nl, DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE tmp[NI][NJ],
                   DATA_TYPE A[NI][NK], DATA_TYPE B[NK][NJ], DATA_TYPE C[NJ][NL], DATA_TYPE D[NI][NL]);
void kernel_atax(int m, int n, DATA_TYPE A[M][N], DATA_TYPE x[N], DATA_TYPE y[N], DATA_TYPE tmp[M]);
void kernel_gesummv(int n, DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE A[N][N], DATA_TYPE B[N][N],
                    DATA_TYPE tmp[N], DATA_TYPE x[N], DATA_TYPE y[N]);
void kernel_mvt(int n, DATA_TYPE x1[N], DATA_TYPE x2[N], DATA_TYPE y_1[N], DATA_TYPE y_2[N], DATA_TYPE A[N][N]);
void kernel_syrk(int n, int m, DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE C[N][N], DATA_TYPE A[N][M]);
#endif
