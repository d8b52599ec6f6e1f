/* harness.cuh - the measuring half of the CUDA benchmark drivers: device
 * buffers filled by a hash RNG kernel, one call checked against float64
 * references computed on the device, warm-up, timed repetitions with CUDA
 * events (median), and one JSON line per measurement on stdout.  A driver
 * (driver.cu for gpufuse, handwritten.cu for the CUDA peers) supplies the
 * implementations as a bench_impl table and calls bench_main. */
#ifndef GPUFUSE_BENCH_HARNESS_CUH
#define GPUFUSE_BENCH_HARNESS_CUH

#include "bench.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

/* ---- the implementations under test ------------------------------------
 * Same signatures as the marked C functions (2-D arrays as flat row-major
 * pointers: the ABI of a C99 VLA parameter).  A null entry is reported as
 * a failed measurement (for gpufuse: no launcher was linked). */
struct bench_impl {
    const char *name;            /* "impl" in the JSON lines */
    void (*chain)(int n, const float *a, const float *b, const float *c, float *out);
    float (*dot)(int n, const float *a, const float *b);
    void (*softmax)(int rows, int cols, const float *x, float *y);
    void (*layernorm)(int rows, int cols, const float *x, const float *gamma,
                      const float *beta, float *y);
    void (*vsqrt)(int n, const float *x, float *y);
    void (*jacobi)(int n, int steps, float *a, float *b);
    void (*blackscholes)(int n, const float *S, const float *K, const float *T,
                         float r, float v, float *call, float *put);
    bool measure_copy;           /* also time cudaMemcpy D2D ("copy") */
    const char *missing_hint;    /* appended to the error of a null entry */
};

/* ---- errors --------------------------------------------------------------
 * A failing CUDA call of the harness itself ends the process (run.sh runs
 * one process per workload, so the other workloads still run). */
#define BENCH_CUDA(call)                                                      \
    do {                                                                      \
        cudaError_t e_ = (call);                                              \
        if (e_ != cudaSuccess) {                                              \
            fprintf(stderr, "bench: %s:%d: %s: %s\n", __FILE__, __LINE__,     \
                    #call, cudaGetErrorString(e_));                           \
            exit(3);                                                          \
        }                                                                     \
    } while (0)

/* ---- options --------------------------------------------------------------- */
struct bench_opts {
    int warmup = 3, reps = 30;
    std::vector<std::string> only;   /* empty: every workload */
};

static const char *const bench_workloads[] = {
    "chain", "dot", "softmax", "softmax_short", "layernorm", "sqrt", "jacobi", "blackscholes"};

/* ---- JSON output ---------------------------------------------------------- */
static std::string bench_json_str(const std::string &s)
{
    std::string o = "\"";
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') { o += '\\'; o += (char)c; }
        else if (c < 0x20) { char b[8]; snprintf(b, sizeof b, "\\u%04x", c); o += b; }
        else o += (char)c;
    }
    return o + "\"";
}

static std::string bench_json_num(double v)
{
    if (!(v == v) || v > 1e300 || v < -1e300) return "null";
    char b[64];
    snprintf(b, sizeof b, "%.6g", v);
    return b;
}

struct bench_result {
    const char *workload, *impl;
    double ms = -1, wall_ms = -1, bytes = 0, max_err = -1, tol = 0;
    int reps = 0;
    bool ok = false;
    std::string err;
    bench_result(const char *w, const char *i) : workload(w), impl(i) {}
};

