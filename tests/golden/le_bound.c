// '<=' bounds are stored as half-open [lb, ub + 1).
#include <gpufuse.h>

GPUFUSE void fill_incl(int n, float *restrict x)
{
    for (int i = 1; i <= n; i++)
        x[i] = (float)i * 0.5f;
}

// CHECK-LABEL: region fill_incl
// CHECK: for i in [1, (n + 1)) step 1 ; line 6, parallel
// CHECK: domain: [n] -> { S0[i] : 0 < i <= n }
