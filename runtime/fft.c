/* fft.c - c2c/r2c/c2r FFTs of rank 1-3, batched, over cuFFT with an LRU
 * plan cache; without a GPU, a naive separable DFT for small sizes.
 *
 * Plans are keyed by (device, stream, rank, dims, batch, cuFFT type) and
 * bound to that stream once: a plan's work area then only ever sees one
 * stream, so two streams never race on it.  Executions hold the cache lock
 * (cuFFT is thread-safe only across different plans); they only enqueue. */
#include "rt.h"

#include <gpufuse/launch.h>
#include <complex.h>
#include <cufft.h>
#include <cufftXt.h>
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { KIND_C2C, KIND_R2C, KIND_C2R };

/* ---- checks --------------------------------------------------------------- */

static const char *cufft_name(cufftResult r)
{
    switch (r) {
    case CUFFT_SUCCESS: return "CUFFT_SUCCESS";
    case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_TYPE: return "CUFFT_INVALID_TYPE";
    case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR: return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED: return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE: return "CUFFT_INVALID_SIZE";
    case CUFFT_UNALIGNED_DATA: return "CUFFT_UNALIGNED_DATA";
    case CUFFT_INVALID_DEVICE: return "CUFFT_INVALID_DEVICE";
    case CUFFT_NO_WORKSPACE: return "CUFFT_NO_WORKSPACE";
    case CUFFT_NOT_IMPLEMENTED: return "CUFFT_NOT_IMPLEMENTED";
    case CUFFT_NOT_SUPPORTED: return "CUFFT_NOT_SUPPORTED";
    default: return "unknown cufftResult";
    }
}

#define FFT(call) fft_check((call), #call, __func__, __FILE__, __LINE__)

static gf_status fft_check(cufftResult r, const char *expr, const char *func, const char *file, int line)
{
    if (r == CUFFT_SUCCESS)
        return GF_SUCCESS;
    cudaGetLastError();
    gf_status s = r == CUFFT_ALLOC_FAILED                                      ? GF_ERROR_OUT_OF_MEMORY
                  : r == CUFFT_INVALID_SIZE || r == CUFFT_INVALID_VALUE        ? GF_ERROR_INVALID_VALUE
                  : r == CUFFT_NOT_SUPPORTED || r == CUFFT_NOT_IMPLEMENTED     ? GF_ERROR_NOT_SUPPORTED
                                                                               : GF_ERROR_CUDA;
    char why[64];
    snprintf(why, sizeof why, "%s (%d)", cufft_name(r), (int)r);
    return gf_lib_fail(s, expr, why, func, file, line);
}

typedef struct fft_shape {
    int kind;                /* KIND_* */
    int dbl;                 /* 1: double precision */
    int rank;
    int dims[3];
    int batch;
    long long n;             /* elements of one real/complex array: prod(dims) */
    long long nc;            /* complex elements of one half spectrum (r2c/c2r) */
} fft_shape;

static gf_status check_shape(const char *fn, int kind, int rank, const int dims[], int batch,
                             const void *in, const void *out, int direction, gf_dtype t, fft_shape *s)
{
    memset(s, 0, sizeof *s);
    if (rank < 1 || rank > 3)
        return gf_fail(GF_ERROR_INVALID_VALUE, "%s: rank %d, expected 1, 2 or 3", fn, rank);
    if (!dims || !in || !out)
        return gf_fail(GF_ERROR_INVALID_VALUE, "%s: null pointer", fn);
    if (batch < 1)
        return gf_fail(GF_ERROR_INVALID_VALUE, "%s: batch %d, expected >= 1", fn, batch);
    if (kind == KIND_C2C && direction != GF_FFT_FORWARD && direction != GF_FFT_INVERSE)
        return gf_fail(GF_ERROR_INVALID_VALUE, "%s: direction %d, expected GF_FFT_FORWARD or GF_FFT_INVERSE",
                       fn, direction);
    if (kind == KIND_C2C ? (t != GF_C32 && t != GF_C64)
                         : (t != GF_C32 && t != GF_C64 && t != GF_F32 && t != GF_F64))
        return gf_fail(GF_ERROR_INVALID_VALUE, "%s: type %d, expected %s", fn, (int)t,
                       kind == KIND_C2C ? "GF_C32 or GF_C64" : "GF_F32/GF_C32 or GF_F64/GF_C64");
    if (kind != KIND_C2C && in == out)
        return gf_fail(GF_ERROR_NOT_SUPPORTED, "%s: in-place real transforms are not supported "
                                               "(pass separate input and output buffers)", fn);
    s->kind = kind;
    s->dbl = t == GF_C64 || t == GF_F64;
    s->rank = rank;
    s->batch = batch;
    s->n = 1;
    for (int i = 0; i < rank; i++) {
        if (dims[i] < 1)
            return gf_fail(GF_ERROR_INVALID_VALUE, "%s: dims[%d] = %d, expected >= 1", fn, i, dims[i]);
        s->dims[i] = dims[i];
        s->n *= dims[i];
        if (s->n > (1LL << 40))
            return gf_fail(GF_ERROR_INVALID_VALUE, "%s: transform too large", fn);
    }
    s->nc = s->n / dims[rank - 1] * (dims[rank - 1] / 2 + 1);
    return GF_SUCCESS;
}

