/* complex_fn_ref.c - glibc's <complex.h> functions for complex_fn_host.cu:
 * function k of complex_fn.h's table on x + iy (cpow: to the power px + ipy),
 * float and double forms. */
#include <complex.h>

#define CFN_TABLE(S, C)                                                                                      \
    static C (*const tab##S[])(C) = {csqrt##S, clog##S, 0, csin##S, ccos##S, csinh##S, ccosh##S, cproj##S};
CFN_TABLE(f, float _Complex)
CFN_TABLE(, double _Complex)

void cfn_ref_f(int k, float x, float y, float px, float py, float *o)
{
    float _Complex z = __builtin_complex(x, y), r;
    r = k == 2 ? cpowf(z, __builtin_complex(px, py)) : tabf[k](z);
    o[0] = crealf(r), o[1] = cimagf(r);
}

void cfn_ref_d(int k, double x, double y, double px, double py, double *o)
{
    double _Complex z = __builtin_complex(x, y), r;
    r = k == 2 ? cpow(z, __builtin_complex(px, py)) : tab[k](z);
    o[0] = creal(r), o[1] = cimag(r);
}
