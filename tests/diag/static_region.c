// A marked function with internal linkage.  (Through the GPUFUSE macro,
// `static GPUFUSE` is already a hard error of clang and gcc: a weak symbol
// cannot be static.  Spelled with the bare annotation, gpufuse must say why.)
#include <gpufuse.h>

__attribute__((annotate("gpufuse"))) static void hidden(int n, float *restrict x) // expected-warning {{a marked function must have external linkage}} [-Wgpufuse-static]
{
    for (int i = 0; i < n; i++)
        x[i] = 0.0f;
}

void use_hidden(int n, float *x) { hidden(n, x); }