/* ---- plan cache ------------------------------------------------------------------ */

typedef struct fft_plan {
    int device;
    cudaStream_t stream;
    int rank, dims[3], batch;
    cufftType type;
    const gf_fft_cb *cb;         /* callbacks planned in (NULL: a plain plan) */
    size_t info_size;
    void *info;                  /* device copy of the callbacks' caller info */
    void *info_host;             /* what was last copied there (NULL: nothing yet) */
    cufftHandle h;
    uint64_t last_use;
} fft_plan;

static pthread_once_t release_once = PTHREAD_ONCE_INIT;
static void register_release(void);
static pthread_mutex_t fft_mu = PTHREAD_MUTEX_INITIALIZER;
static fft_plan *plans;
static int nplans, capacity;
static uint64_t clock_, hits, misses, evictions;

static void plan_destroy(fft_plan *p)
{
    cufftDestroy(p->h);
    if (p->info)
        cudaFree(p->info);
    free(p->info_host);
}

static gf_status make_cb_plan(cufftHandle h, const gf_fft_cb *cb, int dbl, size_t info_size, void **info);

/* GPUFUSE_FFT_CACHE: plans kept (1-4096, default 16).  Under fft_mu. */
static int cache_capacity(void)
{
    if (!capacity) {
        const char *e = getenv("GPUFUSE_FFT_CACHE");
        long v = e ? strtol(e, NULL, 10) : 16;
        capacity = v < 1 ? 1 : v > 4096 ? 4096 : (int)v;
        if (e && v < 1)
            fprintf(stderr, "gpufuse: GPUFUSE_FFT_CACHE=%s: keeping 1 plan\n", e);
    }
    return capacity;
}

static cufftType cufft_type(const fft_shape *s)
{
    switch (s->kind) {
    case KIND_C2C: return s->dbl ? CUFFT_Z2Z : CUFFT_C2C;
    case KIND_R2C: return s->dbl ? CUFFT_D2Z : CUFFT_R2C;
    default: return s->dbl ? CUFFT_Z2D : CUFFT_C2R;
    }
}

/* The cached plan for s on (device, stream), made if needed.  Under fft_mu. */
static gf_status get_plan(const fft_shape *s, int device, cudaStream_t stream, const gf_fft_cb *cb,
                          size_t info_size, fft_plan **out)
{
    gf_prewarm_wait(); /* no cuFFT beside the warm-up either (blas.c get_handle) */
    cufftType type = cufft_type(s);
    int cap = cache_capacity();
    fft_plan *lru = NULL;
    for (int i = 0; i < nplans; i++) {
        fft_plan *p = &plans[i];
        if (p->device == device && p->stream == stream && p->rank == s->rank && p->batch == s->batch &&
            p->type == type && p->cb == cb && p->info_size == info_size &&
            !memcmp(p->dims, s->dims, sizeof p->dims)) {
            hits++;
            p->last_use = ++clock_;
            *out = p;
            return GF_SUCCESS;
        }
        if (!lru || p->last_use < lru->last_use)
            lru = p;
    }
    misses++;
    if (!plans && !(plans = calloc((size_t)cap, sizeof *plans)))
        return gf_fail(GF_ERROR_OUT_OF_MEMORY, "gf_fft: out of host memory");
    if (nplans == cap) {
        /* cufftDestroy frees the work area with cudaFree, which waits for
         * work still using it; the last slot fills the hole */
        plan_destroy(lru);
        evictions++;
        *lru = plans[--nplans];
    }
    fft_plan *p = &plans[nplans];
    memset(p, 0, sizeof *p);
    long long n64[3];
    for (int i = 0; i < s->rank; i++)
        n64[i] = s->dims[i];
    size_t work = 0;
    cufftHandle h;
    pthread_once(&release_once, register_release);
    void *info = NULL;
    gf_status st = FFT(cufftCreate(&h));
    if (st != GF_SUCCESS)
        return st;
    if (cb && (st = make_cb_plan(h, cb, type == CUFFT_Z2Z, info_size, &info)) != GF_SUCCESS) {
        cufftDestroy(h);
        return st;
    }
    st = FFT(cufftMakePlanMany64(h, s->rank, n64, NULL, 1, 0, NULL, 1, 0, type, s->batch, &work));
    if (st == GF_SUCCESS)
        st = FFT(cufftSetStream(h, stream));
    if (st != GF_SUCCESS) {
        cufftDestroy(h);
        if (info)
            cudaFree(info);
        return st;
    }
    *p = (fft_plan){device, stream, s->rank, {s->dims[0], s->dims[1], s->dims[2]}, s->batch, type, cb, info_size,
                    info, NULL, h, ++clock_};
    nplans++;
    *out = p;
    return GF_SUCCESS;
}

