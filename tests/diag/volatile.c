#include <gpufuse.h>

GPUFUSE void vol(int n, volatile float *x) // expected-warning {{'volatile' data cannot be reordered}} [-Wgpufuse-volatile]
{
    for (int i = 0; i < n; i++)
        x[i] = 0.0f;
}
