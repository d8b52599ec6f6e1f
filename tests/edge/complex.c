/* complex.c - float _Complex and double _Complex kernels on the GPU against
 * their C bodies (tests/edge/complex_kernels.c): a*b+c and the quotients bit
 * for bit, infinities and NaNs among the operands; a complex sum within a
 * bound of its reassociation; then a*b+c's bandwidth at 2^26 elements (32
 * bytes an element: three complex floats read, one written) against a device
 * copy of the same bytes, for the closing note:
 *   complex_fma_gbs <GB/s>  copy_gbs <GB/s>  ratio <percent>
 * The arguments are device memory (gf_malloc), so the launcher cannot take
 * the C body.  Needs a GPU: exit 77. */
#define _POSIX_C_SOURCE 200809L
#include <gpufuse.h>
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "devcopy.h"

#define PROTO2(ret, name, ...) ret name(__VA_ARGS__); ret gf_##name(__VA_ARGS__)
PROTO2(void, c_fma, int n, const float _Complex *a, const float _Complex *b, const float _Complex *c,
       float _Complex *d);
PROTO2(void, z_div, int n, const double _Complex *a, const double _Complex *b, double _Complex *q,
       float _Complex *f);
PROTO2(void, c_sum, int n, const float _Complex *a, const float _Complex *b, double _Complex *out);

static int failures;
static uint64_t rng = 0x9e3779b97f4a7c15ull;