gf_status gf_fft_cache_stats(gf_fft_stats *st)
{
    if (!st)
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_fft_cache_stats: null pointer");
    pthread_mutex_lock(&fft_mu);
    *st = (gf_fft_stats){hits, misses, evictions, nplans, cache_capacity()};
    pthread_mutex_unlock(&fft_mu);
    return GF_SUCCESS;
}

/* Plans are destroyed at exit by an atexit handler registered when the
 * first plan is made (after CUDA's initialisation, so before its teardown). */
static void release_at_exit(void) { gf_fft_cache_clear(); }

static void register_release(void) { atexit(release_at_exit); }

gf_status gf_fft_cache_clear(void)
{
    pthread_mutex_lock(&fft_mu);
    for (int i = 0; i < nplans; i++)
        plan_destroy(&plans[i]);
    nplans = 0;
    free(plans);
    plans = NULL;
    pthread_mutex_unlock(&fft_mu);
    return GF_SUCCESS;
}

/* The stream is going away (gf_stream_destroy, after synchronising it): its
 * plans are destroyed, so none outlives its stream (cufftDestroy of a plan
 * bound to a destroyed stream crashed on the H200) or is found again by a
 * later stream that gets the same handle value. */
void gf_fft_retire_stream(void *stream)
{
    pthread_mutex_lock(&fft_mu);
    for (int i = 0; i < nplans;) {
        if (plans[i].stream != (cudaStream_t)stream) {
            i++;
            continue;
        }
        plan_destroy(&plans[i]);
        plans[i] = plans[--nplans];
    }
    pthread_mutex_unlock(&fft_mu);
}

static gf_status exec_gpu(const fft_shape *s, int device, cudaStream_t stream, void *in, void *out,
                          int direction)
{
    pthread_mutex_lock(&fft_mu);
    fft_plan *p = NULL;
    gf_status st = get_plan(s, device, stream, NULL, 0, &p);
    if (st == GF_SUCCESS) {
        switch (p->type) {
        case CUFFT_C2C: st = FFT(cufftExecC2C(p->h, in, out, direction)); break;
        case CUFFT_Z2Z: st = FFT(cufftExecZ2Z(p->h, in, out, direction)); break;
        case CUFFT_R2C: st = FFT(cufftExecR2C(p->h, in, out)); break;
        case CUFFT_D2Z: st = FFT(cufftExecD2Z(p->h, in, out)); break;
        case CUFFT_C2R: st = FFT(cufftExecC2R(p->h, in, out)); break;
        case CUFFT_Z2D: st = FFT(cufftExecZ2D(p->h, in, out)); break;
        default: st = gf_fail(GF_ERROR_INTERNAL, "gf_fft: plan type %d", (int)p->type);
        }
    }
    pthread_mutex_unlock(&fft_mu);
    return st;
}

/* ---- CPU fallback: naive separable DFT -------------------------------------------- */

/* Work bound of the naive DFT (complex multiply-adds); beyond it the CPU
 * fallback refuses rather than run for minutes. */
#define CPU_DFT_MAX_WORK (1LL << 28)

/* In place along axis `ax` of `cnt` arrays shaped dims[0..rank) (the last
 * axis replaced by `last` elements). */
