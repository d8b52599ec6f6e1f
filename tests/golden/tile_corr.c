// Correlation's product nest (PolyBench correlation): the diagonal set by
// the row before its column loop j = i + 1 .. m, the strict upper triangle
// computed and mirrored; float.  The diagonal store never meets the column
// body's elements (j - i >= 1), so the row statement runs once per row in
// the tiled kernel (a thread's 4 rows of the 64x64 tile).  Beside it, a nest whose operand the k loop writes keeps
// its shape (nothing staged).
#include <gpufuse.h>

GPUFUSE void tile_corr(int m, int n, const float data[n][m], float corr[m][m])
{
    for (int i = 0; i < m - 1; i++) {
        corr[i][i] = 1.0f;
        for (int j = i + 1; j < m; j++) {
            corr[i][j] = 0.0f;
            for (int k = 0; k < n; k++)
                corr[i][j] += data[k][i] * data[k][j];
            corr[j][i] = corr[i][j];
        }
    }
}

GPUFUSE void no_tile(int m, int n, float x[n][m], float y[m][m])
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++) {
            y[i][j] = 0.0f;
            for (int k = 0; k < n; k++)
                y[i][j] += x[k][i] * 2.0f;
            x[0][i] = y[i][j];
        }
}

// CHECK-LABEL: region tile_corr
// CHECK: for i in [0, (m - 1)) step 1  ; line 11, parallel
// CHECK: S0: corr[i][i] = 1.0f
// CHECK: for j in [(i + 1), m) step 1  ; line 13, parallel
// CHECK-LABEL: region no_tile
// CHECK: S2: x[0][i] = y[i][j]
// REPORT: kernel tile_corr_k0 [map, 2-D, tiled 64x64 (4x4 per thread, k by 16) over a triangle, shared: data]
// REPORT: kernel no_tile_k0 [map, 1-D]
// CU: tile_corr_k0(
// CU: __shared__ float gf_s0[64][17];
// CU: const long long gf_jlo = ((long long)(0) + 1); /* the first column of the box */
// CU: for (int gf_ri = 0; gf_ri < 4; gf_ri++) { /* the row's own statements, once per row */
// CU: if (gf_tj0 == 0 && threadIdx.x == 0 && gf_ti < gf_n0) {
// CU-NEXT: const int i = (int)(0 + (gf_ti) * 1);
// CU-NEXT: corr[((GF_I)i * m + i)] = 1.0f;
// CU: if (gf_j1 < gf_i0 + 1) /* every column before its row's first */
// CU-NEXT: continue;
// CU: const bool gf_in = gf_ti < gf_n0 && gf_tj < gf_n1 && j >= (i + 1) && j < (m);
// CU: const long long gf_n1 = gf_max(0, ((long long)(m)) - ((long long)(0) + 1)); /* the columns' box over every row */
// CU: if (gf_n0 > 0 && 1 /* the rows' own statements */) {
// CU-NOT: __shared__
// CU: no_tile_k0(
