// What stays refused with _Float16: by-value parameters and returns (the
// CUDA launcher is C++, which has no _Float16 to receive them in its SSE
// register), helpers written with it, and sums in half (C rounds every step).
#include <gpufuse.h>

GPUFUSE void scale(int n, _Float16 s, _Float16 *restrict x) // expected-warning {{parameter 's' is a '_Float16' passed by value, which the CUDA launcher cannot receive (C++ has no such type); pass it as 'float' or through a pointer}} [-Wgpufuse-type]
{
    for (int i = 0; i < n; i++)
        x[i] = x[i] * s;
}

GPUFUSE _Float16 first(int n, const _Float16 *restrict x) // expected-warning {{a marked function cannot return '_Float16' by value (the CUDA launcher has no such C++ type); return 'float' or store the result through a pointer}} [-Wgpufuse-type]
{
    return n > 0 ? x[0] : 0;
}

static _Float16 twice(_Float16 v) { return v + v; }

GPUFUSE void helper(int n, _Float16 *restrict x)
{
    for (int i = 0; i < n; i++)
        x[i] = twice(x[i]); // expected-warning {{uses '_Float16', which gpufuse supports in the marked function's own code only}} [-Wgpufuse-call]
}

GPUFUSE void hsum(int n, const _Float16 *restrict x, _Float16 *restrict out)
{
    _Float16 s = 0;
    for (int i = 0; i < n; i++) // expected-warning {{a '_Float16' sum or product rounds to half at every step, which no parallel order reproduces; accumulate in 'float'}} [-Wgpufuse-dependence]
        s += x[i];
    out[0] = s;
}
