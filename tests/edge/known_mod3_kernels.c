/* known_mod3_kernels.c - the region of the random generator's seed 910 (default
 * mix, r3_nest2d) that the GPU gets wrong (docs/testing.md, open GPU bugs):
 * where a[i][j] is a negative multiple of 3 the launcher's y is c[i], as if
 * a % 3 were unsigned.  ptxas -O0 gives the right answer. */
#include <gpufuse.h>
#include <math.h>
#include <stdlib.h>

GPUFUSE void nest_mod3(int n, int m, int a[n][m], const float *b, float c[n], double y[n][m], int s0)
{
    float *t = malloc(n * m * sizeof(float));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            t[i * m + j] = (!(s0 % 3) ? (((float)s0 * 0.01f) * (a[i][j] * 0.01f) + fmaxf(c[i], c[i])) : fabsf(expf(-fabsf(c[i]))));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            if (b[j] >= -0.509f)
                y[i][j] = fmax((double)c[i], fabs((!(a[i][j] % 3) ? (double)t[i * m + j] : (double)c[i])));
            else
                y[i][j] = sqrt(fabs(fmin((double)c[i], 0.1833)) + 1.0);
        }
    free(t);
}
