/* tile.c - tiled kernels (SH_TILED) on the GPU against their C bodies, bit
 * for bit (double and int): each thread adds its k terms in C's order, and
 * the kernels are built with -fmad=false (meson.build), as the C body is
 * without contraction.  Sizes that are not multiples of the tile (1, 15,
 * 17, 33, 100, 257) and rectangular ones; arrays in device memory so the
 * launcher cannot take the C body; outputs poisoned first (NaN, or a
 * sentinel) so a kernel that skips an element fails.  The seed is printed.
 * Register blocks (64x64 tiles, 4x4 outputs per thread): sizes around the
 * tile (1, 15, 17, 63, 64, 65, 127, 257), rectangular ones and triangles, in
 * float, double and int; tkeep stays one output per thread.  Then the
 * GFLOP/s of a 2048^3 float and double product and of covariance's product
 * nest at PolyBench LARGE's size (n = 3000, m = 2600), best of 3 calls after
 * one, printed as `tile_gflops <name> <value>`; 4096 of their outputs
 * checked against the C body, bit for bit.
 *
 * Needs a GPU: exit 77 without one. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <gpufuse.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "devcopy.h"

#define PROTO2(ret, name, ...) ret name(__VA_ARGS__); ret gf_##name(__VA_ARGS__)
PROTO2(void, tcov, int m, int n, double float_n, const double *data, double *cov);
PROTO2(void, tcorr, int m, int n, const double *data, double *corr);
PROTO2(void, tgemm_int, int ni, int nj, int nk, int q, const int *a, const int *b, int *c);
PROTO2(void, tgemm_d, int ni, int nj, int nk, double d, const double *a, const double *b, double *c);
PROTO2(void, tlower, int m, int n, const int *x, int *y);
PROTO2(void, tsgemm, int ni, int nj, int nk, float q, const float *a, const float *b, float *c);
PROTO2(void, tdgemm, int ni, int nj, int nk, double q, const double *a, const double *b, double *c);
PROTO2(void, tcovf, int m, int n, float float_n, const float *data, float *cov);
PROTO2(void, tkeep, int ni, int nj, int nk, const double *a, const double *b, double *c);
PROTO2(void, tpgemm, int ni, int nj, int nk, double alpha, double beta, double *c, const double *a, const double *b);
PROTO2(void, tsyrk, int n, int m, double alpha, double beta, double *c, const double *a);
PROTO2(void, tsyr2k, int n, int m, double alpha, double beta, double *c, const double *a, const double *b);

static uint64_t rng;
static int failures;

static double urand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

static double *dvec(size_t n)
{
    double *v = malloc((n ? n : 1) * sizeof *v);
    for (size_t i = 0; i < n; i++)
        v[i] = 2 * urand() - 1;
    return v;
}

static int *ivec(size_t n)
{
    int *v = malloc((n ? n : 1) * sizeof *v);
    for (size_t i = 0; i < n; i++)
        v[i] = (int)(urand() * 200) - 100;
    return v;
}

/* Bit-exact comparison of n elements of type ty ('f', 'd' or 'i'). */
static void same(const char *what, int a, int b, int c, const void *want, const void *got, size_t n, char ty)
{
    size_t size = ty == 'd' ? sizeof(double) : ty == 'f' ? sizeof(float) : sizeof(int);
    for (size_t i = 0; i < n; i++)
        if (memcmp((const char *)want + i * size, (const char *)got + i * size, size)) {
            if (ty == 'f')
                printf("FAIL %s (%d, %d, %d): element %zu: C %.9g, GPU %.9g\n", what, a, b, c, i,
                       ((const float *)want)[i], ((const float *)got)[i]);
            else if (ty == 'd')
                printf("FAIL %s (%d, %d, %d): element %zu: C %.17g, GPU %.17g\n", what, a, b, c, i,
                       ((const double *)want)[i], ((const double *)got)[i]);
            else
                printf("FAIL %s (%d, %d, %d): element %zu: C %d, GPU %d\n", what, a, b, c, i, ((const int *)want)[i],
                       ((const int *)got)[i]);
            failures++;
            return;
        }
}

static float *fvec(size_t n)
{
    float *v = malloc((n ? n : 1) * sizeof *v);
    for (size_t i = 0; i < n; i++)
        v[i] = (float)(2 * urand() - 1);
    return v;
}

static void poison_f(float *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        v[i] = 0.0f / 0.0f;
}

