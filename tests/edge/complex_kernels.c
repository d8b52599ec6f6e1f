/* complex_kernels.c - complex kernels whose GPU results must equal their C
 * bodies bit for bit (tests/edge/complex.c): gpufuse's gf_c32/gf_c64 round
 * every product on its own (no contraction) and recover NaN products and
 * quotients as libgcc does, and these files are built without contraction
 * (-ffp-contract=off), so a*b+c and a/b match exactly, infinities and
 * NaNs included.  The sum is reassociated (a tree): compared within a bound. */
#include <gpufuse.h>
#include <complex.h>

GPUFUSE void c_fma(int n, const float _Complex *restrict a, const float _Complex *restrict b,
                   const float _Complex *restrict c, float _Complex *restrict d)
{
    for (int i = 0; i < n; i++)
        d[i] = a[i] * b[i] + c[i];
}

GPUFUSE void z_div(int n, const double _Complex *restrict a, const double _Complex *restrict b,
                   double _Complex *restrict q, float _Complex *restrict f)
{
    for (int i = 0; i < n; i++) {
        q[i] = a[i] / b[i] - conj(a[i]) * I;
        f[i] = (float _Complex)a[i] / (float _Complex)b[i] + 2.0f;
    }
}

GPUFUSE void c_sum(int n, const float _Complex *restrict a, const float _Complex *restrict b,
                   double _Complex *restrict out)
{
    double _Complex s = 0;
    for (int i = 0; i < n; i++)
        s += (double _Complex)(a[i] * b[i]);
    out[0] = s;
}
