#include <gpufuse.h>

GPUFUSE void parith(int n, float *restrict x)
{
    for (int i = 0; i < n; i++)
        *(x + i) = 1.0f; // expected-warning {{dereference of something other than a pointer parameter}} [-Wgpufuse-pointer]
}
