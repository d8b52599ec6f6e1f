// A gemm-like nest cuBLAS does not take: integers, a scalar accumulator
// declared in the body, an epilogue with a non-literal divisor.  Tiled:
// a[i][k] (rows of the tile) and b[k][j] (columns) staged per chunk of k;
// c is written, so never staged.
// DIFF-PARAM: q = 3
#include <gpufuse.h>

GPUFUSE void tile_gemm_int(int ni, int nj, int nk, int q, const int a[ni][nk], const int b[nk][nj], int c[ni][nj])
{
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++) {
            int s = 0;
            for (int k = 0; k < nk; k++)
                s += a[i][k] * b[k][j];
            c[i][j] = s / q + c[i][j];
        }
}

// CHECK-LABEL: region tile_gemm_int
// CHECK: for i in [0, ni) step 1  ; line 10, parallel
// CHECK: for j in [0, nj) step 1  ; line 11, parallel
// CHECK: S0: decl int s = 0
// CHECK: for k in [0, nk) step 1  ; line 13, parallel reduction
// REPORT: kernel tile_gemm_int_k0 [map, 2-D, tiled 16x16, shared: a, b]
// CU: __shared__ int gf_s0[GF_TILE][GF_TILE + 1]; /* a[((GF_I)i * nk + k)]: rows of the tile by a chunk of k */
// CU: __shared__ int gf_s1[GF_TILE][GF_TILE + 1]; /* b[((GF_I)k * nj + j)]: columns of the tile by a chunk of k */
// CU: const bool gf_in = gf_ti < gf_n0 && gf_tj < gf_n1;
// CU: int s = 0;
// CU: const int gf_a = threadIdx.y, gf_b = threadIdx.x;
// CU: const int gf_a = threadIdx.x, gf_b = threadIdx.y;
// CU: s += gf_s0[threadIdx.y][gf_kk] * gf_s1[threadIdx.x][gf_kk];
// CU: if (gf_in) {
// CU-NEXT: c[((GF_I)i * nj + j)] = s / q + c[((GF_I)i * nj + j)];
