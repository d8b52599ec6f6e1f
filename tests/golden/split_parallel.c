// A parallel loop whose body holds an inner parallel loop among statements
// that run in order (priv.c, try_split_parallel): the inner loop gets a
// copy of the outer loop of its own and becomes a 2-D map (one thread per
// element) instead of a loop each of the outer loop's threads walks; fusion
// (deps.c, fuse.c) does not put it back (ir_hides_parallel).  A 2-D map's
// threads run along the loop its accesses are contiguous in (lower.c,
// lower_grid_x), the innermost loop as written or not.
#include <math.h>
#include <gpufuse.h>

// PolyBench gramschmidt's column step: the dot product (a sequential loop
// per column) and the update of the trailing columns, split; the update
// runs along j, the contiguous index, though i is the inner loop.
GPUFUSE void column_step(int m, int n, int k, double A[m][n], double R[n][n], const double Q[m][n])
{
    for (int j = k + 1; j < n; j++) {
        R[k][j] = 0.0;
        for (int i = 0; i < m; i++)
            R[k][j] += Q[i][k] * A[i][j];
        for (int i = 0; i < m; i++)
            A[i][j] = A[i][j] - Q[i][k] * R[k][j];
    }
}

// Kept together: a scalar of the body crosses the pieces (s is read by the
// second loop), a constant few inner trips (c), an inner loop beside a
// parallel loop nested deeper (the tiled product's form).
GPUFUSE void kept(int n, int m, const float x[n][m], float y[n][m], float z[n][3], float w[n][m], const float a[m][m])
{
    for (int i = 0; i < n; i++) {
        float s = 0.0f;
        for (int j = 0; j < m; j++)
            s = s > x[i][j] ? s : x[i][j];
        for (int j = 0; j < m; j++)
            y[i][j] = x[i][j] / (1.0f + s);
    }
    for (int i = 0; i < n; i++) {
        z[i][0] = 0.0f;
        for (int j = 1; j < m; j++)
            z[i][0] = z[i][0] * 0.5f + x[i][j];
        for (int c = 1; c < 3; c++)
            z[i][c] = z[i][0] * (float)c;
    }
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < m; j++)
            w[i][j] *= 2.0f;
        for (int l = 0; l < m; l++)
            for (int j = 0; j < m; j++)
                w[i][j] += x[i][l] * a[l][j];
    }
}

// Transposed access alone: the threads run along i (the last subscript of
// every access), the outer loop as written.
GPUFUSE void transpose_scale(int n, int m, const float x[m][n], float y[m][n])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            y[j][i] = 2.0f * x[j][i] + sqrtf(fabsf(x[j][i]));
}
// CHECK-LABEL: region column_step
// CHECK: for j in [(k + 1), n) step 1  ; line 16, parallel
// CHECK-NEXT: block
// CHECK-NEXT: S0: R[k][j] = 0.0
// CHECK-NEXT: for i in [0, m) step 1  ; line 18, sequential
// CHECK: for j_1 in [(k + 1), n) step 1  ; line 16, parallel
// CHECK-NEXT: block
// CHECK-NEXT: for i_1 in [0, m) step 1  ; line 20, parallel
// REPORT-LABEL: region column_step
// REPORT: kernel column_step_k0 [map, 1-D]: lines 16-19
// REPORT-NEXT: kernel column_step_k1 [map, 2-D, threads along 'j' (contiguous)]: lines 16-21
// REPORT-NEXT: line 16: loop 'j' distributed into 2 loops so that its inner parallel loops run as maps of their own (one thread per element, not a loop in each thread), in this order: lines 17-19 (parallel), lines 20-21 (parallel)
// REPORT: line 16: not fused with kernel column_step_k0: one of them has a parallel loop more (it would run in each thread of the other's)
// REPORT-LABEL: region kept
// REPORT-NOT: distributed into
// REPORT: region transpose_scale
// REPORT-NEXT: kernel transpose_scale_k0 [map, 2-D, threads along 'i' (contiguous)]
// CU-LABEL: column_step_k1(
// CU: const int j_1 = (int)(k + 1 + (gf_x) * 1);
// CU: const int i_1 = (int)(0 + (gf_y) * 1);
// CU-LABEL: transpose_scale_k0(
// CU: const int i = (int)(0 + (gf_x) * 1);
// CU: const int j = (int)(0 + (gf_y) * 1);
