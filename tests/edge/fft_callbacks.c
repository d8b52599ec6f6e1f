/* fft_callbacks.c - element-wise work folded into cuFFT LTO callbacks
 * (plan/fftfold.c, runtime/fft.c gf_call_fft_cb) on the GPU:
 *   (1) a windowed power spectrum, window * x -> FFT -> |X|^2,
 *   (2) an FFT convolution, FFT a, FFT b, product, inverse FFT,
 * on 2^24 complex64 in device memory (gf_malloc), with the callbacks and
 * with GPUFUSE_FFT_CALLBACKS=0 (the separate kernels and plain FFTs),
 * normwise relative difference at most 1e-5; at 2^12 both against the C
 * bodies, and a double-precision scale kept in place (the store callback
 * stores the scaled spectrum) at 2^12 against its C body.  gf_fft_callback_stats must count the callback executions (and
 * none with the variable set).  Prints the median time per call (CUDA
 * events on the current stream, 20 calls after 3 of warm-up) as
 *   fft_power_ms <callbacks> <separate>
 *   fft_conv_ms <callbacks> <separate>
 * Needs a GPU: exit 77 without one.  FFTCB_LOG2N overrides 24. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <gpufuse.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fftcb_power(int n, const float *x, const float *w, float *p);
void gf_fftcb_power(int n, const float *x, const float *w, float *p);
void fftcb_conv(int n, const float *a, const float *b, float *c);
void gf_fftcb_conv(int n, const float *a, const float *b, float *c);
void fftcb_scale(int n, double s, double *z, double *q);
void gf_fftcb_scale(int n, double s, double *z, double *q);

#define CALLS 20
#define WARM 3

static int failures;

static void check(const char *what, int ok)
{
    printf("  %-66s %s\n", what, ok ? "ok" : "FAILED");
    failures += !ok;
}

static void must(gf_status s, const char *what)
{
    if (s != GF_SUCCESS) {
        printf("%s: %s\n", what, gf_last_error());
        exit(1);
    }
}

static void fill(float *v, size_t n, unsigned seed)
{
    unsigned long long r = 0x9e3779b97f4a7c15ull ^ seed;
    for (size_t i = 0; i < n; i++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        v[i] = (float)((double)(r >> 11) / (double)(1ull << 53) * 2.0 - 1.0);
    }
}

/* ||got - ref|| / ||ref|| */
static double rel(const float *got, const float *ref, size_t n)
{
    double d = 0, r = 0;
    for (size_t i = 0; i < n; i++) {
        double e = (double)got[i] - ref[i];
        d += e * e;
        r += (double)ref[i] * ref[i];
        if (!isfinite(got[i]))
            return INFINITY;
    }
    return r > 0 ? sqrt(d / r) : sqrt(d);
}

/* on: GPUFUSE_FFT_CALLBACKS=1; off: 0, or (default) unset */
static void callbacks(int on)
{
    if (on == 1)
        setenv("GPUFUSE_FFT_CALLBACKS", "1", 1);
    else if (on == 0)
        setenv("GPUFUSE_FFT_CALLBACKS", "0", 1);
    else
        unsetenv("GPUFUSE_FFT_CALLBACKS");
}

