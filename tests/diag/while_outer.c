#include <gpufuse.h>

GPUFUSE void wo(int n, float *restrict x)
{
    int i = 0;
    while (i < n) { // expected-warning {{a 'while' loop outside any 'for' loop cannot be parallelised}} [-Wgpufuse-loop]
        x[i] = 0.0f;
        i++;
    }
}
