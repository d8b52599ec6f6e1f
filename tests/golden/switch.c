// `switch`: an if/else chain on a local copy of the value; groups end in
// break (also inside their braces) or continue; the loops stay parallel.
#include <gpufuse.h>

enum { RED, GREEN, BLUE };

GPUFUSE void classify(int n, const int *restrict k, const float *restrict x, float *restrict y)
{
    for (int i = 0; i < n; i++) {
        switch (k[i] % 5) {
        case 0:
            y[i] = 1.0f;
            break;
        case 1:
        case 2:
            y[i] = x[i] * 2.0f;
            break;
        default:
            y[i] = 0.0f;
            break;
        case 3: {
            float t = x[i] + 1.0f;
            y[i] = t * t;
            break;
        }
        }
    }
}

GPUFUSE float weigh(int n, const int *restrict color, const float *restrict w)
{
    float s = 0.0f;
    for (int i = 0; i < n; i++) {
        switch (color[i]) {
        case RED: s += w[i]; break;
        case GREEN: s += 2.0f * w[i]; break;
        case BLUE: continue;
        }
    }
    return s;
}

// CHECK-LABEL: region classify
// CHECK: for i in [0, n) step 1 ; line 9, parallel
// CHECK: S0: decl int gf_sw = (k[i] % 5)
// CHECK-NEXT: if (gf_sw == 0)
// CHECK: if ((gf_sw == 1) || (gf_sw == 2))
// CHECK: if (gf_sw == 3)
// CHECK: S4: decl float t = (x[i] + 1.0f)
// CHECK: else
// CHECK-NEXT: block
// CHECK-NEXT: S3: y[i] = 0.0f
// CHECK-LABEL: region weigh
// CHECK: for i in [0, n) step 1 ; line 33, parallel reduction
// CHECK: if (gf_sw == 2)
// CHECK-NEXT: block
// CHECK-NEXT: S4: gf_skip = 1
// REPORT-LABEL: region classify
// REPORT: kernel classify_k0 [map, 1-D, 128-bit vectors]: lines 9-27
// REPORT-LABEL: region weigh
// REPORT: kernel weigh_k0 [reduce, 1-D, 128-bit vectors, deterministic reduction]: lines 33-39
