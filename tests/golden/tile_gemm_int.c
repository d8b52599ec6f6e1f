// A gemm-like nest cuBLAS does not take: integers, a scalar accumulator
// declared in the body, an epilogue with a non-literal divisor.  Tiled:
// a[i][k] (rows of the tile) and b[k][j] (columns) staged per chunk of k;
// c is written, so never staged.  The scalar accumulator s becomes one
// register per output of the thread's 4x4 block.
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
// CHECK: for i in [0, ni) step 1  ; line 11, parallel
// CHECK: for j in [0, nj) step 1  ; line 12, parallel
// CHECK: S0: decl int s = 0
// CHECK: for k in [0, nk) step 1  ; line 14, parallel reduction
// REPORT: kernel tile_gemm_int_k0 [map, 2-D, tiled 64x64 (4x4 per thread, k by 16), shared: a, b]
// CU: __shared__ int gf_s0[64][17]; /* a[((GF_I)i * nk + k)]: rows of the tile by a chunk of k */
// CU: __shared__ int gf_s1[64][17]; /* b[((GF_I)k * nj + j)]: columns of the tile by a chunk of k */
// CU: bool gf_full = gf_ti1 == gf_ti0 + 63 && gf_tj1 == gf_tj0 + 63;
// CU-NOT: continue;
// CU: int gf_acc[4][4]; /* s over the k loop, per output */
// CU: const bool gf_in = gf_ti < gf_n0 && gf_tj < gf_n1;
// CU: int s = 0;
// CU-NEXT: gf_acc[gf_ri][gf_rj] = s;
// CU: const int gf_a = gf_e / 16, gf_b = gf_e % 16;
// CU: gf_s0[gf_a][gf_b] = a[((GF_I)i * nk + k)];
// CU: const int gf_a = gf_e % 64, gf_b = gf_e / 64;
// CU: gf_s1[gf_a][gf_b] = b[((GF_I)k * nj + j)];
// CU: gf_acc[gf_ri][gf_rj] += gf_v0[gf_ri] * gf_v1[gf_rj];
// CU: int s = gf_acc[gf_ri][gf_rj];
// CU: if (gf_in) {
// CU-NEXT: c[((GF_I)i * nj + j)] = s / q + c[((GF_I)i * nj + j)];