static void bench_emit(const bench_result &r)
{
    std::string s = "{\"workload\":" + bench_json_str(r.workload) +
                    ",\"impl\":" + bench_json_str(r.impl);
    s += ",\"ms\":" + (r.ms > 0 ? bench_json_num(r.ms) : "null");
    s += ",\"gbs\":" + (r.ms > 0 ? bench_json_num(r.bytes / (r.ms * 1e-3) / 1e9) : "null");
    char nb[32];
    snprintf(nb, sizeof nb, "%.0f", r.bytes);
    s += std::string(",\"bytes\":") + nb;
    s += std::string(",\"ok\":") + (r.ok ? "true" : "false");
    s += ",\"err\":" + (r.err.empty() ? std::string("null") : bench_json_str(r.err));
    s += ",\"max_err\":" + (r.max_err >= 0 ? bench_json_num(r.max_err) : "null");
    s += ",\"tol\":" + bench_json_num(r.tol);
    s += ",\"wall_ms\":" + (r.wall_ms > 0 ? bench_json_num(r.wall_ms) : "null");
    s += ",\"reps\":" + std::to_string(r.reps) + "}";
    printf("%s\n", s.c_str());
    fflush(stdout);
}

static void bench_log(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "[bench] ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
}

/* ---- device helpers ---------------------------------------------------------- */
static int bench_sm_count()
{
    int dev = 0, sms = 0;
    BENCH_CUDA(cudaGetDevice(&dev));
    BENCH_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    return sms;
}

__global__ void bench_fill_kernel(float *p, size_t n, uint32_t seed, float lo, float hi)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        p[i] = bench_uniform(seed, (uint32_t)i, lo, hi);
}

static float *bench_alloc(size_t n)
{
    float *p = nullptr;
    BENCH_CUDA(cudaMalloc(&p, n * sizeof(float)));
    return p;
}

static void bench_fill(float *p, size_t n, uint32_t seed, float lo, float hi)
{
    bench_fill_kernel<<<bench_sm_count() * 8, 256>>>(p, n, seed, lo, hi);
    BENCH_CUDA(cudaGetLastError());
}

/* Running maximum of non-negative float errors: their bit patterns order
 * like unsigned integers, and infinity/NaN sort above every finite value. */
__device__ void bench_err_max(unsigned *maxbits, double e)
{
    float f = e != e ? __int_as_float(0x7fc00000) : (float)e;
    atomicMax(maxbits, (unsigned)__float_as_int(f));
}

/* Element-wise check: F::operator()(i) returns the error of element i. */
template <class F>
__global__ void bench_check_kernel(size_t n, F f, unsigned *maxbits)
{
    double e = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        e = fmax(e, f(i));
    bench_err_max(maxbits, e);
}

template <class F>
static double bench_check(size_t n, F f)
{
    unsigned *d = nullptr, h = 0;
    BENCH_CUDA(cudaMalloc(&d, sizeof *d));
    BENCH_CUDA(cudaMemset(d, 0, sizeof *d));
    bench_check_kernel<<<bench_sm_count() * 8, 256>>>(n, f, d);
    BENCH_CUDA(cudaGetLastError());
    BENCH_CUDA(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
    BENCH_CUDA(cudaFree(d));
    float e;
    memcpy(&e, &h, sizeof e);
    return e != e ? INFINITY : e;
}

struct chk_chain {
    const float *a, *b, *c, *out;
    __device__ double operator()(size_t i) const
    { return bench_err(out[i], ref_chain(a[i], b[i], c[i]), BENCH_FLOOR_RELATIVE); }
};
struct chk_sqrt {
    const float *x, *y;
    __device__ double operator()(size_t i) const
    { return bench_err(y[i], sqrt((double)x[i]), BENCH_FLOOR_RELATIVE); }
};
struct chk_bs {
    const float *S, *K, *T, *call, *put;
    float r, v;
    __device__ double operator()(size_t i) const
    {
        double c, p;
        ref_blackscholes(S[i], K[i], T[i], r, v, &c, &p);
        return fmax(bench_err(call[i], c, BENCH_FLOOR_BS), bench_err(put[i], p, BENCH_FLOOR_BS));
    }
};
struct chk_softmax {
    const float *x, *y;
    const double *m, *s;
    int cols;
    __device__ double operator()(size_t i) const
    {
        size_t r = i / cols;
        return bench_err(y[i], exp((double)x[i] - m[r]) / s[r], BENCH_FLOOR_RELATIVE);
    }
};
struct chk_layernorm {
    const float *x, *gamma, *beta, *y;
    const double *mean, *rstd;
    int cols;
    __device__ double operator()(size_t i) const
    {
        size_t r = i / cols, j = i % cols;
        double ref = (x[i] - mean[r]) * rstd[r] * gamma[j] + beta[j];
        return bench_err(y[i], ref, BENCH_FLOOR_LAYERNORM);
    }
};
struct chk_grid {
    const float *got;
    const double *ref;
    __device__ double operator()(size_t i) const
    { return bench_err(got[i], ref[i], BENCH_FLOOR_RELATIVE); }
};

/* float64 row statistics, one thread per row (only run once per check). */
__global__ void bench_softmax_ref(const float *x, int rows, int cols, double *m, double *s)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) ref_softmax_row(x + (size_t)r * cols, cols, &m[r], &s[r]);
}
__global__ void bench_layernorm_ref(const float *x, int rows, int cols, double *mean, double *rstd)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) ref_layernorm_row(x + (size_t)r * cols, cols, &mean[r], &rstd[r]);
}
__global__ void bench_dot_ref(size_t n, const float *a, const float *b, double *sum)
{
    double s = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        s += (double)a[i] * b[i];
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
    if ((threadIdx.x & 31) == 0) atomicAdd(sum, s);
}
__global__ void bench_to_double(size_t n, const float *x, double *y)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        y[i] = x[i];
}
__global__ void bench_jacobi_ref_sweep(int n, const double *src, double *dst)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1) {
        size_t k = (size_t)i * n + j;
        dst[k] = 0.25 * (src[k - n] + src[k + n] + src[k - 1] + src[k + 1]);
    }
}

