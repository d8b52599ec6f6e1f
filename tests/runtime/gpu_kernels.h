/* gpu_kernels.h - C declarations of gpu_kernels.cu's wrappers. */
#ifndef GPU_KERNELS_H
#define GPU_KERNELS_H
#include <cuda_runtime_api.h>
#include <stddef.h>
cudaError_t gft_scale(cudaStream_t s, int sms, float *out, const float *in, float k, size_t n);
cudaError_t gft_add(cudaStream_t s, int sms, float *out, const float *a, const float *b, size_t n);
cudaError_t gft_fill(cudaStream_t s, int sms, float *out, float v, size_t n);
cudaError_t gft_spin(cudaStream_t s, long long cycles);
#endif
