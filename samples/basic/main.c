/* main.c - runs every function of kernels.c twice, as its plain C body (the
 * reference) and through gpufuse (on the GPU, or the CPU fallback when there
 * is none), compares the results and prints the timings.  Exit status 1 on
 * any mismatch: this program is also a test. */
#define _POSIX_C_SOURCE 199309L
#include "kernels.h"

#include <gpufuse.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static unsigned long long rng = 88172645463325252ull;
static float frand(void)   /* uniform in [-1, 1), never all zero */
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (float)((rng >> 11) * (1.0 / 9007199254740992.0)) * 2.0f - 1.0f;
}

static float *filled(size_t n)
{
    float *p = malloc(n * sizeof *p);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    for (size_t i = 0; i < n; i++)
        p[i] = frand();
    return p;
}

/* Largest error relative to max(|ref|, floor).  The GPU contracts a*b+c into
 * one fused multiply-add, which rounds once instead of twice (docs/language.md),
 * so results may differ from the C body in the last bits. */
static double max_rel(const float *a, const float *b, size_t n, double floor)
{
    double worst = 0;
    for (size_t i = 0; i < n; i++) {
        double d = fabs((double)a[i] - b[i]) / fmax(fabs((double)a[i]), floor);
        if (!(d <= worst))   /* NaN counts as a failure */
            worst = isnan(d) ? INFINITY : d;
    }
    return worst;
}

static int failures;

static void row(const char *name, double ref_ms, double gf_ms, double err, double tol)
{
    int ok = err <= tol;
    failures += !ok;
    printf("  %-16s %10.2f %12.2f %9.1fx %12.2e  %s\n", name, ref_ms, gf_ms, ref_ms / gf_ms, err, ok ? "ok" : "MISMATCH");
}

