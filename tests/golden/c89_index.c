// C89 style: indices declared before the loops, ++i.
#include <gpufuse.h>

GPUFUSE void c89(int n, int m, float a[n][m])
{
    int i, j;
    for (i = 0; i < n; ++i)
        for (j = 0; j < m; ++j)
            a[i][j] = a[i][j] * 0.5f + (float)(i - j);
}

// CHECK-LABEL: region c89
// CHECK: for i in [0, n) step 1 ; line 7, parallel
// CHECK-NEXT: for j in [0, m) step 1 ; line 8, parallel
// CHECK-NEXT: S2: a[i][j] = ((a[i][j] * 0.5f) + (float)(i - j))
