// PolyBench declares its loop indices once, C89 style, and reuses them in
// every loop: a loop index is never a scalar result of a serial kernel (each
// loop sets its own; none is read after its loop).
#include <gpufuse.h>

GPUFUSE void durbin89(int n, const double r[n], double y[n], double z[n])
{
    double alpha, beta, sum;
    int i, k;
    y[0] = -r[0];
    beta = 1.0;
    alpha = -r[0];
    for (k = 1; k < n; k++) {
        beta = (1 - alpha * alpha) * beta;
        sum = 0.0;
        for (i = 0; i < k; i++)
            sum += r[k - i - 1] * y[i];
        alpha = -(r[k] + sum) / beta;
        for (i = 0; i < k; i++)
            z[i] = y[i] + alpha * y[k - i - 1];
        for (i = 0; i < k; i++)
            y[i] = z[i];
        y[k] = alpha;
    }
}

// CHECK-LABEL: region durbin89
// CHECK: for k in [1, n) step 1 ; line 13, sequential
// REPORT: kernel durbin89_k1 [serial, one thread, in order]: lines 14-18
// REPORT-NEXT: leaves 'beta' in device memory
// REPORT-NEXT: leaves 'alpha' in device memory
// REPORT-NEXT: kernel durbin89_k2 [map
// CU-NOT: gf_out_i
// CU-NOT: gf_out_k
// CU-NOT: gf_dev_i
// CU-LABEL: extern "C" void durbin89(
// CU-NOT: gf_out_i
// CU-NOT: gf_store<<<1, 1, 0, gf_s>>>(gf_out_k
// CU: gf_call_end
