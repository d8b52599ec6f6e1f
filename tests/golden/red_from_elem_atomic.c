// A sum started from an element under --atomic-reductions: the blocks add
// into the slot that already holds the starting value (no memset).
#include <gpufuse.h>

// FLAGS: --atomic-reductions
GPUFUSE double sum_from(int n, const double v[n])
{
    double s = v[n - 1] * 2.0;
    for (int i = 0; i < n; i++)
        s += v[i];
    return s;
}

// CHECK-LABEL: region sum_from
// CHECK: for i in [0, n) step 1 ; line 9, parallel reduction
// CU-LABEL: __global__ void __launch_bounds__(GF_THREADS) sum_from_k1(int n, const double *__restrict__ v, double *gf_out_s, GF_I gf_n0)
// CU: gf_atomic_add(gf_out_s, s);
// CU-LABEL: extern "C" double sum_from(
// CU-NOT: cudaMemsetAsync(gf_out_s
// CU: sum_from_k1<int><<<{{.*}}>>>(n, gf_d_v, gf_out_s, gf_n0);
