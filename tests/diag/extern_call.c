#include <gpufuse.h>

float transform(float x); /* defined in another file */

GPUFUSE void ext(int n, float *restrict x)
{
    for (int i = 0; i < n; i++)
        x[i] = transform(x[i]); // expected-warning {{'transform' is not a math function nor a pure static helper}} [-Wgpufuse-call]
}
