// Flattened subscripts a[i*m + j]: i*m is not affine, but every access of a
// and b splits as [i][j] with rows of length m, and isl proves 0 <= j < m, so
// gpufuse analyses them as 2-D arrays (delinearisation) and the extents it
// stages are the flattened box corners.
// DIFF-SIZE: a = n * m
// DIFF-SIZE: b = n * m
#include <gpufuse.h>

GPUFUSE void flat(int n, int m, const float *restrict a, float *restrict b)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            b[i * m + j] = 2.0f * a[i * m + j];
}

// CHECK: region flat
// CHECK: for i in [0, n) step 1 {{.*}} parallel
// CHECK: for j in [0, m) step 1 {{.*}} parallel
// CHECK: S0: b[((i * m) + j)] = (2.0f * a[((i * m) + j)])
// REPORT: kernel flat_k0 [map, 2-D]
