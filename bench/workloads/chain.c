/* chain: a chain of element-wise math that unfused array libraries run as
 * several kernels and gpufuse runs as one (3 arrays read, 1 written). */
#include <gpufuse.h>
#include <math.h>

GPUFUSE void chain(int n, const float *restrict a, const float *restrict b,
                   const float *restrict c, float *restrict out)
{
    for (int i = 0; i < n; i++)
        out[i] = sqrtf(a[i] * a[i] + b[i] * b[i]) * expf(-c[i]) + sinf(a[i]) * 0.5f;
}
