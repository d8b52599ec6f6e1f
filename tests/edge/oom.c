/* oom.c - generated launchers when the GPU runs out of memory: device memory
 * is capped with GPUFUSE_POOL_LIMIT and the error handler does not abort.
 * Staging that does not fit, scratch (reduction partials, temporaries) that
 * does not fit after the staging did, and a temporary sized only at its
 * declaration, each with host arrays (the call must run on the host and be
 * right) and with pool arrays (the call must do nothing, leave the outputs
 * untouched and say so).  Every failure must be reported, naming the
 * function.  Needs a GPU: exit 77 without one. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <gpufuse.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void axpy(int n, float a, const float *restrict x, float *restrict y);
void gf_axpy(int n, float a, const float *restrict x, float *restrict y);
double scale_sum(int n, float a, const float *restrict x, float *restrict y);
double gf_scale_sum(int n, float a, const float *restrict x, float *restrict y);
void softmax(int rows, int cols, const float x[rows][cols], float y[rows][cols]);
void gf_softmax(int rows, int cols, const float x[rows][cols], float y[rows][cols]);
void smooth(int n, const float *restrict x, float *restrict y);
void gf_smooth(int n, const float *restrict x, float *restrict y);
void smooth_late(int n, const float *restrict x, float *restrict y);
void gf_smooth_late(int n, const float *restrict x, float *restrict y);

#define MiB (1 << 20)
#define LIMIT "64M"
#define SENTINEL -7.25f

static int failures;

static void check(const char *what, int ok)
{
    printf("  %-66s %s\n", what, ok ? "ok" : "FAILED");
    failures += !ok;
}

/* the error handler: counts reports, keeps the last one */
static int reports;
static gf_status last_status;
static char last_msg[1024];

static void capture(gf_status s, const char *msg, void *user)
{
    (void)user;
    reports++;
    last_status = s;
    snprintf(last_msg, sizeof last_msg, "%s", msg);
    printf("    reported: %s\n", msg);
}

/* a fresh case: no cached segments left from the last one, no reports */
static void start(void)
{
    gf_pool_trim();
    reports = 0;
    last_msg[0] = 0;
}

static int names(const char *fn)
{
    char in[128];
    snprintf(in, sizeof in, "(in %s at ", fn);
    return strstr(last_msg, in) != NULL;
}

static int said(const char *what) { return strstr(last_msg, what) != NULL; }

static float *ramp(size_t n)
{
    float *v = malloc(n * sizeof *v);
    if (!v) {
        fprintf(stderr, "out of host memory\n");
        exit(1);
    }
    for (size_t i = 0; i < n; i++)
        v[i] = (float)((i * 37) % 101) / 7.0f - 5.0f;
    return v;
}

static float *filled(size_t n, float v)
{
    float *p = ramp(n);
    for (size_t i = 0; i < n; i++)
        p[i] = v;
    return p;
}

static int same(const float *a, const float *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (fabsf(a[i] - b[i]) > 1e-6f * fmaxf(1.0f, fabsf(a[i])))
            return 0;
    return 1;
}

static int all(const float *a, size_t n, float v)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != v)
            return 0;
    return 1;
}

/* device (pool) copy of host data */
static float *to_device(const float *h, size_t n)
{
    void *d = NULL;
    if (gf_malloc(&d, n * sizeof *h) != GF_SUCCESS || gf_memcpy(d, h, n * sizeof *h, GF_HOST_TO_DEVICE) != GF_SUCCESS) {
        fprintf(stderr, "cannot set up %zu device bytes: %s\n", n * sizeof *h, gf_last_error());
        exit(1);
    }
    return d;
}

/* whether device array d still holds only v */
static int device_all(const float *d, size_t n, float v)
{
    float *h = filled(n, 0.0f);
    int ok = gf_memcpy(h, d, n * sizeof *h, GF_DEVICE_TO_HOST) == GF_SUCCESS && all(h, n, v);
    free(h);
    return ok;
}

static void map_cases(void)
{
    /* 48 MiB each: x is staged, y no longer fits under 64 MiB */
    int n = 12 * MiB;
    float *x = ramp((size_t)n), *y = ramp((size_t)n), *ref = ramp((size_t)n);
    start();
    axpy(n, 0.5f, x, ref);
    gf_axpy(n, 0.5f, x, y);
    check("map, host arrays do not fit: reported", reports == 1 && names("axpy") && said("staging"));
    check("map, host arrays do not fit: right on the host", same(ref, y, (size_t)n));
    free(x);
    free(y);
    free(ref);
}

static void reduction_cases(void)
{
    /* 16 KiB short of 32 MiB each: staging takes the limit but 32 KiB (all
     * of it with the pool's 2 MiB rounding), the 64 KiB of scratch does not
     * fit - with the pool on or off */
    int n = (32 * MiB - 16 * 1024) / 4;
    float *x = ramp((size_t)n), *y = filled((size_t)n, SENTINEL), *ref = filled((size_t)n, SENTINEL);
    start();
    double want = scale_sum(n, 1.5f, x, ref);
    double got = gf_scale_sum(n, 1.5f, x, y);
    check("map+reduce, scratch does not fit: reported", reports == 1 && names("scale_sum") && said("scratch"));
    check("map+reduce, scratch does not fit: output right on the host", same(ref, y, (size_t)n));
    check("map+reduce, scratch does not fit: sum right on the host", fabs(got - want) <= 1e-9 * fabs(want));

    /* the same arrays in device memory: no host fallback is possible */
    float *sent = filled((size_t)n, SENTINEL);
    float *dx = to_device(x, (size_t)n), *dy = to_device(sent, (size_t)n);
    start();
    got = gf_scale_sum(n, 1.5f, dx, dy);
    check("map+reduce, pool arrays, scratch does not fit: reported",
          reports == 1 && names("scale_sum") && said("device memory") && last_status == GF_ERROR_LIMIT);
    check("map+reduce, pool arrays: returns NaN, not a plausible sum", isnan(got));
    check("map+reduce, pool arrays: output untouched", device_all(dy, (size_t)n, SENTINEL));
    gf_free(dx);
    gf_free(dy);
    free(sent);
    free(x);
    free(y);
    free(ref);
}

