// A scratch array that each outer iteration overwrites before reading: its
// producer is cheap, so gpufuse recomputes it where it is read
// (t[m-1-j] = x[i][m-1-j] * 2) instead of storing it; the row loop is then
// parallel and t is never allocated.
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
// CHECK-NOT: decl float t
// CHECK: for i in [0, n) step 1 ; line 10, parallel
// CHECK-NEXT: block
// CHECK-NEXT: for j_1 in [0, m) step 1 ; line 13, parallel
// CHECK-NEXT: S2: y[i][j_1] = (x[i][((m - 1) - j_1)] * 2.0f)
// REPORT: kernel reverse_rows_k0 [map, 2-D]: lines 10-15
// REPORT: line 11: the nest filling 't' is recomputed where 't' is read (1 read, lines 13-14): 't' is never stored
