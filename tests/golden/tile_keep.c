// The two forms of the tiled shape side by side.  tile_keep: a scalar the
// column body declares before the k loop (t) is read after it, so the
// outputs cannot run as a register block (its statements around the k loop
// run per output in scopes of their own): one output per thread, 16x16.
// tile_eight: eight double operands staged; 4x4 outputs with chunks of 16
// k values would need 68 KiB of shared memory, so the chunk is 8 (36 KiB).
// DIFF-SIZE: a = ni * nk
// DIFF-SIZE: b = nk * nj
// DIFF-SIZE: c = ni * nj
#include <gpufuse.h>

GPUFUSE void tile_keep(int ni, int nj, int nk, const double *restrict a, const double *restrict b, double *restrict c)
{
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++) {
            double t = c[i * nj + j] * 0.5 + 4.0;
            double s = 0.0;
            for (int k = 0; k < nk; k++)
                s += a[i * nk + k] * b[k * nj + j];
            c[i * nj + j] = s / t;
        }
}

GPUFUSE void tile_eight(int n, const double p0[n][n], const double p1[n][n], const double p2[n][n], const double p3[n][n],
                        const double q0[n][n], const double q1[n][n], const double q2[n][n], const double q3[n][n],
                        double r[n][n])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0.0;
            for (int k = 0; k < n; k++)
                s += p0[i][k] * q0[k][j] + p1[i][k] * q1[k][j] + p2[i][k] * q2[k][j] + p3[i][k] * q3[k][j];
            r[i][j] = s / (double)n;
        }
}

// CHECK-LABEL: region tile_keep
// CHECK-LABEL: region tile_eight
// REPORT: kernel tile_keep_k0 [map, 2-D, tiled 16x16, shared: a, b]
// REPORT: kernel tile_eight_k0 [map, 2-D, tiled 64x64 (4x4 per thread, k by 8), shared: p0, q0, p1, q1, p2, q2, p3, q3]
// CU: tile_keep_k0(
// CU: __shared__ double gf_s0[GF_TILE][GF_TILE + 1];
// CU: s += gf_s0[threadIdx.y][gf_kk] * gf_s1[threadIdx.x][gf_kk];
// CU: tile_keep_k0<int><<<gf_tile_grid(gf_n0, gf_n1), gf_tile_block(), 0, gf_s>>>
// CU: tile_eight_k0(
// CU: __shared__ double gf_s7[64][9];
// CU: for (int gf_k0 = 0; gf_k0 < gf_khi; gf_k0 += 8) { /* chunks of k, in order */
// CU: tile_eight_k0<int><<<gf_tile_grid(gf_n0, gf_n1, 64, 64), gf_tile_block(), 0, gf_s>>>