/* ---- timing ---------------------------------------------------------------------
 * Each repetition: an event on the legacy default stream (which orders with
 * every blocking stream, so the launchers' stream is covered), the call, an
 * event, wait.  The median of the event times is reported; the median wall
 * time of the same repetitions is printed alongside as a cross-check. */
template <class F>
static void bench_time(bench_result &r, const bench_opts &o, F call)
{
    cudaEvent_t e0, e1;
    BENCH_CUDA(cudaEventCreate(&e0));
    BENCH_CUDA(cudaEventCreate(&e1));
    for (int k = 0; k < o.warmup; k++) call();
    BENCH_CUDA(cudaDeviceSynchronize());
    std::vector<double> ev, wall;
    for (int k = 0; k < o.reps; k++) {
        auto t0 = std::chrono::steady_clock::now();
        BENCH_CUDA(cudaEventRecord(e0, 0));
        call();
        BENCH_CUDA(cudaEventRecord(e1, 0));
        BENCH_CUDA(cudaEventSynchronize(e1));
        BENCH_CUDA(cudaDeviceSynchronize());
        auto t1 = std::chrono::steady_clock::now();
        float ms = 0;
        BENCH_CUDA(cudaEventElapsedTime(&ms, e0, e1));
        ev.push_back(ms);
        wall.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    BENCH_CUDA(cudaEventDestroy(e0));
    BENCH_CUDA(cudaEventDestroy(e1));
    std::sort(ev.begin(), ev.end());
    std::sort(wall.begin(), wall.end());
    r.ms = ev[ev.size() / 2];
    r.wall_ms = wall[wall.size() / 2];
    r.reps = o.reps;
    /* Work on a non-blocking stream escapes the events: then the wall time
     * is the honest figure (it includes launch overhead, a few us). */
    if (r.ms < 0.5 * r.wall_ms && r.wall_ms > 0.05) {
        bench_log("%s/%s: event time %.4f ms << wall time %.4f ms; reporting wall time",
                  r.workload, r.impl, r.ms, r.wall_ms);
        r.ms = r.wall_ms;
    }
}

static void bench_judge(bench_result &r, double err, double tol)
{
    r.max_err = err;
    r.tol = tol;
    r.ok = err <= tol;
    if (!r.ok) {
        char b[128];
        snprintf(b, sizeof b, "max error %.3g exceeds tolerance %.0e", err, tol);
        r.err = b;
    }
}

static bool bench_missing(bench_result &r, const bench_impl &im, bool present)
{
    if (present) return false;
    r.err = std::string("no implementation of ") + r.workload + " in " + im.name;
    if (im.missing_hint) r.err += std::string(" (") + im.missing_hint + ")";
    return true;
}

static void bench_fail_call(bench_result &r)
{
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess && r.err.empty()) {
        r.ok = false;
        r.err = std::string("CUDA error after the call: ") + cudaGetErrorString(e);
    }
}

