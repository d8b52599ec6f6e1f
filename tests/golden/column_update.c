// y[j] += A[i][j]*t[i] in a row loop: i carries the dependence, j is parallel.
#include <gpufuse.h>

GPUFUSE void atx(int n, int m, const float A[n][m], const float t[n], float y[m])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            y[j] += A[i][j] * t[i];
}

// The row loop carries the dependence on y; the column loop is parallel.
// CHECK-LABEL: region atx
// CHECK: param float y[m] inout
// CHECK: for i in [0, n) step 1 ; line 6, sequential
// CHECK-NEXT: for j in [0, m) step 1 ; line 7, parallel
// CHECK-NEXT: S0: y[j] += (A[i][j] * t[i])
