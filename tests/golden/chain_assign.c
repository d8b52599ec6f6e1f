// `a = b = v;` is `b = v; a = b;`: the value of an assignment is its
// target's new value (converted to its type); `a, b;` is `a; b;`.
#include <gpufuse.h>

GPUFUSE void chain(int n, const float *restrict x, float *restrict y, int *restrict k)
{
    for (int i = 0; i < n; i++) {
        float t, u;
        int c;
        y[i] = t = u = x[i] * 2.5f;
        k[i] = c = y[i] += 1.0f;
        y[i] = y[i] + t + u + (float)c;
    }
    for (int i = 0; i < n; i++)
        y[i] *= 2.0f, k[i] += 1;  /* a comma statement is two statements */
}

// CHECK-LABEL: region chain
// CHECK: S3: u = (x[i] * 2.5f)
// CHECK-NEXT: S4: t = u
// CHECK-NEXT: S5: y[i] = t
// CHECK-NEXT: S6: y[i] += 1.0f
// CHECK-NEXT: S7: c = y[i]
// CHECK-NEXT: S8: k[i] = c
// CHECK: S10: y[i_1] *= 2.0f
// CHECK-NEXT: S11: k[i_1] += 1
