#include <gpufuse.h>

GPUFUSE void recur(int n, float *a, const float *restrict b)
{
    for (int i = 1; i < n; i++) // expected-warning {{loop carries a dependence on 'a'}} [-Wgpufuse-dependence]
        a[i] = a[i - 1] + b[i];
}
