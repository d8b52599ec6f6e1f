/* launch_overhead_region.c - the 3-kernel region launch_overhead.c calls
 * 100000 times on 256 elements (issue 18: a repeated call replays a CUDA
 * graph): each nest reads what the one before wrote at other indices, so
 * gpufuse keeps three kernels (at 256 elements the launcher runs them as one
 * kernel of one block: docs/runtime.md).  launch_overhead_kernel.cu launches
 * the same three kernels by hand. */
#include <gpufuse.h>

GPUFUSE void chain3(int n, float a, float b, float *restrict y, float *restrict z)
{
    for (int i = 0; i < n; i++)
        y[i] = y[i] * a + b;
    for (int i = 0; i < n; i++)
        z[i] = y[n - 1 - i] - 0.5f * y[i];
    for (int i = 0; i < n; i++)
        y[i] = z[n - 1 - i] * a + z[i];
}