static int dft_axis(double complex *x, long long cnt, const int *dims, int rank, int last, int ax, int sign)
{
    int L = ax == rank - 1 ? last : dims[ax];
    long long inner = 1, outer = cnt;
    for (int i = ax + 1; i < rank; i++)
        inner *= i == rank - 1 ? last : dims[i];
    for (int i = 0; i < ax; i++)
        outer *= dims[i];
    double complex *w = malloc((size_t)L * 2 * sizeof *w), *tmp = w + L;
    if (!w)
        return -1;
    for (int t = 0; t < L; t++)
        w[t] = cexp(sign * 2.0 * M_PI * I * (double)t / L);
    for (long long o = 0; o < outer; o++)
        for (long long in = 0; in < inner; in++) {
            double complex *v = x + o * L * inner + in;
            for (int f = 0; f < L; f++) {
                double complex acc = 0;
                for (int t = 0; t < L; t++)
                    acc += v[(long long)t * inner] * w[(long long)f * t % L];
                tmp[f] = acc;
            }
            for (int f = 0; f < L; f++)
                v[(long long)f * inner] = tmp[f];
        }
    free(w);
    return 0;
}

static double complex load_c(const void *p, long long i, int dbl)
{
    if (dbl)
        return ((const double *)p)[2 * i] + I * ((const double *)p)[2 * i + 1];
    return ((const float *)p)[2 * i] + I * (double)((const float *)p)[2 * i + 1];
}

static void store_c(void *p, long long i, double complex v, int dbl)
{
    if (dbl)
        ((double *)p)[2 * i] = creal(v), ((double *)p)[2 * i + 1] = cimag(v);
    else
        ((float *)p)[2 * i] = (float)creal(v), ((float *)p)[2 * i + 1] = (float)cimag(v);
}

static gf_status cpu_bound(const char *fn, const fft_shape *s)
{
    long long sum = 0;
    for (int i = 0; i < s->rank; i++)
        sum += s->dims[i];
    if (s->n * s->batch * sum > CPU_DFT_MAX_WORK)
        return gf_fail(GF_ERROR_NOT_SUPPORTED,
                       "%s: no GPU, and the CPU fallback (a naive DFT) is limited to batch*n*sum(dims) "
                       "<= 2^28; this transform needs %lld", fn, s->n * s->batch * sum);
    return GF_SUCCESS;
}