static void poison_d(double *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        v[i] = 0.0 / 0.0;
}

static void poison_i(int *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        v[i] = -0x5a5a5a5a;
}

/* covariance and correlation: m x m outputs from an n x m matrix */
static void check_tri(int m, int n)
{
    size_t nd = (size_t)n * m, nc = (size_t)m * m;
    double *data = dvec(nd), *want = malloc((nc ? nc : 1) * sizeof *want), *got = malloc((nc ? nc : 1) * sizeof *got);
    poison_d(want, nc);
    tcov(m, n, (double)n + 0.5, data, want);
    poison_d(got, nc);
    double *dd = to_dev(data, nd * sizeof *data), *dc = to_dev(got, nc * sizeof *got);
    gf_tcov(m, n, (double)n + 0.5, dd, dc);
    from_dev(got, dc, nc * sizeof *got);
    same("tcov", m, n, 0, want, got, nc, 'd');
    poison_d(want, nc);
    tcorr(m, n, data, want);
    poison_d(got, nc);
    dc = to_dev(got, nc * sizeof *got);
    gf_tcorr(m, n, dd, dc);
    from_dev(got, dc, nc * sizeof *got);
    /* the diagonal is set by each row, also where the row has no column */
    same("tcorr", m, n, 0, want, got, nc, 'd');
    gf_free(dd);
    free(data), free(want), free(got);
}

static void check_lower(int m, int n)
{
    size_t nx = (size_t)m * n, ny = (size_t)m * m;
    int *x = ivec(nx), *want = malloc((ny ? ny : 1) * sizeof *want), *got = malloc((ny ? ny : 1) * sizeof *got);
    poison_i(want, ny);
    tlower(m, n, x, want);
    poison_i(got, ny);
    int *dx = to_dev(x, nx * sizeof *x), *dy = to_dev(got, ny * sizeof *got);
    gf_tlower(m, n, dx, dy);
    from_dev(got, dy, ny * sizeof *got);
    gf_free(dx);
    same("tlower", m, n, 0, want, got, ny, 'i');
    free(x), free(want), free(got);
}

static void check_gemm(int ni, int nj, int nk)
{
    size_t na = (size_t)ni * nk, nb = (size_t)nk * nj, nc = (size_t)ni * nj;
    int *a = ivec(na), *b = ivec(nb), *c0 = ivec(nc), *want = malloc((nc ? nc : 1) * sizeof *want);
    memcpy(want, c0, nc * sizeof *want);
    tgemm_int(ni, nj, nk, 7, a, b, want);
    int *da = to_dev(a, na * sizeof *a), *db = to_dev(b, nb * sizeof *b), *dc = to_dev(c0, nc * sizeof *c0);
    gf_tgemm_int(ni, nj, nk, 7, da, db, dc);
    from_dev(c0, dc, nc * sizeof *c0);
    gf_free(da), gf_free(db);
    same("tgemm_int", ni, nj, nk, want, c0, nc, 'i');
    free(a), free(b), free(c0), free(want);

    /* double: a is nk x ni, b is nj x nk */
    double *x = dvec(na), *y = dvec((size_t)nj * nk), *z = dvec(nc), *wz = malloc((nc ? nc : 1) * sizeof *wz);
    memcpy(wz, z, nc * sizeof *wz);
    tgemm_d(ni, nj, nk, 3.0, x, y, wz);
    double *dx = to_dev(x, na * sizeof *x), *dy = to_dev(y, (size_t)nj * nk * sizeof *y), *dz = to_dev(z, nc * sizeof *z);
    gf_tgemm_d(ni, nj, nk, 3.0, dx, dy, dz);
    from_dev(z, dz, nc * sizeof *z);
    gf_free(dx), gf_free(dy);
    same("tgemm_d", ni, nj, nk, wz, z, nc, 'd');
    free(x), free(y), free(z), free(wz);
}

/* Register-blocked products in float and double (a[i][k], b[k][j], one
 * division after), and tkeep (one output per thread). */
