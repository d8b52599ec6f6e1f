#include <math.h>
#include <stdlib.h>
#include <gpufuse.h>

// The scratch values of the last iteration are read after the loop (live
// out): one copy per iteration would lose them, so 't' is not privatised.
GPUFUSE float last(int n, const float *restrict x, float *restrict y)
{
    float *t = malloc(2 * sizeof *t);
    for (int i = 0; i < n; i++) { // expected-warning {{loop carries a dependence on 't' (an iteration uses what an earlier one wrote); 't' cannot be private to each iteration: it is used after the loop, on line 15, so its last values are live there; no loop of this nest is parallel}} [-Wgpufuse-dependence]
        t[0] = expf(x[i]) * sinf(x[i]) + cosf(x[i]);
        t[1] = t[0] * t[0];
        y[i] = t[1] - t[0];
    }
    float r = t[1];
    free(t);
    return r;
}