static gf_status fft_cpu(const char *fn, const fft_shape *s, const void *in, void *out, int direction)
{
    int rank = s->rank, d = s->dims[rank - 1], h = d / 2 + 1, dbl = s->dbl;
    long long B = s->batch, total = B * s->n;
    double complex *x = malloc((size_t)total * sizeof *x);
    if (!x)
        return gf_fail(GF_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    int bad = 0;
    if (s->kind == KIND_C2C) {
        for (long long i = 0; i < total; i++)
            x[i] = load_c(in, i, dbl);
        for (int ax = 0; ax < rank && !bad; ax++)
            bad = dft_axis(x, B, s->dims, rank, d, ax, direction);
        for (long long i = 0; i < total && !bad; i++)
            store_c(out, i, x[i], dbl);
    } else if (s->kind == KIND_R2C) {
        for (long long i = 0; i < total; i++)
            x[i] = dbl ? ((const double *)in)[i] : (double)((const float *)in)[i];
        for (int ax = 0; ax < rank && !bad; ax++)
            bad = dft_axis(x, B, s->dims, rank, d, ax, -1);
        for (long long r = 0; r < total / d && !bad; r++)
            for (int j = 0; j < h; j++)
                store_c(out, r * h + j, x[r * d + j], dbl);
    } else {
        /* inverse along the other axes on the half spectrum, then each last
         * axis row is Hermitian: x[t] = sum_j Y[j] e^{2 pi i jt/d} with
         * Y[d-j] = conj(Y[j]) */
        long long rows = total / d;
        for (long long i = 0; i < rows * h; i++)
            x[i] = load_c(in, i, dbl);
        for (int ax = 0; ax < rank - 1 && !bad; ax++)
            bad = dft_axis(x, B, s->dims, rank, h, ax, +1);
        for (long long r = 0; r < rows && !bad; r++) {
            const double complex *y = x + r * h;
            for (int t = 0; t < d; t++) {
                double acc = creal(y[0]);
                for (int j = 1; j < h; j++) {
                    double complex term = y[j] * cexp(2.0 * M_PI * I * (double)((long long)j * t % d) / d);
                    acc += (2 * j == d) ? creal(term) : 2.0 * creal(term);
                }
                if (dbl)
                    ((double *)out)[r * d + t] = acc;
                else
                    ((float *)out)[r * d + t] = (float)acc;
            }
        }
    }
    free(x);
    return bad ? gf_fail(GF_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn) : GF_SUCCESS;
}

/* ---- entry points ------------------------------------------------------------------ */

static gf_status fft(gf_site *site, int kind, int rank, const int dims[], int batch, const void *in,
                     void *out, int direction, gf_dtype t)
{
    fft_shape s;
    gf_status st = check_shape(site->function, kind, rank, dims, batch, in, out, direction, t, &s);
    if (st == GF_SUCCESS && gf_runtime_get()->cpu)
        st = cpu_bound(site->function, &s);
    if (st != GF_SUCCESS)
        return st;
    size_t real = s.dbl ? 8 : 4, cplx = 2 * real;
    size_t ib = (size_t)s.batch * (kind == KIND_C2C ? s.n * cplx : kind == KIND_R2C ? s.n * real : s.nc * cplx);
    size_t ob = (size_t)s.batch * (kind == KIND_C2C ? s.n * cplx : kind == KIND_R2C ? s.nc * cplx : s.n * real);
    gf_libarg a[2] = {{in, ib, GF_ARG_READ}, {out, ob, GF_ARG_WRITE}};
    int nargs = 2;
    if (in == out) /* in-place c2c: one argument, read and written */
        a[0].mode = GF_ARG_READ | GF_ARG_WRITE, nargs = 1;
    gf_call *c;
    void *d[2];
    st = gf_lib_begin(site, a, nargs, &c, d);
    if (st != GF_SUCCESS)
        return st;
    if (!c)
        return fft_cpu(site->function, &s, in, out, direction);
    st = exec_gpu(&s, gf_current_device(), gf_call_stream(c), d[0], nargs == 1 ? d[0] : d[1], direction);
    gf_lib_end(c, ib + (nargs == 2 ? ob : 0));
    return st;
}

gf_status gf_fft_c2c(int rank, const int dims[], int batch, const void *in, void *out, int direction,
                     gf_dtype t)
{
    static gf_site site = {"gf_fft_c2c", __FILE__, __LINE__, -1};
    return fft(&site, KIND_C2C, rank, dims, batch, in, out, direction, t);
}

gf_status gf_fft_r2c(int rank, const int dims[], int batch, const void *in, void *out, gf_dtype t)
{
    static gf_site site = {"gf_fft_r2c", __FILE__, __LINE__, -1};
    return fft(&site, KIND_R2C, rank, dims, batch, in, out, GF_FFT_FORWARD, t);
}

gf_status gf_fft_c2r(int rank, const int dims[], int batch, const void *in, void *out, gf_dtype t)
{
    static gf_site site = {"gf_fft_c2r", __FILE__, __LINE__, -1};
    return fft(&site, KIND_C2R, rank, dims, batch, in, out, GF_FFT_INVERSE, t);
}

gf_status gf_fft_c2c_n(int rank, int n0, int n1, int n2, int batch, const void *in, void *out, int direction,
                       gf_dtype t)
{
    static gf_site site = {"gf_fft_c2c_n", __FILE__, __LINE__, -1};
    const int dims[3] = {n0, n1, n2};
    return fft(&site, KIND_C2C, rank, dims, batch, in, out, direction, t);
}

gf_status gf_fft_r2c_n(int rank, int n0, int n1, int n2, int batch, const void *in, void *out, gf_dtype t)
{
    static gf_site site = {"gf_fft_r2c_n", __FILE__, __LINE__, -1};
    const int dims[3] = {n0, n1, n2};
    return fft(&site, KIND_R2C, rank, dims, batch, in, out, GF_FFT_FORWARD, t);
}

gf_status gf_fft_c2r_n(int rank, int n0, int n1, int n2, int batch, const void *in, void *out, gf_dtype t)
{
    static gf_site site = {"gf_fft_c2r_n", __FILE__, __LINE__, -1};
    const int dims[3] = {n0, n1, n2};
    return fft(&site, KIND_C2R, rank, dims, batch, in, out, GF_FFT_INVERSE, t);
}

/* A launcher's FFT (gpufuse/launch.h): device pointers, the call's stream. */
void gf_call_fft(gf_call *c, int kind, int rank, int n0, int n1, int n2, int batch, const void *in, void *out,
                 int direction, gf_dtype t, const char *what)
{
    const int dims[3] = {n0, n1, n2};
    int k = kind == 1 ? KIND_R2C : KIND_C2C;
    fft_shape s;
    gf_status st = check_shape(what ? what : "gf_call_fft", k, rank, dims, batch, in, out,
                               k == KIND_R2C ? GF_FFT_FORWARD : direction, t, &s);
    if (st == GF_ERROR_INVALID_VALUE)
        return;                  /* as the library call: recorded, nothing done */
    if (st == GF_SUCCESS)
        st = exec_gpu(&s, gf_current_device(), gf_call_stream(c), (void *)in, out,
                      k == KIND_R2C ? GF_FFT_FORWARD : direction);
    if (st != GF_SUCCESS) {
        char msg[640];
        snprintf(msg, sizeof msg, "cuFFT for %s failed: %s", what ? what : "?", gf_last_error());
        gf_call_fail(c, st, msg);
    }
}

/* ---- LTO callbacks ------------------------------------------------------------------
 * A launcher's element-wise nests folded into cuFFT's load/store callbacks
 * (gf_call_fft_cb).  The generated file carries the callbacks' CUDA source;
 * it is compiled here once per process and device architecture with NVRTC
 * (-dlto: LTO-IR, which cufftXtSetJITCallback takes), loaded with dlopen
 * so programs without callbacks never load it.  Plans with callbacks are
 * cached beside plain ones, keyed by the descriptor too; each has a device
 * block for the caller info, refreshed on its stream before an execution.
 * Anything that fails before the execution (no NVRTC, a compile error, a
 * plan cuFFT refuses) is remembered per descriptor, counted, and answered
 * with 0: the launcher then runs the separate kernels. */

typedef int (*nvrtc_create_fn)(void **, const char *, const char *, int, const char *const *, const char *const *);
typedef int (*nvrtc_compile_fn)(void *, int, const char *const *);
typedef int (*nvrtc_size_fn)(void *, size_t *);
typedef int (*nvrtc_get_fn)(void *, char *);
typedef int (*nvrtc_destroy_fn)(void **);

static struct {
    int tried;
    nvrtc_create_fn create;
    nvrtc_compile_fn compile;
    nvrtc_size_fn ir_size, log_size;
    nvrtc_get_fn ir, log;
    nvrtc_destroy_fn destroy;
} nvrtc;

/* Under fft_mu.  1: NVRTC's entry points are loaded. */
static int nvrtc_load(void)
{
    if (nvrtc.tried)
        return nvrtc.create != NULL;
    nvrtc.tried = 1;
    static const char *const names[] = {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"};
    void *h = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !h; i++)
        h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return 0;
    nvrtc.compile = (nvrtc_compile_fn)dlsym(h, "nvrtcCompileProgram");
    nvrtc.ir_size = (nvrtc_size_fn)dlsym(h, "nvrtcGetLTOIRSize");
    nvrtc.ir = (nvrtc_get_fn)dlsym(h, "nvrtcGetLTOIR");
    nvrtc.log_size = (nvrtc_size_fn)dlsym(h, "nvrtcGetProgramLogSize");
    nvrtc.log = (nvrtc_get_fn)dlsym(h, "nvrtcGetProgramLog");
    nvrtc.destroy = (nvrtc_destroy_fn)dlsym(h, "nvrtcDestroyProgram");
    nvrtc_create_fn create = (nvrtc_create_fn)dlsym(h, "nvrtcCreateProgram");
    if (nvrtc.compile && nvrtc.ir_size && nvrtc.ir && nvrtc.log_size && nvrtc.log && nvrtc.destroy)
        nvrtc.create = create;
    return nvrtc.create != NULL;
}

/* source -> LTO-IR for sm_<arch> (malloc'd), or NULL with `why` filled;
 * `parts` says which of the guarded callbacks it defines (-DGF_FFTCB_LOAD,
 * -DGF_FFTCB_STORE). */
char *gf_fft_cb_compile(const char *source, int arch, int parts, size_t *size, char *why, size_t nwhy)
{
    if (!nvrtc_load()) {
        snprintf(why, nwhy, "NVRTC (libnvrtc.so) cannot be loaded");
        return NULL;
    }
    void *prog = NULL;
    if (nvrtc.create(&prog, source, "gf_fft_callbacks.cu", 0, NULL, NULL)) {
        snprintf(why, nwhy, "nvrtcCreateProgram failed");
        return NULL;
    }
    char archopt[32];
    snprintf(archopt, sizeof archopt, "-arch=sm_%d", arch);
    const char *opts[5] = {archopt, "-dlto", "-rdc=true"};
    int nopts = 3;
    if (parts & GF_FFTCB_PART_LOAD)
        opts[nopts++] = "-DGF_FFTCB_LOAD";
    if (parts & GF_FFTCB_PART_STORE)
        opts[nopts++] = "-DGF_FFTCB_STORE";
    char *ir = NULL;
    size_t n = 0;
    if (nvrtc.compile(prog, nopts, opts)) {
        size_t ln = 0;
        char log[200] = "";
        if (!nvrtc.log_size(prog, &ln) && ln < 4096) {
            char *full = malloc(ln + 1);
            if (full && !nvrtc.log(prog, full))
                snprintf(log, sizeof log, "%s", full);
            free(full);
        }
        for (char *q = log; *q; q++)
            if (*q == '\n')
                *q = ' ';
        snprintf(why, nwhy, "NVRTC could not compile the callbacks: %s", log);
    } else if (nvrtc.ir_size(prog, &n) || !n || !(ir = malloc(n)) || nvrtc.ir(prog, ir)) {
        free(ir);
        ir = NULL;
        snprintf(why, nwhy, "NVRTC gave no LTO-IR");
    }
    nvrtc.destroy(&prog);
    *size = n;
    return ir;
}

/* One LTO-IR module per callback (ir[0] load, ir[1] store): a plan given
 * both callbacks from one module (each then defined twice in what cuFFT
 * links) failed with CUFFT_INTERNAL_ERROR on the H200, one module each ran
 * (tests/runtime/fft_lto_probe.cu). */
typedef struct cb_entry {
    const gf_fft_cb *cb;
    int arch;
    char *ir[2];
    size_t size[2];
    int failed;                  /* compiling or planning failed: never again */
} cb_entry;

static cb_entry *cb_entries;
static int ncb;
static uint64_t cb_folded, cb_separate, cb_compiles;
static char cb_reason[256];

static gf_status cb_fail(const char *fmt, const char *what)
{
    snprintf(cb_reason, sizeof cb_reason, fmt, what);
    return GF_ERROR_NOT_SUPPORTED;
}

static int device_arch(void)
{
    int dev = 0, major = 0, minor = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
    cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev);
    return major * 10 + minor;
}

