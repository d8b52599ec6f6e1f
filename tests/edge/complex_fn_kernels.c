/* complex_fn_kernels.c - every <complex.h> function gpufuse compiles besides
 * creal..cexp, float and double forms, on arrays of inputs (tests/edge/
 * complex_fn.c): out[i][k] is function k of complex_fn.h's table on z[i]
 * (cpow: to the power p[i]).  The C bodies are the glibc reference. */
#include <gpufuse.h>
#include <complex.h>

GPUFUSE void cfn_float(int n, const float _Complex *restrict z, const float _Complex *restrict p,
                       float _Complex out[restrict n][16])
{
    for (int i = 0; i < n; i++) {
        out[i][0] = csqrtf(z[i]);
        out[i][1] = clogf(z[i]);
        out[i][2] = cpowf(z[i], p[i]);
        out[i][3] = csinf(z[i]);
        out[i][4] = ccosf(z[i]);
        out[i][5] = ctanf(z[i]);
        out[i][6] = casinf(z[i]);
        out[i][7] = cacosf(z[i]);
        out[i][8] = catanf(z[i]);
        out[i][9] = csinhf(z[i]);
        out[i][10] = ccoshf(z[i]);
        out[i][11] = ctanhf(z[i]);
        out[i][12] = casinhf(z[i]);
        out[i][13] = cacoshf(z[i]);
        out[i][14] = catanhf(z[i]);
        out[i][15] = cprojf(z[i]);
    }
}

GPUFUSE void cfn_double(int n, const double _Complex *restrict z, const double _Complex *restrict p,
                        double _Complex out[restrict n][16])
{
    for (int i = 0; i < n; i++) {
        out[i][0] = csqrt(z[i]);
        out[i][1] = clog(z[i]);
        out[i][2] = cpow(z[i], p[i]);
        out[i][3] = csin(z[i]);
        out[i][4] = ccos(z[i]);
        out[i][5] = ctan(z[i]);
        out[i][6] = casin(z[i]);
        out[i][7] = cacos(z[i]);
        out[i][8] = catan(z[i]);
        out[i][9] = csinh(z[i]);
        out[i][10] = ccosh(z[i]);
        out[i][11] = ctanh(z[i]);
        out[i][12] = casinh(z[i]);
        out[i][13] = cacosh(z[i]);
        out[i][14] = catanh(z[i]);
        out[i][15] = cproj(z[i]);
    }
}
