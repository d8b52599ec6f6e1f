// C89 code declares its scalars once at the top and reuses them in several
// nests (PolyBench's ludcmp: 'w' in four loops; deriche: 'xm1', 'ym1' in
// two).  Where a nest would have no parallel loop, a scalar that each
// iteration writes before reading is declared inside the loop instead (the
// loop gets a copy of its own when other nests use it too), so the inner
// loop is a reduction or parallel, and the region is accepted.
#include <gpufuse.h>

GPUFUSE void lu_solve(int n, double A[n][n], const double b[n], double x[n], double y[n])
{
    int i, j, k;
    double w;
    for (i = 0; i < n; i++) {
        for (j = i; j < n; j++) {
            w = A[i][j];
            for (k = 0; k < i; k++)
                w -= A[i][k] * A[k][j];
            A[i][j] = w;
        }
    }
    for (i = 0; i < n; i++) {
        w = b[i];
        for (j = 0; j < i; j++)
            w -= A[i][j] * y[j];
        y[i] = w;
    }
    for (i = n - 1; i >= 0; i--) {
        w = y[i];
        for (j = i + 1; j < n; j++)
            w -= A[i][j] * x[j];
        x[i] = w / A[i][i];
    }
}

// REPORT-LABEL: region lu_solve
// REPORT: line 12: scalar 'w' is private to each iteration of loop 'j' (line 14;
// REPORT: line 12: scalar 'w' is private to each iteration of loop 'i' (line 21;
// REPORT: line 12: scalar 'w' is private to each iteration of loop 'i' (line 27;
// each loop has its own 'w' in generated code
// CU-LABEL: __global__ void __launch_bounds__(1) lu_solve_k1(
// CU: double w_2; /* assigned before it is read */
// CU-LABEL: __global__ void __launch_bounds__(1) lu_solve_k4(
// CU: double w; /* assigned before it is read */
// the IR: each loop's own declaration
// CHECK-LABEL: region lu_solve
// CHECK: for j in [i, n) step 1 ; line 14, parallel
// CHECK: decl double w_1
// CHECK: for i in [0, n) step 1 ; line 21, sequential
// CHECK: decl double w_2
// CHECK: for j in [0, i) step 1 ; line 23, parallel reduction
// CHECK: decl double w
// CHECK: line 29, parallel reduction
