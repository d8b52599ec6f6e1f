/* bench_libs.c - gpufuse's library calls on device pointers, timed with
 * CUDA events (median of the timed repetitions after warm-up), one JSON
 * line per workload in bench/'s schema plus "tflops":
 *   sgemm_10000         matmul_nn (bench/workloads/matmul.c through gpufuse: the nest
 *                       becomes one cuBLAS call) 10000^3 f32 (exact fp32, no TF32)
 *   fft2_1024_c64       gf_fft_c2c 1024x1024 complex64, forward
 *   gemm_bias_relu_8192 dense_bias_relu (the same file: the product and its bias + ReLU
 *                       nest become one cuBLASLt call) 8192^3 f32
 *   sqrt_1e8            vsqrt (bench/workloads/sqrt.c through gpufuse), 1e8 floats
 *   fft_power_2e24_c64  fftcb_power (bench/libs/fft_pipelines.c): window * x -> FFT -> |X|^2,
 *                       2^24 complex64, as a default build runs it (the window and |X|^2 in
 *                       kernels of their own around cuFFT)
 *   fft_conv_2e24_c64   fftcb_conv (the same file): FFT a, FFT b, product, inverse FFT
 *                       (unnormalised), the same way
 *                       (both: the time with GPUFUSE_FFT_CALLBACKS=1, the element-wise work
 *                       in cuFFT's callbacks, in the note)
 * Checks: GEMMs at 64 sampled entries against float64 host dot products
 * (|c - ref| <= (k+4) 2^-23 sum|a b|); FFT by the inverse round trip
 * (normwise 1e-5); sqrt at sampled entries; the FFT pipelines with callbacks
 * against the same calls without (normwise 1e-5).
 *   bench_libs [--only w1,w2] [--quick] [--reps N]
 * Exits 77 without a GPU. */
#define _GNU_SOURCE /* setenv */
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gpufuse.h>

void vsqrt(int n, const float *restrict x, float *restrict y); /* bench/workloads/sqrt.c */
/* bench/workloads/matmul.c, as flat pointers (the same ABI as the VLAs) */
void matmul_nn(int n, const float *A, const float *B, float *C);
void dense_bias_relu(int n, const float *A, const float *B, const float *bias, float *C);
/* bench/libs/fft_pipelines.c */
void fftcb_power(int n, const float *x, const float *w, float *p);
void fftcb_conv(int n, const float *a, const float *b, float *c);

static int quick, reps_override;
static const char *only;

static int wanted(const char *w)
{
    if (!only)
        return 1;
    size_t n = strlen(w);
    for (const char *p = only; (p = strstr(p, w)); p += n)
        if ((p == only || p[-1] == ',') && (p[n] == ',' || p[n] == 0))
            return 1;
    return 0;
}

/* deterministic value of index i in [-1, 1) (splitmix64) */
static float val(uint64_t i, uint64_t seed)
{
    uint64_t z = i * 0x9e3779b97f4a7c15ull + seed;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (float)((double)(z >> 40) / 16777216.0 * 2.0 - 1.0);
}

static float *host_random(size_t n, uint64_t seed)
{
    float *p = malloc(n * sizeof *p);
    if (!p)
        return NULL;
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++)
        p[i] = val(i, seed);
    return p;
}

