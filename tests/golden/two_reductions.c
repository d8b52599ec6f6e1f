// Two reductions in one inner loop.  PolyBench bicg: s[j] accumulates over
// i (a column sum) while q[i] accumulates over j (a row sum), so neither
// loop of the nest is parallel as written.  The statements are independent
// of each other: the i loop is distributed through its inner loop, each
// piece with its own copy of the j loop; the column sums become a parallel
// j loop (interchanged) and the row sums a parallel i loop.
#include <gpufuse.h>

GPUFUSE void bicg(int m, int n, const double A[n][m], double s[m], double q[n], const double p[m],
                  const double r[n])
{
    for (int i = 0; i < m; i++)
        s[i] = 0;
    for (int i = 0; i < n; i++) {
        q[i] = 0.0;
        for (int j = 0; j < m; j++) {
            s[j] = s[j] + r[i] * A[i][j];
            q[i] = q[i] + A[i][j] * p[j];
        }
    }
}

// The compound forms, and a statement after the inner loop.
GPUFUSE void bicg_plus(int m, int n, const float A[n][m], float s[m], float q[n], const float p[m],
                       const float r[n])
{
    for (int i = 0; i < n; i++) {
        q[i] = 0.0f;
        for (int j = 0; j < m; j++) {
            s[j] += r[i] * A[i][j];
            q[i] += A[i][j] * p[j];
        }
        q[i] = q[i] * 0.5f;
    }
}

// Two scalar accumulators in one inner loop: the row loop is parallel.
GPUFUSE void moments(int n, int m, const float A[n][m], float mean[n], float sq[n])
{
    for (int i = 0; i < n; i++) {
        float s1 = 0.0f, s2 = 0.0f;
        for (int j = 0; j < m; j++) {
            s1 += A[i][j];
            s2 += A[i][j] * A[i][j];
        }
        mean[i] = s1 / (float)m;
        sq[i] = s2 / (float)m;
    }
}

// CHECK-LABEL: region bicg
// CHECK: for j in [0, m) step 1 ; line 14, parallel
// CHECK-NEXT: block
// CHECK-NEXT: for i_2 in [0, n) step 1 ; line 16, sequential
// CHECK: S2: s[j] = (s[j] + (r[i_2] * A[i_2][j]))
// CHECK: for i_3 in [0, n) step 1 ; line 14, parallel
// CHECK-NEXT: block
// CHECK-NEXT: for j_1 in [0, m) step 1 ; line 16, sequential
// CHECK: S3: q[i_3] = (q[i_3] + (A[i_3][j_1] * p[j_1]))
// CHECK-LABEL: region bicg_plus
// CHECK: for j in [0, m) step 1 ; line 27, parallel
// CHECK: S1: s[j] += (r[i_1] * A[i_1][j])
// CHECK: for i_2 in [0, n) step 1 ; line 27, parallel
// CHECK: S2: q[i_2] += (A[i_2][j_1] * p[j_1])
// CHECK: for i_3 in [0, n) step 1 ; line 27, parallel
// CHECK: S3: q[i_3] = (q[i_3] * 0.5f)
// CHECK-LABEL: region moments
// CHECK: for i in [0, n) step 1 ; line 40, parallel
// REPORT: region bicg
// REPORT: line 14: loop 'i' distributed into 3 loops by the dependences between its statements (isl), in this order: line 15 (parallel), line 17 (sequential: its statements depend on earlier iterations), line 18 (parallel)
// REPORT: region bicg_plus
// REPORT: line 27: loop 'i' distributed into 4 loops by the dependences between its statements (isl), in this order: line 28 (parallel), line 30 (sequential: its statements depend on earlier iterations), line 31 (parallel), line 33 (parallel)
