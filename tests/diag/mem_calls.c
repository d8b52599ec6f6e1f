// memset and memcpy that are not the loop of one element type over a
// one-dimensional array (parse.c mem_stmt): each says why.
#include <gpufuse.h>
#include <string.h>

typedef struct { float x, y; } pt;

GPUFUSE void nonzero_float(int n, float *restrict y)
{
    memset(y, 1, n * sizeof(float)); // expected-warning {{memset of 'float' elements with a nonzero byte (1) sets bytes, not values; write the loop}} [-Wgpufuse-call]
}

GPUFUSE void bytes_of_floats(int n, float *restrict y)
{
    memset(y, 0, n); // expected-warning {{memset's size is not a count of 'float' elements ('n * sizeof(float)', 'n * sizeof *a', or a constant multiple of 4)}} [-Wgpufuse-call]
}

GPUFUSE void two_types(int n, float *restrict y, const int *restrict k)
{
    memcpy(y, k, n * sizeof(float)); // expected-warning {{memcpy between arrays of different element types ('float' and 'int') copies bytes, not values; write the loop}} [-Wgpufuse-call]
}

GPUFUSE void structs(int n, pt *restrict p)
{
    memset(p, 0, n * sizeof *p); // expected-warning {{memset of 'pt' elements is not supported (arithmetic elements only); write the loop}} [-Wgpufuse-call]
}

GPUFUSE void two_d(int n, int m, float a[n][m])
{
    memset(a, 0, sizeof(float) * n * m); // expected-warning {{memset's destination is not a one-dimensional array parameter or temporary, at its start or at an offset ('a', 'a + k', '&a[k]')}} [-Wgpufuse-call]
}

GPUFUSE void value_unknown(int n, int v, unsigned char *restrict b)
{
    memset(b, v, n); // expected-warning {{memset's value is not a constant}} [-Wgpufuse-call]
}
