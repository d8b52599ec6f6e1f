// A region whose device path is only maps and a serial statement (and
// temporaries' declarations, printed before its one launch): besides
// its kernels, one kernel runs them all in one thread block, __syncthreads()
// between them, which the launcher takes when every kernel has at most
// GF_BLOCK_ELEMS elements.  A reduction keeps a region out.
#include <gpufuse.h>
#include <math.h>
#include <stdlib.h>

GPUFUSE void reverse_mix(int n, float a, float y[restrict n], float z[restrict n])
{
    for (int i = 0; i < n; i++)
        y[i] = y[i] * a;
    for (int i = 0; i < n; i++)
        z[i] = y[n - 1 - i] + z[i];
    z[0] = y[0];
    for (int i = 1; i < n; i += 2)
        y[i] = z[n - 1 - i];
}

GPUFUSE float reverse_sum(int n, float y[restrict n], float z[restrict n])
{
    for (int i = 0; i < n; i++)
        z[i] = y[n - 1 - i];
    float s = 0;
    for (int i = 0; i < n; i++)
        s += z[i] * y[i];
    return s;
}

GPUFUSE void with_temp(int n, const float x[restrict n], float y[restrict n])
{
    float *t = malloc(n * sizeof(float));
    for (int i = 0; i < n; i++)
        t[i] = expf(x[i]) * sinf(x[i]) + logf(1.0f + x[i] * x[i]);
    for (int i = 0; i < n; i++)
        y[i] = t[n - 1 - i] - t[i];
    free(t);
}

// REPORT-LABEL: region reverse_mix
// REPORT: kernel reverse_mix_k2 [serial, one thread, in order]: lines 16-16
// REPORT: one block: when every kernel has at most 4096 elements, one launch of reverse_mix_blk runs the 4 kernels in one thread block, __syncthreads() between them
// REPORT-LABEL: region reverse_sum
// REPORT-NOT: one block
// REPORT-LABEL: region with_temp
// REPORT: one block: when every kernel has at most 4096 elements, one launch of with_temp_blk runs the 2 kernels
// CU-LABEL: __global__ void __launch_bounds__(GF_BLOCK_THREADS) reverse_mix_blk(int n, float a, float *__restrict__ y, float *__restrict__ z, GF_I gf_b0, GF_I gf_b1, GF_I gf_b3)
// CU: const GF_I gf_stride = blockDim.x;
// CU-NEXT: const GF_I gf_tid = threadIdx.x;
// CU-NEXT: { /* reverse_mix_k0: {{.*}} lines 12-13 */
// CU-NEXT: const GF_I gf_n0 = gf_b0;
// CU-NEXT: for (GF_I gf_t = gf_tid; gf_t < gf_n0; gf_t += gf_stride) {
// CU: __syncthreads();
// CU-NEXT: { /* reverse_mix_k1: {{.*}} lines 14-15 */
// CU: __syncthreads();
// CU-NEXT: if (threadIdx.x == 0) { /* reverse_mix_k2: {{.*}} lines 16-16, one thread in order */
// CU: z[0] = y[0];
// CU: __syncthreads();
// CU-NEXT: { /* reverse_mix_k3: {{.*}} lines 17-18 */
// CU: const int i_2 = (int)(1 + gf_t * 2);
// CU-NOT: reverse_sum_blk
// CU-LABEL: static void gf_launch_reverse_mix(
// CU: { /* reverse_mix_blk: the region in one launch when every kernel has at most GF_BLOCK_ELEMS elements */
// CU-NEXT: const long long gf_b0 = gf_max(0, (long long)(n) - (long long)(0));
// CU-NEXT: const long long gf_b1 = gf_max(0, (long long)(n) - (long long)(0));
// CU-NEXT: const long long gf_b2 = 1; /* reverse_mix_k2: one thread */
// CU-NEXT: const long long gf_b3 = gf_max(0, ((long long)(n) - (long long)(1) + 1) / 2);
// CU-NEXT: const long long gf_bmax = gf_max(gf_max(gf_max(gf_b0, gf_b1), gf_b2), gf_b3);
// CU-NEXT: if (gf_bmax <= GF_BLOCK_ELEMS && gf_big < GF_I32_LIMIT) {
// CU-NEXT: if (gf_bmax > 0)
// CU-NEXT: gf_launch(gf_c, "reverse_mix_blk", reverse_mix_blk<int>, 1, gf_block_threads(gf_bmax), 0, gf_s, n, a, gf_d_y, gf_d_z, (int)gf_b0, (int)gf_b1, (int)gf_b3);
// CU-NEXT: gf_call_check(gf_c, cudaGetLastError(), "reverse_mix_blk");
// CU-NEXT: } else {
// CU-NEXT: { /* reverse_mix_k0:
// CU-LABEL: static void gf_launch_with_temp(
// CU: float *gf_d_t = (float *)gf_call_reserved(gf_c, 0); /* temporary 't' */
// CU-NEXT: gf_big = gf_max(gf_big, (long long)((size_t)(n)));
// CU-NEXT: { /* with_temp_blk: the region in one launch
// CU: } else {
// CU-NOT: gf_call_reserved
// CU: gf_call_end(gf_c, (size_t)gf_bytes, 0);
// CU-LABEL: static void gf_load_kernels(void)
// CU: (const void *)&reverse_mix_blk<int>,
// CHECK-LABEL: region reverse_mix
// CHECK: for i_2 in [1, n) step 2 ; line 17, parallel
// CHECK-LABEL: region reverse_sum
// CHECK: ; line 26, parallel reduction
