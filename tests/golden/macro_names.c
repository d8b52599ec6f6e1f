// Marked functions whose names, or whole declarations, come from macros
// (a type suffix pasted on, a declaration macro, a helper named the same
// way): each is a region under the expanded name; none is skipped silently.
#include <gpufuse.h>

#define FN(x) x##_d
#define DECL_SCALE(name, T) GPUFUSE void name(int n, T a, T x[n])
#define HELPER(x) x##_h

static double HELPER(sq)(double v) { return v * v; }

GPUFUSE void FN(scale)(int n, double a, double x[n])
{
    for (int i = 0; i < n; i++)
        x[i] = a * HELPER(sq)(x[i]);
}

DECL_SCALE(scale_f, float)
{
    for (int i = 0; i < n; i++)
        x[i] *= a;
}

// CHECK: region scale_d
// CHECK: region scale_f
// REPORT: region scale_d (macro_names.c:12): 1 loop nest -> 1 kernel
// REPORT: region scale_f (macro_names.c:18): 1 loop nest -> 1 kernel
// CU: extern "C" void scale_d(int n, double a, double *x)
// CU: extern "C" void scale_f(int n, float a, float *x)
