// A loop with the same header as an earlier sibling moves up to it across
// parallel loops between them when, within one iteration of the loops
// around them, it touches no element they write and writes none they touch
// (deps.c's commute); then the two fuse.  The loop between stays where it
// was; a loop that reads what the one between writes stays after it.
#include <gpufuse.h>
GPUFUSE void mv(int n, int m, const float a[n][m], float t[n][m], float u[n][m], float o[n][m])
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < m; j++)
            t[i][j] = a[i][j] * 2 + 1;
        for (int j = 1; j < m; j++)
            u[i][j] = a[i][m - 1 - j] * 0.5f;
        for (int j = 0; j < m; j++)
            o[i][j] = t[i][j] + a[i][j];
    }
}
GPUFUSE void stay(int n, int m, const float a[n][m], float t[n][m], float u[n][m], float o[n][m])
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < m; j++)
            t[i][j] = a[i][j] * 2 + 1;
        for (int j = 1; j < m; j++)
            u[i][j] = a[i][m - 1 - j] * 0.5f;
        for (int j = 0; j < m; j++)
            o[i][j] = t[i][j] - u[i][m - 1 - j];
    }
}

// CHECK-LABEL: region mv
// CHECK: for j in [0, m) step 1 ; line 10, parallel
// CHECK-NEXT: block
// CHECK-NEXT: S0: t[i][j] = ((a[i][j] * 2) + 1)
// CHECK-NEXT: S2: o[i][j] = (t[i][j] + a[i][j])
// CHECK-NEXT: for j_1 in [1, m) step 1 ; line 12, parallel
// CHECK-LABEL: region stay
// CHECK: S0: t[i][j] = ((a[i][j] * 2) + 1)
// CHECK-NEXT: for j_1 in [1, m) step 1 ; line 23, parallel
// CHECK: for j_2 in [0, m) step 1 ; line 25, parallel
// REPORT-LABEL: region mv
// REPORT: line 10: the loop of line 14 fused into it: one loop over 'j' runs both bodies
// REPORT-LABEL: region stay
// REPORT-NOT: fused into it
