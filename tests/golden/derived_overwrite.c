// A value derived from a reduction result (deferred: recomputed in the
// kernels that read it), then the result overwritten before those kernels:
// the derived value is computed on the host first, from the old result.
#include <gpufuse.h>

GPUFUSE float derived(int n, const float x[n], float y[n])
{
    float s = 0.0f;
    for (int i = 0; i < n; i++)
        s += x[i];
    float m = s / (float)n;
    s = 0.0f;
    for (int i = 0; i < n; i++)
        s += x[i] * x[i];
    for (int i = 0; i < n; i++)
        y[i] = x[i] - m;
    return s;
}

// CHECK-LABEL: region derived
// CHECK: S2: decl float m = (s / (float)n)
// CHECK-NEXT: S3: s = 0.0f
// REPORT: kernel derived_k0 [reduce, 1-D
// REPORT: kernel derived_k1 [reduce, 1-D
// REPORT-NEXT: reduces into 's'
// the second kernel gets m by value: computed by the host from the first sum
// CU-LABEL: extern "C" float derived(
// CU: derived_k0<int>
// CU: memcpy(&s, gf_pin + 0, sizeof s);
// CU: float m = s / (float)n;
// CU-NEXT: s = 0.0f;
// CU: derived_k1<int><<<{{.*}}>>>(n, m, gf_d_x, gf_d_y, s, gf_part_s, gf_out_s, gf_ticket, gf_n0);
