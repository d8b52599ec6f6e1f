#include <gpufuse.h>

GPUFUSE void sq(int n, const float *restrict x, float *restrict y) // expected-warning {{cannot tell how much of 'x' the loops touch}} [-Wgpufuse-extent]
{
    for (int i = 0; i < n; i++)
        y[i] = x[i * i];
}
