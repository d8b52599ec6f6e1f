/* sqrt: the simplest streaming kernel (1 array read, 1 written). */
#include <gpufuse.h>
#include <math.h>

GPUFUSE void vsqrt(int n, const float *restrict x, float *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] = sqrtf(x[i]);
}
