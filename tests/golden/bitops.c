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
