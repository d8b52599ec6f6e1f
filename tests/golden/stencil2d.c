// 5-point stencil into a separate output.
#include <gpufuse.h>

GPUFUSE void stencil5(int n, int m, const float in[n][m], float out[n][m])
{
    for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < m - 1; j++)
            out[i][j] = 0.2f * (in[i][j] + in[i - 1][j] + in[i + 1][j] + in[i][j - 1] + in[i][j + 1]);
}

// CHECK-LABEL: region stencil5
// CHECK: for i in [1, (n - 1)) step 1 ; line 6, parallel
// CHECK-NEXT: for j in [1, (m - 1)) step 1 ; line 7, parallel
// CHECK: deps: [n, m] -> { }
