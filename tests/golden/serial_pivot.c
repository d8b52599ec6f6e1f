// Scalar statements right after a serial statement that depend on it run in
// the same serial kernel: the pivot is fixed on the device, and the host
// never waits for it inside the loop.
#include <gpufuse.h>

GPUFUSE void normalise_rows(int n, int m, float A[n][m], float v[m])
{
    for (int k = 0; k < n; k++) {
        float piv = A[k][k % m];
        if (piv == 0.0f)
            piv = 1.0f;
        for (int j = 0; j < m; j++)
            v[j] = (A[k][j] + v[j]) / piv; /* v carries over k */
        for (int j = 0; j < m; j++)
            A[k][j] = v[j];
    }
}

// CHECK-LABEL: region normalise_rows
// CHECK: for k in [0, n) step 1 ; line 8, sequential
// REPORT: kernel normalise_rows_k0 [serial, one thread, in order]: lines 9-11
// REPORT-NEXT: leaves 'piv' in device memory
// REPORT-NEXT: kernel normalise_rows_k1 [map, 1-D]
// CU-LABEL: __global__ void __launch_bounds__(1) normalise_rows_k0(
// CU: float piv = A[
// CU: if (piv == 0.0f) {
// CU-NEXT: piv = 1.0f;
// CU: *gf_out_piv = piv;
// CU-LABEL: extern "C" void normalise_rows(
// CU: for (int k = 0; k < n; k += 1) { /* sequential loop, line 8 */
// CU-NOT: cudaStreamSynchronize
// CU: normalise_rows_k1<int><<<{{.*}}>>>(gf_out_piv,
// CU-NOT: cudaStreamSynchronize
// CU: gf_call_end(gf_c, (size_t)gf_bytes, 0);
