// Integer bit operations and casts.
#include <gpufuse.h>
#include <stdint.h>

GPUFUSE void bits(int n, unsigned shift, const uint32_t *restrict a, const uint32_t *restrict b, uint32_t *restrict out)
{
    for (int i = 0; i < n; i++) {
        uint32_t x = a[i] ^ (b[i] << 3);
        x = (x >> (shift & 15u)) | (x << (32u - (shift & 15u))) ;
        out[i] = (~x & 0xFFFFu) + (uint32_t)(a[i] % 7u) + (uint32_t)(!b[i]);
    }
}

// CHECK-LABEL: region bits
// CHECK: param unsigned int shift
// CHECK: param unsigned int a[] in restrict
// CHECK: for i in [0, n) step 1 ; line 7, parallel
// CHECK: S1: x = ((x >> (shift & 15u)) | (x << (32u - (shift & 15u))))
// CHECK: S2: out[i] = ((((~x) & 0xFFFFu) + (unsigned int)(a[i] % 7u)) + (unsigned int)(!b[i]))

// GCC's bit builtins: gf_<name> in generated code, the builtin on the host
// and CUDA's intrinsic (__popc, __clz, __ffs) on the device; a count and a
// sum over 64-bit words (a reduction of builtin results)
GPUFUSE uint64_t bit_counts(int n, const uint32_t *restrict a, const uint64_t *restrict w, int *restrict out)
{
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        uint32_t v = a[i] | 1u;
        out[4 * i] = __builtin_popcount(a[i]) + __builtin_parity(a[i]);
        out[4 * i + 1] = __builtin_clz(v) - __builtin_ctz(v);
        out[4 * i + 2] = __builtin_ffs((int)a[i]) + __builtin_ffsll((long long)w[i]);
        out[4 * i + 3] = w[i] ? __builtin_clzll(w[i]) + __builtin_ctzl(w[i]) : 64;
        total += (uint64_t)__builtin_popcountll(w[i]);
    }
    return total;
}

// CHECK-LABEL: region bit_counts
// CHECK: out[(4 * i)] = (__builtin_popcount(a[i]) + __builtin_parity(a[i]))
// CU-LABEL: bit_counts_k0
// CU: out[4 * i] = gf_popcount(a[i]) + gf_parity(a[i]);
// CU: out[4 * i + 1] = gf_clz(v) - gf_ctz(v);
// CU: out[4 * i + 3] = w[i] ? gf_clzll((unsigned long long)w[i]) + gf_ctzl(w[i]) : 64;
