/* decl_helpers.h - a C header as real projects write it: it declares the
 * marked function, has C-only code the generated file must not see, and a
 * static inline helper with macros of its own. */
#ifndef DECL_HELPERS_H
#define DECL_HELPERS_H
#include <stdlib.h>

#define LERP(a, b, t) ((a) + ((b) - (a)) * (t))
#define THIRD (1.0f / 3.0f)

void shaped(int n, const float *x, float *restrict y);

static inline float lerp3(float v) { return LERP(v, 1.0f, THIRD); }
static inline float *make_buf(int n) { float *p = malloc(n * sizeof *p); return p; }
void vla_sum(int n, const float a[n][n]);
static inline int class(int new) { return new + 1; }
#endif
