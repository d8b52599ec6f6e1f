// A scalar that an if and its else both assign before it is read (`if (c)
// m = a; else m = b;`, else-if chains ending in an else) is private to each
// iteration, though each assignment alone is conditional (deps.c
// branch_pairs); the forms where some iteration can read a value from an
// earlier one are refused (tests/diag/branch_private.c).
#include <gpufuse.h>

// DIFF-INIT: c in [0, 100)

typedef struct {
    float x, y;
} pt;

GPUFUSE void pick(int n, const float *restrict p, const int *restrict c, float q, float *restrict o)
{
    float m;
    for (int i = 0; i < n; i++) {
        if (c[i] > 50)
            m = p[i];
        else
            m = q * (float)i;
        o[i] = m * 0.5f;
    }
}

// three cases
GPUFUSE void piecewise(int n, const float *restrict p, const int *restrict c, float q, float *restrict o)
{
    float m;
    for (int i = 0; i < n; i++) {
        if (c[i] > 66)
            m = p[i];
        else if (c[i] > 33)
            m = q;
        else
            m = p[i] * q;
        o[i] = m + 1.0f;
    }
}

// a struct local, and a second scalar computed from the first in a branch
GPUFUSE void pick_pt(int n, const pt *restrict p, const int *restrict c, pt q, pt *restrict o, float *restrict d)
{
    pt m;
    float s;
    for (int i = 0; i < n; i++) {
        if (c[i] % 2) {
            m = p[i];
            s = m.x;
        } else {
            m = q;
            s = -m.y;
        }
        o[i] = m;
        d[i] = s;
    }
}

// CHECK: region pick
// CHECK: region piecewise
// CHECK: region pick_pt
// REPORT: kernel pick_k0
// REPORT: kernel piecewise_k0
// REPORT: kernel pick_pt_k0
