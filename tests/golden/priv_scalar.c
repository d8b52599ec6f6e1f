// A scalar declared outside its loop, written before it is read in every
// iteration (PolyBench symm's temp2): isl's value-based flow shows each
// iteration reads only its own value, so the declaration moves into the
// loop (one per thread) and the loop is parallel.
#include <gpufuse.h>

GPUFUSE void symm(int m, int n, double alpha, double beta, double C[m][n], const double A[m][m],
                  const double B[m][n])
{
    double temp2;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            temp2 = 0;
            for (int k = 0; k < i; k++) {
                C[k][j] += alpha * B[i][j] * A[i][k];
                temp2 += B[k][j] * A[i][k];
            }
            C[i][j] = beta * C[i][j] + alpha * B[i][j] * A[i][i] + alpha * temp2;
        }
}

// Declared with an initial value, which no iteration reads; each goes into
// the innermost loop that holds all its uses, so both loops are parallel.
GPUFUSE void rowscale(int n, int m, float y[n][m], const float x[n][m])
{
    float s = 0.0f, t = 1.0f;
    for (int i = 0; i < n; i++) {
        s = x[i][0] * 0.5f;
        for (int j = 0; j < m; j++) {
            t = x[i][j] + s;
            y[i][j] = t * t;
        }
    }
}

// CHECK-LABEL: region symm
// CHECK: for j in [0, n) step 1 ; line 11, parallel
// CHECK-NEXT: for i in [0, m) step 1 ; line 12, sequential
// CHECK-NEXT: block
// CHECK-NEXT: S0: decl double temp2
// CHECK-NEXT: S1: temp2 = 0
// CHECK-NEXT: for k in [0, i) step 1 ; line 14, parallel reduction
// CHECK: temp2 += (B[k][j] * A[i][k]) ; reduction + on temp2
// CHECK-LABEL: region rowscale
// CHECK-NOT: decl float s = 0.0f
// CHECK: for i in [0, n) step 1 ; line 27, parallel
// CHECK-NEXT: block
// CHECK-NEXT: S0: decl float s
// CHECK-NEXT: S2: s = (x[i][0] * 0.5f)
// CHECK-NEXT: for j in [0, m) step 1 ; line 29, parallel
// CHECK-NEXT: block
// CHECK-NEXT: S1: decl float t
// REPORT: region symm
// REPORT: line 10: scalar 'temp2' is private to each iteration of loop 'j' (line 12; isl: every value read is written earlier in the same iteration): declared inside the loop
// REPORT: region rowscale
// REPORT: line 26: scalar 's' is private to each iteration of loop 'i' (line 27; isl: every value read is written earlier in the same iteration): declared inside the loop
// REPORT: line 26: scalar 't' is private to each iteration of loop 'j' (line 29; isl: every value read is written earlier in the same iteration): declared inside the loop
// symm_k0's own kernel runs a thread per row; when it is not a library call
// the launcher runs the tiled symmetric product instead (gf_symm_tiled, A's
// lower triangle, left side), and weighs its 4e-4 ns per multiply-add against
// cuBLAS's first use (gf_blas_use): at PolyBench's LARGE sizes the tiled
// product runs until cuBLAS is loaded
// CU: const bool gf_lib_symm_k0 = {{.*}} && gf_blas_use(gf_c, (double)(long long)(m) * (long long)(n) * (long long)(m) * 0.00036);
// CU: gf_symm_tiled<double><<<gf_symm_grid((long long)(m), (long long)(n)), 256, 0, gf_s>>>({{.*}}, 0, 0);
// CU-NEXT: gf_call_check(gf_c, cudaGetLastError(), "symm_k0");
// CU-NEXT: } else {
