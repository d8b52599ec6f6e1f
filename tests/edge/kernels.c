/* kernels.c - marked functions for the run-time edge cases (edge.c). */
#include <gpufuse.h>
#include <math.h>

/* Not restrict: the caller may pass overlapping arrays. */
GPUFUSE void scale(int n, float a, const float *x, float *y)
{
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + 1.0f;
}

GPUFUSE float total(int n, const float *restrict x)
{
    float s = 0.0f;
    for (int i = 0; i < n; i++)
        s += x[i];
    return s;
}

GPUFUSE float biggest(int n, const float *restrict x)
{
    float m = -INFINITY;
    for (int i = 0; i < n; i++)
        m = fmaxf(m, x[i]);
    return m;
}
