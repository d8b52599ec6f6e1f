// gpu_kernels.cu - kernels the GPU tests launch through the launcher
// interface, wrapped in C-callable functions.
#include <cuda_runtime.h>
#include <stddef.h>

__global__ void k_scale(float *out, const float *in, float k, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        out[i] = k * in[i];
}

__global__ void k_add(float *out, const float *a, const float *b, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        out[i] = a[i] + b[i];
}

__global__ void k_fill(float *out, float v, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        out[i] = v;
}

__global__ void k_spin(long long cycles)
{
    long long t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
}

extern "C" cudaError_t gft_scale(cudaStream_t s, int sms, float *out, const float *in, float k, size_t n)
{
    k_scale<<<sms * 4, 256, 0, s>>>(out, in, k, n);
    return cudaGetLastError();
}

extern "C" cudaError_t gft_add(cudaStream_t s, int sms, float *out, const float *a, const float *b, size_t n)
{
    k_add<<<sms * 4, 256, 0, s>>>(out, a, b, n);
    return cudaGetLastError();
}

extern "C" cudaError_t gft_fill(cudaStream_t s, int sms, float *out, float v, size_t n)
{
    k_fill<<<sms * 4, 256, 0, s>>>(out, v, n);
    return cudaGetLastError();
}

extern "C" cudaError_t gft_spin(cudaStream_t s, long long cycles)
{
    k_spin<<<1, 1, 0, s>>>(cycles);
    return cudaGetLastError();
}
