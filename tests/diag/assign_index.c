#include <gpufuse.h>

GPUFUSE void skip(int n, float *restrict x)
{
    for (int i = 0; i < n; i++) {
        x[i] = 0.0f;
        i = i + 1; // expected-warning {{assignment to loop index 'i'}} [-Wgpufuse-loop]
    }
}
