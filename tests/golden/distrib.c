// Loop distribution: the loop carries a dependence only because of the
// order of its statements (c[i] reads the a[i-1] the previous iteration
// wrote).  isl's dependences between the two statements form no cycle, so
// each becomes a loop of its own, in dependence order, and both are
// parallel.  They cannot fuse back (the read crosses iterations): two
// kernels, a before c.
#include <gpufuse.h>

GPUFUSE void shift_scale(int n, const float *restrict x, float *restrict a, float *restrict c)
{
    for (int i = 1; i < n; i++) {
        a[i] = x[i] * 2.0f;
        c[i] = a[i - 1] * 3.0f;
    }
}

// The statement that must come first is written second: c[i] reads the
// a[i - 1] that the previous iteration's second statement wrote, so the
// loop of the second statement runs first.
GPUFUSE void reorder(int n, float a[n], const float b[n], float c[n])
{
    for (int i = 1; i < n; i++) {
        c[i] = a[i - 1] + b[i];
        a[i] = b[i] * b[i];
    }
}

// CHECK-LABEL: region shift_scale
// CHECK: for i in [1, n) step 1  ; line 11, parallel
// CHECK-NEXT: block
// CHECK-NEXT: S0: a[i] = (x[i] * 2.0f)
// CHECK-NEXT: for i_1 in [1, n) step 1  ; line 11, parallel
// CHECK-NEXT: block
// CHECK-NEXT: S1: c[i_1] = (a[(i_1 - 1)] * 3.0f)
// CHECK-LABEL: region reorder
// CHECK: for i in [1, n) step 1  ; line 22, parallel
// CHECK-NEXT: block
// CHECK-NEXT: S1: a[i] = (b[i] * b[i])
// CHECK-NEXT: for i_1 in [1, n) step 1  ; line 22, parallel
// CHECK-NEXT: block
// CHECK-NEXT: S0: c[i_1] = (a[(i_1 - 1)] + b[i_1])
// REPORT: region shift_scale ({{.*}}): 2 loop nests -> 2 kernels
// REPORT-NEXT: kernel shift_scale_k0 [map, 1-D, 128-bit vectors]: lines 11-12
// REPORT-NEXT: kernel shift_scale_k1 [map, 1-D]: lines 11-13
// REPORT-NEXT: line 11: loop 'i' distributed into 2 loops by the dependences between its statements (isl), in this order: line 12 (parallel), line 13 (parallel)
// REPORT-NEXT: line 11: not fused with kernel shift_scale_k0: a dependence between the nests crosses iterations
// REPORT: region reorder ({{.*}}): 2 loop nests -> 2 kernels
// REPORT: line 22: loop 'i' distributed into 2 loops by the dependences between its statements (isl), in this order: line 24 (parallel), line 23 (parallel)
// CU-LABEL: extern "C" void shift_scale(
// CU: gf_launch(gf_c, "shift_scale_k0", shift_scale_k0<int>, 
// CU: gf_launch(gf_c, "shift_scale_k1", shift_scale_k1<int>, 
// CU-LABEL: static void gf_seq_reorder(
// CU-NEXT: {
// CU-NEXT: for (int i = 1; i < n; i++) {
// CU-NEXT: c[i] = a[i - 1] + b[i];
// CU-NEXT: a[i] = b[i] * b[i];
