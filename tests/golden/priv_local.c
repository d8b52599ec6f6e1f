// A fixed-size local array declared inside a parallel loop's body is
// private to each iteration (C gives every iteration a fresh one): a
// per-thread array in the kernel, a local of the iteration on the host.
// Its accesses are expanded over the loop in the isl model (like a local
// scalar), so they carry no dependence and 'i' is parallel.
#include <math.h>
#include <gpufuse.h>

GPUFUSE void mirror_rows(int n, const float x[n][64], float y[n][64])
{
    for (int i = 0; i < n; i++) {
        float t[64];
        for (int j = 0; j < 64; j++)
            t[j] = expf(x[i][j]) * sinf(x[i][j]);
        for (int j = 0; j < 64; j++)
            y[i][j] = t[j] + t[63 - j];
    }
}

// Elements read before any write of the iteration hold whatever C leaves
// there (indeterminate): no dependence is made up for them, nothing is
// refused.  Here every read follows a write.
GPUFUSE float last_pair(int n, const float x[n][2])
{
    float s = 0.0f;
    for (int i = 0; i < n; i++) {
        float p[2];
        p[1] = x[i][0] * x[i][1];
        p[0] = p[1] + x[i][0];
        s += p[0] - p[1];
    }
    return s;
}

// CHECK-LABEL: region mirror_rows
// CHECK: for i in [0, n) step 1  ; line 11, parallel
// CHECK-NEXT: block
// CHECK-NEXT: S0: decl float t[64]
// CHECK-NEXT: for j in [0, 64) step 1  ; line 13, parallel
// CHECK: for j_1 in [0, 64) step 1  ; line 15, parallel
// CHECK-NEXT: S2: y[i][j_1] = (t[j_1] + t[(63 - j_1)])
// CHECK: deps: {{.*}}S1[i, j] -> S2[i' = i, j_1 = 63 - j]
// CHECK-LABEL: region last_pair
// CHECK: for i in [0, n) step 1  ; line 26, parallel reduction
// CHECK-NEXT: block
// CHECK-NEXT: S1: decl float p[2]
// REPORT: region mirror_rows ({{.*}}): 1 loop nest -> 1 kernel
// REPORT-NEXT: kernel mirror_rows_k0 [map, 1-D]: lines 11-17
// REPORT-NEXT: line 12: local array 't' (64 elements) is private to each iteration of loop 'i': a per-thread array on the GPU
// REPORT: region last_pair ({{.*}}): 1 loop nest -> 1 kernel
// REPORT-NEXT: kernel last_pair_k0 [reduce, 1-D, deterministic reduction]: lines 26-31
// REPORT: line 27: local array 'p' (2 elements) is private to each iteration of loop 'i'
// CU-LABEL: void __launch_bounds__(GF_THREADS) mirror_rows_k0(int n, const float *x, float *y, GF_I gf_n0)
// CU: const int i = (int)(0 + gf_t);
// CU-NEXT: float t[64]; /* private to each iteration */
// CU-NEXT: for (int j = 0; j < 64; j++) {
// CU-NEXT: t[j] = expf(x[((GF_I)i * 64 + j)]) * sinf(x[((GF_I)i * 64 + j)]);
// CU: y[((GF_I)i * 64 + j_1)] = t[j_1] + t[63 - j_1];
// CU-LABEL: static void gf_host_mirror_rows(
// CU: #pragma omp parallel for
// CU-NEXT: #endif
// CU-NEXT: for (int i = 0; i < n; i++) {
// CU-NEXT: float t[64]; /* private to each iteration */
// CU-LABEL: extern "C" void mirror_rows(
// CU-NOT: temporary 't'
// CU: gf_launch(gf_c, "mirror_rows_k0", mirror_rows_k0<int>, 
