// Stencils over a cheap producer: the producer nest is recomputed at each
// neighbouring read instead of being stored (SPEC §2).  Not when the
// consumer writes what the producer reads, nor when every read is at the
// producer's own point (vertical fusion keeps that value in a register).
#include <gpufuse.h>
#include <stdlib.h>

GPUFUSE void smooth_sq(int n, const float *restrict x, float *restrict y)
{
    float *t = malloc(n * sizeof *t);
    for (int i = 0; i < n; i++)
        t[i] = x[i] * x[i];
    for (int i = 1; i < n - 1; i++)
        y[i] = 0.25f * t[i - 1] + 0.5f * t[i] + 0.25f * t[i + 1];
    free(t);
}

GPUFUSE void heat_src(int steps, int n, float u[n][n], float v[n][n], const float s[n][n], float dt)
{
    float q[n][n];
    for (int k = 0; k < steps; k++) {
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                q[i][j] = u[i][j] + dt * s[i][j];
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++)
                v[i][j] = 0.2f * (q[i][j] + q[i - 1][j] + q[i + 1][j] + q[i][j - 1] + q[i][j + 1]);
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++)
                u[i][j] = v[i][j];
    }
}

GPUFUSE void overwrite(int n, float *restrict x, float *restrict y)
{
    float *t = malloc(n * sizeof *t);
    for (int i = 0; i < n; i++)
        t[i] = x[i] + 1.0f;
    for (int i = 1; i < n; i++) {
        y[i] = t[i - 1];
        x[i] = 0.0f;
    }
    free(t);
}

// CHECK-LABEL: region smooth_sq
// CHECK-NOT: decl float
// CHECK: for i_1 in [1, (n - 1)) step 1 ; line 13, parallel
// CHECK-NEXT: S2: y[i_1] = (((0.25f * (x[(i_1 - 1)] * x[(i_1 - 1)])) + (0.5f * (x[i_1] * x[i_1]))) + (0.25f * (x[(i_1 + 1)] * x[(i_1 + 1)])))
// CHECK-LABEL: region heat_src
// CHECK: for k in [0, steps) step 1 ; line 21, sequential
// CHECK-NOT: q[
// CHECK: S3: u[i_2][j_2] = v[i_2][j_2]
// CHECK-LABEL: region overwrite
// CHECK: S1: t[i] = (x[i] + 1.0f)
// REPORT-LABEL: region smooth_sq
// REPORT: 1 loop nest -> 1 kernel
// REPORT: line 11: the nest filling 't' is recomputed where 't' is read (3 reads, lines 13-14): 't' is never stored
// REPORT-LABEL: region heat_src
// REPORT: line 22: the nest filling 'q' is recomputed where 'q' is read (5 reads, lines 25-27): 'q' is never stored
// REPORT-LABEL: region overwrite
// REPORT-NOT: recomputed
