/* cuda_kernels.c - marked functions whose GPU code is a hand-written kernel
 * of cuda_kernels.cu (GPUFUSE_CUDA, docs/cuda-kernels.md); the C bodies are
 * the reference the test (cuda.c) and GPUFUSE_VERIFY compare with. */
#include <gpufuse.h>

/* the default rule: a thread per element of y */
GPUFUSE_CUDA(edge_saxpy_k) void uk_saxpy(int n, float a, const float *restrict x, float *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}

/* a 2-D grid of 32 x 8 blocks over the input, which is h x w */
GPUFUSE_CUDA_GRID(edge_transpose_k, ((w + 31) / 32, (h + 7) / 8), (32, 8))
void uk_transpose(int h, int w, float s, const float in[h][w], float out[w][h])
{
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++)
            out[j][i] = s * in[i][j];
}

/* the kernel is wrong on purpose (odd elements): GPUFUSE_VERIFY catches it */
GPUFUSE_CUDA_THREADS(edge_wrong_k, n) void uk_wrong(int n, const float *restrict x, float *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] = x[i] + 1.0f;
}

/* a block of 2048 threads: the launch fails, and the launcher says why */
GPUFUSE_CUDA_GRID(edge_saxpy_k, (1), (2048)) void uk_badlaunch(int n, float a, const float *restrict x, float *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}
