// min / max through fminf / fmaxf and through ?:, result stored through pointers.
#include <gpufuse.h>
#include <math.h>

GPUFUSE void minmax(int n, const float *restrict x, float *restrict out)
{
    float lo = INFINITY, hi = -INFINITY, lo2 = INFINITY, hi2 = -INFINITY;
    for (int i = 0; i < n; i++) {
        lo = fminf(lo, x[i]);
        hi = fmaxf(x[i], hi);
    }
    for (int i = 0; i < n; i++) {
        lo2 = x[i] < lo2 ? x[i] : lo2;
        hi2 = hi2 > x[i] ? hi2 : x[i];
    }
    out[0] = lo;
    out[1] = hi;
    out[2] = lo2;
    out[3] = hi2;
}

// CHECK-LABEL: region minmax
// CHECK: S0: decl float lo = __builtin_inff()
// CHECK: for i in [0, n) step 1 ; line 8, parallel reduction
// CHECK: S4: lo = fminf(lo, x[i]) ; reduction min on lo
// CHECK-NEXT: S5: hi = fmaxf(x[i], hi) ; reduction max on hi
// CHECK: for i_1 in [0, n) step 1 ; line 12, parallel reduction
// CHECK: S6: lo2 = ((x[i_1] < lo2) ? x[i_1] : lo2) ; reduction min on lo2
// CHECK-NEXT: S7: hi2 = ((hi2 > x[i_1]) ? hi2 : x[i_1]) ; reduction max on hi2
// CHECK: S8: out[0] = lo
