/* known_mod3_kernels.c - the region of the random generator's seed 910 (default
 * mix, r3_nest2d) that the GPU got wrong (docs/testing.md G8): where a[i][j]
 * was a negative multiple of 3 (there C's y is |t|) the launcher's was c[i].  The fused kernel stores
 * t[i * m + j] and reads it back in `!(a % 3) ? t[..] : c[i]`; NVVM made that
 * one load from a select of the two addresses, through the non-coherent
 * read-only path because c was `const float *__restrict__`.  The kernel now
 * declares c without __restrict__ (emit_cuda.c reads_own_writes). */
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