static double unit(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

static void check(const char *what, int ok)
{
    printf("  %-72s %s\n", what, ok ? "ok" : "FAILED");
    failures += !ok;
}

/* a part: mostly in [-4, 4), with infinities, NaNs, zeros and huge values
 * sprinkled in when `special` (the NaN recoveries of * and /) */
static double part(int special)
{
    static const double odd[] = {INFINITY, -INFINITY, NAN, 0.0, -0.0, 1e30, -1e-30, 3e38};
    if (special && unit() < 0.05)
        return odd[(int)(unit() * 8)];
    return -4 + 8 * unit();
}

static float _Complex *cfloats(size_t n, int special)
{
    float _Complex *p = malloc(n * sizeof *p + 8);
    for (size_t i = 0; i < n; i++)
        p[i] = __builtin_complex((float)part(special), (float)part(special));
    return p;
}

static double _Complex *cdoubles(size_t n, int special)
{
    double _Complex *p = malloc(n * sizeof *p + 16);
    for (size_t i = 0; i < n; i++)
        p[i] = __builtin_complex(part(special), part(special));
    return p;
}

/* bits equal, NaNs equal to NaNs (their payloads may differ) */
static size_t first_diff(const void *x, const void *y, size_t n, int dbl)
{
    for (size_t i = 0; i < 2 * n; i++) {
        double a = dbl ? ((const double *)x)[i] : ((const float *)x)[i];
        double b = dbl ? ((const double *)y)[i] : ((const float *)y)[i];
        if (isnan(a) && isnan(b))
            continue;
        if (a != b || signbit(a) != signbit(b))
            return i / 2;
    }
    return n;
}

static void check_fma(int n)
{
    size_t b = (size_t)n * 8;
    float _Complex *x = cfloats(n, 1), *w = cfloats(n, 1), *z = cfloats(n, 1), *y = cfloats(n, 0), *got = malloc(b + 8);
    void *dx = to_dev(x, b), *dw = to_dev(w, b), *dz = to_dev(z, b), *dy = to_dev(y, b);
    c_fma(n, x, w, z, y);
    gf_c_fma(n, dx, dw, dz, dy);
    gf_memcpy(got, dy, b, GF_DEVICE_TO_HOST);
    size_t d = first_diff(y, got, n, 0);
    char what[96];
    snprintf(what, sizeof what, "c_fma n=%d: bit-identical", n);
    check(what, d == (size_t)n);
    if (d < (size_t)n)
        printf("    d[%zu]: C %.9g%+.9gi, GPU %.9g%+.9gi (a %g%+gi b %g%+gi c %g%+gi)\n", d, crealf(y[d]), cimagf(y[d]),
               crealf(got[d]), cimagf(got[d]), crealf(x[d]), cimagf(x[d]), crealf(w[d]), cimagf(w[d]), crealf(z[d]),
               cimagf(z[d]));
    gf_free(dx), gf_free(dw), gf_free(dz), gf_free(dy);
    free(x), free(w), free(z), free(y), free(got);
}

static void check_div(int n)
{
    double _Complex *a = cdoubles(n, 1), *b = cdoubles(n, 1), *q = cdoubles(n, 0), *gq = malloc((size_t)n * 16 + 16);
    float _Complex *f = cfloats(n, 0), *gfl = malloc((size_t)n * 8 + 8);
    void *da = to_dev(a, (size_t)n * 16), *db = to_dev(b, (size_t)n * 16), *dq = to_dev(q, (size_t)n * 16);
    void *df = to_dev(f, (size_t)n * 8);
    z_div(n, a, b, q, f);
    gf_z_div(n, da, db, dq, df);
    gf_memcpy(gq, dq, (size_t)n * 16, GF_DEVICE_TO_HOST);
    gf_memcpy(gfl, df, (size_t)n * 8, GF_DEVICE_TO_HOST);
    size_t d = first_diff(q, gq, n, 1), e = first_diff(f, gfl, n, 0);
    char what[96];
    snprintf(what, sizeof what, "z_div n=%d: double and float quotients bit-identical", n);
    check(what, d == (size_t)n && e == (size_t)n);
    if (d < (size_t)n)
        printf("    q[%zu]: C %.17g%+.17gi, GPU %.17g%+.17gi\n", d, creal(q[d]), cimag(q[d]), creal(gq[d]), cimag(gq[d]));
    if (e < (size_t)n)
        printf("    f[%zu]: C %.9g%+.9gi, GPU %.9g%+.9gi\n", e, crealf(f[e]), cimagf(f[e]), crealf(gfl[e]), cimagf(gfl[e]));
    gf_free(da), gf_free(db), gf_free(dq), gf_free(df);
    free(a), free(b), free(q), free(gq), free(f), free(gfl);
}

/* the sum of n products, each exact in double: any order gives nearly the
 * same double: 1e-10 of the sum of magnitudes bounds the difference (one
 * element lost or doubled would be over 1e-8 of it at 2^24) */
static void check_sum(int n)
{
    float _Complex *x = cfloats(n, 0), *w = cfloats(n, 0);
    double _Complex out = 0, got = 0;
    double mag = 0;
    for (int i = 0; i < n; i++)
        mag += cabsf(x[i]) * cabsf(w[i]);
    void *dx = to_dev(x, (size_t)n * 8), *dw = to_dev(w, (size_t)n * 8), *dout = to_dev(&out, 16);
    c_sum(n, x, w, &out);
    gf_c_sum(n, dx, dw, dout);
    gf_memcpy(&got, dout, 16, GF_DEVICE_TO_HOST);
    double err = cabs(out - got);
    char what[96];
    snprintf(what, sizeof what, "c_sum n=%d: %.6g%+.6gi (|GPU - C| %.2g)", n, creal(out), cimag(out), err);
    check(what, err <= 1e-10 * (mag + 1));
    gf_free(dx), gf_free(dw), gf_free(dout);
    free(x), free(w);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* 20 calls back to back after a warm one; the copy moves the same 32 bytes
 * an element (16 read, 16 written) */
static void bandwidth(int n)
{
    size_t b = (size_t)n * 8;
    float _Complex *x = cfloats(n, 0);
    void *da = to_dev(x, b), *db = to_dev(x, b), *dc = to_dev(x, b), *dd = to_dev(x, b);
    void *s = NULL, *t = NULL;
    if (gf_malloc(&s, 2 * b) != GF_SUCCESS || gf_malloc(&t, 2 * b) != GF_SUCCESS) {
        printf("gf_malloc: %s\n", gf_last_error());
        exit(1);
    }
    gf_c_fma(n, da, db, dc, dd);   /* warm */
    gf_memcpy(t, s, 2 * b, GF_DEVICE_TO_DEVICE);
    gf_sync();
    double t0 = now();
    for (int r = 0; r < 20; r++)
        gf_c_fma(n, da, db, dc, dd);
    gf_sync();
    double tk = (now() - t0) / 20;
    double t1 = now();
    for (int r = 0; r < 20; r++)
        gf_memcpy(t, s, 2 * b, GF_DEVICE_TO_DEVICE);
    gf_sync();
    double tc = (now() - t1) / 20;
    double gk = 4.0 * b / tk / 1e9, gc = 4.0 * b / tc / 1e9;
    printf("complex_fma_gbs %.1f copy_gbs %.1f ratio %.1f%% (n %d, 32 B an element, %.3f ms against %.3f ms)\n", gk, gc,
           100 * gk / gc, n, 1e3 * tk, 1e3 * tc);
    gf_free(da), gf_free(db), gf_free(dc), gf_free(dd), gf_free(s), gf_free(t);
    free(x);
}

int main(void)
{
    if (gf_init() != GF_SUCCESS || !gf_have_device()) {
        printf("no GPU (%s): skipped\n", gf_last_error());
        return 77;
    }
    printf("complex kernels on the GPU against their C bodies\n");
    static const int ns[] = {1, 3, 255, 1000, 65537, 1 << 24};
    for (size_t i = 0; i < sizeof ns / sizeof *ns; i++) {
        check_fma(ns[i]);
        check_div(ns[i] < (1 << 22) ? ns[i] : 1 << 22);
        check_sum(ns[i]);
    }
    bandwidth(1 << 26);
    if (failures)
        printf("%d check(s) FAILED\n", failures);
    return failures ? 1 : 0;
}