static void row_cases(void)
{
    /* 48 MiB each */
    int rows = 1024, cols = 12 * 1024;
    size_t n = (size_t)rows * cols;
    float *x = ramp(n), *y = filled(n, SENTINEL), *ref = filled(n, SENTINEL);
    start();
    softmax(rows, cols, (const float(*)[cols])x, (float(*)[cols])ref);
    gf_softmax(rows, cols, (const float(*)[cols])x, (float(*)[cols])y);
    check("row kernel, host arrays do not fit: reported", reports == 1 && names("softmax"));
    check("row kernel, host arrays do not fit: right on the host", same(ref, y, n));

    /* x in device memory, y on the host: y cannot be staged, x cannot go to the host */
    float *dx = to_device(x, n);
    float *y2 = filled(n, SENTINEL);
    start();
    gf_softmax(rows, cols, (const float(*)[cols])dx, (float(*)[cols])y2);
    check("row kernel, pool input, host output does not fit: reported",
          reports == 1 && names("softmax") && said("device memory"));
    check("row kernel, pool input: host output untouched", all(y2, n, SENTINEL));
    gf_free(dx);
    free(y2);
    free(x);
    free(y);
    free(ref);
}

/* smooth: staging x (26 MiB) and y (24 MiB) fits, the 26 MiB temporary not */
static void temporary_cases(const char *fn, void (*c_body)(int, const float *, float *),
                            void (*launcher)(int, const float *, float *), int host_reports,
                            int device_reports)
{
    int n = 6 * MiB;
    size_t m = (size_t)n + 2;
    float *x = ramp(m), *y = filled(m, SENTINEL), *ref = filled(m, SENTINEL);
    char what[128];
    start();
    c_body(n, x, ref);
    launcher(n, x, y);
    snprintf(what, sizeof what, "%s, temporary does not fit: reported", fn);
    check(what, reports == host_reports && names(fn) && last_status == GF_ERROR_LIMIT);
    snprintf(what, sizeof what, "%s, temporary does not fit: right on the host", fn);
    check(what, same(ref, y, m) && y[0] == SENTINEL && y[m - 1] == SENTINEL);

    float *sent = filled(m, SENTINEL);
    float *dx = to_device(x, m), *dy = to_device(sent, m);
    start();
    launcher(n, dx, dy);
    snprintf(what, sizeof what, "%s, pool arrays, temporary does not fit: reported", fn);
    check(what, reports == device_reports && names(fn) && said("device memory"));
    snprintf(what, sizeof what, "%s, pool arrays: output untouched", fn);
    check(what, device_all(dy, m, SENTINEL));
    gf_free(dx);
    gf_free(dy);
    free(sent);
    free(x);
    free(y);
    free(ref);
}

/* with the memory back, the same launchers run on the GPU again */
static void recovery_case(void)
{
    int n = 100000;
    float *x = ramp((size_t)n), *y = filled((size_t)n, 0.0f), *ref = filled((size_t)n, 0.0f);
    start();
    gf_pool_stats before, after;
    gf_pool_stats_get(&before);
    double want = scale_sum(n, 2.0f, x, ref);
    double got = gf_scale_sum(n, 2.0f, x, y);
    gf_pool_stats_get(&after);
    check("after the failures: a call that fits runs on the GPU",
          reports == 0 && after.allocs > before.allocs);
    check("after the failures: its results are right",
          same(ref, y, (size_t)n) && fabs(got - want) <= 1e-9 * fmax(1.0, fabs(want)));
    free(x);
    free(y);
    free(ref);
}

int main(void)
{
    /* before the pool exists: it reads the limit when it is created */
    setenv("GPUFUSE_POOL_LIMIT", LIMIT, 1);
    if (gf_init() != GF_SUCCESS || !gf_have_device()) {
        printf("no GPU (%s): skipped\n", gf_last_error());
        return 77;
    }
    gf_set_error_handler(capture, NULL);
    printf("out of device memory (GPUFUSE_POOL_LIMIT=%s, pool %s)\n", LIMIT,
           getenv("GPUFUSE_POOL") ? getenv("GPUFUSE_POOL") : "on");
    map_cases();
    reduction_cases();
    row_cases();
    /* the up-front temporary: one report; the late one: gf_call_scratch's
     * report, and with pool arrays a second one (the call did nothing) */
    temporary_cases("smooth", smooth, gf_smooth, 1, 1);
    temporary_cases("smooth_late", smooth_late, gf_smooth_late, 1, 2);
    recovery_case();
    gf_set_error_handler(NULL, NULL);
    printf("%s\n", failures ? "FAILED" : "every out-of-memory case ran right or did nothing, and said so");
    return failures ? 1 : 0;
}
