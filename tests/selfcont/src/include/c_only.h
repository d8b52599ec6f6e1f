/* c_only.h - C that is not C++: found through -I (gpufuse needs the flag,
 * the generated file must not).  A helper that allocates into a float *,
 * a VLA prototype, C++ keywords as names, a helper named max. */
#ifndef C_ONLY_H
#define C_ONLY_H
#include <stdlib.h>
#include <string.h>

#define DAMP 0.99f
#define SQ(v) ((v) * (v))

static inline float *scratch(int n) { float *p = malloc(n * sizeof *p); memset(p, 0, n * sizeof *p); return p; }
void report(int n, const float a[n][n]);
static inline int max(int a, int b) { return a > b ? a : b; }
static inline float maxf(float a, float b) { return a > b ? a : b; }
static inline int clash(int new, int class) { int this = new + class; return this; }
static inline float speed2(float vx, float vy) { return SQ(vx) + SQ(vy); }
#endif
