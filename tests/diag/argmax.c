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

/* An argmax followed by another condition: the argmax's pair is named (a
 * later `if` used to clear it, and gpufuse crashed). */
GPUFUSE int argmax_then_if(int n, const float *restrict x, int *restrict neg)
{
    float m = -INFINITY;
    int at = -1;
    for (int i = 0; i < n; i++) {
        if (x[i] > m) { // expected-warning {{'m' and 'at' are updated together when a new extreme is found (an argmax)}} [-Wgpufuse-dependence]
            m = x[i];
            at = i;
        }
        if (x[i] < 0)
            neg[i] = 1;
    }
    return at;
}