static void check_prod(int ni, int nj, int nk)
{
    size_t na = (size_t)ni * nk, nb = (size_t)nk * nj, nc = (size_t)ni * nj;
    float *a = fvec(na), *b = fvec(nb), *want = malloc((nc ? nc : 1) * sizeof *want), *got = malloc((nc ? nc : 1) * sizeof *got);
    poison_f(want, nc);
    tsgemm(ni, nj, nk, 3.0f, a, b, want);
    poison_f(got, nc);
    float *da = to_dev(a, na * sizeof *a), *db = to_dev(b, nb * sizeof *b), *dc = to_dev(got, nc * sizeof *got);
    gf_tsgemm(ni, nj, nk, 3.0f, da, db, dc);
    from_dev(got, dc, nc * sizeof *got);
    gf_free(da), gf_free(db);
    same("tsgemm", ni, nj, nk, want, got, nc, 'f');
    free(a), free(b), free(want), free(got);

    double *x = dvec(na), *y = dvec(nb), *w = malloc((nc ? nc : 1) * sizeof *w), *g = malloc((nc ? nc : 1) * sizeof *g);
    poison_d(w, nc);
    tdgemm(ni, nj, nk, 3.0, x, y, w);
    poison_d(g, nc);
    double *dx = to_dev(x, na * sizeof *x), *dy = to_dev(y, nb * sizeof *y), *dz = to_dev(g, nc * sizeof *g);
    gf_tdgemm(ni, nj, nk, 3.0, dx, dy, dz);
    from_dev(g, dz, nc * sizeof *g);
    same("tdgemm", ni, nj, nk, w, g, nc, 'd');

    double *z = dvec(nc);
    memcpy(w, z, nc * sizeof *w);
    tkeep(ni, nj, nk, x, y, w);
    dz = to_dev(z, nc * sizeof *z);
    gf_tkeep(ni, nj, nk, dx, dy, dz);
    from_dev(z, dz, nc * sizeof *z);
    gf_free(dx), gf_free(dy);
    same("tkeep", ni, nj, nk, w, z, nc, 'd');
    free(x), free(y), free(z), free(w), free(g);
}

static void check_covf(int m, int n)
{
    size_t nd = (size_t)n * m, nc = (size_t)m * m;
    float *data = fvec(nd), *want = malloc((nc ? nc : 1) * sizeof *want), *got = malloc((nc ? nc : 1) * sizeof *got);
    poison_f(want, nc);
    tcovf(m, n, (float)n + 0.5f, data, want);
    poison_f(got, nc);
    float *dd = to_dev(data, nd * sizeof *data), *dc = to_dev(got, nc * sizeof *got);
    gf_tcovf(m, n, (float)n + 0.5f, dd, dc);
    from_dev(got, dc, nc * sizeof *got);
    gf_free(dd);
    same("tcovf", m, n, 0, want, got, nc, 'f');
    free(data), free(want), free(got);
}

/* PolyBench's gemm, syrk and syr2k (i-k-j, beta in a loop of its own): c
 * starts from random values, so an element the kernel skips or scales
 * twice differs; the triangles' upper part must stay as it was. */
static void check_pb(int ni, int nj, int nk)
{
    size_t na = (size_t)ni * nk, nb = (size_t)nk * nj, nc = (size_t)ni * nj;
    double *a = dvec(na), *b = dvec(nb), *c = dvec(nc), *want = malloc(nc * sizeof *want);
    memcpy(want, c, nc * sizeof *c);
    tpgemm(ni, nj, nk, 1.5, -0.75, want, a, b);
    double *da = to_dev(a, na * sizeof *a), *db = to_dev(b, nb * sizeof *b), *dc = to_dev(c, nc * sizeof *c);
    gf_tpgemm(ni, nj, nk, 1.5, -0.75, dc, da, db);
    from_dev(c, dc, nc * sizeof *c);
    same("tpgemm", ni, nj, nk, want, c, nc, 'd');
    gf_free(da), gf_free(db);
    free(a), free(b), free(c), free(want);
    /* n = ni rows of a and b, m = nk columns */
    int n = ni, m = nk;
    size_t ns = (size_t)n * m, nn = (size_t)n * n;
    double *sa = dvec(ns), *sb = dvec(ns), *sc = dvec(nn), *sw = malloc((nn ? nn : 1) * sizeof *sw);
    double *dsa = to_dev(sa, ns * sizeof *sa), *dsb = to_dev(sb, ns * sizeof *sb);
    for (int two = 0; two < 2; two++) {
        double *got = malloc((nn ? nn : 1) * sizeof *got);
        memcpy(sw, sc, nn * sizeof *sc);
        memcpy(got, sc, nn * sizeof *sc);
        double *dsc = to_dev(got, nn * sizeof *got);
        if (two) {
            tsyr2k(n, m, 1.5, -0.75, sw, sa, sb);
            gf_tsyr2k(n, m, 1.5, -0.75, dsc, dsa, dsb);
        } else {
            tsyrk(n, m, 1.5, -0.75, sw, sa);
            gf_tsyrk(n, m, 1.5, -0.75, dsc, dsa);
        }
        from_dev(got, dsc, nn * sizeof *got);
        same(two ? "tsyr2k" : "tsyrk", n, m, 0, sw, got, nn, 'd');
        free(got);
    }
    gf_free(dsa), gf_free(dsb);
    free(sa), free(sb), free(sc), free(sw);
}

