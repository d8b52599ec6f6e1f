#include <gpufuse.h>

float total;

GPUFUSE void accumulate(int n, const float *restrict x)
{
    for (int i = 0; i < n; i++)
        total += x[i]; // expected-warning {{global variable 'total' is not visible to a kernel}} [-Wgpufuse-global]
}
