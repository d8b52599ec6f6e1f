// The 16-byte form of 1-D maps over 2-byte and 1-byte elements
// (docs/types.md): 8 _Float16 (or short) elements a thread through one uint4
// load and store of each array, 16 chars or _Bools; a half is still read
// through gf_h2f and rounded once at its store, so the vector body is the
// scalar body's text on registers.  Mixed sizes: 16 bytes of the smallest
// element a thread, 2 or 4 accesses of each larger array.  The launcher
// takes the vector kernel only when every array is 16-byte aligned at the
// loop's first index and there is at least one vector; the remaining n % 8
// (n % 16) elements run in the kernel's scalar tail.
// DIFF-INIT: x in [-4, 4)
// DIFF-INIT: y in [-4, 4)
// DIFF-INIT: w in [-4, 4)
// DIFF-INIT: z in [-4, 4)
#include <gpufuse.h>
#include <math.h>

GPUFUSE void hv_axpy(int n, float a, const _Float16 *restrict x, const _Float16 *restrict y, _Float16 *restrict z)
{
    for (int i = 0; i < n; i++)
        z[i] = a * x[i] + y[i];
}

GPUFUSE void hv_fma(int n, const _Float16 *restrict x, const _Float16 *restrict w, const _Float16 *restrict z,
                    _Float16 *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] = fmaf(x[i], w[i], fmaf(w[i], z[i], x[i]));
}

GPUFUSE float hv_sum(int n, const _Float16 *restrict x)
{
    float s = 0;
    for (int i = 0; i < n; i++)
        s += x[i] * x[i];
    return s;
}

GPUFUSE void hv_relu(int n, _Float16 *restrict x)
{
    for (int i = 0; i < n; i++)
        if (x[i] < 0)
            x[i] = 0;
}

GPUFUSE void hv_short(int n, const short *restrict a, const unsigned short *restrict b, short *restrict c)
{
    for (int i = 0; i < n; i++)
        c[i] = (short)(a[i] * 3 - (b[i] >> 2));
}

GPUFUSE void hv_u8(int n, const unsigned char *restrict a, const unsigned char *restrict b, unsigned char *restrict c)
{
    for (int i = 0; i < n; i++)
        c[i] = (unsigned char)((a[i] + b[i] + 1) >> 1);
}

GPUFUSE void hv_mixed(int n, const _Float16 *restrict x, float *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] = 2.0f * x[i];
}

GPUFUSE void hv_from1(int n, const _Float16 *restrict x, _Float16 *restrict y)
{
    for (int i = 1; i < n; i++)
        y[i] = x[i] * 0.5f16 + x[i];
}

GPUFUSE void hv_mask(int n, const _Float16 *restrict x, _Bool *restrict m, unsigned char *restrict u, float *restrict f)
{
    for (int i = 0; i < n; i++) {
        m[i] = x[i] > 0;
        f[i] = u[i] * (1.0f / 255);
    }
}

// CHECK-LABEL: region hv_axpy
// CHECK: for i in [0, n) step 1 ; line 19, parallel
// CHECK-LABEL: region hv_sum
// CHECK: S1: s += (x[i] * x[i]) ; reduction + on s
// CHECK-LABEL: region hv_relu
// CHECK: S0: x[i] = ((x[i] < 0) ? 0 : x[i])
// CHECK-LABEL: region hv_short
// CHECK-LABEL: region hv_u8
// CHECK-LABEL: region hv_mixed
// CHECK-LABEL: region hv_from1
// CHECK: for i in [1, n) step 1
// CHECK-LABEL: region hv_mask

// REPORT: kernel hv_axpy_k0 [map, 1-D, 128-bit vectors]
// REPORT: kernel hv_fma_k0 [map, 1-D, 128-bit vectors]
// REPORT: kernel hv_sum_k0 [reduce, 1-D, 128-bit vectors, deterministic reduction]
// REPORT: kernel hv_relu_k0 [map, 1-D, 128-bit vectors]
// REPORT: kernel hv_short_k0 [map, 1-D, 128-bit vectors]
// REPORT: kernel hv_u8_k0 [map, 1-D, 128-bit vectors]
// REPORT: kernel hv_mixed_k0 [map, 1-D, 128-bit vectors]
// REPORT: kernel hv_from1_k0 [map, 1-D, 128-bit vectors]
// REPORT: kernel hv_mask_k0 [map, 1-D, 128-bit vectors]