static float *device_copy(const float *h, size_t n)
{
    void *d = NULL;
    if (gf_malloc(&d, n * sizeof *h) != GF_SUCCESS)
        return NULL;
    if (h && gf_memcpy(d, h, n * sizeof *h, GF_HOST_TO_DEVICE) != GF_SUCCESS) {
        gf_free(d);
        return NULL;
    }
    return d;
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

typedef gf_status (*run_fn)(void *ctx);

/* median ms of `reps` timed runs after `warm` untimed ones; <0 on failure */
static double time_median(run_fn f, void *ctx, int warm, int reps, char *err, size_t errn)
{
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    float *ms = calloc((size_t)reps, sizeof *ms);
    double med = -1;
    gf_status s = GF_SUCCESS;
    for (int i = 0; i < warm && s == GF_SUCCESS; i++)
        s = f(ctx);
    if (s == GF_SUCCESS)
        s = gf_sync();
    for (int i = 0; i < reps && s == GF_SUCCESS; i++) {
        cudaEventRecord(e0, 0);
        s = f(ctx);
        cudaEventRecord(e1, 0);
        if (cudaEventSynchronize(e1) != cudaSuccess || cudaEventElapsedTime(&ms[i], e0, e1) != cudaSuccess)
            snprintf(err, errn, "cuda event failed"), s = GF_ERROR_CUDA;
    }
    if (s == GF_SUCCESS) {
        qsort(ms, (size_t)reps, sizeof *ms, cmp_float);
        med = reps % 2 ? ms[reps / 2] : 0.5 * (ms[reps / 2 - 1] + ms[reps / 2]);
    } else if (!err[0]) {
        snprintf(err, errn, "%s", gf_error_string(s));
    }
    free(ms);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    return med;
}

static void emit(const char *w, double ms, double flops, double bytes, int ok, const char *err, double max_err,
                 double tol, int reps, const char *note)
{
    printf("{\"workload\": \"%s\", \"impl\": \"gpufuse\", ", w);
    if (ms >= 0)
        printf("\"ms\": %.6g, \"tflops\": ", ms);
    else
        printf("\"ms\": null, \"tflops\": ");
    if (ms > 0 && flops > 0)
        printf("%.6g, ", flops / (ms * 1e-3) / 1e12);
    else
        printf("null, ");
    if (ms > 0 && bytes > 0)
        printf("\"gbs\": %.6g, \"bytes\": %.0f, ", bytes / (ms * 1e-3) / 1e9, bytes);
    else
        printf("\"gbs\": null, \"bytes\": %s, ", bytes > 0 ? "0" : "null");
    printf("\"ok\": %s, \"err\": ", ok ? "true" : "false");
    if (err && err[0]) {
        putchar('"');
        for (const char *p = err; *p; p++)
            if (*p == '"' || *p == '\\')
                printf("\\%c", *p);
            else if ((unsigned char)*p >= 32)
                putchar(*p);
        printf("\", ");
    } else {
        printf("null, ");
    }
    if (isfinite(max_err))
        printf("\"max_err\": %.3g, ", max_err);
    else
        printf("\"max_err\": null, ");
    printf("\"tol\": %.3g, \"reps\": %d, \"note\": \"%s\"}\n", tol, reps, note ? note : "");
    fflush(stdout);
}

/* ---- GEMM workloads ------------------------------------------------------------------ */

typedef struct gemm_ctx {
    int n, epi;
    float *A, *B, *bias, *C;
} gemm_ctx;

static gf_status run_gemm(void *p)
{
    gemm_ctx *g = p;
    /* a launcher reports failures through the error handler (abort by default) */
    if (g->epi)
        dense_bias_relu(g->n, g->A, g->B, g->bias, g->C);
    else
        matmul_nn(g->n, g->A, g->B, g->C);
    return GF_SUCCESS;
}

static void bench_gemm(const char *w, int n, int epi)
{
    char err[512] = "";
    size_t nn = (size_t)n * n;
    float *hA = host_random(nn, 1), *hB = host_random(nn, 2), *hbias = host_random((size_t)n, 3);
    gemm_ctx g = {n, epi, NULL, NULL, NULL, NULL};
    int reps = reps_override ? reps_override : quick ? 3 : 10;
    double ms = -1, max_err = NAN, tol = (n + 4) * 0x1p-23;
    int ok = 0;
    if (!hA || !hB || !hbias) {
        snprintf(err, sizeof err, "out of host memory");
        goto out;
    }
    g.A = device_copy(hA, nn), g.B = device_copy(hB, nn), g.bias = device_copy(hbias, (size_t)n);
    g.C = device_copy(NULL, nn);
    if (!g.A || !g.B || !g.bias || !g.C) {
        snprintf(err, sizeof err, "device allocation failed: %s", gf_last_error());
        goto out;
    }
    ms = time_median(run_gemm, &g, 2, reps, err, sizeof err);
    if (ms < 0)
        goto out;
    /* 64 sampled entries against float64 dot products */
    max_err = 0;
    for (int s = 0; s < 64; s++) {
        int i = (int)(((uint64_t)s * 2654435761u + 17) % (uint64_t)n);
        int j = (int)(((uint64_t)s * 40503u + 101) % (uint64_t)n);
        float got;
        if (gf_memcpy(&got, g.C + (size_t)i * n + j, sizeof got, GF_DEVICE_TO_HOST) != GF_SUCCESS) {
            snprintf(err, sizeof err, "copy back: %s", gf_last_error());
            max_err = NAN;
            break;
        }
        double ref = 0, scale = 0;
        for (int p = 0; p < n; p++) {
            double x = (double)hA[(size_t)i * n + p] * hB[(size_t)p * n + j];
            ref += x, scale += fabs(x);
        }
        if (epi) {
            ref += hbias[j], scale += fabs(hbias[j]);
            ref = ref > 0 ? ref : 0;
        }
        double e = fabs(got - ref) / scale;
        if (isnan(e) || e > max_err)
            max_err = e;
        if (isnan(e))
            break;
    }
    ok = isfinite(max_err) && max_err <= tol;
out:
    emit(w, ms, 2.0 * n * n * (double)n, 0, ok, err, max_err, tol, ms >= 0 ? reps : 0,
         epi ? "dense_bias_relu() of bench/workloads/matmul.c via gpufuse: one cuBLASLt call with its "
               "BIAS|RELU epilogue, fp32 (no TF32); err relative to sum|ab|"
             : "matmul_nn() of bench/workloads/matmul.c via gpufuse: the nest as one cuBLAS GEMM, fp32 "
               "(no TF32); err relative to sum|ab|");
    gf_free(g.A), gf_free(g.B), gf_free(g.bias), gf_free(g.C);
    free(hA), free(hB), free(hbias);
}

/* ---- FFT2 ------------------------------------------------------------------------------- */

typedef struct fft_ctx {
    int dims[2];
    float *x, *X;
} fft_ctx;

static gf_status run_fft(void *p)
{
    fft_ctx *f = p;
    return gf_fft_c2c(2, f->dims, 1, f->x, f->X, GF_FFT_FORWARD, GF_C32);
}

static void bench_fft(void)
{
    char err[512] = "";
    const size_t n = 1024 * 1024;
    fft_ctx f = {{1024, 1024}, NULL, NULL};
    float *h = host_random(2 * n, 4), *back = malloc(2 * n * sizeof *back);
    int reps = reps_override ? reps_override : quick ? 10 : 100, ok = 0;
    double ms = -1, max_err = NAN, tol = 1e-5;
    f.x = device_copy(h, 2 * n), f.X = device_copy(NULL, 2 * n);
    if (!h || !back || !f.x || !f.X) {
        snprintf(err, sizeof err, "allocation failed: %s", gf_last_error());
        goto out;
    }
    ms = time_median(run_fft, &f, 3, reps, err, sizeof err);
    if (ms < 0)
        goto out;
    /* inverse round trip: ifft(fft(x)) / n == x */
    gf_status s = gf_fft_c2c(2, f.dims, 1, f.X, f.X, GF_FFT_INVERSE, GF_C32);
    if (s == GF_SUCCESS)
        s = gf_memcpy(back, f.X, 2 * n * sizeof *back, GF_DEVICE_TO_HOST);
    if (s != GF_SUCCESS) {
        snprintf(err, sizeof err, "%s", gf_error_string(s));
        goto out;
    }
    double num = 0, den = 0;
    for (size_t i = 0; i < 2 * n; i++) {
        double d = back[i] / (double)n - h[i];
        num += d * d, den += (double)h[i] * h[i];
    }
    max_err = sqrt(num / den);
    ok = max_err <= tol;
out:
    emit("fft2_1024_c64", ms, 5.0 * n * log2((double)n), 2.0 * 2 * n * sizeof(float), ok, err, max_err, tol,
         ms >= 0 ? reps : 0, "gf_fft_c2c 2-D forward, cuFFT; tflops counts 5 n log2 n; err: inverse round trip");
    gf_free(f.x), gf_free(f.X);
    free(h), free(back);
}

/* ---- sqrt through a GPUFUSE function ------------------------------------------------------------- */

typedef struct sqrt_ctx {
    int n;
    float *x, *y;
} sqrt_ctx;

static gf_status run_sqrt(void *p)
{
    sqrt_ctx *s = p;
    vsqrt(s->n, s->x, s->y);
    return GF_SUCCESS;
}

static void bench_sqrt(void)
{
    char err[512] = "";
    const int n = 100000000;
    sqrt_ctx c = {n, NULL, NULL};
    float *h = host_random((size_t)n, 5);
    int reps = reps_override ? reps_override : quick ? 5 : 20, ok = 0;
    double ms = -1, max_err = NAN, tol = 1e-6;
    if (h)
        for (int i = 0; i < n; i++)
            h[i] = fabsf(h[i]);
    c.x = device_copy(h, (size_t)n), c.y = device_copy(NULL, (size_t)n);
    if (!h || !c.x || !c.y) {
        snprintf(err, sizeof err, "allocation failed: %s", gf_last_error());
        goto out;
    }
    ms = time_median(run_sqrt, &c, 2, reps, err, sizeof err);
    if (ms < 0)
        goto out;
    max_err = 0;
    for (int s = 0; s < 1000; s++) {
        size_t i = ((size_t)s * 2654435761u) % (size_t)n;
        float got;
        gf_memcpy(&got, c.y + i, sizeof got, GF_DEVICE_TO_HOST);
        double ref = sqrt((double)h[i]), e = fabs(got - ref) / (ref > 1e-30 ? ref : 1);
        max_err = e > max_err || isnan(e) ? e : max_err;
    }
    ok = max_err <= tol;
out:
    emit("sqrt_1e8", ms, 0, 2.0 * n * sizeof(float), ok, err, max_err, tol, ms >= 0 ? reps : 0,
         "vsqrt of bench/workloads/sqrt.c compiled by gpufuse; gbs counts read+write");
    gf_free(c.x), gf_free(c.y);
    free(h);
}

/* ---- FFT pipelines with callbacks (bench/libs/fft_pipelines.c) ----------------------------------- */

typedef struct pipe_ctx {
    int n, conv;
    float *x, *w, *p, *a, *b, *c;
} pipe_ctx;

static gf_status run_pipe(void *v)
{
    pipe_ctx *q = v;
    if (q->conv)
        fftcb_conv(q->n, q->a, q->b, q->c);
    else
        fftcb_power(q->n, q->x, q->w, q->p);
    return GF_SUCCESS;
}

static void bench_pipe(const char *name, int conv)
{
    char err[512] = "", note[512] = "";
    const int n = 1 << 24;
    const size_t c2 = 2 * (size_t)n, out = conv ? c2 : (size_t)n;
    int reps = reps_override ? reps_override : quick ? 5 : 20, ok = 0;
    double ms = -1, ms_cb = -1, max_err = NAN, tol = 1e-5;
    float *hx = host_random(c2, 11), *hw = host_random((size_t)n, 12), *hb = host_random(c2, 13);
    float *r_cb = malloc(out * sizeof(float)), *r_sep = malloc(out * sizeof(float));
    pipe_ctx q = {n, conv, device_copy(hx, c2), device_copy(hw, (size_t)n), device_copy(NULL, (size_t)n),
                  device_copy(hx, c2), device_copy(hb, c2), device_copy(NULL, c2)};
    float *res = conv ? q.c : q.p;
    gf_fft_cb_stats s0, s1;
    if (!hx || !hw || !hb || !r_cb || !r_sep || !q.x || !q.w || !q.p || !q.a || !q.b || !q.c) {
        snprintf(err, sizeof err, "allocation failed: %s", gf_last_error());
        goto out;
    }
    /* the default first (GPUFUSE_FFT_CALLBACKS unset: separate kernels), then with callbacks */
    unsetenv("GPUFUSE_FFT_CALLBACKS");
    ms = time_median(run_pipe, &q, 3, reps, err, sizeof err);
    if (ms < 0 || gf_memcpy(r_sep, res, out * sizeof(float), GF_DEVICE_TO_HOST) != GF_SUCCESS)
        goto out;
    setenv("GPUFUSE_FFT_CALLBACKS", "1", 1);
    gf_fft_callback_stats(&s0);
    ms_cb = time_median(run_pipe, &q, 3, reps, err, sizeof err);
    gf_fft_callback_stats(&s1);
    unsetenv("GPUFUSE_FFT_CALLBACKS");
    if (ms_cb < 0 || gf_memcpy(r_cb, res, out * sizeof(float), GF_DEVICE_TO_HOST) != GF_SUCCESS)
        goto out;
    double num = 0, den = 0;
    for (size_t i = 0; i < out; i++) {
        double d = (double)r_cb[i] - r_sep[i];
        num += d * d, den += (double)r_sep[i] * r_sep[i];
    }
    max_err = sqrt(num / den);
    ok = max_err <= tol && s1.folded > s0.folded;
    snprintf(note, sizeof note, "2^24 complex64 through gpufuse, default build (separate kernels around cuFFT); "
                                "GPUFUSE_FFT_CALLBACKS=1: %.4f ms, %llu of %d calls with cuFFT callbacks%s%s; "
                                "err: callbacks against the default",
             ms_cb, (unsigned long long)(s1.folded - s0.folded), reps + 3, s1.folded > s0.folded ? "" : ", why not: ",
             s1.folded > s0.folded ? "" : s1.last_reason);
out:
    emit(name, ms, 0, conv ? 4.0 * c2 * sizeof(float) : (c2 + n + n) * sizeof(float), ok, err, max_err, tol,
         ms >= 0 ? reps : 0, note);
    gf_free(q.x), gf_free(q.w), gf_free(q.p), gf_free(q.a), gf_free(q.b), gf_free(q.c);
    free(hx), free(hw), free(hb), free(r_cb), free(r_sep);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps_override = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: %s [--only sgemm_10000,fft2_1024_c64,gemm_bias_relu_8192,sqrt_1e8,"
                            "fft_power_2e24_c64,fft_conv_2e24_c64] "
                            "[--quick] [--reps N]\n", argv[0]);
            return 2;
        }
    }
    if (gf_init() != GF_SUCCESS) {
        fprintf(stderr, "bench_libs: no GPU (%s): skipped\n", gf_last_error());
        return 77;
    }
    int n = quick ? 4096 : 10000;
    if (wanted("sgemm_10000"))
        bench_gemm("sgemm_10000", n, 0);
    if (wanted("fft2_1024_c64"))
        bench_fft();
    if (wanted("gemm_bias_relu_8192"))
        bench_gemm("gemm_bias_relu_8192", quick ? 4096 : 8192, 1);
    if (wanted("sqrt_1e8"))
        bench_sqrt();
    if (wanted("fft_power_2e24_c64"))
        bench_pipe("fft_power_2e24_c64", 0);
    if (wanted("fft_conv_2e24_c64"))
        bench_pipe("fft_conv_2e24_c64", 1);
    return 0;
}
