/* complex_fn.h - inputs and the comparison for <complex.h>'s functions as
 * gpufuse compiles them (templates/common.h: libcu++'s cuda::std::complex)
 * against glibc's, shared by complex_fn.c (the GPU) and complex_fn_host.cu
 * (the host side of the same definitions, no GPU).  C and C++.
 *
 * Inputs: NORD ordinary values (parts of random magnitude 2^-12 .. 2^6 and
 * sign), then every pair of the special parts below: +-0, +-inf, NaN, and
 * finite parts among them (negative reals with a signed zero imaginary part
 * are on csqrt's and clog's branch cut).  cpow's exponent is an ordinary
 * value of modulus < 2 everywhere.
 *
 * Rule: for an input with an infinite or NaN part, or two zero parts (the
 * entries of C99 Annex G's tables), a result part that is NaN, +-inf or +-0
 * in glibc's result or gpufuse's must be the same class in both and, but for
 * NaN, of the same sign; other results are compared normwise (a branch cut's
 * wrong side is a large error there), in
 * units of the type's epsilon: |w - ref| / (|ref| eps), within the
 * function's bound (docs/types.md, "Accuracy"), and the worst one is
 * printed with the worst componentwise ulp distance. */
#ifndef EDGE_COMPLEX_FN_H
#define EDGE_COMPLEX_FN_H

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

enum { CFN_NFUNCS = 8, CFN_NORD = 4096, CFN_NSPEC = 13 * 13, CFN_N = CFN_NORD + CFN_NSPEC };

static const char *const cfn_names[CFN_NFUNCS] = {"csqrt", "clog", "cpow", "csin", "ccos", "csinh", "ccosh", "cproj"};

/* Normwise bounds in eps (float, double), ten times the worst seen on the
 * host side (complex_fn_host.cu) to leave room for the GPU's libm.  The
 * functions libcu++ computes with a cancellation (ctan and ctanh near their
 * poles, the inverse functions near 0: 10^3 to 10^5 eps) are refused by
 * gpufuse, not tested here (docs/types.md). */
static const double cfn_bound[CFN_NFUNCS][2] = {{8, 8}, {64, 64}, {64, 64}, {16, 16}, {16, 16}, {16, 16}, {16, 16}, {0, 0}};

static unsigned long long cfn_rng = 0x853c49e6748fea9bULL;

static double cfn_unit(void)
{
    cfn_rng ^= cfn_rng << 13, cfn_rng ^= cfn_rng >> 7, cfn_rng ^= cfn_rng << 17;
    return (double)(cfn_rng >> 11) / 9007199254740992.0;
}

/* x[i], y[i]: the input's parts; px, py: cpow's exponent */
static void cfn_inputs(double *x, double *y, double *px, double *py)
{
    static const double spec[13] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1.5, -1.5, 4.0, -4.0, 0.25, -0.25, 1e-3, 3.0};
    for (int i = 0; i < CFN_N; i++) {
        if (i < CFN_NORD) {
            x[i] = ldexp(2 * cfn_unit() - 1, (int)(cfn_unit() * 18) - 12);
            y[i] = ldexp(2 * cfn_unit() - 1, (int)(cfn_unit() * 18) - 12);
        } else {
            x[i] = spec[(i - CFN_NORD) / 13];
            y[i] = spec[(i - CFN_NORD) % 13];
        }
        px[i] = 2 * cfn_unit() - 1;
        py[i] = 2 * cfn_unit() - 1;
    }
}

static int cfn_special(double v) { return v == 0 || isinf(v) || isnan(v); }

/* 0 NaN, 1 +inf, 2 -inf, 3 +0, 4 -0, 5 finite nonzero */
static int cfn_class(double v)
{
    if (isnan(v))
        return 0;
    if (isinf(v))
        return v > 0 ? 1 : 2;
    if (v == 0)
        return signbit(v) ? 4 : 3;
    return 5;
}

/* ulps between two finite values of the type (dbl: double, else float) */
static double cfn_ulps(double g, double r, int dbl)
{
    if (g == r)
        return 0;
    double u = dbl ? ldexp(1.0, ilogb(fmax(fabs(r), DBL_MIN)) - 52) : ldexp(1.0, ilogb(fmax(fabs(r), FLT_MIN)) - 23);
    return fabs(g - r) / u;
}

