/* half.c - _Float16 kernels on the GPU against their C bodies, bit for bit
 * (tests/edge/half_kernels.c says why each is exact), at sizes that cross
 * the launch geometry; the 16-byte form (8 elements a thread, docs/types.md)
 * of the fmaf chain, a half and float map and the half max at every size
 * from 1 to 8 * 9 + 7 (the tail of up to 7 elements after the vectors), at
 * larger sizes around multiples of 8, and with pointers 0 to 8 elements past
 * a 16-byte boundary (the launcher's alignment check sends the misaligned
 * ones to the scalar kernel, those a multiple of 8 halves past to the vector
 * one), the output's neighbours checked untouched; then the fmaf chain's
 * bandwidth at 64M elements (8 bytes an element: three halves read, one
 * written) against a device-to-device copy of the same bytes, for the
 * closing note:
 *   half_fma_gbs <GB/s>  copy_gbs <GB/s>  ratio <percent>
 * The arguments are device memory (gf_malloc), so the launcher cannot take
 * the C body.  Needs a GPU: exit 77. */
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
PROTO2(void, h_fma, int n, const _Float16 *x, const _Float16 *w, const _Float16 *z, _Float16 *y);
PROTO2(void, h_mix, int n, const _Float16 *x, const float *s, float *p, _Float16 *q);
PROTO2(void, h_max, int n, const _Float16 *x, _Float16 *out);
PROTO2(void, h_rownorm, int h, int w, const _Float16 *x, _Float16 *y);

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

static _Float16 *halves(size_t n, double lo, double hi)
{
    _Float16 *p = malloc(n * sizeof *p + 2);
    for (size_t i = 0; i < n; i++)
        p[i] = (_Float16)(lo + (hi - lo) * unit());
    return p;
}

/* bits equal (NaNs included) */
static size_t first_diff(const _Float16 *a, const _Float16 *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (memcmp(&a[i], &b[i], 2))
            return i;
    return n;
}

/* A device copy of n halves starting `off` elements past the start of its
 * allocation (the pool's blocks start on 512-byte boundaries); *base gets
 * the allocation to free. */
static _Float16 *to_dev_at(const _Float16 *h, int n, int off, void **base)
{
    *base = NULL;
    if (gf_malloc(base, ((size_t)n + (size_t)off) * 2 + 2) != GF_SUCCESS) {
        printf("gf_malloc: %s\n", gf_last_error());
        exit(1);
    }
    _Float16 *d = (_Float16 *)*base + off;
    if (n)
        gf_memcpy(d, h, (size_t)n * 2, GF_HOST_TO_DEVICE);
    return d;
}

/* y = fmaf chain of x, w, z with the arrays `off` elements past a 16-byte
 * boundary (x and y at off, w and z at off2: equal offsets that are a
 * multiple of 8 take the vector kernel), the elements of y around it kept */
static void check_fma_at(int n, int off, int off2, int quiet)
{
    size_t b = (size_t)n * 2;
    _Float16 *x = halves(n, -4, 4), *w = halves(n, -4, 4), *z = halves(n, -4, 4), *y = halves(n + 2, -4, 4);
    _Float16 *got = malloc(b + 6);
    void *bx, *bw, *bz, *by;
    _Float16 *dx = to_dev_at(x, n, off, &bx), *dw = to_dev_at(w, n, off2, &bw), *dz = to_dev_at(z, n, off2, &bz);
    /* y with a guard element on either side, which neither side writes */
    _Float16 *dy = to_dev_at(y, n + 2, off + 7, &by) + 1;
    h_fma(n, x, w, z, y + 1);
    gf_h_fma(n, dx, dw, dz, dy);
    gf_memcpy(got, dy - 1, b + 4, GF_DEVICE_TO_HOST);
    size_t d = first_diff(y, got, (size_t)n + 2);
    char what[96];
    snprintf(what, sizeof what, "h_fma n=%d offsets %d/%d: bit-identical, guards kept", n, off, off2);
    if (!quiet || d != (size_t)n + 2)
        check(what, d == (size_t)n + 2);
    if (d < (size_t)n + 2)
        printf("    y[%lld]: C %.9g, GPU %.9g\n", (long long)d - 1, (double)y[d], (double)got[d]);
    gf_free(bx), gf_free(bw), gf_free(bz), gf_free(by);
    free(x), free(w), free(z), free(y), free(got);
}

