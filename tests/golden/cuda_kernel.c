// Hand-written CUDA kernels (GPUFUSE_CUDA, docs/cuda-kernels.md): the
// launcher stages what the C body touches, launches the user's kernel by
// the rule (the default, a thread count, a 2-D grid) and checks it; the C
// body is the CPU path.  The kernels are in cuda_kernel.cu.
// DIFF-CU: cuda_kernel.cu
#include <gpufuse.h>

GPUFUSE_CUDA(uk_saxpy) void cu_saxpy(int n, float a, const float *restrict x, float *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}

// a running sum: not parallel, which does not matter for a hand-written kernel
GPUFUSE_CUDA_THREADS(uk_scan, 1) void cu_scan(int n, float *x)
{
    for (int i = 1; i < n; i++)
        x[i] += x[i - 1];
}

#define TILE 16
GPUFUSE_CUDA_GRID(uk_blur, ((w + TILE - 1) / TILE, (h + TILE - 1) / TILE), (TILE, TILE))
void cu_blur(int h, int w, const float in[h][w], float out[h][w])
{
    for (int i = 1; i < h - 1; i++)
        for (int j = 1; j < w - 1; j++)
            out[i][j] = (in[i - 1][j] + in[i + 1][j] + in[i][j - 1] + in[i][j + 1]) * 0.25f;
}

// CHECK-LABEL: region cu_saxpy
// CHECK-NEXT: cuda kernel uk_saxpy
// CHECK: param float y[] inout restrict
// CHECK-LABEL: region cu_scan
// CHECK-NEXT: cuda kernel uk_scan threads (1)
// CHECK-LABEL: region cu_blur
// CHECK-NEXT: cuda kernel uk_blur grid ((w + 16 - 1) / 16, (h + 16 - 1) / 16) block (16, 16)
// REPORT: region cu_saxpy ({{.*}}): the hand-written kernel uk_saxpy (a thread per element of the first written array, blocks of 256), the C body on the CPU
// REPORT: region cu_scan ({{.*}}): the hand-written kernel uk_scan (1 threads, blocks of 256)
// REPORT: region cu_blur ({{.*}}): the hand-written kernel uk_blur (grid ((w + 16 - 1) / 16, (h + 16 - 1) / 16), block (16, 16))

// CU-LABEL: the hand-written kernel uk_saxpy ====
// CU: extern "C" __global__ void uk_saxpy(int n, float a, const float *__restrict__ x, float *__restrict__ y);
// CU: GF_UNUSED static void gf_seq_cu_saxpy(int n, float a, const float *restrict x, float *restrict y)
// CU: extern "C" void cu_saxpy(
// CU: gf_launch_cu_saxpy(n, a, x, y);
// CU: gf_entry_ran(gf_e);
// CU-NEXT: gf_seq_cu_saxpy(n, a, (const float *)gf_entry_copy(gf_e, 0), (float *)gf_entry_copy(gf_e, 1));
// CU: static void gf_launch_cu_saxpy(
// CU: gf_call_arg(gf_c, 0, x, gf_lo_x, gf_hi_x, GF_ARG_READ, 0);
// CU: gf_call_arg(gf_c, 1, y, gf_lo_y, gf_hi_y, GF_ARG_READ | GF_ARG_WRITE, 0);
// CU: default: /* no GPU, not enough device memory, or overlapping arguments: the C body */
// CU-NEXT: gf_call_end(gf_c, 0, 0);
// CU-NEXT: gf_seq_cu_saxpy(n, a, x, y);
// CU: const long long gf_threads = gf_hi_y / (long long)sizeof(float);
// CU-NEXT: const long long gf_grid[3] = {gf_threads > 0 ? (gf_threads + 255) / 256 : 0, 1, 1};
// CU-NEXT: const long long gf_block[3] = {256, 1, 1};
// CU: uk_saxpy<<<gf_g, gf_b, 0, gf_s>>>(n, a, gf_d_x, gf_d_y);
// CU-NEXT: gf_call_check(gf_c, cudaGetLastError(), "uk_saxpy (hand-written, for cu_saxpy() at cuda_kernel.c:8)");
// CU: gf_call_end(gf_c, (size_t)gf_bytes, 0);
// CU-LABEL: the hand-written kernel uk_scan ====
// CU: const long long gf_threads = (long long)(1);
// CU: uk_scan<<<gf_g, gf_b, 0, gf_s>>>(n, gf_d_x);
// CU-LABEL: the hand-written kernel uk_blur ====
// CU: extern "C" __global__ void uk_blur(int h, int w, const float *in, float *out);
// the interior box of out is staged: rows 1..h-2, columns 1..w-2
// CU: long long gf_lo_out = ((long long)(1) * (long long)(w) + (long long)(1)) * (long long)sizeof(float);
// CU: const long long gf_grid[3] = {(long long)((w + 16 - 1) / 16), (long long)((h + 16 - 1) / 16), (long long)(1)};
// CU-NEXT: const long long gf_block[3] = {(long long)(16), (long long)(16), (long long)(1)};
// CU: uk_blur<<<gf_g, gf_b, 0, gf_s>>>(h, w, gf_d_in, gf_d_out);
// HOST-LABEL: ==== cu_saxpy
// HOST: void cu_saxpy(int n, float a, const float *restrict x, float *restrict y)
// HOST-NEXT: {
// HOST-NEXT: gf_seq_cu_saxpy(n, a, x, y);
