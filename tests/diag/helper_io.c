#include <gpufuse.h>
#include <stdio.h>

static float logged(float x) { fprintf(stderr, "%g\n", x); return x; }

GPUFUSE void use_io(int n, float *restrict x)
{
    for (int i = 0; i < n; i++)
        x[i] = logged(x[i]) + 1.0f; // expected-warning {{helper 'logged' calls 'fprintf'}} [-Wgpufuse-call]
}
