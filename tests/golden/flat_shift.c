// A flattened access whose inner part can leave its row (j + 1 reaches m at
// the end of a row) is not a 2-D access: 'a' stays 1-D with a subscript that
// is not affine, so isl cannot bound what the call reads from it.  The
// launcher finds it before the call by a pass over the loops (plan/inspect.c);
// declaring its size (const float a[n * m + 1]) would stage it whole.
#include <gpufuse.h>

GPUFUSE void shift(int n, int m, const float *restrict a, float *restrict b)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            b[i * m + j] = a[i * m + j + 1] - a[i * m + j];
}
// DIFF-SIZE: a = n * m + 1
// DIFF-SIZE: b = n * m
// CHECK-LABEL: region shift
// REPORT: extents found at run time, pass 1 {{.*}}: 'a'
// CU-LABEL: static void gf_extents_shift_1(int n, int m, long long *gf_rx)
// CU: gf_seen(gf_mn, gf_mx, &gf_n, 0, (long long)(i * m + j + 1)); /* a, line 12 */
// CU-NEXT: gf_seen(gf_mn, gf_mx, &gf_n, 0, (long long)(i * m + j)); /* a, line 12 */
