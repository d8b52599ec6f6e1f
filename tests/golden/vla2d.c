// C99 VLA parameters: the shape comes from the declaration.
#include <gpufuse.h>

GPUFUSE void add2d(int rows, int cols, const float a[rows][cols], const float b[rows][cols], float c[rows][cols])
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            c[i][j] = a[i][j] + b[i][j];
}

// CHECK-LABEL: region add2d
// CHECK: param float a[rows][cols] in
// CHECK: param float c[rows][cols] out
// CHECK: for i in [0, rows) step 1 ; line 6, parallel
// CHECK-NEXT: for j in [0, cols) step 1 ; line 7, parallel
// CHECK-NEXT: S0: c[i][j] = (a[i][j] + b[i][j])
// REPORT: kernel add2d_k0 [map, 2-D]
