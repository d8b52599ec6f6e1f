/* kernels.c - two ordinary C functions marked GPUFUSE.  A plain C compiler
 * sees weak definitions (the CPU bodies); gpufuse turns each into fused CUDA
 * kernels and a launcher of the same name, which wins at link time. */
#include <gpufuse.h>
#include <math.h>
#include <stdlib.h>

/* y = a*x + y: one kernel. */
GPUFUSE void saxpy(int n, float a, const float *restrict x, float *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}

/* Two loops and a temporary, fused into one kernel; the temporary never
 * reaches memory.  Returns the sum of the results (a fused reduction). */
GPUFUSE double smooth_sum(int n, const float *restrict x, float *restrict out)
{
    float *t = malloc(n * sizeof(float));
    for (int i = 0; i < n; i++)
        t[i] = sqrtf(x[i] * x[i] + 1.0f);
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        out[i] = 0.5f * t[i];
        s += out[i];
    }
    free(t);
    return s;
}
