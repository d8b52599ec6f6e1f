#include <gpufuse.h>

GPUFUSE void weights(int n, const float *restrict x, float *restrict y)
{
    float w[3] = {0.25f, 0.5f, 0.25f}; // expected-warning {{initialised local arrays are not supported}} [-Wgpufuse-syntax]
    for (int i = 1; i < n - 1; i++)
        y[i] = w[0] * x[i - 1] + w[1] * x[i] + w[2] * x[i + 1];
}