static uint64_t folded(void)
{
    gf_fft_cb_stats s;
    must(gf_fft_callback_stats(&s), "gf_fft_callback_stats");
    return s.folded;
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

typedef struct Bufs {
    int n;
    float *x, *w, *p, *a, *b, *c;   /* device */
} Bufs;

static void run(const Bufs *d, int which)
{
    if (which == 0)
        gf_fftcb_power(d->n, d->x, d->w, d->p);
    else
        gf_fftcb_conv(d->n, d->a, d->b, d->c);
}

/* median ms of one call */
static float time_calls(const Bufs *d, int which)
{
    gf_event e0, e1;
    must(gf_event_create(&e0), "gf_event_create");
    must(gf_event_create(&e1), "gf_event_create");
    float ms[CALLS];
    for (int i = 0; i < WARM; i++)
        run(d, which);
    must(gf_sync(), "gf_sync");
    for (int i = 0; i < CALLS; i++) {
        must(gf_event_record(e0, NULL), "gf_event_record");
        run(d, which);
        must(gf_event_record(e1, NULL), "gf_event_record");
        must(gf_sync(), "gf_sync");
        must(gf_event_elapsed_ms(e0, e1, &ms[i]), "gf_event_elapsed_ms");
    }
    gf_event_destroy(e0);
    gf_event_destroy(e1);
    qsort(ms, CALLS, sizeof ms[0], cmp_float);
    return ms[CALLS / 2];
}

static void *dev(const float *h, size_t n)
{
    void *d = NULL;
    must(gf_malloc(&d, n * sizeof(float)), "gf_malloc");
    if (h)
        must(gf_memcpy(d, h, n * sizeof(float), GF_HOST_TO_DEVICE), "gf_memcpy");
    return d;
}

static void get(float *h, const float *d, size_t n)
{
    must(gf_memcpy(h, (void *)d, n * sizeof(float), GF_DEVICE_TO_HOST), "gf_memcpy");
}

/* One size: callbacks against separate kernels (and the C bodies when
 * `body`); timings printed when `timed`. */
static void one_size(int n, int body, int timed)
{
    size_t c2 = 2 * (size_t)n;
    float *x = malloc(c2 * 4), *w = malloc((size_t)n * 4), *a = malloc(c2 * 4), *b = malloc(c2 * 4);
    float *p_cb = malloc((size_t)n * 4), *p_sep = malloc((size_t)n * 4), *c_cb = malloc(c2 * 4), *c_sep = malloc(c2 * 4);
    if (!x || !w || !a || !b || !p_cb || !p_sep || !c_cb || !c_sep) {
        printf("out of host memory\n");
        exit(1);
    }
    fill(x, c2, 1);
    fill(a, c2, 2);
    fill(b, c2, 3);
    for (int i = 0; i < n; i++)
        w[i] = 0.5f - 0.5f * cosf(6.2831853f * (float)i / (float)n);
    Bufs d = {n, dev(x, c2), dev(w, n), dev(NULL, n), dev(a, c2), dev(b, c2), dev(NULL, c2)};
    char what[160];

    callbacks(1);
    uint64_t f0 = folded();
    run(&d, 0);
    run(&d, 1);
    must(gf_sync(), "gf_sync");
    uint64_t f1 = folded();
    snprintf(what, sizeof what, "n=%d: both calls ran with callbacks (%llu of 2 counted)", n,
             (unsigned long long)(f1 - f0));
    check(what, f1 - f0 == 2);
    if (f1 - f0 != 2) {
        gf_fft_cb_stats s;
        gf_fft_callback_stats(&s);
        printf("  last reason for separate kernels: %s\n", s.last_reason);
    }
    get(p_cb, d.p, n);
    get(c_cb, d.c, c2);

    callbacks(0);
    run(&d, 0);
    run(&d, 1);
    must(gf_sync(), "gf_sync");
    snprintf(what, sizeof what, "n=%d: GPUFUSE_FFT_CALLBACKS=0 ran no callbacks", n);
    check(what, folded() == f1);
    callbacks(-1);
    run(&d, 0);
    run(&d, 1);
    must(gf_sync(), "gf_sync");
    snprintf(what, sizeof what, "n=%d: GPUFUSE_FFT_CALLBACKS unset (the default) ran no callbacks", n);
    check(what, folded() == f1);
    get(p_sep, d.p, n);
    get(c_sep, d.c, c2);

    double rp = rel(p_cb, p_sep, n), rc = rel(c_cb, c_sep, c2);
    snprintf(what, sizeof what, "n=%d: power spectrum, callbacks vs separate: %.2e", n, rp);
    check(what, rp <= 1e-5);
    snprintf(what, sizeof what, "n=%d: convolution, callbacks vs separate: %.2e", n, rc);
    check(what, rc <= 1e-5);
    if (body) {
        float *p_ref = malloc((size_t)n * 4), *c_ref = malloc(c2 * 4);
        fftcb_power(n, x, w, p_ref);
        fftcb_conv(n, a, b, c_ref);
        snprintf(what, sizeof what, "n=%d: power spectrum, callbacks vs the C body: %.2e", n, rel(p_cb, p_ref, n));
        check(what, rel(p_cb, p_ref, n) <= 1e-5);
        snprintf(what, sizeof what, "n=%d: convolution, callbacks vs the C body: %.2e", n, rel(c_cb, c_ref, c2));
        check(what, rel(c_cb, c_ref, c2) <= 1e-5);
        free(p_ref);
        free(c_ref);
    }
    if (timed) {
        callbacks(1);
        float pw_cb = time_calls(&d, 0), cv_cb = time_calls(&d, 1);
        callbacks(0);
        float pw_sep = time_calls(&d, 0), cv_sep = time_calls(&d, 1);
        callbacks(1);
        printf("fft_power_ms %.4f %.4f\n", pw_cb, pw_sep);
        printf("fft_conv_ms %.4f %.4f\n", cv_cb, cv_sep);
    }
    gf_free(d.x), gf_free(d.w), gf_free(d.p), gf_free(d.a), gf_free(d.b), gf_free(d.c);
    free(x), free(w), free(a), free(b), free(p_cb), free(p_sep), free(c_cb), free(c_sep);
}

/* fftcb_scale (complex128, the scaled spectrum stored by the callback)
 * against its C body, normwise 1e-12 */
static void scale_test(int n)
{
    size_t c2 = 2 * (size_t)n;
    double *z = malloc(c2 * 8), *z_ref = malloc(c2 * 8), *q = malloc((size_t)n * 8), *q_ref = malloc((size_t)n * 8);
    float *tmp = malloc(c2 * 4);
    fill(tmp, c2, 7);
    for (size_t i = 0; i < c2; i++)
        z[i] = z_ref[i] = tmp[i];
    void *dz = NULL, *dq = NULL;
    must(gf_malloc(&dz, c2 * 8), "gf_malloc");
    must(gf_malloc(&dq, (size_t)n * 8), "gf_malloc");
    must(gf_memcpy(dz, z, c2 * 8, GF_HOST_TO_DEVICE), "gf_memcpy");
    callbacks(1);
    uint64_t f0 = folded();
    gf_fftcb_scale(n, 0.25, dz, dq);
    must(gf_sync(), "gf_sync");
    check("scale (complex128, kept in place): ran with callbacks", folded() == f0 + 1);
    must(gf_memcpy(z, dz, c2 * 8, GF_DEVICE_TO_HOST), "gf_memcpy");
    must(gf_memcpy(q, dq, (size_t)n * 8, GF_DEVICE_TO_HOST), "gf_memcpy");
    fftcb_scale(n, 0.25, z_ref, q_ref);
    double ez = 0, rz = 0, eq = 0, rq = 0;
    for (size_t i = 0; i < c2; i++)
        ez += (z[i] - z_ref[i]) * (z[i] - z_ref[i]), rz += z_ref[i] * z_ref[i];
    for (int i = 0; i < n; i++)
        eq += (q[i] - q_ref[i]) * (q[i] - q_ref[i]), rq += q_ref[i] * q_ref[i];
    char what[160];
    snprintf(what, sizeof what, "scale: spectrum %.2e, q %.2e against the C body", sqrt(ez / rz), sqrt(eq / rq));
    check(what, sqrt(ez / rz) <= 1e-12 && sqrt(eq / rq) <= 1e-12);
    gf_free(dz), gf_free(dq);
    free(z), free(z_ref), free(q), free(q_ref), free(tmp);
}

int main(void)
{
    if (gf_init() == GF_ERROR_NO_DEVICE) {
        printf("no GPU (%s): skipped\n", gf_last_error());
        return 77;
    }
    const char *e = getenv("FFTCB_LOG2N");
    int lg = e ? atoi(e) : 24;
    if (lg < 4 || lg > 28)
        lg = 24;
    printf("FFT callbacks: 2^12 against the C bodies, 2^%d timed\n", lg);
    one_size(1 << 12, 1, 0);
    scale_test(1 << 12);
    one_size(1 << lg, 0, 1);
    gf_fft_cb_stats s;
    gf_fft_callback_stats(&s);
    printf("callback stats: %llu folded, %llu separate, %llu compiles%s%s\n", (unsigned long long)s.folded,
           (unsigned long long)s.separate, (unsigned long long)s.compiles, s.last_reason[0] ? "; last reason: " : "",
           s.last_reason);
    printf("%s\n", failures ? "FAILED" : "all ok");
    return failures ? 1 : 0;
}