/* ---- throughput: best of 3 calls after a first one ------------------------------ */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

#define BEST_OF(best, call)                                                                                            \
    do {                                                                                                               \
        call;                                                                                                          \
        gf_sync();                                                                                                     \
        best = 1e30;                                                                                                   \
        for (int r_ = 0; r_ < 3; r_++) {                                                                               \
            double t0_ = now();                                                                                        \
            call;                                                                                                      \
            gf_sync();                                                                                                 \
            double t_ = now() - t0_;                                                                                   \
            best = t_ < best ? t_ : best;                                                                              \
        }                                                                                                              \
    } while (0)

#define SAMPLES 4096

static void bench_sgemm(int n)
{
    size_t nn = (size_t)n * n;
    float *a = fvec(nn), *b = fvec(nn), *c = malloc(nn * sizeof *c);
    float *da = to_dev(a, nn * sizeof *a), *db = to_dev(b, nn * sizeof *b), *dc = to_dev(a, nn * sizeof *c);
    double t;
    BEST_OF(t, gf_tsgemm(n, n, n, 3.0f, da, db, dc));
    from_dev(c, dc, nn * sizeof *c);
    gf_free(da), gf_free(db);
    for (int s = 0; s < SAMPLES; s++) {
        int i = (int)(urand() * n), j = (int)(urand() * n);
        float acc = 0.0f;
        for (int k = 0; k < n; k++)
            acc += a[(size_t)i * n + k] * b[(size_t)k * n + j];
        acc = acc / 3.0f;
        same("bench tsgemm", i, j, n, &acc, &c[(size_t)i * n + j], 1, 'f');
    }
    printf("tile_gflops sgemm_%d %.1f\n", n, 2.0 * n * n * n / t * 1e-9);
    free(a), free(b), free(c);
}

static void bench_dgemm(int n)
{
    size_t nn = (size_t)n * n;
    double *a = dvec(nn), *b = dvec(nn), *c = malloc(nn * sizeof *c);
    double *da = to_dev(a, nn * sizeof *a), *db = to_dev(b, nn * sizeof *b), *dc = to_dev(a, nn * sizeof *c);
    double t;
    BEST_OF(t, gf_tdgemm(n, n, n, 3.0, da, db, dc));
    from_dev(c, dc, nn * sizeof *c);
    gf_free(da), gf_free(db);
    for (int s = 0; s < SAMPLES; s++) {
        int i = (int)(urand() * n), j = (int)(urand() * n);
        double acc = 0.0;
        for (int k = 0; k < n; k++)
            acc += a[(size_t)i * n + k] * b[(size_t)k * n + j];
        acc = acc / 3.0;
        same("bench tdgemm", i, j, n, &acc, &c[(size_t)i * n + j], 1, 'd');
    }
    printf("tile_gflops dgemm_%d %.1f\n", n, 2.0 * n * n * n / t * 1e-9);
    free(a), free(b), free(c);
}

/* covariance's product nest, data n x m, cov m x m (upper triangle, mirrored) */
static void bench_cov(int m, int n)
{
    size_t nd = (size_t)n * m, nc = (size_t)m * m;
    double *data = dvec(nd), *cov = malloc(nc * sizeof *cov);
    double *dd = to_dev(data, nd * sizeof *data), *dc = to_dev(data, nc * sizeof *cov);
    double t, fn = (double)n;
    BEST_OF(t, gf_tcov(m, n, fn, dd, dc));
    from_dev(cov, dc, nc * sizeof *cov);
    gf_free(dd);
    for (int s = 0; s < SAMPLES; s++) {
        int i = (int)(urand() * m), j = (int)(urand() * m);
        if (j < i) {
            int x = i;
            i = j, j = x;
        }
        double acc = 0.0;
        for (int k = 0; k < n; k++)
            acc += data[(size_t)k * m + i] * data[(size_t)k * m + j];
        acc /= (fn - 1.0);
        same("bench tcov", i, j, m, &acc, &cov[(size_t)i * m + j], 1, 'd');
        same("bench tcov mirror", j, i, m, &acc, &cov[(size_t)j * m + i], 1, 'd');
    }
    printf("tile_gflops covariance_%dx%d %.1f\n", n, m, 2.0 * n * ((double)m * (m + 1) / 2) / t * 1e-9);
    free(data), free(cov);
}