/* The descriptor's entry for this device's architecture.  Under fft_mu. */
static cb_entry *cb_find(const gf_fft_cb *cb)
{
    int arch = device_arch();
    for (int i = 0; i < ncb; i++)
        if (cb_entries[i].cb == cb && cb_entries[i].arch == arch)
            return &cb_entries[i];
    cb_entry *grown = realloc(cb_entries, (size_t)(ncb + 1) * sizeof *grown);
    if (!grown)
        return NULL;
    cb_entries = grown;
    cb_entry *e = &cb_entries[ncb++];
    *e = (cb_entry){cb, arch, {NULL, NULL}, {0, 0}, 0};
    cb_compiles++;
    char why[240];
    for (int side = 0; side < 2 && !e->failed; side++) {
        if (!(side ? cb->store : cb->load))
            continue;
        e->ir[side] = gf_fft_cb_compile(cb->source, arch, side ? GF_FFTCB_PART_STORE : GF_FFTCB_PART_LOAD,
                                        &e->size[side], why, sizeof why);
        if (!e->ir[side]) {
            e->failed = 1;
            cb_fail("%s", why);
        }
    }
    return e;
}

static cb_entry *cb_planning;    /* the entry make_cb_plan uses (under fft_mu) */

/* The callback types name the plan's precision: a double-precision plan
 * given CUFFT_CB_LD_COMPLEX / CUFFT_CB_ST_COMPLEX failed planning with
 * CUFFT_INTERNAL_ERROR on the H200 (edge_fft_callbacks' complex128 scale). */
