// Loop conditions with an offset on an unsigned index, `i + 1 < n` and
// `i + 4 <= m` (size_t and unsigned loops): the bound is n - 1 (m - 4 + 1)
// where that does not wrap, else no iteration runs, as in C (parse.c
// loop_cond's guard `n < 1 ? 0 : n - 1`).  n = 1 here: the guard's empty
// side; m takes diffcheck's sizes.
#include <gpufuse.h>
#include <stddef.h>

// DIFF-PARAM: n = 1
// DIFF-SIZE: x = n + 2
// DIFF-SIZE: y = n + 2
// DIFF-SIZE: u = m
// DIFF-SIZE: v = m

GPUFUSE void smooth(size_t n, const double *restrict x, double *restrict y)
{
    for (size_t i = 1; i + 1 < n; ++i)
        y[i] = 0.25 * x[i - 1] + 0.5 * x[i] + 0.25 * x[i + 1];
}

GPUFUSE void quads(unsigned m, const float *restrict u, float *restrict v)
{
    for (unsigned i = 0; i + 4 <= m; i += 4) {
        v[i] = u[i] + u[i + 3];
        v[i + 1] = u[i + 1];
        v[i + 2] = u[i + 2];
        v[i + 3] = 0.0f;
    }
}

// an offset that is a parameter: no iteration where off > len
// DIFF-SIZE: w = len
GPUFUSE void tail_clear(unsigned long len, unsigned long off, float *restrict w)
{
    for (unsigned long i = 0; i + off <= len; i++)
        w[i] = 0.0f;
}

// CHECK: region smooth
// CHECK: for i in [1, ((n < (unsigned long)1) ? 0 : (n - (unsigned long)1))) step 1 {{.*}} parallel
// CHECK: region quads
// CHECK: region tail_clear
// REPORT: kernel smooth_k0
// REPORT: kernel quads_k0
