// __bf16 is storage only in C here (clang 16 refuses casts and arithmetic on
// it; gcc 12 does not know it): copies, gathers and selections move its 16 bits.
// NO-DIFF: gcc 12 (the driver's compiler) has no __bf16
#include <gpufuse.h>

GPUFUSE void bf_select(int n, const int *restrict m, const __bf16 *restrict a, const __bf16 *restrict b,
                       __bf16 *restrict out)
{
    for (int i = 0; i < n; i++)
        out[i] = m[i] ? a[i] : b[n - 1 - i];
}

// the 16-byte form: 8 elements of each array a thread, moved as bits
GPUFUSE void bf_swap(int n, __bf16 *restrict a, __bf16 *restrict b)
{
    for (int i = 0; i < n; i++) {
        __bf16 t = a[i];
        a[i] = b[i];
        b[i] = t;
    }
}

// CHECK-LABEL: region bf_select
// CHECK: param __bf16 a[] in restrict
// CHECK: for i in [0, n) step 1 ; line 9, parallel
// CU: #define GF_USES_BF16 1
// CU: typedef __nv_bfloat16 gf_bf16;
// CU: bf_select_k0(int n, {{.*}}const gf_bf16 *__restrict__ a
// CU: out[i] = m[i] ? a[i] : b[n - 1 - i];
// HOST: typedef __bf16 gf_bf16;
// CHECK-LABEL: region bf_swap
// CHECK: S0: decl __bf16 t = a[i]
// CU: bf_swap_k0_v4(int n, gf_bf16 *__restrict__ a, gf_bf16 *__restrict__ b
// CU: __align__(16) gf_bf16 a_v[8];
// CU-NEXT: *(uint4 *)a_v = *((const uint4 *)(a + (0)) + gf_q);
// CU: gf_bf16 t = a_v[gf_k];
// CU: __stcs((uint4 *)(b + (0)) + gf_q, *(uint4 *)b_v);
// CU: const bool gf_vec = gf_n0 >= 8 && gf_aligned16(gf_d_a + (0)) && gf_aligned16(gf_d_b + (0));
// REPORT: kernel bf_select_k0 [map, 1-D]:
// REPORT: kernel bf_swap_k0 [map, 1-D, 128-bit vectors]:
