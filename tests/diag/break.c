#include <gpufuse.h>

GPUFUSE void first_neg(int n, float *restrict x)
{
    for (int i = 0; i < n; i++) {
        if (x[i] < 0.0f)
            break; // expected-warning {{'break' leaves the loop early, so its trip count depends on the data}} [-Wgpufuse-control]
        x[i] = 1.0f;
    }
}
