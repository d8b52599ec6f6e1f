/* kernels.c - a static library's marked functions (tests/install: the
 * program must get the launchers, not these weak C bodies). */
#include "kernels.h"

#include <gpufuse.h>

GPUFUSE void axpy(int n, float a, const float *restrict x, float *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] += a * x[i];
}

GPUFUSE double total(int n, const float *restrict x)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += x[i];
    return s;
}

/* Not marked: calls the marked function, which is the launcher too. */
double mean(int n, const float *restrict x) { return n > 0 ? total(n, x) / n : 0.0; }