/* ---- the workloads ------------------------------------------------------------------ */
static void run_chain(const bench_impl &im, const bench_opts &o)
{
    bench_result r("chain", im.name);
    const int n = BENCH_CHAIN_N;
    r.bytes = 4.0 * n * sizeof(float);
    if (bench_missing(r, im, im.chain)) return bench_emit(r);
    float *a = bench_alloc(n), *b = bench_alloc(n), *c = bench_alloc(n), *out = bench_alloc(n);
    bench_fill(a, n, SEED_CHAIN_A, RANGE_CHAIN_AB);
    bench_fill(b, n, SEED_CHAIN_B, RANGE_CHAIN_AB);
    bench_fill(c, n, SEED_CHAIN_C, RANGE_CHAIN_C);
    bench_fill(out, n, 99, -1.0f, -0.5f);
    BENCH_CUDA(cudaDeviceSynchronize());
    im.chain(n, a, b, c, out);
    BENCH_CUDA(cudaDeviceSynchronize());
    bench_judge(r, bench_check(n, chk_chain{a, b, c, out}), BENCH_TOL_ELEMENTWISE);
    bench_time(r, o, [&] { im.chain(n, a, b, c, out); });
    bench_fail_call(r);
    BENCH_CUDA(cudaFree(a)); BENCH_CUDA(cudaFree(b)); BENCH_CUDA(cudaFree(c)); BENCH_CUDA(cudaFree(out));
    bench_emit(r);
}

static void run_dot(const bench_impl &im, const bench_opts &o)
{
    bench_result r("dot", im.name);
    const int n = BENCH_DOT_N;
    r.bytes = 2.0 * n * sizeof(float);
    if (bench_missing(r, im, im.dot)) return bench_emit(r);
    float *a = bench_alloc(n), *b = bench_alloc(n);
    bench_fill(a, n, SEED_DOT_A, RANGE_DOT);
    bench_fill(b, n, SEED_DOT_B, RANGE_DOT);
    double *dref = nullptr, ref = 0;
    BENCH_CUDA(cudaMalloc(&dref, sizeof *dref));
    BENCH_CUDA(cudaMemset(dref, 0, sizeof *dref));
    bench_dot_ref<<<bench_sm_count() * 8, 256>>>(n, a, b, dref);
    BENCH_CUDA(cudaMemcpy(&ref, dref, sizeof ref, cudaMemcpyDeviceToHost));
    BENCH_CUDA(cudaFree(dref));
    float s = im.dot(n, a, b);
    BENCH_CUDA(cudaDeviceSynchronize());
    bench_judge(r, bench_err(s, ref, BENCH_FLOOR_RELATIVE), BENCH_TOL_REDUCTION);
    volatile float sink = 0;
    bench_time(r, o, [&] { sink = sink + im.dot(n, a, b); });
    bench_fail_call(r);
    BENCH_CUDA(cudaFree(a)); BENCH_CUDA(cudaFree(b));
    bench_emit(r);
}