static gf_status make_cb_plan(cufftHandle h, const gf_fft_cb *cb, int dbl, size_t info_size, void **info)
{
    cb_entry *e = cb_planning;
    if (!e || e->cb != cb || (cb->load && !e->ir[0]) || (cb->store && !e->ir[1]))
        return cb_fail("%s", "no LTO-IR for the callbacks");
    if (cudaMalloc(info, info_size ? info_size : 1) != cudaSuccess) {
        cudaGetLastError();
        *info = NULL;
        return cb_fail("%s", "no device memory for the callbacks' caller info");
    }
    void *ci[1] = {*info};
    cufftResult r = CUFFT_SUCCESS;
    if (cb->load)
        r = cufftXtSetJITCallback(h, cb->load, e->ir[0], e->size[0],
                                  dbl ? CUFFT_CB_LD_COMPLEX_DOUBLE : CUFFT_CB_LD_COMPLEX, ci);
    if (r == CUFFT_SUCCESS && cb->store)
        r = cufftXtSetJITCallback(h, cb->store, e->ir[1], e->size[1],
                                  dbl ? CUFFT_CB_ST_COMPLEX_DOUBLE : CUFFT_CB_ST_COMPLEX, ci);
    if (r != CUFFT_SUCCESS) {
        cudaFree(*info);
        *info = NULL;
        return cb_fail("cufftXtSetJITCallback failed: %s", cufft_name(r));
    }
    return GF_SUCCESS;
}

