// Black-Scholes option pricing (call and put).
// DIFF-INIT: s in [10, 50)
// DIFF-INIT: k in [10, 50)
// DIFF-INIT: t in [0.2, 2)
#include <gpufuse.h>
#include <math.h>

static float cnd(float d)
{
    return 0.5f * erfcf(-d * 0.70710678f);
}

GPUFUSE void blackscholes(int n, float r, float v, const float *restrict s, const float *restrict k,
                          const float *restrict t, float *restrict call, float *restrict put)
{
    for (int i = 0; i < n; i++) {
        float sq = sqrtf(t[i]);
        float d1 = (logf(s[i] / k[i]) + (r + 0.5f * v * v) * t[i]) / (v * sq);
        float d2 = d1 - v * sq;
        float e = k[i] * expf(-r * t[i]);
        call[i] = s[i] * cnd(d1) - e * cnd(d2);
        put[i] = e * cnd(-d2) - s[i] * cnd(-d1);
    }
}

// CHECK-LABEL: region blackscholes
// CHECK: param float call[] out restrict
// CHECK: param float put[] out restrict
// CHECK: for i in [0, n) step 1 ; line 16, parallel
// CHECK: S4: call[i] = ((s[i] * cnd(d1)) - (e * cnd(d2)))
// REPORT: region blackscholes ({{.*}}): 1 loop nest -> 1 kernel
