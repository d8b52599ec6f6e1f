#include <gpufuse.h>
#include <math.h>

/* An argmax as a whole nest: refused, saying why (inside a parallel loop it
 * is accepted: tests/golden/minmax_if.c). */
GPUFUSE int argmax(int n, const float *restrict x)
{
    float m = -INFINITY;
    int at = -1;
    for (int i = 0; i < n; i++)
        if (x[i] > m) { // expected-warning {{'m' and 'at' are updated together when a new extreme is found (an argmax)}} [-Wgpufuse-dependence]
            m = x[i];
            at = i;
        }
    return at;
}
