#include <gpufuse.h>

GPUFUSE void skip_neg(int n, float *restrict x)
{
    for (int i = 0; i < n; i++) {
        if (x[i] < 0.0f)
            continue; // expected-warning {{'break' and 'continue' are not supported yet}} [-Wgpufuse-control]
        x[i] = 1.0f;
    }
}