/* PolyBench's syrk at LARGE's size (n = 1200, m = 1000), lower triangle;
 * beta = 0, so every call leaves the same values (c * 0 + the terms) */
static void bench_syrk(int n, int m)
{
    size_t na = (size_t)n * m, nc = (size_t)n * n;
    double *a = dvec(na), *c = dvec(nc);
    double *da = to_dev(a, na * sizeof *a), *dc = to_dev(c, nc * sizeof *c);
    double t;
    BEST_OF(t, gf_tsyrk(n, m, 1.0, 0.0, dc, da));
    from_dev(c, dc, nc * sizeof *c);
    gf_free(da);
    for (int s = 0; s < SAMPLES; s++) {
        int i = (int)(urand() * n), j = (int)(urand() * n);
        if (j > i) {
            int x = i;
            i = j, j = x;
        }
        double acc = 0.0;
        for (int k = 0; k < m; k++)
            acc += 1.0 * a[(size_t)i * m + k] * a[(size_t)j * m + k];
        same("bench tsyrk", i, j, n, &acc, &c[(size_t)i * n + j], 1, 'd');
    }
    printf("tile_gflops syrk_%dx%d %.1f\n", n, m, 2.0 * m * ((double)n * (n + 1) / 2) / t * 1e-9);
    free(a), free(c);
}

int main(void)
{
    if (!gf_have_device()) {
        printf("no GPU: skipped\n");
        return 77;
    }
    const char *s = getenv("TILE_SEED");
    rng = s ? strtoull(s, NULL, 10) : (uint64_t)time(NULL);
    if (!rng)
        rng = 1;
    printf("seed %llu (TILE_SEED to repeat)\n", (unsigned long long)rng);
    static const int sizes[] = {1, 15, 16, 17, 33, 100, 257};
    int ns = (int)(sizeof sizes / sizeof *sizes);
    for (int i = 0; i < ns; i++) {
        int m = sizes[i];
        check_tri(m, m);
        check_tri(m, sizes[(i + 3) % ns]);
        check_lower(m, sizes[(i + 2) % ns]);
        check_gemm(m, m, m);
    }
    /* rectangular: rows, columns and k all different, none a multiple of 16 */
    check_gemm(33, 100, 17);
    check_gemm(257, 15, 1);
    check_gemm(1, 257, 33);
    check_gemm(100, 33, 257);
    check_tri(100, 1);
    check_tri(17, 257);
    check_lower(257, 1);
    check_lower(33, 100);
    /* register blocks: sizes around the 64x64 tile */
    static const int rb[] = {1, 15, 17, 63, 64, 65, 127, 257};
    int nr = (int)(sizeof rb / sizeof *rb);
    for (int i = 0; i < nr; i++) {
        int m = rb[i];
        check_prod(m, m, m);
        check_prod(m, rb[(i + 3) % nr], rb[(i + 5) % nr]);
        check_tri(m, rb[(i + 1) % nr]);
        check_covf(m, rb[(i + 2) % nr]);
        check_lower(m, rb[(i + 4) % nr]);
        check_gemm(m, rb[(i + 6) % nr], rb[(i + 7) % nr]);
    }
    for (int i = 0; i < nr; i++)
        check_pb(rb[i], rb[(i + 3) % nr], rb[(i + 5) % nr]);
    check_pb(200, 1, 33);
    check_pb(1, 129, 200);
    check_prod(65, 257, 1);
    check_prod(1, 129, 200);
    check_prod(300, 7, 64);
    check_covf(200, 1);
    check_tri(130, 63);
    if (failures) {
        printf("%d failures before the throughput runs\n", failures);
        return 1;
    }
    bench_sgemm(2048);
    bench_dgemm(2048);
    bench_cov(2600, 3000);
    bench_syrk(1200, 1000);
    if (failures) {
        printf("%d failures\n", failures);
        return 1;
    }
    printf("tiled kernels: every result equal to the C body, bit for bit\n");
    return 0;
}
