// float _Complex and double _Complex in marked functions (docs/types.md):
// C's arithmetic as gcc and clang compute it (Annex G products, libgcc's
// quotients); gf_c32/gf_c64 are the C types on the host and classes of the
// same layout in CUDA.
#include <gpufuse.h>
#include <complex.h>

GPUFUSE void c_fma(int n, const float _Complex *restrict a, const float _Complex *restrict b,
                   const float _Complex *restrict c, float _Complex *restrict d)
{
    for (int i = 0; i < n; i++)
        d[i] = a[i] * b[i] + c[i];
}

GPUFUSE void c_mixed(int n, float s, const float *restrict x, const float _Complex *restrict a,
                     float _Complex *restrict b, float *restrict m)
{
    for (int i = 0; i < n; i++) {
        float _Complex t = conjf(a[i]) * s - x[i] + 2.0f * I;
        b[i] = -t / (a[i] + 3.0f) + x[i] / t;
        m[i] = cabsf(t) + crealf(b[i]) * cimagf(a[i]) - cargf(a[i]) + (t == a[i]);
    }
}

GPUFUSE void z_ops(int n, double _Complex w, const double _Complex *restrict a, const float _Complex *restrict f,
                   double _Complex *restrict b, double *restrict r)
{
    for (int i = 0; i < n; i++) {
        double _Complex e = cexp(a[i] * 0.25) + f[i] * w;
        b[i] = e / a[i] + conj(e) + __builtin_complex(1.0, r[i]);
        r[i] = creal(e) + cimag(b[i]) + cabs(f[i]) + (double)a[i];
    }
}

GPUFUSE float _Complex c_sum(int n, const float _Complex *restrict a, const float _Complex *restrict b)
{
    float _Complex s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

GPUFUSE void c_rowsum(int n, int m, const double _Complex a[restrict n][m], double _Complex *restrict out)
{
    for (int i = 0; i < n; i++) {
        double _Complex s = 0;
        for (int j = 0; j < m; j++)
            s += a[i][j] * I;
        out[i] = s;
    }
}
