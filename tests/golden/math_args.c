// Arguments of <math.h> and <stdlib.h> functions are converted to the
// parameter's type, as C converts them (parse.c arg_conv).  CUDA's math
// functions are C++ overloads: without the casts `fmax(c[i], d[i])` (float,
// double) and `fmin(k[i], c[i])` (int, float) would not compile for the
// device at all, `sqrt(c[i])`, `pow(c[i], 2)` and `exp(c[i])` of a float
// would compute in float where C computes in double, and `abs(l[i])` of a
// long would keep the long that C converts to int.
#include <gpufuse.h>
#include <math.h>
#include <stdlib.h>

// DIFF-INIT: k in [-50, 50)
// DIFF-INIT: c in [0.5, 4)

GPUFUSE void mixed(int n, const float *restrict c, const double *restrict d, const int *restrict k,
                   double *restrict y, float *restrict z)
{
    for (int i = 0; i < n; i++) {
        y[i] = fmax(c[i], d[i]) + sqrt(c[i]) + pow(c[i], 2) + fmin(k[i], c[i]) + atan2(c[i], 2.0f);
        z[i] = sqrt(c[i]) + fmaxf(c[i], k[i]) + exp(c[i]);
    }
}

// a long converted to int by abs (the argument's low 32 bits, as C)
GPUFUSE void labs_int(int n, const long *restrict l, int *restrict r)
{
    for (int i = 0; i < n; i++)
        r[i] = abs((int)(l[i] & 0x7fffffff)) + abs(l[i] % 1000 > 0 ? 3 : -3);
}

// The same in a helper, which is printed by clang's printer and compiled as
// C++: defined in namespace gf_c, where C's prototypes (templates/common.h)
// come first in lookup.  Before, the C body's copy in the .gf.cu (the CPU
// path without a GPU) gave 64 of 64 elements different from C here.
static inline float soft(float x, double d)
{
    return sqrt(x) + fmax(x, d) + abs(x) + floor(x) / 3;
}

GPUFUSE void helper_args(int n, const float *restrict c, float *restrict z)
{
    for (int i = 0; i < n; i++)
        z[i] = soft(c[i], 0.5);
}

// CHECK: region mixed
// CHECK: region labs_int
// CHECK: region helper_args
// CU: /* soft: {{.*}}math_args.c:{{[0-9]+}} */
// CU-NEXT: namespace gf_c {
// CU-NEXT: soft(float x, double d)
// CU-NEXT: return sqrt(x) + fmax(x, d) + abs(x) + floor(x) / 3;
// CU: } /* namespace gf_c */
// CU-NEXT: using gf_c::soft;
// CU-LABEL: mixed_k0(
// CU: y[i] = fmax((double)c[i], d[i]) + sqrt((double)c[i]) + pow((double)c[i], (double)2) + fmin((double)k[i], (double)c[i]) + atan2((double)c[i], (double)2.0f);
// CU-NEXT: z[i] = sqrt((double)c[i]) + fmaxf(c[i], (float)k[i]) + exp((double)c[i]);
