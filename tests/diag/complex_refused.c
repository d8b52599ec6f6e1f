// Complex types stay refused in marked functions (docs/types.md): the
// diagnostic names the variable and its type; long double _Complex has no
// GPU equivalent at all.  A struct with a _Float16 field is refused too.
#include <gpufuse.h>
#include <complex.h>

GPUFUSE void cmul(int n, const float _Complex *restrict a, float _Complex *restrict b) // expected-warning {{'a' uses the type 'const _Complex float': complex types are not supported in marked functions yet (docs/types.md)}} [-Wgpufuse-type]
{
    for (int i = 0; i < n; i++)
        b[i] = a[i] * b[i];
}

GPUFUSE void ld_abs(int n, const float *restrict a, float *restrict b)
{
    for (int i = 0; i < n; i++) {
        long double _Complex z = a[i] + I; // expected-warning {{'z' uses the type '_Complex long double': 'long double _Complex' has no GPU equivalent}} [-Wgpufuse-type]
        b[i] = (float)cabsl(z);
    }
}

struct hf {
    _Float16 h;
    float f;
};

GPUFUSE void hfield(int n, struct hf *restrict p) // expected-warning {{a struct with a '_Float16' field is not supported (arrays of _Float16 are: docs/types.md)}} [-Wgpufuse-type]
{
    for (int i = 0; i < n; i++)
        p[i].f = p[i].h;
}
