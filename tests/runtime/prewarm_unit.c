/* prewarm_unit.c - a unit for test_prewarm.c: its .gf.cu's constructor
 * starts the warm-up (context, this unit's kernels, the staging ring) when
 * the test starts, as in any program built with gpufuse. */
#include <gpufuse.h>

GPUFUSE void pw_axpy(int n, double a, const double x[n], double y[n])
{
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}
