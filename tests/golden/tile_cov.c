// Covariance's product nest (PolyBench covariance, third nest): the upper
// triangle j >= i, a non-literal divisor (no library call), the lower
// triangle mirrored.  Tiled over the triangle's bounding box: data[k][i] and
// data[k][j] staged in shared memory per chunk of k.
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
// CHECK: for i in [0, m) step 1  ; line 11, parallel
// CHECK: for j in [i, m) step 1  ; line 12, parallel
// CHECK: for k in [0, n) step 1  ; line 14, sequential
// REPORT: kernel tile_cov_k0 [map, 2-D, tiled 16x16 over a triangle, shared: data]
// CU: __global__ void __launch_bounds__(GF_TILE * GF_TILE) tile_cov_k0(
// CU: __shared__ double gf_s0[GF_TILE][GF_TILE + 1]; /* data[k * m + i]: rows of the tile by a chunk of k */
// CU: __shared__ double gf_s1[GF_TILE][GF_TILE + 1]; /* data[k * m + j]: columns of the tile by a chunk of k */
// CU: const bool gf_in = gf_ti < gf_n0 && gf_tj < gf_n1 && j >= (i) && j < (m);
// CU: double gf_acc = {}; /* cov[i * m + j] over the k loop, in a register */
// CU: if (gf_in) gf_acc = cov[i * m + j];
// CU: for (int gf_k0 = 0; gf_k0 < gf_khi; gf_k0 += GF_TILE) { /* chunks of k, in order */
// CU: __syncthreads();
// CU: gf_acc += gf_s0[threadIdx.y][gf_kk] * gf_s1[threadIdx.x][gf_kk];
// CU: if (gf_in) cov[i * m + j] = gf_acc;
// CU: cov[i * m + j] /= float_n - 1.0;
// CU: const long long gf_n1 = gf_max(0, ((long long)(m)) - ((long long)(0) + 0)); /* the columns' box over every row */
// CU: tile_cov_k0<int><<<gf_tile_grid(gf_n0, gf_n1), gf_tile_block(), 0, gf_s>>>
