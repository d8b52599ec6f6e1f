/* half.c - _Float16 kernels on the GPU against their C bodies, bit for bit
 * (tests/edge/half_kernels.c says why each is exact), at sizes that cross
 * the launch geometry; then the fmaf chain's bandwidth at 64M elements
 * (8 bytes an element: three halves read, one written) for the closing note.
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

static void check_fma(int n)
{
    size_t b = (size_t)n * 2;
    _Float16 *x = halves(n, -4, 4), *w = halves(n, -4, 4), *z = halves(n, -4, 4), *y = halves(n, 0, 0);
    _Float16 *got = malloc(b + 2);
    void *dx = to_dev(x, b), *dw = to_dev(w, b), *dz = to_dev(z, b), *dy = to_dev(y, b);
    h_fma(n, x, w, z, y);
    gf_h_fma(n, dx, dw, dz, dy);
    gf_memcpy(got, dy, b, GF_DEVICE_TO_HOST);
    size_t d = first_diff(y, got, n);
    char what[96];
    snprintf(what, sizeof what, "h_fma n=%d: bit-identical", n);
    check(what, d == (size_t)n);
    if (d < (size_t)n)
        printf("    y[%zu]: C %.9g, GPU %.9g\n", d, (double)y[d], (double)got[d]);
    gf_free(dx), gf_free(dw), gf_free(dz), gf_free(dy);
    free(x), free(w), free(z), free(y), free(got);
}

static void check_max(int n, int nan_at)
{
    _Float16 *x = halves(n, -1000, 1000), out = 0, got = 0;
    if (nan_at >= 0 && nan_at < n)
        x[nan_at] = (_Float16)NAN;   /* a NaN element never wins x > m, on either side */
    void *dx = to_dev(x, (size_t)n * 2), *dout = to_dev(&out, 2);
    h_max(n, x, &out);
    gf_h_max(n, dx, dout);
    gf_memcpy(&got, dout, 2, GF_DEVICE_TO_HOST);
    char what[96];
    snprintf(what, sizeof what, "h_max n=%d%s: %g", n, nan_at >= 0 ? " with a NaN" : "", (double)out);
    check(what, !memcmp(&out, &got, 2));
    gf_free(dx), gf_free(dout);
    free(x);
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

static void bandwidth(int n)
{
    size_t b = (size_t)n * 2;
    void *dx, *dw, *dz, *dy, *dc;
    _Float16 *x = halves(n, -4, 4);
    dx = to_dev(x, b), dw = to_dev(x, b), dz = to_dev(x, b), dy = to_dev(x, b), dc = to_dev(x, b);
    gf_h_fma(n, dx, dw, dz, dy);   /* warm */
    gf_sync();
    double t0 = now();
    for (int r = 0; r < 20; r++)
        gf_h_fma(n, dx, dw, dz, dy);
    gf_sync();
    double t = (now() - t0) / 20;
    double t1 = now();
    for (int r = 0; r < 20; r++)
        gf_memcpy(dc, dx, b, GF_DEVICE_TO_DEVICE);
    gf_sync();
    double tc = (now() - t1) / 20;
    printf("  h_fma %d elements: %.1f GB/s (8 B an element); device copy %.1f GB/s (4 B an element): %.0f%%\n", n,
           8.0 * n / t / 1e9, 4.0 * n / tc / 1e9, 100.0 * (8.0 * n / t) / (4.0 * n / tc));
    gf_free(dx), gf_free(dw), gf_free(dz), gf_free(dy), gf_free(dc);
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
    static const int shapes[][2] = {{1, 1}, {3, 1000}, {33, 31}, {1000, 1000}, {5, 200000}};
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++)
        check_rows(shapes[i][0], shapes[i][1]);
    bandwidth(64 << 20);
    printf("%s\n", failures ? "FAILED" : "every _Float16 kernel agrees with its C body bit for bit");
    return failures ? 1 : 0;
}
