#include <gpufuse.h>

GPUFUSE void sw(int n, const int *restrict k, float *restrict y)
{
    for (int i = 0; i < n; i++) {
        switch (k[i]) { // expected-warning {{'switch' is not supported yet}} [-Wgpufuse-control]
        case 0: y[i] = 1.0f; break;
        default: y[i] = 0.0f; break;
        }
    }
}
