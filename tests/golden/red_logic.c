// Logical and bitwise reductions: &&, ||, &, |, ^.
#include <gpufuse.h>

GPUFUSE int logic(int n, const int *restrict v)
{
    int all = 1, any = 0, band = -1, bor = 0, bx = 0;
    for (int i = 0; i < n; i++) {
        all = all && (v[i] > 0);
        any = any || (v[i] > 90);
        band &= v[i];
        bor |= v[i];
        bx ^= v[i];
    }
    return all + 2 * any + 4 * (band & 7) + 32 * (bor & 7) + 256 * (bx & 255);
}

// CHECK-LABEL: region logic
// CHECK: for i in [0, n) step 1 ; line 7, parallel reduction
// CHECK: S5: gf_u_all = (gf_u_all && (v[i] > 0)) ; reduction && on gf_u_all
// CHECK-NEXT: S6: gf_u_any = (gf_u_any || (v[i] > 90)) ; reduction || on gf_u_any
// CHECK-NEXT: S7: band &= v[i] ; reduction & on band
// CHECK-NEXT: S8: bor |= v[i] ; reduction | on bor
// CHECK-NEXT: S9: bx ^= v[i] ; reduction ^ on bx
