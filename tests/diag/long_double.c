#include <gpufuse.h>

GPUFUSE void ld(int n, long double *restrict x) // expected-warning {{'long double' has no GPU equivalent}} [-Wgpufuse-type]
{
    for (int i = 0; i < n; i++)
        x[i] = x[i] * 2.0L;
}
