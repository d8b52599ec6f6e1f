/* blas_ref.h - the float64 reference and the value helpers that the CPU and
 * GPU GEMM tests share: a deterministic RNG, f16/bf16 conversions, element
 * access for every gf_dtype, the reference check and its tolerances. */
#ifndef GF_TEST_BLAS_REF_H
#define GF_TEST_BLAS_REF_H

#include <gpufuse.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 88172645463325252ull;

/* uniform in [-1, 1), never exactly representable trouble: a few bits only */
static double urand(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

static float h2f(uint16_t h)
{
    uint32_t s = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, f = h & 0x3ffu, u;
    if (e == 0) {
        float v = ldexpf((float)f, -24);
        return s ? -v : v;
    }
    u = e == 31 ? (s | 0x7f800000u | (f << 13)) : (s | ((e + 112) << 23) | (f << 13));
    float r;
    memcpy(&r, &u, 4);
    return r;
}

/* values with 8 significant bits: exact in f16, bf16, f32 and f64 */
static double coarse(void) { return round(urand() * 128.0) / 128.0; }

static uint16_t to16(double v, gf_dtype t)
{
    float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, 4);
    if (t == GF_BF16)
        return (uint16_t)(u >> 16); /* exact for coarse values */
    /* f16 of a coarse value: exact, |v| <= 1 */
    if (f == 0)
        return (uint16_t)((u >> 16) & 0x8000u);
    int e;
    float m = frexpf(fabsf(f), &e); /* f = m 2^e, m in [0.5, 1) */
    uint16_t s = (u >> 16) & 0x8000u;
    if (e - 1 < -14)
        return (uint16_t)(s | (uint16_t)lrintf(fabsf(f) * 16777216.0f));
    return (uint16_t)(s | ((e - 1 + 15) << 10) | ((uint16_t)lrintf((m * 2 - 1) * 1024) & 0x3ff));
}

static size_t esize(gf_dtype t) { return t == GF_F64 ? 8 : t == GF_F32 ? 4 : 2; }

static double get(const void *p, size_t i, gf_dtype t)
{
    switch (t) {
    case GF_F64: return ((const double *)p)[i];
    case GF_F32: return ((const float *)p)[i];
    case GF_F16: return h2f(((const uint16_t *)p)[i]);
    default: {
        uint32_t u = (uint32_t)((const uint16_t *)p)[i] << 16;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    }
}

static void put(void *p, size_t i, double v, gf_dtype t)
{
    switch (t) {
    case GF_F64: ((double *)p)[i] = v; break;
    case GF_F32: ((float *)p)[i] = (float)v; break;
    default: ((uint16_t *)p)[i] = to16(v, t); break;
    }
}

/* op(X)(i, j) of a row-major X with leading dimension ld */
static double at(const void *X, int ld, gf_op op, int i, int j, gf_dtype t)
{
    return op == GF_OP_N ? get(X, (size_t)i * ld + j, t) : get(X, (size_t)j * ld + i, t);
}

/* Checks C against alpha op(A) op(B) + beta C0 in float64: per element
 * |C - ref| <= tol (|alpha| sum|a||b| + |beta||c0|) + tiny. */
static void check_gemm(gf_op ta, gf_op tb, int m, int n, int k, double alpha, const void *A, int lda,
                       const void *B, int ldb, double beta, const void *C0, const void *C, int ldc,
                       gf_dtype t, double tol)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double ref = 0, scale = 0;
            for (int p = 0; p < k; p++) {
                double x = at(A, lda, ta, i, p, t) * at(B, ldb, tb, p, j, t);
                ref += x;
                scale += fabs(x);
            }
            double c0 = beta != 0 ? get(C0, (size_t)i * ldc + j, t) : 0;
            ref = alpha * ref + beta * c0;
            scale = fabs(alpha) * scale + fabs(beta * c0);
            double got = get(C, (size_t)i * ldc + j, t);
            if (!(fabs(got - ref) <= tol * scale + 1e-300)) {
                fail_msg("C[%d][%d] = %.17g, expected %.17g (scale %g, tol %g)", i, j, got, ref, scale, tol);
            }
        }
}

static double tol_for(gf_dtype t, int k)
{
    switch (t) {
    case GF_F64: return (k + 4) * 0x1p-52;
    case GF_F32: return (k + 4) * 0x1p-23;
    default: return 1e-2;
    }
}

#endif
