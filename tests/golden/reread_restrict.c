// A kernel that reads back an array it writes declares its read-only arrays
// without __restrict__ (emit_cuda.c reads_own_writes; docs/testing.md G8):
// NVVM (nvcc 13, sm_90) merges two reads that are alternatives, `cond ? t[k]
// : c[i]` or an if and its else, into one load from a select of the
// addresses, and loads it through the non-coherent read-only path when one
// side is a const __restrict__ parameter, so the element the thread has just
// written came back stale.  Written arrays keep __restrict__; kernels that
// only write what they write keep it on every array.
#include <gpufuse.h>
#include <math.h>

// DIFF-SIZE: t = n * m
// DIFF-SIZE: a = n * m
// DIFF-SIZE: c = n
// DIFF-SIZE: y = n * m
// DIFF-SIZE: u = n * m
// DIFF-SIZE: xs = n
// DIFF-SIZE: us = n
// DIFF-INIT: a in [-100, 100)

// the shape of seed 910's region (y takes t, just written, or c)
GPUFUSE void mod3(int n, int m, float *restrict t, const int *restrict a, const float *restrict c,
                  double *restrict y, int s0)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            t[i * m + j] = (float)s0 * 0.01f * (a[i * m + j] * 0.01f) + c[i];
            y[i * m + j] = fmax(c[i], fabs(!(a[i * m + j] % 3) ? (double)t[i * m + j] : (double)c[i]));
        }
}

// an if and its else: one reads the written array, the other a read-only one
GPUFUSE void pick(int n, int m, float *restrict t, float *restrict u, const float *restrict c,
                  const int *restrict a)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            float v;
            t[i * m + j] = c[i] * 2.0f;
            if (a[i * m + j] > 0)
                v = t[i * m + j];
            else
                v = c[j % n];
            u[i * m + j] = v;
        }
}

// nothing read back: the read-only arrays keep __restrict__
GPUFUSE void scale(int n, const float *restrict xs, float *restrict us)
{
    for (int i = 0; i < n; i++)
        us[i] = xs[i] * 2.0f;
}

// CHECK: region mod3
// CHECK: region pick
// CHECK: region scale
// CU-LABEL: mod3_k0(
// CU-SAME: float *__restrict__ t, const int *a, const float *c, double *__restrict__ y
// CU-LABEL: pick_k0(
// CU-SAME: float *__restrict__ t, const float *c, const int *a, float *__restrict__ u
// CU-LABEL: scale_k0(
// CU-SAME: const float *__restrict__ xs
