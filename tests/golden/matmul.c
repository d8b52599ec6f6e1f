// Naive matmul (i, j parallel, k a per-element sum): a matrix product, so cuBLAS.
#include <gpufuse.h>

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

// CHECK-LABEL: region matmul
// CHECK: param float B[p][m] in
// CHECK: for i in [0, n) step 1 ; line 6, parallel
// CHECK-NEXT: for j in [0, m) step 1 ; line 7, parallel
// CHECK: S0: decl float acc = 0.0f
// CHECK-NEXT: for k in [0, p) step 1 ; line 9, parallel reduction
// CHECK-NEXT: S1: acc += (A[i][k] * B[k][j]) ; reduction + on acc
// CHECK-NEXT: S2: C[i][j] = acc
// REPORT: kernel matmul_k0 [map, 2-D, cuBLAS, else its kernel tiled 64x64 (4x4 per thread, k by 16), shared: A, B]: lines 6-12
// REPORT-NEXT: line 6: kernel matmul_k0 (lines 6-12) is a library call: C = A * B (float, cuBLAS GEMM)