/* GPUFUSE_FFT_CALLBACKS=1 turns callbacks on (read at each call, which
 * costs nothing beside an FFT, so a program may compare both ways).  Off by
 * default: on the H200 (CUDA 13.0, release build) cuFFT with the LTO
 * callbacks took twice the time of the plain FFT and the separate kernels
 * at 2^24 complex64 (power spectrum 0.83 against 0.42 ms, convolution 1.68
 * against 0.89 ms: edge_fft_callbacks, docs/libraries.md). */
static int callbacks_on(void)
{
    const char *e = getenv("GPUFUSE_FFT_CALLBACKS");
    return e && !strcmp(e, "1");
}

/* Under fft_mu: plans and runs the FFT with callbacks; GF_ERROR_NOT_SUPPORTED
 * (with cb_reason) when nothing ran. */
static gf_status exec_cb(const fft_shape *s, cudaStream_t stream, const gf_fft_cb *cb, void *in, void *out,
                         int direction, const void *info, size_t info_size)
{
    cb_entry *e = cb_find(cb);
    if (!e)
        return cb_fail("%s", "out of host memory");
    if (e->failed)
        return GF_ERROR_NOT_SUPPORTED;
    fft_plan *p = NULL;
    cb_planning = e;
    gf_status st = get_plan(s, gf_current_device(), stream, cb, info_size, &p);
    cb_planning = NULL;
    if (st != GF_SUCCESS) {
        if (st != GF_ERROR_NOT_SUPPORTED)
            cb_fail("cuFFT could not plan the transform with callbacks: %s", gf_last_error());
        e->failed = 1;
        return GF_ERROR_NOT_SUPPORTED;
    }
    /* the plan only ever runs on its stream: the block still holds the last
     * caller info copied there, in stream order */
    if (!p->info_host || memcmp(p->info_host, info, info_size)) {
        if (!p->info_host && !(p->info_host = malloc(info_size ? info_size : 1)))
            return cb_fail("%s", "out of host memory");
        if (cudaMemcpyAsync(p->info, info, info_size, cudaMemcpyHostToDevice, stream) != cudaSuccess) {
            cudaGetLastError();
            free(p->info_host);
            p->info_host = NULL;
            return cb_fail("%s", "copying the caller info failed");
        }
        memcpy(p->info_host, info, info_size);
    }
    return p->type == CUFFT_Z2Z ? FFT(cufftExecZ2Z(p->h, in, out, direction))
                                : FFT(cufftExecC2C(p->h, in, out, direction));
}

int gf_call_fft_cb(gf_call *c, const gf_fft_cb *cb, int rank, int n0, int n1, int n2, int batch, const void *in,
                   void *out, int direction, gf_dtype t, const void *info, size_t info_size, long long cover,
                   const char *what)
{
    const int dims[3] = {n0, n1, n2};
    fft_shape s;
    gf_status st;
    pthread_mutex_lock(&fft_mu);
    if (!callbacks_on())
        st = cb_fail("%s", "GPUFUSE_FFT_CALLBACKS is not 1 (the separate kernels are the default: faster on the H200)");
    else if (!cb || !info)
        st = cb_fail("%s", "no callbacks");
    else if ((st = check_shape(what ? what : "gf_call_fft_cb", KIND_C2C, rank, dims, batch, in, out, direction, t,
                               &s)) != GF_SUCCESS)
        st = cb_fail("%s", "invalid arguments (the separate call reports them)");
    else if (cover != s.n * s.batch)
        st = cb_fail("%s", "the folded nests do not cover exactly the transform's elements");
    else
        st = exec_cb(&s, gf_call_stream(c), cb, (void *)in, out, direction, info, info_size);
    if (st == GF_SUCCESS)
        cb_folded++;
    else if (st == GF_ERROR_NOT_SUPPORTED)
        cb_separate++;
    pthread_mutex_unlock(&fft_mu);
    if (st == GF_SUCCESS || st == GF_ERROR_NOT_SUPPORTED)
        return st == GF_SUCCESS;
    /* the execution itself failed: the data may be half transformed */
    char msg[640];
    snprintf(msg, sizeof msg, "cuFFT with callbacks for %s failed: %s", what ? what : "?", gf_last_error());
    gf_call_fail(c, st, msg);
    return 1;
}

gf_status gf_fft_callback_stats(gf_fft_cb_stats *st)
{
    if (!st)
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_fft_callback_stats: null pointer");
    pthread_mutex_lock(&fft_mu);
    st->folded = cb_folded;
    st->separate = cb_separate;
    st->compiles = cb_compiles;
    snprintf(st->last_reason, sizeof st->last_reason, "%s", cb_reason);
    pthread_mutex_unlock(&fft_mu);
    return GF_SUCCESS;
}
