/* double.c - kernels over 8-byte elements on the GPU against their C bodies,
 * bit for bit (tests/edge/double_kernels.c says why each is exact), in the
 * 16-byte form (docs/types.md: 2 doubles or 8-byte integers a thread, 4 when
 * float arrays are in the kernel): the fma chain, the float and double map,
 * the 8-byte integer map and the double sum at every size from 1 to 40 (the
 * tail of up to 1 or 3 elements after the vectors), at larger sizes around
 * multiples of 2 and 4 up to 2^20 + 3, and with pointers 0 to 3 elements past
 * a 16-byte boundary (the launcher's alignment check sends an odd number of
 * doubles past to the scalar kernel, an even number to the vector one), the
 * outputs' neighbours checked untouched; then the fma chain's bandwidth at
 * 32M elements (32 bytes an element: three doubles read, one written)
 * against a device-to-device copy of the same bytes, for the closing note:
 *   double_fma_gbs <GB/s>  copy_gbs <GB/s>  ratio <percent>
 * checked only against a sane floor (half the copy's).  The arguments are
 * device memory (gf_malloc), so the launcher cannot take the C body.  Needs
 * a GPU: exit 77. */
#define _POSIX_C_SOURCE 200809L
#include <gpufuse.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "devcopy.h"

#define PROTO2(ret, name, ...) ret name(__VA_ARGS__); ret gf_##name(__VA_ARGS__)
PROTO2(void, d_fma, int n, const double *x, const double *w, const double *z, double *y);
PROTO2(void, d_mix, int n, const float *x, const double *s, double *p, float *q);
PROTO2(void, d_i64, int n, const long long *a, const unsigned long long *b, long long *c);
PROTO2(double, d_sumsq, int n, const double *x);

static int failures;
static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static double unit(void)
{
    return (double)(next() >> 11) / 9007199254740992.0;
}

static void check(const char *what, int ok)
{
    printf("  %-72s %s\n", what, ok ? "ok" : "FAILED");
    failures += !ok;
}

/* n doubles in [lo, hi), whole numbers when `whole` */
static double *doubles(size_t n, double lo, double hi, int whole)
{
    double *p = malloc(n * sizeof *p + 8);
    for (size_t i = 0; i < n; i++) {
        double v = lo + (hi - lo) * unit();
        p[i] = whole ? floor(v) : v;
    }
    return p;
}

/* A device copy of n elements of `size` bytes starting `off` elements past
 * the start of its allocation (the pool's blocks start on 512-byte
 * boundaries); *base gets the allocation to free. */
static void *to_dev_at(const void *h, size_t n, size_t size, int off, void **base)
{
    *base = NULL;
    if (gf_malloc(base, (n + (size_t)off) * size + size) != GF_SUCCESS) {
        printf("gf_malloc: %s\n", gf_last_error());
        exit(1);
    }
    char *d = (char *)*base + (size_t)off * size;
    if (n)
        gf_memcpy(d, h, n * size, GF_HOST_TO_DEVICE);
    return d;
}

/* y = fma chain of x, w, z with x and y `off` elements past a 16-byte
 * boundary and w and z `off2` (equal even offsets take the vector kernel),
 * the elements of y on either side kept */
static void check_fma_at(int n, int off, int off2, int quiet)
{
    size_t b = (size_t)n * 8;
    double *x = doubles(n, -4, 4, 0), *w = doubles(n, -4, 4, 0), *z = doubles(n, -4, 4, 0);
    double *y = doubles((size_t)n + 2, -4, 4, 0), *got = malloc(b + 16);
    void *bx, *bw, *bz, *by;
    double *dx = to_dev_at(x, n, 8, off, &bx), *dw = to_dev_at(w, n, 8, off2, &bw), *dz = to_dev_at(z, n, 8, off2, &bz);
    /* y with a guard element on either side, which neither side writes */
    double *dy = (double *)to_dev_at(y, (size_t)n + 2, 8, off + 1, &by) + 1;
    d_fma(n, x, w, z, y + 1);
    gf_d_fma(n, dx, dw, dz, dy);
    gf_memcpy(got, dy - 1, b + 16, GF_DEVICE_TO_HOST);
    size_t d = 0;
    while (d < (size_t)n + 2 && !memcmp(&y[d], &got[d], 8))
        d++;
    char what[96];
    snprintf(what, sizeof what, "d_fma n=%d offsets %d/%d: bit-identical, guards kept", n, off, off2);
    if (!quiet || d != (size_t)n + 2)
        check(what, d == (size_t)n + 2);
    if (d < (size_t)n + 2)
        printf("    y[%lld]: C %.17g, GPU %.17g\n", (long long)d - 1, y[d], got[d]);
    gf_free(bx), gf_free(bw), gf_free(bz), gf_free(by);
    free(x), free(w), free(z), free(y), free(got);
}

