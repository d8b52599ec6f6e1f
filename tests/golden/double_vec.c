// The 16-byte form of 1-D maps over 8-byte elements (docs/types.md): 2
// doubles (or long, long long and their unsigned types) a thread through one
// double2 (longlong2, ulonglong2) load and store of each array; the body on
// the registers is the scalar body's text.  Mixed sizes: 16 bytes of the
// smallest element a thread, 2 or 4 accesses of each larger array (float and
// double: 4 a thread, one float4 and two double2); sizes more than 4 apart
// (char and double) and double _Complex (already one 16-byte access) keep
// the scalar kernel.  The launcher takes the vector kernel only when every
// array is 16-byte aligned at the loop's first index (a double array offset
// by an odd number of elements runs the scalar kernel) and there is at least
// one vector.
// DIFF-INIT: b in [0, 1000000)
#include <gpufuse.h>

GPUFUSE void dv_axpy(int n, double a, const double *restrict x, double *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}

GPUFUSE void dv_i64(int n, const long long *restrict a, const unsigned long long *restrict b, long *restrict c,
                    unsigned long *restrict d)
{
    for (int i = 0; i < n; i++) {
        c[i] = a[i] * 3 - (long long)(b[i] >> 2);
        d[i] = b[i] ^ (unsigned long long)a[i];
    }
}

GPUFUSE void dv_mixed(int n, const float *restrict x, double *restrict y, float *restrict z)
{
    for (int i = 0; i < n; i++) {
        y[i] = 2.0 * x[i] + y[i];
        z[i] = (float)y[i];
    }
}

GPUFUSE double dv_sum(int n, const double *restrict x)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += x[i] * x[i];
    return s;
}

GPUFUSE void dv_relu(int n, double *restrict x)
{
    for (int i = 0; i < n; i++)
        if (x[i] < 0)
            x[i] = 0;
}

GPUFUSE void dv_from1(int n, const double *restrict x, double *restrict y)
{
    for (int i = 1; i < n; i++)
        y[i] = x[i] * 0.5 + x[i];
}

GPUFUSE void dv_short(int n, const short *restrict s, double *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] = s[i] * 0.25;
}

GPUFUSE void dv_char(int n, const unsigned char *restrict u, double *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] = u[i] * (1.0 / 255);
}

GPUFUSE void dv_cd(int n, const double _Complex *restrict x, double _Complex *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] = 2 * x[i];
}

// CHECK-LABEL: region dv_axpy
// CHECK: for i in [0, n) step 1 ; line 17, parallel
// CHECK-LABEL: region dv_i64
// CHECK: param long c[] out restrict
// CHECK-LABEL: region dv_mixed
// CHECK-LABEL: region dv_sum
// CHECK: S1: s += (x[i] * x[i]) ; reduction + on s
// CHECK-LABEL: region dv_relu
// CHECK: S0: x[i] = ((x[i] < 0) ? 0 : x[i])
// CHECK-LABEL: region dv_from1
// CHECK: for i in [1, n) step 1
// CHECK-LABEL: region dv_short
// CHECK-LABEL: region dv_char
// CHECK-LABEL: region dv_cd

// REPORT: kernel dv_axpy_k0 [map, 1-D, 128-bit vectors]
// REPORT: kernel dv_i64_k0 [map, 1-D, 128-bit vectors]
// REPORT: kernel dv_mixed_k0 [map, 1-D, 128-bit vectors]
// REPORT: kernel dv_sum_k0 [reduce, 1-D, 128-bit vectors, deterministic reduction]
// REPORT: kernel dv_relu_k0 [map, 1-D, 128-bit vectors]
// REPORT: kernel dv_from1_k0 [map, 1-D, 128-bit vectors]
// REPORT: kernel dv_short_k0 [map, 1-D, 128-bit vectors]
// REPORT: kernel dv_char_k0 [map, 1-D]:
// REPORT: kernel dv_cd_k0 [map, 1-D]:

