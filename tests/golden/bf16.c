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

// CHECK-LABEL: region bf_select
// CHECK: param __bf16 a[] in restrict
// CHECK: for i in [0, n) step 1 ; line 9, parallel
// CU: #define GF_USES_BF16 1
// CU: typedef __nv_bfloat16 gf_bf16;
// CU: bf_select_k0(int n, {{.*}}const gf_bf16 *__restrict__ a
// CU: out[i] = m[i] ? a[i] : b[n - 1 - i];
// HOST: typedef __bf16 gf_bf16;