/* p = x * s, q = (float)(x + s) (float and double arrays in one kernel) with
 * x and q `off` elements past a 16-byte boundary, s and p `off2` elements,
 * the guards after p and q kept */
static void check_mix_at(int n, int off, int off2, int quiet)
{
    float *x = malloc((size_t)n * 4 + 4), *q = calloc((size_t)n + 1, 4), *gq = malloc((size_t)n * 4 + 4);
    double *s = doubles(n, -4, 4, 0), *p = calloc((size_t)n + 1, 8), *gp = malloc((size_t)n * 8 + 8);
    for (int i = 0; i < n; i++)
        x[i] = (float)(8 * unit() - 4);
    q[n] = 7.0f, p[n] = 7.0;
    void *bx, *bq, *bs, *bp;
    float *dx = to_dev_at(x, n, 4, off, &bx), *dq = to_dev_at(q, (size_t)n + 1, 4, off, &bq);
    double *ds = to_dev_at(s, n, 8, off2, &bs), *dp = to_dev_at(p, (size_t)n + 1, 8, off2, &bp);
    d_mix(n, x, s, p, q);
    gf_d_mix(n, dx, ds, dp, dq);
    gf_memcpy(gq, dq, (size_t)n * 4 + 4, GF_DEVICE_TO_HOST);
    gf_memcpy(gp, dp, (size_t)n * 8 + 8, GF_DEVICE_TO_HOST);
    int ok = !memcmp(q, gq, (size_t)n * 4 + 4) && !memcmp(p, gp, (size_t)n * 8 + 8);
    char what[96];
    snprintf(what, sizeof what, "d_mix n=%d offsets %d/%d: bit-identical, guards kept", n, off, off2);
    if (!quiet || !ok)
        check(what, ok);
    gf_free(bx), gf_free(bq), gf_free(bs), gf_free(bp);
    free(x), free(q), free(gq), free(s), free(p), free(gp);
}

/* c = 8-byte integer arithmetic of a and b, all three `off` elements past a
 * 16-byte boundary, the guard after c kept */
static void check_i64_at(int n, int off, int quiet)
{
    long long *a = malloc((size_t)n * 8 + 8), *c = calloc((size_t)n + 1, 8), *gc = malloc((size_t)n * 8 + 8);
    unsigned long long *b = malloc((size_t)n * 8 + 8);
    for (int i = 0; i < n; i++)
        a[i] = (long long)next() >> 3, b[i] = next();
    c[n] = 12345;
    void *ba, *bb, *bc;
    long long *da = to_dev_at(a, n, 8, off, &ba), *dc = to_dev_at(c, (size_t)n + 1, 8, off, &bc);
    unsigned long long *db = to_dev_at(b, n, 8, off, &bb);
    d_i64(n, a, b, c);
    gf_d_i64(n, da, db, dc);
    gf_memcpy(gc, dc, (size_t)n * 8 + 8, GF_DEVICE_TO_HOST);
    int ok = !memcmp(c, gc, (size_t)n * 8 + 8);
    char what[96];
    snprintf(what, sizeof what, "d_i64 n=%d offset %d: identical, guard kept", n, off);
    if (!quiet || !ok)
        check(what, ok);
    gf_free(ba), gf_free(bb), gf_free(bc);
    free(a), free(b), free(c), free(gc);
}

/* a sum of squares of whole numbers in [-1000, 1000): exact in any order
 * below 2^53, so the kernel's partials must give the C loop's value */
static void check_sum_at(int n, int off, int quiet)
{
    double *x = doubles(n, -1000, 1000, 1);
    void *bx;
    double *dx = to_dev_at(x, n, 8, off, &bx);
    double ref = d_sumsq(n, x), got = gf_d_sumsq(n, dx);
    char what[96];
    snprintf(what, sizeof what, "d_sumsq n=%d offset %d: %.17g", n, off, ref);
    int ok = !memcmp(&ref, &got, 8);
    if (!quiet || !ok)
        check(what, ok);
    if (!ok)
        printf("    GPU %.17g\n", got);
    gf_free(bx);
    free(x);
}

