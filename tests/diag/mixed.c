// One rejected and one accepted region in the same file: only the accepted one
// gets a launcher.
#include <gpufuse.h>

GPUFUSE void good(int n, float *restrict x)
{
    for (int i = 0; i < n; i++)
        x[i] = x[i] + 1.0f;
}

GPUFUSE void bad(int n, float *restrict x)
{
    for (int i = 1; i < n; i++) // expected-warning {{loop carries a dependence on 'x'}} [-Wgpufuse-dependence]
        x[i] = x[i - 1] * 0.5f;
}
