// An inner sequential loop (prefix along j) inside a parallel row loop.
#include <gpufuse.h>

GPUFUSE void row_prefix(int rows, int cols, float a[rows][cols])
{
    for (int i = 0; i < rows; i++)
        for (int j = 1; j < cols; j++)
            a[i][j] = a[i][j] + a[i][j - 1];
}

// CHECK-LABEL: region row_prefix
// CHECK: for i in [0, rows) step 1 ; line 6, parallel
// CHECK-NEXT: for j in [1, cols) step 1 ; line 7, sequential
// CHECK-NEXT: S0: a[i][j] = (a[i][j] + a[i][(j - 1)])
