#include <gpufuse.h>

struct vec { int n; float *data; };

GPUFUSE void sv(int n, struct vec *restrict v) // expected-warning {{field 'data' of a struct is not of an arithmetic type}} [-Wgpufuse-type]
{
    for (int i = 0; i < n; i++)
        v[i].n = 0;
}
