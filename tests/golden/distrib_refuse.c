// Distribution, then fusion again.  The loop carries a dependence only
// through the order of its statements; distributed into its dependence
// components, the pieces are handed to the fusion engine, which puts back
// together what may share one kernel.
#include <math.h>
#include <gpufuse.h>

// c reads the a[i - 1] of the previous iteration: 'a' gets a loop of its
// own first; the statements of c and y, whose dependence stays inside an
// iteration, fuse again into the second kernel.
GPUFUSE void three(int n, const float x[n], float a[n], float c[n], float y[n])
{
    for (int i = 1; i < n; i++) {
        c[i] = a[i - 1] * 3.0f;
        a[i] = x[i] * 2.0f;
        y[i] = c[i] + x[i];
    }
}

// A temporary read at the previous index: distribution gives its producer
// a loop of its own, which is cheap, so inline.c recomputes it at each read
// (t is never stored) and one kernel remains.
GPUFUSE void prev(int n, const float x[n], float y[n])
{
    float t[n];
    for (int i = 0; i < n; i++) {
        t[i] = x[i] * x[i] + 1.0f;
        y[i] = i > 0 ? t[i] - t[i - 1] : t[i];
    }
}

// CHECK-LABEL: region three
// CHECK: for i in [1, n) step 1  ; line 13, parallel
// CHECK-NEXT: block
// CHECK-NEXT: S1: a[i] = (x[i] * 2.0f)
// CHECK-NEXT: for i_1 in [1, n) step 1  ; line 13, parallel
// CHECK-NEXT: block
// CHECK-NEXT: S0: c[i_1] = (a[(i_1 - 1)] * 3.0f)
// CHECK-NEXT: for i_2 in [1, n) step 1  ; line 13, parallel
// CHECK-NEXT: block
// CHECK-NEXT: S2: y[i_2] = (c[i_2] + x[i_2])
// CHECK-LABEL: region prev
// CHECK-NOT: decl float t
// CHECK: for i_1 in [0, n) step 1  ; line 26, parallel
// CHECK-NEXT: block
// CHECK-NEXT: S2: y[i_1] = ((i_1 > 0) ? (((x[i_1] * x[i_1]) + 1.0f) - ((x[(i_1 - 1)] * x[(i_1 - 1)]) + 1.0f)) : ((x[i_1] * x[i_1]) + 1.0f))
// REPORT: region three ({{.*}}): 3 loop nests -> 2 kernels
// REPORT-NEXT: kernel three_k0 [map, 1-D, 128-bit vectors]: lines 13-15
// REPORT-NEXT: kernel three_k1 [map, 1-D]: lines 13-14, 13-16
// REPORT-NEXT: line 13: loop 'i' distributed into 3 loops by the dependences between its statements (isl), in this order: line 15 (parallel), line 14 (parallel), line 16 (parallel)
// REPORT-NEXT: line 13: not fused with kernel three_k0: a dependence between the nests crosses iterations
// REPORT: region prev ({{.*}}): 1 loop nest -> 1 kernel
// REPORT-NEXT: kernel prev_k0 [map, 1-D]: lines 26-28
// REPORT-NEXT: line 26: loop 'i' distributed into 2 loops by the dependences between its statements (isl), in this order: line 27 (parallel), line 28 (parallel)
// REPORT-NEXT: line 26: the nest filling 't' is recomputed where 't' is read (3 reads, lines 26-28): 't' is never stored
// CU-LABEL: three_k1(int n, float *c, const float *a, float *y, const float *x, GF_I gf_n0)
// CU: const int i_1 = (int)(1 + gf_t);
// CU: c[i_1] = a[i_1 - 1] * 3.0f;
// CU: GF_UNUSED const int i_2 = i_1;
// CU-NEXT: y[i_2] = c[i_2] + x[i_2];
