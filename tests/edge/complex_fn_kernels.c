/* complex_fn_kernels.c - the <complex.h> functions gpufuse compiles besides
 * creal..cexp (csqrt, clog, cpow, csin, ccos, csinh, ccosh, cproj), float
 * and double forms, on arrays of inputs (tests/edge/
 * complex_fn.c): out[i][k] is function k of complex_fn.h's table on z[i]
 * (cpow: to the power p[i]).  The C bodies are the glibc reference. */
#include <gpufuse.h>
#include <complex.h>

GPUFUSE void cfn_float(int n, const float _Complex *restrict z, const float _Complex *restrict p,
                       float _Complex out[restrict n][8])
{
    for (int i = 0; i < n; i++) {
        out[i][0] = csqrtf(z[i]);
        out[i][1] = clogf(z[i]);
        out[i][2] = cpowf(z[i], p[i]);
        out[i][3] = csinf(z[i]);
        out[i][4] = ccosf(z[i]);
        out[i][5] = csinhf(z[i]);
        out[i][6] = ccoshf(z[i]);
        out[i][7] = cprojf(z[i]);
    }
}

GPUFUSE void cfn_double(int n, const double _Complex *restrict z, const double _Complex *restrict p,
                        double _Complex out[restrict n][8])
{
    for (int i = 0; i < n; i++) {
        out[i][0] = csqrt(z[i]);
        out[i][1] = clog(z[i]);
        out[i][2] = cpow(z[i], p[i]);
        out[i][3] = csin(z[i]);
        out[i][4] = ccos(z[i]);
        out[i][5] = csinh(z[i]);
        out[i][6] = ccosh(z[i]);
        out[i][7] = cproj(z[i]);
    }
}