/* softmax and softmax_short: the same function on two shapes. */
static void run_softmax_shape(const bench_impl &im, const bench_opts &o, const char *name,
                              int rows, int cols)
{
    bench_result r(name, im.name);
    const size_t n = (size_t)rows * cols;
    r.bytes = 2.0 * n * sizeof(float);
    if (bench_missing(r, im, im.softmax)) return bench_emit(r);
    float *x = bench_alloc(n), *y = bench_alloc(n);
    bench_fill(x, n, SEED_SOFTMAX_X, RANGE_SOFTMAX);
    bench_fill(y, n, 99, -1.0f, -0.5f);
    double *m, *s;
    BENCH_CUDA(cudaMalloc(&m, rows * sizeof *m));
    BENCH_CUDA(cudaMalloc(&s, rows * sizeof *s));
    bench_softmax_ref<<<(rows + 127) / 128, 128>>>(x, rows, cols, m, s);
    BENCH_CUDA(cudaGetLastError());
    im.softmax(rows, cols, x, y);
    BENCH_CUDA(cudaDeviceSynchronize());
    bench_judge(r, bench_check(n, chk_softmax{x, y, m, s, cols}), BENCH_TOL_REDUCTION);
    bench_time(r, o, [&] { im.softmax(rows, cols, x, y); });
    bench_fail_call(r);
    BENCH_CUDA(cudaFree(x)); BENCH_CUDA(cudaFree(y)); BENCH_CUDA(cudaFree(m)); BENCH_CUDA(cudaFree(s));
    bench_emit(r);
}

static void run_softmax(const bench_impl &im, const bench_opts &o)
{
    run_softmax_shape(im, o, "softmax", BENCH_ROWS, BENCH_COLS);
}

static void run_softmax_short(const bench_impl &im, const bench_opts &o)
{
    run_softmax_shape(im, o, "softmax_short", BENCH_SHORT_ROWS, BENCH_SHORT_COLS);
}

static void run_layernorm(const bench_impl &im, const bench_opts &o)
{
    bench_result r("layernorm", im.name);
    const int rows = BENCH_ROWS, cols = BENCH_COLS;
    const size_t n = (size_t)rows * cols;
    r.bytes = 2.0 * n * sizeof(float) + 2.0 * cols * sizeof(float);
    if (bench_missing(r, im, im.layernorm)) return bench_emit(r);
    float *x = bench_alloc(n), *y = bench_alloc(n), *g = bench_alloc(cols), *bt = bench_alloc(cols);
    bench_fill(x, n, SEED_LN_X, RANGE_LN_X);
    bench_fill(g, cols, SEED_LN_GAMMA, RANGE_LN_GAMMA);
    bench_fill(bt, cols, SEED_LN_BETA, RANGE_LN_BETA);
    bench_fill(y, n, 99, -1.0f, -0.5f);
    double *mean, *rstd;
    BENCH_CUDA(cudaMalloc(&mean, rows * sizeof *mean));
    BENCH_CUDA(cudaMalloc(&rstd, rows * sizeof *rstd));
    bench_layernorm_ref<<<(rows + 127) / 128, 128>>>(x, rows, cols, mean, rstd);
    BENCH_CUDA(cudaGetLastError());
    im.layernorm(rows, cols, x, g, bt, y);
    BENCH_CUDA(cudaDeviceSynchronize());
    bench_judge(r, bench_check(n, chk_layernorm{x, g, bt, y, mean, rstd, cols}), BENCH_TOL_REDUCTION);
    bench_time(r, o, [&] { im.layernorm(rows, cols, x, g, bt, y); });
    bench_fail_call(r);
    BENCH_CUDA(cudaFree(x)); BENCH_CUDA(cudaFree(y)); BENCH_CUDA(cudaFree(g)); BENCH_CUDA(cudaFree(bt));
    BENCH_CUDA(cudaFree(mean)); BENCH_CUDA(cudaFree(rstd));
    bench_emit(r);
}

static void run_sqrt(const bench_impl &im, const bench_opts &o)
{
    bench_result r("sqrt", im.name);
    const int n = BENCH_SQRT_N;
    r.bytes = 2.0 * n * sizeof(float);
    if (bench_missing(r, im, im.vsqrt)) return bench_emit(r);
    float *x = bench_alloc(n), *y = bench_alloc(n);
    bench_fill(x, n, SEED_SQRT_X, RANGE_SQRT);
    bench_fill(y, n, 99, -1.0f, -0.5f);
    BENCH_CUDA(cudaDeviceSynchronize());
    im.vsqrt(n, x, y);
    BENCH_CUDA(cudaDeviceSynchronize());
    bench_judge(r, bench_check(n, chk_sqrt{x, y}), BENCH_TOL_ELEMENTWISE);
    bench_time(r, o, [&] { im.vsqrt(n, x, y); });
    bench_fail_call(r);
    BENCH_CUDA(cudaFree(x)); BENCH_CUDA(cudaFree(y));
    bench_emit(r);
}

