// A scratch array that each outer iteration overwrites before reading: the
// spec wants it privatised (i parallel); today the output dependence on t
// keeps the row loop sequential, with the inner loops parallel.  Update these
// CHECK lines when privatisation lands.
#include <gpufuse.h>

GPUFUSE void reverse_rows(int n, int m, const float x[n][m], float y[n][m])
{
    float t[m];
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < m; j++)
            t[j] = x[i][j] * 2.0f;
        for (int j = 0; j < m; j++)
            y[i][j] = t[m - 1 - j];
    }
}

// CHECK-LABEL: region reverse_rows
// CHECK: S0: decl float t[m]
// CHECK: for i in [0, n) step 1 ; line 10, sequential
// CHECK-NEXT: block
// CHECK-NEXT: for j in [0, m) step 1 ; line 11, parallel
// CHECK: for j_1 in [0, m) step 1 ; line 13, parallel
