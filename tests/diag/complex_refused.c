// What stays refused of the complex types (docs/types.md): the diagnostic
// names the variable, the function or the operator, and the function keeps
// its CPU body.  float _Complex and double _Complex themselves are accepted
// (golden complex.c), and so are the float and double forms of csqrt, clog,
// cpow, csin, ccos, csinh, ccosh and cproj (golden complex_math.c); the long
// double forms, ctan, ctanh and the inverse functions stay refused.
#include <gpufuse.h>
#include <complex.h>

GPUFUSE void ld_abs(int n, const float *restrict a, float *restrict b)
{
    for (int i = 0; i < n; i++) {
        long double _Complex z = a[i] + I; // expected-warning {{'z' uses the type '_Complex long double': 'long double _Complex' has no GPU equivalent}} [-Wgpufuse-type]
        b[i] = (float)cabsl(z);
    }
}

GPUFUSE void int_cplx(int n, const int *restrict a, int *restrict b)
{
    for (int i = 0; i < n; i++) {
        _Complex int z = a[i]; // expected-warning {{'z' uses the type '_Complex int': only 'float _Complex' and 'double _Complex' are supported in marked functions}} [-Wgpufuse-type]
        b[i] = __real__ z;
    }
}

GPUFUSE void c_sqrt(int n, const float _Complex *restrict a, float _Complex *restrict b)
{
    for (int i = 0; i < n; i++)
        b[i] = (float _Complex)csqrtl(a[i]); // expected-warning {{'csqrtl' uses the type '_Complex long double': 'long double _Complex' has no GPU equivalent}} [-Wgpufuse-type]
}

GPUFUSE void c_pow(int n, const double _Complex *restrict a, double _Complex *restrict b)
{
    for (int i = 0; i < n; i++)
        b[i] = (double _Complex)cpowl(a[i], 2.0L); // expected-warning {{'cpowl' uses the type '_Complex long double': 'long double _Complex' has no GPU equivalent}} [-Wgpufuse-type]
}

GPUFUSE void c_long(int n, const double _Complex *restrict a, double *restrict b)
{
    for (int i = 0; i < n; i++)
        b[i] = cabsl(a[i]); // expected-warning {{'long double' has no GPU equivalent}} [-Wgpufuse-type]
}

GPUFUSE void c_from_half(int n, const _Float16 *restrict a, float _Complex *restrict b)
{
    for (int i = 0; i < n; i++)
        b[i] = a[i]; // expected-warning {{a '_Float16' value converted to a complex type is not supported; convert it to 'float' first}} [-Wgpufuse-type]
}

GPUFUSE void c_wide(int n, const double *restrict a, float _Complex *restrict b)
{
    for (int i = 0; i < n; i++)
        b[i] *= a[i]; // expected-warning {{'*=' between 'float _Complex' and 'double' is computed in a wider type than its target}} [-Wgpufuse-type]
}

GPUFUSE void c_hist(int n, const int *restrict k, const float _Complex *restrict a, float _Complex *restrict h) 
{
    for (int i = 0; i < n; i++) // expected-warning {{the writes cannot be atomic updates: atomic addition on 'float _Complex' elements is not supported}} [-Wgpufuse-dependence]
        h[k[i] % 16] += a[i];
}

struct cf {
    float _Complex z;
    float f;
};

GPUFUSE void cfield(int n, struct cf *restrict p) // expected-warning {{field 'z' of a struct is complex}} [-Wgpufuse-type]
{
    for (int i = 0; i < n; i++)
        p[i].f = crealf(p[i].z);
}

static float _Complex twice(float _Complex z)
{
    return z + z;
}

GPUFUSE void c_helper(int n, const float _Complex *restrict a, float _Complex *restrict b)
{
    for (int i = 0; i < n; i++)
        b[i] = twice(a[i]); // expected-warning {{helper 'twice' uses '_Complex float', which gpufuse supports in the marked function's own code only}} [-Wgpufuse-call]
}

GPUFUSE void c_gnu_parts(int n, const float _Complex *restrict a, float *restrict b)
{
    for (int i = 0; i < n; i++)
        b[i] = __real__ a[i]; // expected-warning {{'__real__' and '__imag__' are not supported in a fused region; use crealf/cimagf (creal/cimag)}} [-Wgpufuse-syntax]
}

GPUFUSE void c_atan(int n, const float _Complex *restrict a, float _Complex *restrict b)
{
    for (int i = 0; i < n; i++)
        b[i] = catanf(a[i]); // expected-warning {{'catanf' is not compiled for the GPU: the device version available (libcu++'s cuda::std::complex) is up to 10^5 ulps away from glibc's near its poles, branch points or 0 (docs/types.md); 'c_atan' keeps its CPU body}} [-Wgpufuse-call]
}

GPUFUSE void c_tanh(int n, const double _Complex *restrict a, double _Complex *restrict b)
{
    for (int i = 0; i < n; i++)
        b[i] = ctanh(a[i]); // expected-warning {{'ctanh' is not compiled for the GPU: the device version available (libcu++'s cuda::std::complex) is up to 10^5 ulps away from glibc's near its poles, branch points or 0 (docs/types.md); 'c_tanh' keeps its CPU body}} [-Wgpufuse-call]
}