/* Whether result g of function k on x + iy is not of the class of glibc's
 * r, for an input with an infinite or NaN part or two zero parts.  The
 * signs are compared on the zero inputs only, where Annex G fixes every
 * one; elsewhere it leaves many unspecified (csinh(+inf + i inf) = +-inf +
 * iNaN, ccosh(+0 + i inf) = NaN +- i0, ...), so the classes are compared
 * without them.  cpow has no special values in Annex G (G.6.4.1: it may be
 * cexp(w clog(z))): not compared. */
static int cfn_class_differs(int k, double x, double y, const double *g, const double *r)
{
    if (k == 2)
        return 0;
    int zin = x == 0 && y == 0, bad = 0;
    for (int c = 0; c < 2; c++) {
        if (!cfn_special(r[c]) && !cfn_special(g[c]))
            continue;
        int cg = cfn_class(g[c]), cr = cfn_class(r[c]);
        if (!zin)   /* 0 NaN, 1 inf, 3 zero */
            cg = cg == 2 ? 1 : cg == 4 ? 3 : cg, cr = cr == 2 ? 1 : cr == 4 ? 3 : cr;
        bad |= cg != cr;
    }
    return bad;
}

/* got/ref: [CFN_N][CFN_NFUNCS][2] parts; returns the number of failures */
static int cfn_compare(const char *who, int dbl, const double *x, const double *y, const double *got, const double *ref)
{
    int fails = 0;
    double eps = dbl ? DBL_EPSILON : FLT_EPSILON;
    printf("%s, %s: worst error against glibc (normwise in eps, componentwise in ulps) on %d ordinary values; "
           "special values classified on %d\n", who, dbl ? "double" : "float", CFN_NORD, CFN_NSPEC);
    for (int k = 0; k < CFN_NFUNCS; k++) {
        double worst = 0, wulp = 0;
        int wi = -1, cls_bad = 0, shown = 0;
        for (int i = 0; i < CFN_N; i++) {
            const double *g = got + ((size_t)i * CFN_NFUNCS + k) * 2, *r = ref + ((size_t)i * CFN_NFUNCS + k) * 2;
            int spec = !isfinite(x[i]) || !isfinite(y[i]) || (x[i] == 0 && y[i] == 0);
            int rs = cfn_special(r[0]) || cfn_special(r[1]), gs = cfn_special(g[0]) || cfn_special(g[1]);
            if (spec && (rs || gs)) {
                if (cfn_class_differs(k, x[i], y[i], g, r)) {
                    cls_bad++;
                    if (shown++ < 4)
                        printf("    %s(%g%+gi): glibc %g%+gi, gpufuse %g%+gi\n", cfn_names[k], x[i], y[i], r[0], r[1],
                               g[0], g[1]);
                }
                continue;
            }
            if (!isfinite(r[0]) || !isfinite(r[1]) || !isfinite(g[0]) || !isfinite(g[1])) {
                if (shown++ < 4)
                    printf("    %s(%g%+gi): glibc %g%+gi, gpufuse %g%+gi (not finite)\n", cfn_names[k], x[i], y[i],
                           r[0], r[1], g[0], g[1]);
                cls_bad++;
                continue;
            }
            double m = hypot(r[0], r[1]);
            double e = m > 0 ? hypot(g[0] - r[0], g[1] - r[1]) / (m * eps) : 0;
            double u = fmax(cfn_ulps(g[0], r[0], dbl), cfn_ulps(g[1], r[1], dbl));
            if (e > worst)
                worst = e, wi = i;
            if (u > wulp)
                wulp = u;
        }
        int ok = worst <= cfn_bound[k][dbl] && !cls_bad;
        printf("  %-7s worst %10.3g eps (bound %g)", cfn_names[k], worst, cfn_bound[k][dbl]);
        if (wi >= 0)
            printf(" at %g%+gi", x[wi], y[wi]);
        printf(", worst part %.3g ulps, special values %s  %s\n", wulp, cls_bad ? "DIFFER" : "ok", ok ? "ok" : "FAILED");
        fails += !ok;
    }
    return fails;
}

#endif
