// Flattened subscripts a[i*m + j]: affine in i, j and the parameter m?
// DIFF-SIZE: a = n * m
// DIFF-SIZE: b = n * m
#include <gpufuse.h>

GPUFUSE void flat(int n, int m, const float *restrict a, float *restrict b)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            b[i * m + j] = 2.0f * a[i * m + j];
}

// Flattened subscripts with a parametric row length (i*m + j) are not affine:
// isl cannot express them, so this nest is currently refused (a known gap,
// see docs/language.md); the region does not appear in the IR.
// CHECK-NOT: region flat
// WARN: flat2d.c:8:5: warning: writes to 'b' use a subscript that is not affine {{.*}} 'flat' keeps its CPU body [-Wgpufuse-dependence]
