#include <gpufuse.h>

static int fib(int k) { return k < 2 ? k : fib(k - 1) + fib(k - 2); }

GPUFUSE void fibs(int n, int *restrict out)
{
    for (int i = 0; i < n; i++)
        out[i] = fib(i); // expected-warning {{'fib' calls itself}} [-Wgpufuse-call]
}
