/* dlpack_kernels.c - a marked function for test_gpu_dlpack.c: its
 * generated launcher runs on tensors imported through DLPack. */
#include <gpufuse.h>

GPUFUSE void dl_axpby(int n, float a, const float *restrict x, float b, float *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + b * y[i];
}
