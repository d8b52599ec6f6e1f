/* complex_ops_ref.c - C's complex operators as gcc (or clang) computes them
 * at default flags, for tests/edge/complex_ops.cu: op 0 a*b, 1 a/b, 2 x/b
 * (real over complex), 3 a/x, 4 x*b. */
#include <complex.h>

void cx_ref_f(int op, float a, float b, float c, float d, float *o)
{
    float _Complex x = __builtin_complex(a, b), y = __builtin_complex(c, d), r;
    switch (op) {
    case 0: r = x * y; break;
    case 1: r = x / y; break;
    case 2: r = a / y; break;
    case 3: r = x / c; break;
    default: r = a * y; break;
    }
    o[0] = crealf(r), o[1] = cimagf(r);
}

void cx_ref_d(int op, double a, double b, double c, double d, double *o)
{
    double _Complex x = __builtin_complex(a, b), y = __builtin_complex(c, d), r;
    switch (op) {
    case 0: r = x * y; break;
    case 1: r = x / y; break;
    case 2: r = a / y; break;
    case 3: r = x / c; break;
    default: r = a * y; break;
    }
    o[0] = creal(r), o[1] = cimag(r);
}
