#include <gpufuse.h>

GPUFUSE void sw(int n, const int *restrict k, float *restrict y)
{
    for (int i = 0; i < n; i++) {
        switch (k[i]) {
        case 0:
            y[i] = 1.0f;
        case 1: // expected-warning {{this case is reached by falling through from the one before}} [-Wgpufuse-control]
            y[i] = 2.0f;
            break;
        default: y[i] = 0.0f; break;
        }
    }
}

GPUFUSE void nested_break(int n, const int *restrict k, float *restrict y)
{
    for (int i = 0; i < n; i++) {
        switch (k[i]) {
        case 0:
            if (y[i] > 0.0f)
                break; // expected-warning {{a 'break' under a condition inside a case is not supported}} [-Wgpufuse-control]
            y[i] = 1.0f;
            break;
        default: y[i] = 0.0f;
        }
    }
}
