// A 2-D fixed-size local array declared inside the parallel loop: each
// 8x8 tile of a row is transposed through it.  Private to each iteration
// (a per-thread 64-element array on the GPU), indexed row-major like a 2-D
// temporary.
#include <gpufuse.h>

GPUFUSE void tile_transpose(int n, const float x[n][64], float y[n][64])
{
    for (int i = 0; i < n; i++) {
        float t[8][8];
        for (int a = 0; a < 8; a++)
            for (int b = 0; b < 8; b++)
                t[a][b] = x[i][8 * a + b] * 2.0f + 1.0f;
        for (int a = 0; a < 8; a++)
            for (int b = 0; b < 8; b++)
                y[i][8 * a + b] = t[b][a] - t[a][b];
    }
}

// CHECK-LABEL: region tile_transpose
// CHECK: for i in [0, n) step 1  ; line 9, parallel
// CHECK-NEXT: block
// CHECK-NEXT: S0: decl float t[8][8]
// CHECK: S1: t[a][b] = ((x[i][((8 * a) + b)] * 2.0f) + 1.0f)
// CHECK: S2: y[i][((8 * a_1) + b_1)] = (t[b_1][a_1] - t[a_1][b_1])
// REPORT: kernel tile_transpose_k0 [map, 1-D]: lines 9-17
// REPORT-NEXT: line 10: local array 't' (64 elements) is private to each iteration of loop 'i': a per-thread array on the GPU
// CU-LABEL: void __launch_bounds__(GF_THREADS) tile_transpose_k0(int n, const float *x, float *y, GF_I gf_n0)
// CU: float t[64]; /* private to each iteration */
// CU-NEXT: for (int a = 0; a < 8; a++) {
// CU-NEXT: for (int b = 0; b < 8; b++) {
// CU-NEXT: t[((GF_I)a * 8 + b)] = x[((GF_I)i * 64 + (8 * a + b))] * 2.0f + 1.0f;
// CU: y[((GF_I)i * 64 + (8 * a_1 + b_1))] = t[((GF_I)b_1 * 8 + a_1)] - t[((GF_I)a_1 * 8 + b_1)];