/* The 16-byte form: every size up to 40 at offsets from 0 to 3 elements (a
 * line for each offset pair when all agree, else a line for each failure;
 * the float arrays of d_mix at the first offset, its double arrays at the
 * second), then sizes around multiples of 2 and 4 up to 2^20 + 3 */
static void check_vector_form(void)
{
    static const int offs[][2] = {{0, 0}, {1, 1}, {2, 2}, {3, 3}, {0, 2}, {2, 0}, {0, 1}, {1, 0}, {4, 2}};
    for (size_t o = 0; o < sizeof offs / sizeof *offs; o++) {
        int before = failures;
        for (int n = 1; n <= 40; n++) {
            check_fma_at(n, offs[o][0], offs[o][1], 1);
            check_mix_at(n, offs[o][0], offs[o][1], 1);
            check_i64_at(n, offs[o][0], 1);
            check_sum_at(n, offs[o][0], 1);
        }
        char what[96];
        snprintf(what, sizeof what, "d_fma, d_mix, d_i64, d_sumsq n=1..40 offsets %d/%d: bit-identical", offs[o][0],
                 offs[o][1]);
        if (failures == before)
            check(what, 1);
    }
    static const int big[] = {4096, 4097, 4098, 4099, 2 * 4097 - 1, 4 * 4097 + 2, (1 << 20) + 1, (1 << 20) + 3};
    for (size_t i = 0; i < sizeof big / sizeof *big; i++)
        for (int off = 0; off <= 3; off++) {
            check_fma_at(big[i], off, off, 0);
            check_mix_at(big[i], off, off, 0);
            check_i64_at(big[i], off, 0);
            check_sum_at(big[i], off, 0);
        }
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* 20 calls back to back after a warm one; the copy moves the same 32 bytes
 * an element (2 * n doubles read, 2 * n written) */
static void bandwidth(int n)
{
    size_t b = (size_t)n * 8;
    void *dx, *dw, *dz, *dy, *s = NULL, *t = NULL;
    double *x = doubles(n, -4, 4, 0);
    dx = to_dev(x, b), dw = to_dev(x, b), dz = to_dev(x, b), dy = to_dev(x, b);
    if (gf_malloc(&s, 2 * b) != GF_SUCCESS || gf_malloc(&t, 2 * b) != GF_SUCCESS) {
        printf("gf_malloc: %s\n", gf_last_error());
        exit(1);
    }
    gf_d_fma(n, dx, dw, dz, dy);   /* warm */
    gf_memcpy(t, s, 2 * b, GF_DEVICE_TO_DEVICE);
    gf_sync();
    double t0 = now();
    for (int r = 0; r < 20; r++)
        gf_d_fma(n, dx, dw, dz, dy);
    gf_sync();
    double tk = (now() - t0) / 20;
    double t1 = now();
    for (int r = 0; r < 20; r++)
        gf_memcpy(t, s, 2 * b, GF_DEVICE_TO_DEVICE);
    gf_sync();
    double tc = (now() - t1) / 20;
    double gk = 4.0 * b / tk / 1e9, gc = 4.0 * b / tc / 1e9;
    printf("double_fma_gbs %.1f copy_gbs %.1f ratio %.1f%% (n %d, 32 B an element, %.3f ms against %.3f ms)\n", gk,
           gc, 100 * gk / gc, n, 1e3 * tk, 1e3 * tc);
    check("d_fma bandwidth at least half the copy's", gk >= 0.5 * gc);
    gf_free(dx), gf_free(dw), gf_free(dz), gf_free(dy), gf_free(s), gf_free(t);
    free(x);
}

int main(void)
{
    if (gf_init() != GF_SUCCESS || !gf_have_device()) {
        printf("no GPU (%s): skipped\n", gf_last_error());
        return 77;
    }
    printf("8-byte element kernels on the GPU against their C bodies\n");
    static const int ns[] = {1, 3, 255, 1000, 65537, 3000001};
    for (size_t i = 0; i < sizeof ns / sizeof *ns; i++) {
        check_fma_at(ns[i], 0, 0, 0);
        check_sum_at(ns[i], 0, 0);
    }
    check_vector_form();
    bandwidth(32 << 20);
    printf("%s\n", failures ? "FAILED" : "every 8-byte element kernel agrees with its C body bit for bit");
    return failures ? 1 : 0;
}
