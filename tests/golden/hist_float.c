// Histograms with floating-point weights: two iterations may update the same
// bin, so the updates are atomic and the loop is parallel.
// DIFF-INIT: bin in [0, 16)
// DIFF-PARAM: nbins = 16
#include <gpufuse.h>

GPUFUSE void hist_add(int n, int nbins, const int *restrict bin, const float *restrict w, float hist[nbins])
{
    for (int i = 0; i < n; i++)
        hist[bin[i]] += w[i];
}

// `-=` is an atomic add of the negated value; double elements.
GPUFUSE void hist_sub(int n, int nbins, const int *restrict bin, const double *restrict w, double hist[nbins])
{
    for (int i = 0; i < n; i++)
        hist[bin[i]] -= 0.5 * w[i];
}

// The bin is computed in the same iteration; out-of-range values are skipped.
GPUFUSE void hist_guarded(int n, int nbins, const float *restrict x, float hist[nbins])
{
    for (int i = 0; i < n; i++) {
        int b = (int)((x[i] + 1.0f) * 8.0f);
        if (b >= 0 && b < nbins)
            hist[b] += x[i] * x[i];
    }
}

// A decaying histogram: inside the sequential time loop the updates are one
// kernel and the decay, which reads every bin, the next.
GPUFUSE void hist_decay(int steps, int n, int nbins, const int *restrict bin, const float *restrict w,
                        float hist[nbins])
{
    for (int t = 0; t < steps; t++) {
        for (int i = 0; i < n; i++)
            hist[bin[i]] += w[i];
        for (int k = 0; k < nbins; k++)
            hist[k] *= 0.5f;
    }
}

// CHECK-LABEL: region hist_add
// CHECK: param float hist[nbins] inout
// CHECK: for i in [0, n) step 1 ; line 9, parallel
// CHECK-NEXT: S0: hist[bin[i]] += w[i] ; atomic + on hist
// CHECK: deps: [n, nbins] -> { }
// CHECK-LABEL: region hist_sub
// CHECK: for i in [0, n) step 1 ; line 16, parallel
// CHECK-NEXT: S0: hist[bin[i]] -= (0.5 * w[i]) ; atomic + on hist
// CHECK-LABEL: region hist_guarded
// CHECK: for i in [0, n) step 1 ; line 23, parallel
// CHECK: S1: hist[b] += (x[i] * x[i]) ; atomic + on hist

// REPORT: region hist_add ({{.*}}): 1 loop nest -> 1 kernel
// REPORT-NEXT: kernel hist_add_k0 [map, 1-D]: lines 9-10
// REPORT-NEXT: atomic updates to 'hist' (floating point: the order of the additions, and so the rounding, is not deterministic)
// REPORT: region hist_sub
// REPORT-NEXT: kernel hist_sub_k0 [map, 1-D]: lines 16-17
// REPORT-NEXT: atomic updates to 'hist' (floating point
// REPORT: region hist_guarded
// REPORT-NEXT: kernel hist_guarded_k0 [map, 1-D]: lines 23-27
// REPORT-NEXT: atomic updates to 'hist' (floating point
// CHECK-LABEL: region hist_decay
// CHECK: for t in [0, steps) step 1 ; line 35, sequential
// CHECK-NEXT: block
// CHECK-NEXT: for i in [0, n) step 1 ; line 36, parallel
// CHECK-NEXT: S0: hist[bin[i]] += w[i] ; atomic + on hist
// CHECK-NEXT: for k in [0, nbins) step 1 ; line 38, parallel
// REPORT: region hist_decay ({{.*}}): 2 loop nests -> 2 kernels
// REPORT-NEXT: kernel hist_decay_k0 [map, 1-D]: lines 36-37
// REPORT-NEXT: atomic updates to 'hist' (floating point
// REPORT-NEXT: kernel hist_decay_k1 [map, 1-D{{.*}}]: lines 38-39
