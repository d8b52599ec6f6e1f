#include <gpufuse.h>
#include <stdio.h>

GPUFUSE void show(int n, const float *restrict x, float *restrict y)
{
    for (int i = 0; i < n; i++) {
        y[i] = x[i];
        printf("%f\n", x[i]); // expected-warning {{'printf' does I/O}} [-Wgpufuse-io]
    }
}
