/* dot: a scalar map-reduce whose result the function returns.  The sum is
 * accumulated in float, as CuPy, PyTorch and JAX do for float32 inputs. */
#include <gpufuse.h>

GPUFUSE float dot(int n, const float *restrict a, const float *restrict b)
{
    float s = 0.0f;
    for (int i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}
