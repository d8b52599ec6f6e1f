#include <math.h>
#include <stdlib.h>
#include <gpufuse.h>

// Each iteration reads the t[0] the previous one wrote (a flow dependence
// carried by the loop, found by isl's value-based analysis): 't' is not
// scratch that each iteration overwrites, and it cannot be privatised.
GPUFUSE void chain(int n, const float *restrict x, float *restrict y)
{
    float *t = malloc(2 * sizeof *t);
    for (int i = 0; i < n; i++) { // expected-warning {{'t' cannot be private to each iteration: an iteration of 'i' reads elements of 't' that an earlier iteration wrote}} [-Wgpufuse-dependence]
        if (i == 0)
            t[0] = 0.0f;
        t[1] = t[0] * 0.5f + x[i];
        t[0] = expf(t[1]);
        y[i] = t[0];
    }
    free(t);
}

// A write under a condition isl cannot see (on data) may not happen: the
// read may see an earlier iteration's value.
GPUFUSE void maybe(int n, const float *restrict x, float *restrict y)
{
    float t[1];
    for (int i = 0; i < n; i++) { // expected-warning {{'t' cannot be private to each iteration: an iteration of 'i' reads elements of 't' that an earlier iteration wrote}} [-Wgpufuse-dependence]
        if (x[i] > 0.0f)
            t[0] = x[i];
        y[i] = t[0];
    }
}