// half: one uint4 of each array, the body on the registers, the tail scalar
// CU-LABEL: hv_axpy_k0_v4(int n, float a, gf_f16 *__restrict__ z
// CU: const GF_I gf_n4 = gf_n0 / 8;
// CU: __align__(16) gf_f16 z_v[8];
// CU-NEXT: __align__(16) gf_f16 x_v[8];
// CU-NEXT: *(uint4 *)x_v = __ldcs((const uint4 *)(x + (0)) + gf_q);
// CU: for (int gf_k = 0; gf_k < 8; gf_k++) {
// CU-NEXT: const GF_I gf_t = gf_q * 8 + gf_k;
// CU: z_v[gf_k] = gf_to_f16(a * gf_h2f(x_v[gf_k]) + gf_h2f(y_v[gf_k]));
// CU: __stcs((uint4 *)(z + (0)) + gf_q, *(uint4 *)z_v);
// CU: for (GF_I gf_t = gf_n4 * 8 + gf_tid; gf_t < gf_n0; gf_t += gf_stride) { /* the tail */
// CU: z[i] = gf_to_f16(a * gf_h2f(x[i]) + gf_h2f(y[i]));
// CU-LABEL: hv_axpy_k0(int n, float a
// the launcher: at least one vector, every array 16-byte aligned, else the scalar kernel
// CU: const bool gf_vec = gf_n0 >= 8 && gf_aligned16(gf_d_z + (0)) && gf_aligned16(gf_d_x + (0)) && gf_aligned16(gf_d_y + (0));
// CU-NEXT: const long long gf_need = gf_blocks_for(gf_vec ? gf_n0 / 8 : gf_n0);
// CU: if (gf_vec) gf_launch(gf_c, "hv_axpy_k0", hv_axpy_k0_v4<int>
// CU-NEXT: else gf_launch(gf_c, "hv_axpy_k0", hv_axpy_k0<int>
// CU-LABEL: hv_fma_k0_v4(
// CU: y_v[gf_k] = gf_to_f16(fmaf(gf_h2f(x_v[gf_k]), gf_h2f(w_v[gf_k]), fmaf(gf_h2f(w_v[gf_k]), gf_h2f(z_v[gf_k]), gf_h2f(x_v[gf_k]))));
// CU-LABEL: hv_sum_k0_v4(
// CU: s += gf_h2f(x_v[gf_k]) * gf_h2f(x_v[gf_k]);
// CU: if (gf_vec) { static int gf_cap = 0; if (!gf_cap) gf_cap = gf_resident(hv_sum_k0_v4<int>
// read and written: a plain load (not streaming), a streaming store
// CU-LABEL: hv_relu_k0_v4(
// CU: *(uint4 *)x_v = *((const uint4 *)(x + (0)) + gf_q);
// CU: __stcs((uint4 *)(x + (0)) + gf_q, *(uint4 *)x_v);
// shorts: 8 a thread as well
// CU-LABEL: hv_short_k0_v4(
// CU: __align__(16) short c_v[8];
// CU: *(uint4 *)b_v = __ldcs((const uint4 *)(b + (0)) + gf_q);
// CU: c_v[gf_k] = (short)(a_v[gf_k] * 3 - (b_v[gf_k] >> 2));
// bytes: 16 a thread
// CU-LABEL: hv_u8_k0_v4(
// CU: const GF_I gf_n4 = gf_n0 / 16;
// CU: __align__(16) unsigned char c_v[16];
// CU: const bool gf_vec = gf_n0 >= 16 && gf_aligned16(gf_d_c + (0))
// half read, float written: 8 a thread, two float4 stores
// CU-LABEL: hv_mixed_k0_v4(int n, float *__restrict__ y
// CU: __align__(16) float y_v[8];
// CU: __stcs((float4 *)(y + (0)) + gf_q * 2 + 0, ((float4 *)y_v)[0]);
// CU-NEXT: __stcs((float4 *)(y + (0)) + gf_q * 2 + 1, ((float4 *)y_v)[1]);
// a loop from 1: the vectors start at the first index, whose alignment the launch checks
// CU-LABEL: hv_from1_k0_v4(
// CU: *(uint4 *)x_v = __ldcs((const uint4 *)(x + (1)) + gf_q);
// CU: const int i = (int)(1 + gf_t);
// CU: const bool gf_vec = gf_n0 >= 8 && gf_aligned16(gf_d_y + (1)) && gf_aligned16(gf_d_x + (1));
// _Bool and bytes with half and float: 16 a thread, 2 uint4 of x, 4 float4 of f
// CU-LABEL: hv_mask_k0_v4(
// CU: const GF_I gf_n4 = gf_n0 / 16;
// CU: __align__(16) _Bool m_v[16];
// CU: ((uint4 *)x_v)[1] = __ldcs((const uint4 *)(x + (0)) + gf_q * 2 + 1);
// CU: __stcs((float4 *)(f + (0)) + gf_q * 4 + 3, ((float4 *)f_v)[3]);
// CU: const bool gf_vec = gf_n0 >= 16 && gf_aligned16(gf_d_m + (0)) && gf_aligned16(gf_d_x + (0)) && gf_aligned16(gf_d_f + (0)) && gf_aligned16(gf_d_u + (0));
