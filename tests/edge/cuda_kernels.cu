// cuda_kernels.cu - the hand-written kernels of cuda_kernels.c: extern "C",
// the marked functions' parameters in order, arrays as device pointers to
// their first element (2-D arrays row-major).
extern "C" __global__ void edge_saxpy_k(int n, float a, const float *x, float *y)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

extern "C" __global__ void edge_transpose_k(int h, int w, float s, const float *in, float *out)
{
    __shared__ float tile[8][33];
    int j = blockIdx.x * 32 + threadIdx.x, i = blockIdx.y * 8 + threadIdx.y;
    if (i < h && j < w)
        tile[threadIdx.y][threadIdx.x] = in[(long long)i * w + j];
    __syncthreads();
    if (i < h && j < w)
        out[(long long)j * h + i] = s * tile[threadIdx.y][threadIdx.x];
}

extern "C" __global__ void edge_wrong_k(int n, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = x[i] + (i % 2 ? 2.0f : 1.0f); /* wrong for odd i */
}
