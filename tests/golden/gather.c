// A read-only gather through an index array; the table is declared with its size.
// DIFF-INIT: idx in [0, 16)
#include <gpufuse.h>

GPUFUSE void gather(int n, const int *restrict idx, const float table[16], float *restrict out)
{
    for (int i = 0; i < n; i++)
        out[i] = table[idx[i]] * 2.0f;
}

// CHECK-LABEL: region gather
// CHECK: param int idx[] in restrict
// CHECK: param float table[16] in
// CHECK: for i in [0, n) step 1 ; line 7, parallel
// CHECK-NEXT: S0: out[i] = (table[idx[i]] * 2.0f)
