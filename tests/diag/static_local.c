#include <gpufuse.h>

GPUFUSE void counter(int n, int *restrict out)
{
    static int calls; // expected-warning {{static local 'calls' keeps state across calls}} [-Wgpufuse-static]
    for (int i = 0; i < n; i++)
        out[i] = calls;
}
