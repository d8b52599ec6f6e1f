/* graph_kernels.c - the regions of graph.c (CUDA graphs of repeated calls):
 * three kernels that gpufuse cannot fuse (each nest reads what the one
 * before wrote at other indices), and a stencil with a temporary in the
 * call's scratch.  The C bodies are the reference. */
#include <gpufuse.h>
#include <stdlib.h>

GPUFUSE void chain3(int n, float a, float b, float *restrict y, float *restrict z)
{
    for (int i = 0; i < n; i++)
        y[i] = y[i] * a + b;
    for (int i = 0; i < n; i++)
        z[i] = y[n - 1 - i] - 0.5f * y[i];
    for (int i = 0; i < n; i++)
        y[i] = z[n - 1 - i] * a + z[i];
}

GPUFUSE void smooth3(int n, float a, const float *restrict x, float *restrict out)
{
    float *u = malloc(n * sizeof(float));
    for (int i = 1; i < n - 1; i++)
        u[i] = a * x[i - 1] + x[i + 1] - x[i];
    u[0] = x[0];
    u[n - 1] = x[n - 1];
    for (int i = 1; i < n - 1; i++)
        out[i] = u[i - 1] * u[i + 1];
    out[0] = u[0];
    out[n - 1] = u[n - 1];
    free(u);
}

/* A region in one block (RegionLow.block) of another kind: maps of
 * different lengths and steps, a scalar private to the iteration, a double
 * array, reads at indices no dependence test resolves (so separate kernels,
 * each reading what the one before wrote), and a statement between them
 * that runs as a serial kernel. */
GPUFUSE void mixed3(int n, int m, float s, const float x[restrict n], float u[restrict n], float v[restrict m],
                    double w[restrict n])
{
    for (int i = 0; i < n; i++)
        u[i] = x[i] * s + 0.25f;
    for (int i = 1; i < m; i += 2) {
        float t = u[(i + 1) % n];
        v[i] = t * t + u[(i + 3) % n];
    }
    v[0] = u[n - 1];
    for (int i = 0; i < n; i++)
        w[i] = (double)v[(i * 7) % m] + u[n - 1 - i];
}
