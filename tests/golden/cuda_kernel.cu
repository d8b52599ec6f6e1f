// The hand-written kernels of cuda_kernel.c (diffcheck.py --cuda links them
// with its .gf.cu and compares each with its C body).
extern "C" __global__ void uk_saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

// one thread: a running sum is sequential
extern "C" __global__ void uk_scan(int n, float *x)
{
    if (blockIdx.x == 0 && threadIdx.x == 0)
        for (int i = 1; i < n; i++)
            x[i] += x[i - 1];
}

extern "C" __global__ void uk_blur(int h, int w, const float *in, float *out)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= 1 && i < h - 1 && j >= 1 && j < w - 1)
        out[i * w + j] = (in[(i - 1) * w + j] + in[(i + 1) * w + j] + in[i * w + j - 1] + in[i * w + j + 1]) * 0.25f;
}
