#include <gpufuse.h>

GPUFUSE int find(int n, const float *restrict x)
{
    for (int i = 0; i < n; i++)
        if (x[i] < 0.0f)
            return i; // expected-warning {{'return' inside a loop leaves it early}} [-Wgpufuse-control]
    return -1;
}