// double: one double2 of each array, the body on the registers, the tail scalar
// CU-LABEL: dv_axpy_k0_v4(int n, double a, double *__restrict__ y
// CU: const GF_I gf_n4 = gf_n0 / 2;
// CU: __align__(16) double y_v[2];
// CU-NEXT: *(double2 *)y_v = *((const double2 *)(y + (0)) + gf_q);
// CU-NEXT: __align__(16) double x_v[2];
// CU-NEXT: *(double2 *)x_v = __ldcs((const double2 *)(x + (0)) + gf_q);
// CU: for (int gf_k = 0; gf_k < 2; gf_k++) {
// CU-NEXT: const GF_I gf_t = gf_q * 2 + gf_k;
// CU: y_v[gf_k] = a * x_v[gf_k] + y_v[gf_k];
// CU: __stcs((double2 *)(y + (0)) + gf_q, *(double2 *)y_v);
// CU: for (GF_I gf_t = gf_n4 * 2 + gf_tid; gf_t < gf_n0; gf_t += gf_stride) { /* the tail */
// CU: y[i] = a * x[i] + y[i];
// CU-LABEL: dv_axpy_k0(int n, double a
// the launcher: at least one vector, every array 16-byte aligned, else the scalar kernel
// CU: const bool gf_vec = gf_n0 >= 2 && gf_aligned16(gf_d_y + (0)) && gf_aligned16(gf_d_x + (0));
// CU-NEXT: const long long gf_need = gf_blocks_for(gf_vec ? gf_n0 / 2 : gf_n0);
// CU: if (gf_vec) gf_launch(gf_c, "dv_axpy_k0", dv_axpy_k0_v4<int>
// CU-NEXT: else gf_launch(gf_c, "dv_axpy_k0", dv_axpy_k0<int>
// 8-byte integers: longlong2 for the signed, ulonglong2 for the unsigned
// CU-LABEL: dv_i64_k0_v4(
// CU: __align__(16) long c_v[2];
// CU: *(longlong2 *)a_v = __ldcs((const longlong2 *)(a + (0)) + gf_q);
// CU: *(ulonglong2 *)b_v = __ldcs((const ulonglong2 *)(b + (0)) + gf_q);
// CU: c_v[gf_k] = a_v[gf_k] * 3 - (long long)(b_v[gf_k] >> 2);
// CU: __stcs((longlong2 *)(c + (0)) + gf_q, *(longlong2 *)c_v);
// CU-NEXT: __stcs((ulonglong2 *)(d + (0)) + gf_q, *(ulonglong2 *)d_v);
// float and double: 4 a thread, one float4 and two double2 of each array
// CU-LABEL: dv_mixed_k0_v4(
// CU: const GF_I gf_n4 = gf_n0 / 4;
// CU: __align__(16) double y_v[4];
// CU-NEXT: ((double2 *)y_v)[0] = *((const double2 *)(y + (0)) + gf_q * 2 + 0);
// CU-NEXT: ((double2 *)y_v)[1] = *((const double2 *)(y + (0)) + gf_q * 2 + 1);
// CU-NEXT: float x_v[4];
// CU-NEXT: *(float4 *)x_v = __ldcs((const float4 *)(x + (0)) + gf_q);
// CU: __stcs((double2 *)(y + (0)) + gf_q * 2 + 1, ((double2 *)y_v)[1]);
// CU-NEXT: __stcs((float4 *)(z + (0)) + gf_q, *(float4 *)z_v);
// CU: const bool gf_vec = gf_n0 >= 4 && gf_aligned16(gf_d_y + (0)) && gf_aligned16(gf_d_x + (0)) && gf_aligned16(gf_d_z + (0));
// a double sum: the vector body accumulates into the thread's partial
// CU-LABEL: dv_sum_k0_v4(
// CU: *(double2 *)x_v = __ldcs((const double2 *)(x + (0)) + gf_q);
// CU: s += x_v[gf_k] * x_v[gf_k];
// CU: if (gf_vec) { static int gf_cap = 0; if (!gf_cap) gf_cap = gf_resident(dv_sum_k0_v4<int>
// read and written: a plain load, a streaming store
// CU-LABEL: dv_relu_k0_v4(
// CU: *(double2 *)x_v = *((const double2 *)(x + (0)) + gf_q);
// CU: __stcs((double2 *)(x + (0)) + gf_q, *(double2 *)x_v);
// a loop from 1 over arrays on a boundary: the launcher sends it to the scalar kernel
// CU-LABEL: dv_from1_k0_v4(
// CU: *(double2 *)x_v = __ldcs((const double2 *)(x + (1)) + gf_q);
// CU: const bool gf_vec = gf_n0 >= 2 && gf_aligned16(gf_d_y + (1)) && gf_aligned16(gf_d_x + (1));
// short and double: 8 a thread, one uint4 and four double2
// CU-LABEL: dv_short_k0_v4(
// CU: const GF_I gf_n4 = gf_n0 / 8;
// CU: __stcs((double2 *)(y + (0)) + gf_q * 4 + 3, ((double2 *)y_v)[3]);
// char and double (8 apart) and double _Complex: the scalar kernel only
// CU-NOT: dv_char_k0_v4
// CU-NOT: dv_cd_k0_v4
