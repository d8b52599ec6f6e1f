// Colliding `*=` updates through indirect subscripts: a compare-and-swap
// loop on the device (CUDA has no atomic multiply), `omp atomic update` in
// the host plan.  Integer products are exact in any order; floating-point
// ones round in the order the threads arrive (the report says so).
// DIFF-INIT: bin in [0, 16)
// DIFF-INIT: f in [0.9, 1.1)
// DIFF-INIT: d in [0.5, 1.5)
// DIFF-INIT: k in [1, 3)
#include <gpufuse.h>

GPUFUSE void scale_f(int n, const int *restrict bin, const float *restrict f, float h[16])
{
    for (int i = 0; i < n; i++)
        h[bin[i]] *= f[i];
}

// A double factor on float elements (C multiplies in double, then rounds),
// and double elements, under a condition.
GPUFUSE void scale_mixed(int n, const int *restrict bin, const double *restrict d, float h[16], double g[16])
{
    for (int i = 0; i < n; i++) {
        h[bin[i]] *= d[i];
        if (d[i] > 1.0)
            g[bin[i] / 2] *= d[i] - 0.25;
    }
}

// Integer products: exact whatever the order (unsigned wraps as in C).
GPUFUSE void scale_int(int n, const int *restrict bin, const int *restrict k, int h[16],
                       unsigned long long u[16])
{
    for (int i = 0; i < n; i++) {
        h[bin[i]] *= k[i];
        u[bin[i]] *= (unsigned long long)k[i] * 3u + 1u;
    }
}

// CHECK-LABEL: region scale_f
// CHECK: for i in [0, n) step 1 ; line 13, parallel
// CHECK-NEXT: S0: h[bin[i]] *= f[i] ; atomic * on h
// CHECK: deps: [n] -> { }
// CHECK-LABEL: region scale_mixed
// CHECK: for i in [0, n) step 1 ; line 21, parallel
// CHECK: S0: h[bin[i]] *= d[i] ; atomic * on h
// CHECK: S1: g[(bin[i] / 2)] *= (d[i] - 0.25) ; atomic * on g
// CHECK-LABEL: region scale_int
// CHECK: for i in [0, n) step 1 ; line 32, parallel
// CHECK: S0: h[bin[i]] *= k[i] ; atomic * on h
// CHECK-NEXT: S1: u[bin[i]] *= (((unsigned long long)k[i] * 3u) + 1u) ; atomic * on u

// REPORT-LABEL: region scale_f
// REPORT: kernel scale_f_k0 [map, 1-D]: lines 13-14
// REPORT-NEXT: atomic updates to 'h' (floating point: the order of the multiplications, and so the rounding, is not deterministic)
// REPORT-LABEL: region scale_int
// REPORT: atomic updates to 'h' (integer: exact)
// REPORT-NEXT: atomic updates to 'u' (integer: exact)

// CU-LABEL: scale_f_k0(
// CU: { /* atomic *=: compare-and-swap until no other thread changed the element */
// CU-NEXT: float *gf_p = &h[bin[i]];
// CU-NEXT: const float gf_v = f[i];
// CU-NEXT: float gf_old = gf_atomic_load(gf_p), gf_new;
// CU-NEXT: do
// CU-NEXT: gf_new = gf_old * gf_v;
// CU-NEXT: while (!gf_cas(gf_p, &gf_old, gf_new));
// CU-LABEL: gf_host_scale_f(
// CU: #pragma omp atomic update
// CU-NEXT: #endif
// CU-NEXT: h[bin[i]] *= f[i];
// CU-LABEL: scale_mixed_k0(
// CU: const double gf_v = d[i];
// CU-NEXT: float gf_old = gf_atomic_load(gf_p), gf_new;
// CU: gf_new = gf_old * gf_v;
// CU: double *gf_p = &g[bin[i] / 2];
// CU-NEXT: const double gf_v = d[i] - 0.25;
// CU-LABEL: scale_int_k0(
// CU: int *gf_p = &h[bin[i]];
// CU-NEXT: const int gf_v = k[i];
// CU: unsigned long long *gf_p = &u[bin[i]];
// CU-NEXT: const unsigned long long gf_v = (unsigned long long)k[i] * 3u + 1u;