static void run_jacobi(const bench_impl &im, const bench_opts &o)
{
    bench_result r("jacobi", im.name);
    const int n = BENCH_JACOBI_N, steps = BENCH_JACOBI_STEPS;
    const size_t nn = (size_t)n * n;
    r.bytes = 2.0 * steps * 2.0 * nn * sizeof(float);   /* per sweep: 1 read + 1 write */
    if (bench_missing(r, im, im.jacobi)) return bench_emit(r);
    float *a = bench_alloc(nn), *b = bench_alloc(nn);
    bench_fill(a, nn, SEED_JACOBI, RANGE_JACOBI);
    bench_fill(b, nn, SEED_JACOBI, RANGE_JACOBI);   /* same boundary in both */
    double *ra, *rb;
    BENCH_CUDA(cudaMalloc(&ra, nn * sizeof *ra));
    BENCH_CUDA(cudaMalloc(&rb, nn * sizeof *rb));
    int blocks = bench_sm_count() * 8;
    bench_to_double<<<blocks, 256>>>(nn, a, ra);
    bench_to_double<<<blocks, 256>>>(nn, a, rb);
    dim3 tb(32, 8), gr((n + 31) / 32, (n + 7) / 8);
    for (int s = 0; s < steps; s++) {
        bench_jacobi_ref_sweep<<<gr, tb>>>(n, ra, rb);
        bench_jacobi_ref_sweep<<<gr, tb>>>(n, rb, ra);
    }
    BENCH_CUDA(cudaGetLastError());
    im.jacobi(n, steps, a, b);
    BENCH_CUDA(cudaDeviceSynchronize());
    bench_judge(r, bench_check(nn, chk_grid{a, ra}), BENCH_TOL_ELEMENTWISE);
    BENCH_CUDA(cudaFree(ra)); BENCH_CUDA(cudaFree(rb));
    bench_time(r, o, [&] { im.jacobi(n, steps, a, b); });
    bench_fail_call(r);
    BENCH_CUDA(cudaFree(a)); BENCH_CUDA(cudaFree(b));
    bench_emit(r);
}

static void run_blackscholes(const bench_impl &im, const bench_opts &o)
{
    bench_result r("blackscholes", im.name);
    const int n = BENCH_BS_N;
    r.bytes = 5.0 * n * sizeof(float);
    if (bench_missing(r, im, im.blackscholes)) return bench_emit(r);
    float *S = bench_alloc(n), *K = bench_alloc(n), *T = bench_alloc(n);
    float *call = bench_alloc(n), *put = bench_alloc(n);
    bench_fill(S, n, SEED_BS_S, RANGE_BS_S);
    bench_fill(K, n, SEED_BS_K, RANGE_BS_K);
    bench_fill(T, n, SEED_BS_T, RANGE_BS_T);
    bench_fill(call, n, 99, -1.0f, -0.5f);
    bench_fill(put, n, 98, -1.0f, -0.5f);
    BENCH_CUDA(cudaDeviceSynchronize());
    const float rr = BENCH_BS_R, v = BENCH_BS_V;
    im.blackscholes(n, S, K, T, rr, v, call, put);
    BENCH_CUDA(cudaDeviceSynchronize());
    bench_judge(r, bench_check(n, chk_bs{S, K, T, call, put, rr, v}), BENCH_TOL_BS);
    bench_time(r, o, [&] { im.blackscholes(n, S, K, T, rr, v, call, put); });
    bench_fail_call(r);
    BENCH_CUDA(cudaFree(S)); BENCH_CUDA(cudaFree(K)); BENCH_CUDA(cudaFree(T));
    BENCH_CUDA(cudaFree(call)); BENCH_CUDA(cudaFree(put));
    bench_emit(r);
}

