/* launch_overhead_kernel.cu - the raw launches that launch_overhead.c
 * compares the generated launchers with: an empty kernel on the default
 * stream, and chain3's three kernels (launch_overhead_region.c) written by
 * hand, launched one by one or as a CUDA graph captured once. */
#include <cuda_runtime.h>

__global__ void gf_overhead_empty(int n) { (void)n; }

extern "C" void gf_overhead_empty_launch(int n) { gf_overhead_empty<<<1, 256>>>(n); }
extern "C" void gf_overhead_sync(void) { cudaDeviceSynchronize(); }

__global__ void raw_k0(int n, float a, float b, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = y[i] * a + b;
}
__global__ void raw_k1(int n, const float *y, float *z)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        z[i] = y[n - 1 - i] - 0.5f * y[i];
}
__global__ void raw_k2(int n, float a, float *y, const float *z)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = z[n - 1 - i] * a + z[i];
}

static void raw3(cudaStream_t s, int n, float a, float b, float *y, float *z)
{
    unsigned g = (unsigned)((n + 255) / 256);
    raw_k0<<<g, 256, 0, s>>>(n, a, b, y);
    raw_k1<<<g, 256, 0, s>>>(n, y, z);
    raw_k2<<<g, 256, 0, s>>>(n, a, y, z);
}

/* The three kernels, launched one by one on the default stream. */
extern "C" void gf_overhead_chain3_launch(int n, float a, float b, float *y, float *z) { raw3(0, n, a, b, y, z); }

/* The three kernels captured once into a graph, then replayed `calls`
 * times on a stream of their own; returns 0, or -1 when CUDA refuses. */
extern "C" int gf_overhead_chain3_graph(int n, float a, float b, float *y, float *z, int calls)
{
    cudaStream_t s;
    cudaGraph_t g;
    cudaGraphExec_t x;
    if (cudaStreamCreate(&s) != cudaSuccess)
        return -1;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
    raw3(s, n, a, b, y, z);
    if (cudaStreamEndCapture(s, &g) != cudaSuccess || cudaGraphInstantiate(&x, g, 0) != cudaSuccess)
        return -1;
    for (int i = 0; i < calls; i++)
        cudaGraphLaunch(x, s);
    cudaStreamSynchronize(s);
    cudaGraphExecDestroy(x);
    cudaGraphDestroy(g);
    cudaStreamDestroy(s);
    return 0;
}
