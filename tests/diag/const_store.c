#include <gpufuse.h>

GPUFUSE void cs(int n, const float *x)
{
    for (int i = 0; i < n; i++)
        ((float *)x)[i] = 0.0f; // expected-warning {{subscripted expression is not an array parameter or local array}} [-Wgpufuse-pointer]
}
