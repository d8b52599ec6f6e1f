// Covariance's product nest (PolyBench covariance, third nest): the upper
// triangle j >= i, a non-literal divisor (no library call), the lower
// triangle mirrored.  Tiled over the triangle's bounding box: data[k][i] and
// data[k][j] staged in shared memory per chunk of k; register blocks of 4x4
// outputs per thread (a 64x64 tile), tiles below the diagonal skipped.
// DIFF-SIZE: data = n * m
// DIFF-SIZE: cov = m * m
#include <gpufuse.h>

GPUFUSE void tile_cov(int m, int n, double float_n, const double *restrict data, double *restrict cov)
{
    for (int i = 0; i < m; i++)
        for (int j = i; j < m; j++) {
            cov[i * m + j] = 0.0;
            for (int k = 0; k < n; k++)
                cov[i * m + j] += data[k * m + i] * data[k * m + j];
            cov[i * m + j] /= (float_n - 1.0);
            cov[j * m + i] = cov[i * m + j];
        }
}

// CHECK-LABEL: region tile_cov
// CHECK: for i in [0, m) step 1  ; line 12, parallel
// CHECK: for j in [i, m) step 1  ; line 13, parallel
// CHECK: for k in [0, n) step 1  ; line 15, sequential
// REPORT: kernel tile_cov_k0 [map, 2-D, tiled 64x64 (4x4 per thread, k by 16) over a triangle, shared: data]
// CU: __global__ void __launch_bounds__(GF_TILE * GF_TILE) tile_cov_k0(
// CU: /* a 64x64 tile per block, 4x4 outputs per thread, k in chunks of 16 */
// CU: __shared__ double gf_s0[64][17]; /* data[k * m + i]: rows of the tile by a chunk of k */
// CU: __shared__ double gf_s1[64][17]; /* data[k * m + j]: columns of the tile by a chunk of k */
// CU: bool gf_full = gf_ti1 == gf_ti0 + 63 && gf_tj1 == gf_tj0 + 63;
// CU: if (gf_j1 < gf_i0 + 0) /* every column before its row's first */
// CU-NEXT: continue;
// CU-NEXT: gf_full = gf_full && gf_j0 >= gf_i1 + 0;
// CU: double gf_acc[4][4]; /* cov[i * m + j] over the k loop, per output */
// CU: const bool gf_in = gf_ti < gf_n0 && gf_tj < gf_n1 && j >= (i) && j < (m);
// CU: cov[i * m + j] = 0.0;
// CU: if (gf_in) gf_acc[gf_ri][gf_rj] = cov[i * m + j];
// CU: for (int gf_k0 = 0; gf_k0 < gf_khi; gf_k0 += 16) { /* chunks of k, in order */
// CU: const int gf_a = gf_e % 64, gf_b = gf_e / 64;
// CU: gf_s0[gf_a][gf_b] = data[k * m + i];
// CU: __syncthreads();
// CU: if (gf_full && gf_kn == 16) {
// CU: gf_v0[gf_r] = gf_s0[gf_r * GF_TILE + threadIdx.y][gf_kk];
// CU: gf_v1[gf_r] = gf_s1[gf_r * GF_TILE + threadIdx.x][gf_kk];
// CU: gf_acc[gf_ri][gf_rj] += gf_v0[gf_ri] * gf_v1[gf_rj];
// CU: } else {
// CU: if (gf_in) gf_acc[gf_ri][gf_rj] += gf_v0[gf_ri] * gf_v1[gf_rj];
// CU: __syncthreads();
// CU: if (gf_in) cov[i * m + j] = gf_acc[gf_ri][gf_rj];
// CU: cov[i * m + j] /= float_n - 1.0;
// CU: cov[j * m + i] = cov[i * m + j];
// CU: const long long gf_n1 = gf_max(0, ((long long)(m)) - ((long long)(0) + 0)); /* the columns' box over every row */
// CU: tile_cov_k0<int><<<gf_tile_grid(gf_n0, gf_n1, 64, 64), gf_tile_block(), 0, gf_s>>>
