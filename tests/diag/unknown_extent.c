// Plain pointers whose elements neither isl nor the launcher's pass before
// the call (plan/inspect.c) can bound: each says what the pass would need.
#include <gpufuse.h>

// a subscript computed in floating point
GPUFUSE void scaled(int n, float s, const float *restrict x, float *restrict y) // expected-warning {{cannot tell how much of 'x' the loops touch: its subscripts or the loop bounds are not affine, and the launcher cannot find it before the call either (it needs a value of type 'float' (line 9), not an integer)}} [-Wgpufuse-extent]
{
    for (int i = 0; i < n; i++)
        y[i] = x[(int)(i * s)];
}

// indices the function itself computes
GPUFUSE void computed_index(int n, int *restrict idx, const float *restrict x, float *restrict y) // expected-warning {{cannot tell how much of 'x' the loops touch: its subscripts or the loop bounds are not affine, and the launcher cannot find it before the call either (it needs elements of 'idx' (line 18), which 'computed_index' writes)}} [-Wgpufuse-extent]
{
    for (int i = 0; i < n; i++)
        idx[i] = (i * 7) % n;
    for (int i = 0; i < n; i++)
        y[i] = x[idx[i]];
}

// a while loop whose condition reads the array
GPUFUSE void chase(int n, const int *restrict next, float *restrict y) // expected-warning {{cannot tell how much of 'next' the loops touch: its subscripts or the loop bounds are not affine, and the launcher cannot find it before the call either (the condition of the while loop at line 26 reads it)}} [-Wgpufuse-extent]
{
    for (int i = 0; i < n; i++) {
        int j = i;
        while (next[j] >= 0)
            j = next[j];
        y[i] = (float)j;
    }
}

// a helper whose unsigned arithmetic wraps: isl's integers would not, and
// the pass does not call helpers
static int hashi(int i)
{
    int h = (int)(i * 2654435761u);
    return h < 0 ? -h : h;
}

GPUFUSE void hashed(int n, const float *restrict x, float *restrict y) // expected-warning {{cannot tell how much of 'x' the loops touch: its subscripts or the loop bounds are not affine, and the launcher cannot find it before the call either (it needs the call of 'hashi' (line 43))}} [-Wgpufuse-extent]
{
    for (int i = 0; i < n; i++)
        y[i] = x[hashi(i) % 1024];
}