/* Device copy bandwidth: cudaMemcpy D2D of 1 GiB, read + write counted. */
static void run_copy(const bench_impl &im, const bench_opts &o)
{
    bench_result r("copy", "copy");
    (void)im;
    const size_t bytes = (size_t)1 << 30;
    r.bytes = 2.0 * bytes;
    float *src = bench_alloc(bytes / 4), *dst = bench_alloc(bytes / 4);
    bench_fill(src, bytes / 4, 7, 1.0f, 2.0f);
    BENCH_CUDA(cudaDeviceSynchronize());
    bench_time(r, o, [&] { BENCH_CUDA(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice)); });
    r.ok = true;
    BENCH_CUDA(cudaFree(src)); BENCH_CUDA(cudaFree(dst));
    bench_emit(r);
}

/* ---- main ------------------------------------------------------------------------------ */
static int bench_main(int argc, char **argv, const bench_impl &im)
{
    bench_opts o;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) { fprintf(stderr, "%s: %s needs a value\n", argv[0], a.c_str()); exit(2); }
            return argv[++i];
        };
        if (a == "--list") {
            for (const char *w : bench_workloads) printf("%s\n", w);
            if (im.measure_copy) printf("copy\n");
            return 0;
        } else if (a == "--quick") { o.warmup = 1; o.reps = 5; }
        else if (a == "--reps") o.reps = std::max(1, atoi(next().c_str()));
        else if (a == "--warmup") o.warmup = std::max(0, atoi(next().c_str()));
        else if (a == "--only") {
            std::string s = next();
            for (size_t p = 0, q; p <= s.size(); p = q + 1) {
                q = s.find(',', p);
                if (q == std::string::npos) q = s.size();
                if (q > p) o.only.push_back(s.substr(p, q - p));
            }
        } else if (a == "--help" || a == "-h") {
            printf("usage: %s [--list] [--only w1,w2] [--quick] [--reps N] [--warmup N]\n"
                   "Prints one JSON line per measurement (impl \"%s\").\n", argv[0], im.name);
            return 0;
        } else { fprintf(stderr, "%s: unknown option %s (see --help)\n", argv[0], a.c_str()); return 2; }
    }
    struct { const char *name; void (*run)(const bench_impl &, const bench_opts &); } table[] = {
        {"copy", run_copy}, {"chain", run_chain}, {"dot", run_dot}, {"softmax", run_softmax},
        {"softmax_short", run_softmax_short}, {"layernorm", run_layernorm}, {"sqrt", run_sqrt},
        {"jacobi", run_jacobi}, {"blackscholes", run_blackscholes}};
    for (const std::string &w : o.only) {
        bool known = false;
        for (auto &t : table) known |= w == t.name;
        if (!known) { fprintf(stderr, "%s: unknown workload %s (see --list)\n", argv[0], w.c_str()); return 2; }
    }
    int dev = 0;
    cudaDeviceProp p;
    BENCH_CUDA(cudaGetDevice(&dev));
    BENCH_CUDA(cudaGetDeviceProperties(&p, dev));
    bench_log("%s on %s (sm_%d%d, %d SMs, %.0f GiB); warmup %d, reps %d", im.name, p.name,
              p.major, p.minor, p.multiProcessorCount, p.totalGlobalMem / 1073741824.0, o.warmup, o.reps);
    for (auto &t : table) {
        bool copy = !strcmp(t.name, "copy");
        if (copy && !im.measure_copy) continue;
        if (!o.only.empty() && std::find(o.only.begin(), o.only.end(), t.name) == o.only.end()) continue;
        auto t0 = std::chrono::steady_clock::now();
        t.run(im, o);
        BENCH_CUDA(cudaDeviceSynchronize());
        bench_log("%s/%s done in %.2f s", im.name, t.name,
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return 0;
}

#endif /* GPUFUSE_BENCH_HARNESS_CUH */
