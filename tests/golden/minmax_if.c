// `if (x > m) m = x;` is the reduction `m = x > m ? x : m` (every comparison,
// either operand order, scalars and elements); with an index beside it
// (argmax), the loop stays sequential.
#include <gpufuse.h>
#include <math.h>

GPUFUSE void extremes(int n, const float *restrict x, float *restrict out)
{
    float hi = -INFINITY, lo = INFINITY, hi2 = -INFINITY, lo2 = INFINITY;
    for (int i = 0; i < n; i++) {
        if (x[i] > hi)
            hi = x[i];
        if (lo > x[i]) {
            lo = x[i];
        }
        if (hi2 <= x[i])
            hi2 = x[i];
        if (x[i] <= lo2)
            lo2 = x[i];
    }
    out[0] = hi;
    out[1] = lo;
    out[2] = hi2;
    out[3] = lo2;
}

GPUFUSE void row_max(int n, int m, const float a[n][m], float *restrict mx)
{
    for (int i = 0; i < n; i++) {
        mx[i] = a[i][0];
        for (int j = 1; j < m; j++)
            if (a[i][j] > mx[i])
                mx[i] = a[i][j];
    }
}

GPUFUSE void row_argmax(int n, int m, const float a[n][m], int *restrict at)
{
    for (int i = 0; i < n; i++) {
        float best = a[i][0];
        int arg = 0;
        for (int j = 1; j < m; j++)
            if (a[i][j] > best) {
                best = a[i][j];
                arg = j;
            }
        at[i] = arg;
    }
}

// CHECK-LABEL: region extremes
// CHECK: for i in [0, n) step 1 ; line 10, parallel reduction
// CHECK: S4: hi = ((x[i] > hi) ? x[i] : hi) ; reduction max on hi
// CHECK-NEXT: S5: lo = ((lo > x[i]) ? x[i] : lo) ; reduction min on lo
// CHECK-NEXT: S6: hi2 = ((hi2 <= x[i]) ? x[i] : hi2) ; reduction max on hi2
// CHECK-NEXT: S7: lo2 = ((x[i] <= lo2) ? x[i] : lo2) ; reduction min on lo2
// CHECK-LABEL: region row_max
// CHECK: for i in [0, n) step 1 ; line 29, parallel
// CHECK: S1: mx[i] = ((a[i][j] > mx[i]) ? a[i][j] : mx[i])
// CHECK-LABEL: region row_argmax
// CHECK: for i in [0, n) step 1 ; line 39, parallel
// CHECK: if (a[i][j] > best)
