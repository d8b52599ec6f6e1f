// Helpers are printed from the AST (clang's pretty printer): macros of every
// kind expanded as the C compiler saw them, from the file and from a header;
// a helper defined in a header is one like any other.  The header's C-only
// code (malloc into a float *, a VLA prototype, a C++ keyword as a name) and
// its declaration of the marked function never reach the generated file.
#include <gpufuse.h>
#include <math.h>
#include "decl_helpers.h"

#define SCALE 2.0f
#define SQ(x) ((x) * (x))
#define CLAMP(v, lo, hi) ((v) < (lo) ? (lo) : (v) > (hi) ? (hi) : (v))
#define HALF_SCALE (SCALE / 4)

static float shape(float v) { return CLAMP(SQ(v) * SCALE - HALF_SCALE, -1.0f, 1.0f); }

GPUFUSE void shaped(int n, const float *x, float *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] = shape(x[i]) + lerp3(x[i]) * (float)M_PI;
}

// CHECK-LABEL: region shaped
// CHECK: S0: y[i] = (shape(x[i]) + (lerp3(x[i]) * (float)

// CU-LABEL: ---- types, constants and helpers of decl_helpers.c
// CU-NOT: #include "
// CU-NOT: #define SCALE
// CU-NOT: malloc
// CU: /* shape: decl_helpers.c:15 */
// CU-NEXT: namespace gf_c {
// CU-NEXT: __host__ __device__ static float shape(float v) {
// CU-NEXT:     return ((((v) * (v)) * 2.F - (2.F / 4)) < (-1.F) ? (-1.F) : (((v) * (v)) * 2.F - (2.F / 4)) > (1.F) ? (1.F) : (((v) * (v)) * 2.F - (2.F / 4)));
// CU-NEXT: }
// CU: /* lerp3: decl_helpers.h:13 */
// CU-NEXT: namespace gf_c {
// CU-NEXT: __host__ __device__ static inline float lerp3(float v) {
// CU-NEXT:     return ((v) + ((1.F) - (v)) * ((1.F / 3.F)));
// CU-NEXT: }
// CU-NOT: make_buf
// CU-NOT: vla_sum
// CU-NOT: class
// CU: extern "C" void shaped(int n, const float *x, float *__restrict__ y)
