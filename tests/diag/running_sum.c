#include <gpufuse.h>

GPUFUSE void prefix(int n, const float *restrict x, float *restrict out)
{
    float acc = 0.0f;
    for (int i = 0; i < n; i++) { // expected-warning {{loop carries a dependence through 'acc'}} [-Wgpufuse-dependence]
        acc += x[i];
        out[i] = acc;
    }
}
