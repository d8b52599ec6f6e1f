#include <gpufuse.h>

GPUFUSE void apply(int n, float (*f)(float), float *restrict x) // expected-warning {{parameter 'f' is a function pointer}} [-Wgpufuse-call]
{
    for (int i = 0; i < n; i++)
        x[i] = f(x[i]);
}
