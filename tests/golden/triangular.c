// Triangular bounds: j starts at i.
#include <gpufuse.h>

GPUFUSE void upper(int n, float a[n][n])
{
    for (int i = 0; i < n; i++)
        for (int j = i; j < n; j++)
            a[i][j] = a[i][j] + 1.0f;
}

// CHECK-LABEL: region upper
// CHECK: for i in [0, n) step 1 ; line 6, parallel
// CHECK-NEXT: for j in [i, n) step 1 ; line 7, parallel
// CHECK: domain: [n] -> { S0[i, j] : 0 <= i < n and i <= j < n }
