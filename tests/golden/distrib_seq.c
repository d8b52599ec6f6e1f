// Distribution with a component that stays sequential.  The first region's
// loop splits into a sweep down the rows (each row needs the previous one:
// sequential in i, parallel in j, then interchanged so j runs outside) and
// an element-wise statement (parallel).  In the second region the
// sequential component is a running sum with no parallel loop inside: the
// function keeps its CPU body with the usual diagnostic.
#include <gpufuse.h>

GPUFUSE void sweep(int n, int m, float A[n][m], const float x[n][m], const float y[n], float c[n])
{
    for (int i = 1; i < n; i++) {
        for (int j = 0; j < m; j++)
            A[i][j] = A[i - 1][j] * 0.5f + x[i][j];
        c[i] = y[i] * 2.0f;
    }
}

GPUFUSE void prefix(int n, const float a[n], float b[n], float c[n])
{
    for (int i = 1; i < n; i++) {
        b[i] = b[i - 1] + a[i];
        c[i] = a[i] * 2.0f;
    }
}

// CHECK-LABEL: region sweep
// CHECK: for j in [0, m) step 1  ; line 11, parallel
// CHECK-NEXT: block
// CHECK-NEXT: for i in [1, n) step 1  ; line 12, sequential
// CHECK-NEXT: S0: A[i][j] = ((A[(i - 1)][j] * 0.5f) + x[i][j])
// CHECK-NEXT: for i_1 in [1, n) step 1  ; line 11, parallel
// CHECK-NEXT: block
// CHECK-NEXT: S1: c[i_1] = (y[i_1] * 2.0f)
// CHECK-NOT: region prefix
// REPORT: region sweep ({{.*}}): 2 loop nests -> 2 kernels
// REPORT: line 11: loop 'i' distributed into 2 loops by the dependences between its statements (isl), in this order: lines 12-13 (sequential: its statements depend on earlier iterations), line 14 (parallel)
// REPORT: line 11: loops interchanged: 'j' runs outside (parallel), 'i' inside it
// REPORT: region prefix ({{.*}}): kept on the CPU
// WARN: distrib_seq.c:20:5: warning: loop carries a dependence on 'b' (an iteration uses what an earlier one wrote); no loop of this nest is parallel, so 'prefix' keeps its CPU body [-Wgpufuse-dependence]
