// A plain indirect store (scatter) may collide too.
#include <gpufuse.h>

GPUFUSE void scatter(int n, const int *restrict idx, const float *restrict v, float out[1024])
{
    for (int i = 0; i < n; i++) // expected-warning {{writes to 'out' use a subscript that is not affine}} [-Wgpufuse-dependence]
        out[idx[i]] = v[i];
}
