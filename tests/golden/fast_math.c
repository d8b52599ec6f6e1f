// --fast-math: float math calls and float division in kernels become CUDA's
// intrinsics; double math, helpers and the host fallbacks stay exact.
#include <gpufuse.h>
#include <math.h>

GPUFUSE void fast(int n, const float *restrict x, const double *restrict d, float *restrict y, double *restrict e)
{
    for (int i = 0; i < n; i++) {
        y[i] = expf(x[i]) / (1.0f + sinf(x[i]) * logf(x[i] + 2.0f));
        e[i] = exp(d[i]) / 3.0;
    }
}

// FLAGS: --fast-math
// CHECK-LABEL: region fast
// CHECK: for i in [0, n) step 1 ; line 8, parallel
// CU: --fast-math: expf, logf
// CU-LABEL: template <typename GF_I>
// CU: y[i] = __fdividef(__expf(x[i]), 1.0f + __sinf(x[i]) * __logf(x[i] + 2.0f));
// CU-NEXT: e[i] = exp(d[i]) / 3.0;
// CU-LABEL: static void gf_host_fast(
// CU: y[i] = expf(x[i]) / (1.0f + sinf(x[i]) * logf(x[i] + 2.0f));
