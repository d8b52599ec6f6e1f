// A sequential time loop around two parallel nests (Jacobi 1-D).
#include <gpufuse.h>

GPUFUSE void jacobi1d(int steps, int n, float a[n], float b[n])
{
    for (int t = 0; t < steps; t++) {
        for (int i = 1; i < n - 1; i++)
            b[i] = 0.33333f * (a[i - 1] + a[i] + a[i + 1]);
        for (int i = 1; i < n - 1; i++)
            a[i] = b[i];
    }
}

// CHECK-LABEL: region jacobi1d
// CHECK: for t in [0, steps) step 1 ; line 6, sequential
// CHECK: for i in [1, (n - 1)) step 1 ; line 7, parallel
// CHECK: for i_1 in [1, (n - 1)) step 1 ; line 9, parallel
// REPORT: region jacobi1d ({{.*}}): 2 loop nests -> 2 kernels
// REPORT: line 9: not fused with kernel jacobi1d_k0: a dependence between the nests crosses iterations