static void check_fma(int n)
{
    check_fma_at(n, 0, 0, 0);
}

/* p = x * s, q = x + s (half and float arrays in one kernel) with x and q
 * `off` elements past a 16-byte boundary and s and p `off2` elements */
static void check_mix_at(int n, int off, int off2, int quiet)
{
    _Float16 *x = halves(n, -4, 4), *q = halves(n, 0, 0), *gq = malloc((size_t)n * 2 + 2);
    float *s = malloc((size_t)n * 4 + 4), *p = malloc((size_t)n * 4 + 4), *gp = malloc((size_t)n * 4 + 4);
    for (int i = 0; i < n; i++)
        s[i] = (float)(8 * unit() - 4), p[i] = 0;
    void *bx, *bq, *ds, *dp;
    _Float16 *dx = to_dev_at(x, n, off, &bx), *dq = to_dev_at(q, n, off, &bq);
    if (gf_malloc(&ds, ((size_t)n + 8) * 4) != GF_SUCCESS || gf_malloc(&dp, ((size_t)n + 8) * 4) != GF_SUCCESS) {
        printf("gf_malloc: %s\n", gf_last_error());
        exit(1);
    }
    float *fs = (float *)ds + off2, *fp = (float *)dp + off2;
    gf_memcpy(fs, s, (size_t)n * 4, GF_HOST_TO_DEVICE);
    gf_memcpy(fp, p, (size_t)n * 4, GF_HOST_TO_DEVICE);
    h_mix(n, x, s, p, q);
    gf_h_mix(n, dx, fs, fp, dq);
    gf_memcpy(gq, dq, (size_t)n * 2, GF_DEVICE_TO_HOST);
    gf_memcpy(gp, fp, (size_t)n * 4, GF_DEVICE_TO_HOST);
    int ok = first_diff(q, gq, n) == (size_t)n && !memcmp(p, gp, (size_t)n * 4);
    char what[96];
    snprintf(what, sizeof what, "h_mix n=%d offsets %d/%d: bit-identical", n, off, off2);
    if (!quiet || !ok)
        check(what, ok);
    gf_free(bx), gf_free(bq), gf_free(ds), gf_free(dp);
    free(x), free(q), free(gq), free(s), free(p), free(gp);
}

static void check_max_at(int n, int nan_at, int off, int quiet)
{
    _Float16 *x = halves(n, -1000, 1000), out = 0, got = 0;
    if (nan_at >= 0 && nan_at < n)
        x[nan_at] = (_Float16)NAN;   /* a NaN element never wins x > m, on either side */
    void *bx, *dout = to_dev(&out, 2);
    _Float16 *dx = to_dev_at(x, n, off, &bx);
    h_max(n, x, &out);
    gf_h_max(n, dx, dout);
    gf_memcpy(&got, dout, 2, GF_DEVICE_TO_HOST);
    char what[96];
    snprintf(what, sizeof what, "h_max n=%d%s offset %d: %g", n, nan_at >= 0 ? " with a NaN" : "", off, (double)out);
    int ok = !memcmp(&out, &got, 2);
    if (!quiet || !ok)
        check(what, ok);
    gf_free(bx), gf_free(dout);
    free(x);
}

static void check_max(int n, int nan_at)
{
    check_max_at(n, nan_at, 0, 0);
}

/* The 16-byte form: every size up to 8 * 9 + 7 at offsets from 0 to 8
 * elements (a line for each offset pair when all agree, else a line for
 * each failure; h_mix's float arrays at the second offset modulo 4), then
 * sizes around multiples of 8 up to 2^20 + 7 at offsets 0, 3 and 8 */
