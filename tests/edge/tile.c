/* tile.c - tiled kernels (SH_TILED) on the GPU against their C bodies, bit
 * for bit (double and int): each thread adds its k terms in C's order, and
 * the kernels are built with -fmad=false (meson.build), as the C body is
 * without contraction.  Sizes that are not multiples of the tile (1, 15,
 * 17, 33, 100, 257) and rectangular ones; arrays in device memory so the
 * launcher cannot take the C body; outputs poisoned first (NaN, or a
 * sentinel) so a kernel that skips an element fails.  The seed is printed.
 *
 * Needs a GPU: exit 77 without one. */
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

/* Bit-exact comparison of n elements of `size` bytes. */
static void same(const char *what, int a, int b, int c, const void *want, const void *got, size_t n, size_t size)
{
    for (size_t i = 0; i < n; i++)
        if (memcmp((const char *)want + i * size, (const char *)got + i * size, size)) {
            if (size == sizeof(double))
                printf("FAIL %s (%d, %d, %d): element %zu: C %.17g, GPU %.17g\n", what, a, b, c, i,
                       ((const double *)want)[i], ((const double *)got)[i]);
            else
                printf("FAIL %s (%d, %d, %d): element %zu: C %d, GPU %d\n", what, a, b, c, i, ((const int *)want)[i],
                       ((const int *)got)[i]);
            failures++;
            return;
        }
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
    same("tcov", m, n, 0, want, got, nc, sizeof *got);
    poison_d(want, nc);
    tcorr(m, n, data, want);
    poison_d(got, nc);
    dc = to_dev(got, nc * sizeof *got);
    gf_tcorr(m, n, dd, dc);
    from_dev(got, dc, nc * sizeof *got);
    /* the diagonal is set by each row, also where the row has no column */
    same("tcorr", m, n, 0, want, got, nc, sizeof *got);
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
    same("tlower", m, n, 0, want, got, ny, sizeof *got);
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
    same("tgemm_int", ni, nj, nk, want, c0, nc, sizeof *c0);
    free(a), free(b), free(c0), free(want);

    /* double: a is nk x ni, b is nj x nk */
    double *x = dvec(na), *y = dvec((size_t)nj * nk), *z = dvec(nc), *wz = malloc((nc ? nc : 1) * sizeof *wz);
    memcpy(wz, z, nc * sizeof *wz);
    tgemm_d(ni, nj, nk, 3.0, x, y, wz);
    double *dx = to_dev(x, na * sizeof *x), *dy = to_dev(y, (size_t)nj * nk * sizeof *y), *dz = to_dev(z, nc * sizeof *z);
    gf_tgemm_d(ni, nj, nk, 3.0, dx, dy, dz);
    from_dev(z, dz, nc * sizeof *z);
    gf_free(dx), gf_free(dy);
    same("tgemm_d", ni, nj, nk, wz, z, nc, sizeof *z);
    free(x), free(y), free(z), free(wz);
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
    if (failures) {
        printf("%d failures\n", failures);
        return 1;
    }
    printf("tiled kernels: every result equal to the C body, bit for bit\n");
    return 0;
}
