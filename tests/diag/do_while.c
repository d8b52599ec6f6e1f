#include <gpufuse.h>

GPUFUSE void dw(int n, float *restrict x)
{
    int i = 0;
    do { // expected-warning {{'do'/'while' loops are not supported}} [-Wgpufuse-loop]
        x[i] = 0.0f;
        i++;
    } while (i < n);
}
