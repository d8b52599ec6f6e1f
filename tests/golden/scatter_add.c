// Scatter-add of rows (a sparse gradient, a segment sum): out[idx[i]][j] += x[i][j].
// Rows of different i may land on the same row of out; the adds are atomic
// and both loops are parallel.
// DIFF-INIT: idx in [0, 8)
// DIFF-INIT: bin in [0, 16)
// DIFF-PARAM: rows = 8
#include <gpufuse.h>

GPUFUSE void scatter_rows(int n, int m, int rows, const int *restrict idx, const float x[n][m], float out[rows][m])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            out[idx[i]][j] += x[i][j];
}

// Binning fused with the map that computes the bins; the histogram is read
// only by a later nest (each element's bin density), which needs every update
// done first and so is a kernel of its own.
GPUFUSE void binned(int n, int nbins, const float *restrict x, int *restrict bin, float hist[nbins],
                    float *restrict dens, float scale)
{
    for (int i = 0; i < n; i++)
        bin[i] = (int)(x[i] * 0.45f * (float)nbins + 0.5f * (float)nbins);
    for (int i = 0; i < n; i++)
        hist[bin[i]] += 1.0f;
    for (int i = 0; i < n; i++)
        dens[i] = hist[bin[i]] * scale;
}

// A row kernel: each row's sum (a block reduction), then the row's
// deviations from its mean binned atomically by the threads of the block.
GPUFUSE void row_dev_hist(int n, int m, const float x[n][m], const int bin[n][m], float hist[16],
                          float *restrict mean)
{
    for (int i = 0; i < n; i++) {
        float s = 0.0f;
        for (int j = 0; j < m; j++)
            s += x[i][j];
        mean[i] = s / (float)m;
        for (int j = 0; j < m; j++)
            hist[bin[i][j]] += x[i][j] - s / (float)m;
    }
}

// CHECK-LABEL: region scatter_rows
// CHECK: param float out[rows][m] inout
// CHECK: for i in [0, n) step 1 ; line 11, parallel
// CHECK-NEXT: for j in [0, m) step 1 ; line 12, parallel
// CHECK-NEXT: S0: out[idx[i]][j] += x[i][j] ; atomic + on out
// CHECK-LABEL: region binned
// CHECK: for i in [0, n) step 1 ; line 22, parallel
// CHECK: for i_1 in [0, n) step 1 ; line 24, parallel
// CHECK-NEXT: S1: hist[bin[i_1]] += 1.0f ; atomic + on hist
// CHECK: for i_2 in [0, n) step 1 ; line 26, parallel
// CHECK-NEXT: S2: dens[i_2] = (hist[bin[i_2]] * scale)
// CHECK: deps: {{.*}}S1[i_1] -> S2[i_2]

// REPORT: region scatter_rows ({{.*}}): 1 loop nest -> 1 kernel
// REPORT-NEXT: kernel scatter_rows_k0 [map, 2-D]: lines 11-13
// REPORT-NEXT: atomic updates to 'out' (floating point
// REPORT: region binned ({{.*}}): 3 loop nests -> 2 kernels
// REPORT-NEXT: kernel binned_k0 [map, 1-D]: lines 22-23, 24-25
// REPORT-NEXT: atomic updates to 'hist'
// REPORT-NEXT: kernel binned_k1 [map, 1-D{{.*}}]: lines 26-27
// REPORT-NEXT: line 26: not fused with kernel binned_k0: a dependence between the nests crosses iterations
// CHECK-LABEL: region row_dev_hist
// CHECK: for i in [0, n) step 1 ; line 35, parallel
// CHECK: for j in [0, m) step 1 ; line 37, parallel reduction
// CHECK: for j_1 in [0, m) step 1 ; line 40, parallel
// CHECK-NEXT: S3: hist[bin[i][j_1]] += (x[i][j_1] - (s / (float)m)) ; atomic + on hist
// REPORT: region row_dev_hist ({{.*}}): 1 loop nest -> 1 kernel
// REPORT-NEXT: kernel row_dev_hist_k0 [row, 1-D, a warp per row up to 512, else a block]: lines 35-42
// REPORT-NEXT: atomic updates to 'hist' (floating point