int main(int argc, char **argv)
{
    int scale = argc > 1 ? atoi(argv[1]) : 1;
    if (scale < 1)
        scale = 1;
    int n = 1 << 20;
    n *= scale;
    int rows = 1024 * scale, cols = 1024, grid = 512, steps = 20;
#ifdef SAMPLE_HOST_TARGET
    int gpu = 0;   /* built with gpufuse --target=host: no runtime at all */
#else
    int gpu = gf_have_device();
#endif
    printf("gpufuse sample: each function as plain C, then through gpufuse (%s)\n",
           gpu ? "on the GPU, host arrays staged by the launcher" : "no GPU: the fused plan on the CPU");
    printf("  %-16s %10s %12s %10s %12s\n", "function", "C (ms)", "gpufuse (ms)", "speed-up", "max rel err");

    float *x = filled((size_t)n), *y = filled((size_t)n);
    float *r1 = malloc((size_t)n * sizeof(float)), *r2 = malloc((size_t)n * sizeof(float));
    double t0, t1, t2;

    /* warm up: device initialisation and module loading are not timed */
    gf_blend(16, 1.0f, x, y, r2);

    t0 = now_ms(); blend(n, 0.75f, x, y, r1);
    t1 = now_ms(); gf_blend(n, 0.75f, x, y, r2);
    t2 = now_ms();
    row("blend", t1 - t0, t2 - t1, max_rel(r1, r2, (size_t)n, 1.0), 1e-6);

    t0 = now_ms(); normalize_shift(n, x, 0.5f, r1);
    t1 = now_ms(); gf_normalize_shift(n, x, 0.5f, r2);
    t2 = now_ms();
    row("normalize_shift", t1 - t0, t2 - t1, max_rel(r1, r2, (size_t)n, 1.0), 1e-5);

    t0 = now_ms(); double d1 = dot(n, x, y);
    t1 = now_ms(); double d2 = gf_dot(n, x, y);
    t2 = now_ms();
    /* a sum in another order: equal up to reassociation (docs/language.md) */
    row("dot", t1 - t0, t2 - t1, fabs(d1 - d2) / fmax(fabs(d1), 1.0), 1e-9);

    t0 = now_ms(); soft_threshold(n, 0.25f, x, r1);
    t1 = now_ms(); gf_soft_threshold(n, 0.25f, x, r2);
    t2 = now_ms();
    row("soft_threshold", t1 - t0, t2 - t1, max_rel(r1, r2, (size_t)n, 1.0), 1e-6);

    t0 = now_ms(); normalize_l1(n, x, r1);
    t1 = now_ms(); gf_normalize_l1(n, x, r2);
    t2 = now_ms();
    /* a sum in another order scales every element by a slightly other factor */
    row("normalize_l1", t1 - t0, t2 - t1, max_rel(r1, r2, (size_t)n, 1e-12), 1e-4);

    /* 256 bins; weights are multiples of 1/64 so that every partial sum is
     * exact in float: the atomic updates' order cannot change the result,
     * and the histogram must match the C loop exactly */
    enum { NBINS = 256 };
    int *bin = malloc((size_t)n * sizeof(int));
    float *hw = malloc((size_t)n * sizeof(float));
    float h1[NBINS] = {0}, h2[NBINS] = {0};
    int c1[NBINS] = {0}, c2[NBINS] = {0};
    for (int i = 0; i < n; i++) {
        int b = (int)((x[i] + 1.0f) * (NBINS / 2));
        bin[i] = b < 0 ? 0 : b >= NBINS ? NBINS - 1 : b;
        hw[i] = roundf(y[i] * 64.0f) / 64.0f;
    }
    t0 = now_ms(); histogram(n, NBINS, bin, hw, h1, c1);
    t1 = now_ms(); gf_histogram(n, NBINS, bin, hw, h2, c2);
    t2 = now_ms();
    double herr = 0;
    for (int b = 0; b < NBINS; b++)
        herr = fmax(herr, fabs((double)h1[b] - h2[b]) + abs(c1[b] - c2[b]));
    row("histogram", t1 - t0, t2 - t1, herr, 0.0);

    /* a maximum per bin: atomic, and exact whatever the order */
    float p1[NBINS], p2[NBINS];
    for (int b = 0; b < NBINS; b++)
        p1[b] = p2[b] = -INFINITY;
    t0 = now_ms(); bin_max(n, NBINS, bin, y, p1);
    t1 = now_ms(); gf_bin_max(n, NBINS, bin, y, p2);
    t2 = now_ms();
    double perr = 0;
    for (int b = 0; b < NBINS; b++)
        perr = fmax(perr, p1[b] == p2[b] ? 0.0 : INFINITY);
    row("bin_max", t1 - t0, t2 - t1, perr, 0.0);

    t0 = now_ms(); classify(n, bin, x, r1);
    t1 = now_ms(); gf_classify(n, bin, x, r2);
    t2 = now_ms();
    row("classify", t1 - t0, t2 - t1, max_rel(r1, r2, (size_t)n, 1.0), 1e-6);
    free(bin); free(hw);

    size_t m = (size_t)rows * cols;
    float *a = filled(m), *s1 = malloc(m * sizeof(float)), *s2 = malloc(m * sizeof(float));
    t0 = now_ms(); softmax(rows, cols, (const float (*)[cols])a, (float (*)[cols])s1);
    t1 = now_ms(); gf_softmax(rows, cols, (const float (*)[cols])a, (float (*)[cols])s2);
    t2 = now_ms();
    row("softmax", t1 - t0, t2 - t1, max_rel(s1, s2, m, 1e-6), 1e-5);

    /* a search with an early exit per row: exact */
    int *f1 = malloc((size_t)rows * sizeof(int)), *f2 = malloc((size_t)rows * sizeof(int));
    t0 = now_ms(); first_above(rows, cols, 0.999f, (const float (*)[cols])a, f1);
    t1 = now_ms(); gf_first_above(rows, cols, 0.999f, (const float (*)[cols])a, f2);
    t2 = now_ms();
    double ferr = 0;
    for (int i = 0; i < rows; i++)
        ferr = fmax(ferr, abs(f1[i] - f2[i]));
    row("first_above", t1 - t0, t2 - t1, ferr, 0.0);
    free(f1); free(f2);

    /* the same additions in the same order per column; the GPU contracts
     * y += a*w into a fused multiply-add, so each of the rows roundings can
     * differ: the bound grows with rows (2e-3 relative at rows = 16384; the
     * H200 measured 1.2e-4) */
    t0 = now_ms(); column_sums(rows, cols, (const float (*)[cols])a, x, s1);
    t1 = now_ms(); gf_column_sums(rows, cols, (const float (*)[cols])a, x, s2);
    t2 = now_ms();
    row("column_sums", t1 - t0, t2 - t1, max_rel(s1, s2, (size_t)cols, 1.0), fmax(1e-4, rows * FLT_EPSILON));

    size_t g = (size_t)grid * grid;
    float *u1 = filled(g), *u2 = malloc(g * sizeof(float)), *w1 = calloc(g, sizeof(float)),
          *w2 = calloc(g, sizeof(float));
    memcpy(u2, u1, g * sizeof(float));
    t0 = now_ms(); heat(grid, steps, (float (*)[grid])u1, (float (*)[grid])w1);
    t1 = now_ms(); gf_heat(grid, steps, (float (*)[grid])u2, (float (*)[grid])w2);
    t2 = now_ms();
    row("heat", t1 - t0, t2 - t1, max_rel(u1, u2, g, 1.0), 1e-5);

    /* kept on the CPU by gpufuse: still right, and said so at build time */
    prefix_sum(8, x, r1);
    double ps = 0;
    for (int i = 0; i < 8; i++)
        ps += x[i];
    printf("  %-16s kept on the CPU (loop-carried dependence); last = %.6f, expected %.6f\n", "prefix_sum", r1[7], ps);
    if (fabs(r1[7] - ps) > 1e-5)
        failures++;

    free(x); free(y); free(r1); free(r2); free(a); free(s1); free(s2);
    free(u1); free(u2); free(w1); free(w2);
    printf("%s\n", failures ? "FAILED: results differ from the C bodies" : "all results match their C bodies");
    return failures ? 1 : 0;
}
