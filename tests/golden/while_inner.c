// A while loop inside a parallel loop: per-element iteration (Collatz steps).
#include <gpufuse.h>

GPUFUSE void collatz(int n, const int *restrict start, int *restrict steps)
{
    for (int i = 0; i < n; i++) {
        long long v = start[i];
        int c = 0;
        while (v > 1 && c < 1000) {
            v = (v % 2 == 0) ? v / 2 : 3 * v + 1;
            c = c + 1;
        }
        steps[i] = c;
    }
}

// CHECK-LABEL: region collatz
// CHECK: for i in [0, n) step 1 ; line 6, parallel
// CHECK: S4: while ((v > 1) && (c < 1000))
// CHECK: S5: steps[i] = c
