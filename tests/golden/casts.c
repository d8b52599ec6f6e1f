// Conversions between integer and floating types.
#include <gpufuse.h>

GPUFUSE void quantize(int n, float scale, const float *restrict x, signed char *restrict q, double *restrict back)
{
    for (int i = 0; i < n; i++) {
        int v = (int)(x[i] * scale);
        v = v > 127 ? 127 : v;
        v = v < -128 ? -128 : v;
        q[i] = (signed char)v;
        back[i] = (double)v / (double)scale;
    }
}

// CHECK-LABEL: region quantize
// CHECK: param signed char q[] out restrict
// CHECK: for i in [0, n) step 1 ; line 6, parallel
// CHECK: S0: decl int v = (int)(x[i] * scale)
// CHECK: S3: q[i] = (signed char)v
// CHECK: S4: back[i] = ((double)v / (double)scale)
