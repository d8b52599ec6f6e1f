// An early return and an if around a kernel run on the host (P_IF), not in
// a kernel: a return inside a kernel would not leave the launcher.
#include <gpufuse.h>

GPUFUSE void guarded(int n, int twice, const float x[n], float y[n])
{
    if (n <= 1)
        return;
    y[0] = x[0] + x[1];
    if (twice) {
        for (int i = 1; i < n; i++)
            y[i] = x[i] * 2.0f;
    } else {
        for (int i = 1; i < n; i++)
            y[i] = x[i];
    }
}

// CHECK-LABEL: region guarded
// CHECK: if (n <= 1)
// CHECK-NEXT: S0: return <null>
// REPORT: region guarded ({{.*}}): 2 loop nests -> 3 kernels
// REPORT-NEXT: kernel guarded_k0 [serial, one thread, in order]: lines 9-9
// REPORT-NEXT: kernel guarded_k1 [map, 1-D
// REPORT-NEXT: kernel guarded_k2 [map, 1-D
// the return leaves the launcher; no kernel holds it
// CU-LABEL: __global__ void __launch_bounds__(1) guarded_k0(
// CU-NOT: return
// CU: y[0] = x[0] + x[1];
// CU-LABEL: extern "C" void guarded(
// y is written after a return that may happen: copied in, so that it keeps its values
// CU: gf_call_arg(gf_c, 1, y, gf_lo_y, gf_hi_y, GF_ARG_READ | GF_ARG_WRITE, 0);
// CU: if (n <= 1) { /* line 7 */
// CU-NEXT: gf_call_end(gf_c, (size_t)gf_bytes, 0);
// CU-NEXT: return;
// CU-NEXT: }
// CU: guarded_k0<int><<<1, 1, 0, gf_s>>>(gf_d_y, gf_d_x);
// CU: if (twice) { /* line 10 */
// CU: guarded_k1<int>
// CU: } else {
// CU: guarded_k2<int>
