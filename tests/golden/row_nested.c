// A row body whose inner loop is not one of its statements: inside a while
// loop, or inside a nested block.  A row kernel shares only the body's own
// loops among a row's threads; such a loop would run in every thread with
// its own partial of the row's sum, never combined (the GPU was wrong, the
// host right).  Each stays a map kernel: a thread per row.
#include <gpufuse.h>

GPUFUSE void in_while(int n, int m, const float a[n][m], float out[n])
{
    for (int i = 0; i < n; i++) {
        float s = 0;
        for (int j = 0; j < m; j++)
            s += a[i][j];
        int k = 0;
        while (k < 2) {
            for (int j = 0; j < m; j++)
                s += a[i][j] * k;
            k++;
        }
        out[i] = s;
    }
}

GPUFUSE void in_block(int n, int m, const float a[n][m], float out[n])
{
    for (int i = 0; i < n; i++) {
        float s = 0;
        for (int j = 0; j < m; j++)
            s += a[i][j];
        {
            for (int j = 1; j < m; j++)
                s += a[i][j] * a[i][j - 1];
        }
        out[i] = s;
    }
}

// REPORT-LABEL: region in_while
// REPORT: kernel in_while_k0 [map, 1-D]: lines 10-21
// REPORT-LABEL: region in_block
// REPORT: kernel in_block_k0 [map, 1-D]: lines 26-35
// CHECK-LABEL: region in_while
// CHECK: for i in [0, n) step 1 ; line 10, parallel
// CHECK-LABEL: region in_block
// CHECK: for i in [0, n) step 1 ; line 26, parallel