static void check_vector_form(void)
{
    static const int offs[][2] = {{0, 0}, {1, 1}, {2, 0}, {3, 5}, {4, 4}, {5, 0}, {6, 6}, {7, 7}, {8, 8}, {0, 8}, {0, 1}};
    for (size_t o = 0; o < sizeof offs / sizeof *offs; o++) {
        int before = failures;
        for (int n = 1; n <= 8 * 9 + 7; n++) {
            check_fma_at(n, offs[o][0], offs[o][1], 1);
            check_mix_at(n, offs[o][0], offs[o][1] % 4, 1);
            check_max_at(n, n % 5 == 3 ? n / 2 : -1, offs[o][0], 1);
        }
        char what[96];
        snprintf(what, sizeof what, "h_fma, h_mix, h_max n=1..79 offsets %d/%d: bit-identical", offs[o][0],
                 offs[o][1]);
        if (failures == before)
            check(what, 1);
    }
    static const int big[] = {8 * 1024, 8 * 1024 + 1, 8 * 1024 + 7, 8 * 4097 - 1, (1 << 20) + 7};
    for (size_t i = 0; i < sizeof big / sizeof *big; i++)
        for (int off = 0; off <= 8; off += off ? 5 : 3) {   /* 0 and 8: vectors; 3: scalar */
            check_fma_at(big[i], off, off, 0);
            check_mix_at(big[i], off, off % 4, 0);
            check_max_at(big[i], -1, off, 0);
        }
}

static void check_rows(int h, int w)
{
    size_t n = (size_t)h * w, b = n * 2;
    _Float16 *x = halves(n, -60000, 60000), *y = halves(n, 0, 0), *got = malloc(b + 2);
    void *dx = to_dev(x, b), *dy = to_dev(y, b);
    h_rownorm(h, w, x, y);
    gf_h_rownorm(h, w, dx, dy);
    gf_memcpy(got, dy, b, GF_DEVICE_TO_HOST);
    char what[96];
    snprintf(what, sizeof what, "h_rownorm %d x %d: bit-identical", h, w);
    check(what, first_diff(y, got, n) == n);
    gf_free(dx), gf_free(dy);
    free(x), free(y), free(got);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* 20 calls back to back after a warm one; the copy moves the same 8 bytes
 * an element (2 * n halves read, 2 * n written) */
static void bandwidth(int n)
{
    size_t b = (size_t)n * 2;
    void *dx, *dw, *dz, *dy, *s = NULL, *t = NULL;
    _Float16 *x = halves(n, -4, 4);
    dx = to_dev(x, b), dw = to_dev(x, b), dz = to_dev(x, b), dy = to_dev(x, b);
    if (gf_malloc(&s, 2 * b) != GF_SUCCESS || gf_malloc(&t, 2 * b) != GF_SUCCESS) {
        printf("gf_malloc: %s\n", gf_last_error());
        exit(1);
    }
    gf_h_fma(n, dx, dw, dz, dy);   /* warm */
    gf_memcpy(t, s, 2 * b, GF_DEVICE_TO_DEVICE);
    gf_sync();
    double t0 = now();
    for (int r = 0; r < 20; r++)
        gf_h_fma(n, dx, dw, dz, dy);
    gf_sync();
    double tk = (now() - t0) / 20;
    double t1 = now();
    for (int r = 0; r < 20; r++)
        gf_memcpy(t, s, 2 * b, GF_DEVICE_TO_DEVICE);
    gf_sync();
    double tc = (now() - t1) / 20;
    double gk = 4.0 * b / tk / 1e9, gc = 4.0 * b / tc / 1e9;
    printf("half_fma_gbs %.1f copy_gbs %.1f ratio %.1f%% (n %d, 8 B an element, %.3f ms against %.3f ms)\n", gk, gc,
           100 * gk / gc, n, 1e3 * tk, 1e3 * tc);
    gf_free(dx), gf_free(dw), gf_free(dz), gf_free(dy), gf_free(s), gf_free(t);
    free(x);
}

int main(void)
{
    if (gf_init() != GF_SUCCESS || !gf_have_device()) {
        printf("no GPU (%s): skipped\n", gf_last_error());
        return 77;
    }
    printf("_Float16 kernels on the GPU against their C bodies\n");
    static const int ns[] = {1, 3, 255, 1000, 65537, 3000001};
    for (size_t i = 0; i < sizeof ns / sizeof *ns; i++) {
        check_fma(ns[i]);
        check_max(ns[i], -1);
        check_max(ns[i], ns[i] / 2);
    }
    check_vector_form();
    static const int shapes[][2] = {{1, 1}, {3, 1000}, {33, 31}, {1000, 1000}, {5, 200000}};
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++)
        check_rows(shapes[i][0], shapes[i][1]);
    bandwidth(64 << 20);
    printf("%s\n", failures ? "FAILED" : "every _Float16 kernel agrees with its C body bit for bit");
    return failures ? 1 : 0;
}
