// Operators and constants come from the AST, whatever macros they are
// written through: PolyBench-style array parameters and bounds, function-like,
// object-like and nested macros, and math.h / limits.h / sys/param.h macros.
// DIFF-SIZE: x = n * 24
// DIFF-SIZE: y = n * 24
// DIFF-SIZE: k = n * 24
#include <gpufuse.h>
#include <limits.h>
#include <math.h>
#include <sys/param.h>

#define N 40
#define M 24
#define PAD 0
#define DATA_TYPE double
#define SCALAR_VAL(x) x
#define ARR2D(v, d1, d2) v[d1 + PAD][d2 + PAD]
#define _PB_N n
#define SQ(x) ((x) * (x))
#define IDX(i, j) ((i) * M + (j))
#define CLAMP(x, lo, hi) MIN(MAX(x, lo), hi)
#define TWICE(x) SQ(x) + SQ(x)
#define ADD_TO(t, v) t += v

GPUFUSE void poly(int n, DATA_TYPE alpha, DATA_TYPE ARR2D(A, N, M), DATA_TYPE ARR2D(B, N, M))
{
    int i, j;
    for (i = 0; i < _PB_N; i++)
        for (j = 0; j < M; j++)
            B[i][j] = alpha * SQ(A[i][j]) + SCALAR_VAL(1.5) * M_PI - (DATA_TYPE)(N - 1);
}

GPUFUSE void flat(int n, const float *restrict x, float *restrict y, int *restrict k)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < M; j++) {
            y[IDX(i, j)] = CLAMP(x[IDX(i, j)], -0.5f, 0.5f) + TWICE(x[IDX(i, j)]);
            ADD_TO(y[IDX(i, j)], isnan(x[IDX(i, j)]) || !isfinite(x[IDX(i, j)]) ? INFINITY : 1.0f);
            k[IDX(i, j)] = (int)(x[IDX(i, j)] * 100.0f) > 0 ? INT_MAX / 2 : INT_MIN / 2;
        }
}

// CHECK-LABEL: region poly
// CHECK: param double A[40][24] in
// CHECK: for i in [0, n) step 1 ; line 28, parallel
// CHECK-NEXT: for j in [0, 24) step 1 ; line 29, parallel
// CHECK-NEXT: S2: B[i][j] = (((alpha * (A[i][j] * A[i][j])) + (1.5 * 3.141592653589793)) - (double)(40 - 1))
// CHECK-LABEL: region flat
// CHECK: S0: y[((i * 24) + j)] = ((((((x[((i * 24) + j)] > (-0.5f)) ? x[((i * 24) + j)] : (-0.5f)) < 0.5f) ? ((x[((i * 24) + j)] > (-0.5f)) ? x[((i * 24) + j)] : (-0.5f)) : 0.5f) + (x[((i * 24) + j)] * x[((i * 24) + j)])) + (x[((i * 24) + j)] * x[((i * 24) + j)]))
// CHECK-NEXT: S1: y[((i * 24) + j)] += ((isnan(x[((i * 24) + j)]) || (!isfinite(x[((i * 24) + j)]))) ? __builtin_inff() : 1.0f)
// CHECK-NEXT: S2: k[((i * 24) + j)] = (((int)(x[((i * 24) + j)] * 100.0f) > 0) ? (2147483647 / 2) : (((-2147483647) - 1) / 2))
