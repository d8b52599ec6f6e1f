/* bench_forms.c - gpufuse's BLAS forms against the same cuBLAS calls made
 * directly.  Each nest of bench/workloads/blasforms.c (compiled by gpufuse
 * twice: gfd_* for double, gfs_* for float) runs on device pointers, so its
 * launcher stages nothing and only calls cuBLAS; beside it the calls a
 * programmer would write by hand for the same row-major arrays (cublasDgemm,
 * cublasSsyrk, ...: one handle, default math mode, the default stream the
 * launchers use too).  Both are timed with CUDA events on the default stream
 * (median of the timed repetitions after warm-up; the outputs are restored
 * from a pristine copy before every repetition, outside the timed span), and
 * their outputs are compared: max |gpufuse - direct| / S <= 2 (k+4) eps, S the
 * largest sum of |terms| an output element can have (inputs in [-1, 1)),
 * k the length of the longest sum.  One JSON line per form and type:
 *   {"workload": "form_gemm_f64", "impl": "gpufuse", "ms": ..., "cublas_ms": ...,
 *    "ratio": cublas_ms / ms, "tflops": ..., "ok": ..., "max_err": ..., "tol": ...}
 * ratio >= 0.9 is issue 15's bar (within 10% of cuBLAS).
 *   bench_forms [--only gemm,syrk,...] [--type f32|f64] [--quick] [--reps N]
 * Exits 77 without a GPU, 1 when a comparison fails. */
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpufuse.h>

/* the launchers of bench/workloads/blasforms.c (arrays as flat pointers: the
 * same ABI as the VLAs) */
#define DECLARE(P, R)                                                                                              \
    void P##bf_gemm(int, int, int, R, R, void *, const void *, const void *);                                     \
    void P##bf_2mm(int, int, int, int, R, R, void *, const void *, const void *, const void *, void *);          \
    void P##bf_syrk(int, int, R, R, void *, const void *);                                                         \
    void P##bf_syr2k(int, int, R, R, void *, const void *, const void *);                                          \
    void P##bf_symm(int, int, R, R, void *, const void *, const void *);                                           \
    void P##bf_trmm(int, int, R, const void *, void *);                                                            \
    void P##bf_atax(int, int, const void *, const void *, void *, void *);                                         \
    void P##bf_mvt(int, void *, void *, const void *, const void *, const void *);                                 \
    void P##bf_gesummv(int, R, R, const void *, const void *, void *, const void *, void *);                       \
    void P##bf_ger2(int, void *, const void *, const void *, const void *, const void *);
DECLARE(gfd_, double)
DECLARE(gfs_, float)

enum { MAXB = 8 };

/* One form: its buffers (device, element counts), which it writes, sizes. */
typedef struct form {
    const char *name, *calls;
    int d[4];                    /* sizes, as the form reads them */
    int nb;
    long long len[MAXB];
    int out[MAXB];
    double scale[MAXB];          /* S of an output buffer */
    long long k;                 /* the longest sum */
    double flops;
    void (*gf)(const struct form *, int dbl, void *const *p);
    int (*direct)(cublasHandle_t, const struct form *, int dbl, void *const *p);
} form;

static const double ALPHA = 1.5, BETA = 1.2;
static int quick, reps_override, only_type;
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
static double val(uint64_t i, uint64_t seed)
{
    uint64_t z = i * 0x9e3779b97f4a7c15ull + seed;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (double)(z >> 40) / 16777216.0 * 2.0 - 1.0;
}

/* ---- the direct calls: row-major arrays as cuBLAS's column-major transposes ---- */

#define CK(x) ((x) == CUBLAS_STATUS_SUCCESS ? 0 : (fprintf(stderr, "bench_forms: %s failed\n", #x), 1))
#define SD(dbl, S, D, ...) ((dbl) ? CK(cublasD##D(__VA_ARGS__)) : CK(cublasS##S(__VA_ARGS__)))
/* scalars of the call's type */
typedef struct scal {
    double d;
    float f;
} scal;
static scal sc(double v) { return (scal){v, (float)v}; }
#define SP(dbl, s) ((dbl) ? (void *)&(s).d : (void *)&(s).f)

static const cublasOperation_t N_ = CUBLAS_OP_N, T_ = CUBLAS_OP_T;

static int gemm_(cublasHandle_t h, int dbl, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                 double al, const void *A, int lda, const void *B, int ldb, double be, void *C, int ldc)
{
    scal a = sc(al), b = sc(be);
    return SD(dbl, gemm, gemm, h, ta, tb, m, n, k, SP(dbl, a), A, lda, B, ldb, SP(dbl, b), C, ldc);
}

static int gemv_(cublasHandle_t h, int dbl, cublasOperation_t t, int m, int n, double al, const void *A, int lda,
                 const void *x, double be, void *y)
{
    scal a = sc(al), b = sc(be);
    return SD(dbl, gemv, gemv, h, t, m, n, SP(dbl, a), A, lda, x, 1, SP(dbl, b), y, 1);
}

/* C = alpha A B + beta C: C^T = alpha B^T A^T + beta C^T */
static int d_gemm(cublasHandle_t h, const form *f, int dbl, void *const *p)
{
    int ni = f->d[0], nj = f->d[1], nk = f->d[2];
    return gemm_(h, dbl, N_, N_, nj, ni, nk, ALPHA, p[2], nj, p[1], nk, BETA, p[0], nj);
}

static void g_gemm(const form *f, int dbl, void *const *p)
{
    if (dbl)
        gfd_bf_gemm(f->d[0], f->d[1], f->d[2], ALPHA, BETA, p[0], p[1], p[2]);
    else
        gfs_bf_gemm(f->d[0], f->d[1], f->d[2], (float)ALPHA, (float)BETA, p[0], p[1], p[2]);
}

/* T = alpha A B; D = T C + beta D.  p: T A B C D */
static int d_2mm(cublasHandle_t h, const form *f, int dbl, void *const *p)
{
    int ni = f->d[0], nj = f->d[1], nk = f->d[2], nl = f->d[3];
    return gemm_(h, dbl, N_, N_, nj, ni, nk, ALPHA, p[2], nj, p[1], nk, 0.0, p[0], nj) ||
           gemm_(h, dbl, N_, N_, nl, ni, nj, 1.0, p[3], nl, p[0], nj, BETA, p[4], nl);
}

static void g_2mm(const form *f, int dbl, void *const *p)
{
    if (dbl)
        gfd_bf_2mm(f->d[0], f->d[1], f->d[2], f->d[3], ALPHA, BETA, p[0], p[1], p[2], p[3], p[4]);
    else
        gfs_bf_2mm(f->d[0], f->d[1], f->d[2], f->d[3], (float)ALPHA, (float)BETA, p[0], p[1], p[2], p[3], p[4]);
}

/* row-major lower = column-major upper; A (n x m row-major) is A^T column-major */
static int d_syrk(cublasHandle_t h, const form *f, int dbl, void *const *p)
{
    int n = f->d[0], m = f->d[1];
    scal a = sc(ALPHA), b = sc(BETA);
    return SD(dbl, syrk, syrk, h, CUBLAS_FILL_MODE_UPPER, T_, n, m, SP(dbl, a), p[1], m, SP(dbl, b), p[0], n);
}

static void g_syrk(const form *f, int dbl, void *const *p)
{
    if (dbl)
        gfd_bf_syrk(f->d[0], f->d[1], ALPHA, BETA, p[0], p[1]);
    else
        gfs_bf_syrk(f->d[0], f->d[1], (float)ALPHA, (float)BETA, p[0], p[1]);
}

static int d_syr2k(cublasHandle_t h, const form *f, int dbl, void *const *p)
{
    int n = f->d[0], m = f->d[1];
    scal a = sc(ALPHA), b = sc(BETA);
    return SD(dbl, syr2k, syr2k, h, CUBLAS_FILL_MODE_UPPER, T_, n, m, SP(dbl, a), p[1], m, p[2], m, SP(dbl, b),
              p[0], n);
}

static void g_syr2k(const form *f, int dbl, void *const *p)
{
    if (dbl)
        gfd_bf_syr2k(f->d[0], f->d[1], ALPHA, BETA, p[0], p[1], p[2]);
    else
        gfs_bf_syr2k(f->d[0], f->d[1], (float)ALPHA, (float)BETA, p[0], p[1], p[2]);
}

/* C = alpha S B + beta C: C^T = alpha B^T S + beta C^T, S's stored triangle flips */
static int d_symm(cublasHandle_t h, const form *f, int dbl, void *const *p)
{
    int m = f->d[0], n = f->d[1];
    scal a = sc(ALPHA), b = sc(BETA);
    return SD(dbl, symm, symm, h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, n, m, SP(dbl, a), p[1], m, p[2], n,
              SP(dbl, b), p[0], n);
}

static void g_symm(const form *f, int dbl, void *const *p)
{
    if (dbl)
        gfd_bf_symm(f->d[0], f->d[1], ALPHA, BETA, p[0], p[1], p[2]);
    else
        gfs_bf_symm(f->d[0], f->d[1], (float)ALPHA, (float)BETA, p[0], p[1], p[2]);
}

/* B = alpha L^T B: B^T = alpha B^T L, L = (column-major upper A^T)^T.  p: A B */
static int d_trmm(cublasHandle_t h, const form *f, int dbl, void *const *p)
{
    int m = f->d[0], n = f->d[1];
    scal a = sc(ALPHA);
    return SD(dbl, trmm, trmm, h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, T_, CUBLAS_DIAG_UNIT, n, m,
              SP(dbl, a), p[0], m, p[1], n, p[1], n);
}

static void g_trmm(const form *f, int dbl, void *const *p)
{
    if (dbl)
        gfd_bf_trmm(f->d[0], f->d[1], ALPHA, p[0], p[1]);
    else
        gfs_bf_trmm(f->d[0], f->d[1], (float)ALPHA, p[0], p[1]);
}

/* t = A x, y = A^T t.  p: A x y t */
static int d_atax(cublasHandle_t h, const form *f, int dbl, void *const *p)
{
    int m = f->d[0], n = f->d[1];
    return gemv_(h, dbl, T_, n, m, 1.0, p[0], n, p[1], 0.0, p[3]) ||
           gemv_(h, dbl, N_, n, m, 1.0, p[0], n, p[3], 0.0, p[2]);
}

static void g_atax(const form *f, int dbl, void *const *p)
{
    (dbl ? gfd_bf_atax : gfs_bf_atax)(f->d[0], f->d[1], p[0], p[1], p[2], p[3]);
}

/* x1 += A y1, x2 += A^T y2.  p: x1 x2 y1 y2 A */
static int d_mvt(cublasHandle_t h, const form *f, int dbl, void *const *p)
{
    int n = f->d[0];
    return gemv_(h, dbl, T_, n, n, 1.0, p[4], n, p[2], 1.0, p[0]) ||
           gemv_(h, dbl, N_, n, n, 1.0, p[4], n, p[3], 1.0, p[1]);
}

static void g_mvt(const form *f, int dbl, void *const *p)
{
    (dbl ? gfd_bf_mvt : gfs_bf_mvt)(f->d[0], p[0], p[1], p[2], p[3], p[4]);
}

/* t = A x; y = beta B x; y += alpha t.  p: A B t x y */
static int d_gesummv(cublasHandle_t h, const form *f, int dbl, void *const *p)
{
    int n = f->d[0];
    scal a = sc(ALPHA);
    return gemv_(h, dbl, T_, n, n, 1.0, p[0], n, p[3], 0.0, p[2]) ||
           gemv_(h, dbl, T_, n, n, BETA, p[1], n, p[3], 0.0, p[4]) ||
           SD(dbl, axpy, axpy, h, n, SP(dbl, a), p[2], 1, p[4], 1);
}

static void g_gesummv(const form *f, int dbl, void *const *p)
{
    if (dbl)
        gfd_bf_gesummv(f->d[0], ALPHA, BETA, p[0], p[1], p[2], p[3], p[4]);
    else
        gfs_bf_gesummv(f->d[0], (float)ALPHA, (float)BETA, p[0], p[1], p[2], p[3], p[4]);
}

/* A += u1 v1^T + u2 v2^T: A^T += v1 u1^T + v2 u2^T.  p: A u1 v1 u2 v2 */
static int d_ger2(cublasHandle_t h, const form *f, int dbl, void *const *p)
{
    int n = f->d[0];
    scal one = sc(1.0);
    return SD(dbl, ger, ger, h, n, n, SP(dbl, one), p[2], 1, p[1], 1, p[0], n) ||
           SD(dbl, ger, ger, h, n, n, SP(dbl, one), p[4], 1, p[3], 1, p[0], n);
}

static void g_ger2(const form *f, int dbl, void *const *p)
{
    (dbl ? gfd_bf_ger2 : gfs_bf_ger2)(f->d[0], p[0], p[1], p[2], p[3], p[4]);
}

/* ---- the forms at PolyBench-LARGE-like sizes ------------------------------------ */

#define LL(x) ((long long)(x))

/* The forms with every size divided by s (1: the benchmark's sizes;
 * tests/libcall/bench_forms_check.c runs them small on the CPU). */
int bench_forms_make(form *v, int s);
int bench_forms_make(form *v, int s)
{
    int n = 0;
    const double a = ALPHA, b = BETA;
    const int n20 = 2000 / s, n23 = 2300 / s, n26 = 2600 / s, n40 = 4000 / s;
    const int m16 = 1600 / s, m18 = 1800 / s, m22 = 2200 / s, m24 = 2400 / s;
    /* gemm: C A B */
    v[n++] = (form){"gemm", "gemm(N,N)", {n20, n23, n26}, 3, {LL(n20) * n23, LL(n20) * n26, LL(n26) * n23},
                    {1, 0, 0}, {a * n26 + b}, n26, 2.0 * n20 * n23 * n26, g_gemm, d_gemm};
    /* 2mm: T A B C D */
    v[n++] = (form){"2mm", "gemm(N,N) x2", {m16, m18, m22, m24}, 5,
                    {LL(m16) * m18, LL(m16) * m22, LL(m22) * m18, LL(m18) * m24, LL(m16) * m24},
                    {1, 0, 0, 0, 1}, {a * m22, 0, 0, 0, a * m22 * m18 + b}, m22 + m18,
                    2.0 * m16 * m18 * m22 + 2.0 * m16 * m24 * m18, g_2mm, d_2mm};
    /* syrk: C A */
    v[n++] = (form){"syrk", "syrk(upper,T)", {n20, n26}, 2, {LL(n20) * n20, LL(n20) * n26}, {1, 0},
                    {a * n26 + b}, n26, 1.0 * n20 * (n20 + 1) * n26, g_syrk, d_syrk};
    /* syr2k: C A B */
    v[n++] = (form){"syr2k", "syr2k(upper,T)", {n20, n26}, 3, {LL(n20) * n20, LL(n20) * n26, LL(n20) * n26},
                    {1, 0, 0}, {2 * a * n26 + b}, 2 * n26, 2.0 * n20 * (n20 + 1) * n26, g_syr2k, d_syr2k};
    /* symm: C A B */
    v[n++] = (form){"symm", "symm(right,upper)", {n20, n26}, 3, {LL(n20) * n26, LL(n20) * n20, LL(n20) * n26},
                    {1, 0, 0}, {a * n20 + b}, n20, 2.0 * n20 * n20 * n26, g_symm, d_symm};
    /* trmm: A B */
    v[n++] = (form){"trmm", "trmm(right,upper,T,unit), in place", {n20, n26}, 2, {LL(n20) * n20, LL(n20) * n26},
                    {0, 1}, {0, a * n20}, n20, 1.0 * n20 * n20 * n26, g_trmm, d_trmm};
    /* atax: A x y t */
    v[n++] = (form){"atax", "gemv(T), gemv(N)", {n40, n40}, 4, {LL(n40) * n40, n40, n40, n40}, {0, 0, 1, 1},
                    {0, 0, (double)n40 * n40, n40}, 2 * n40, 4.0 * n40 * n40, g_atax, d_atax};
    /* mvt: x1 x2 y1 y2 A */
    v[n++] = (form){"mvt", "gemv(T), gemv(N)", {n40}, 5, {n40, n40, n40, n40, LL(n40) * n40},
                    {1, 1, 0, 0, 0}, {n40 + 1, n40 + 1}, n40, 4.0 * n40 * n40, g_mvt, d_mvt};
    /* gesummv: A B t x y */
    v[n++] = (form){"gesummv", "gemv(T) x2, axpy", {n40}, 5, {LL(n40) * n40, LL(n40) * n40, n40, n40, n40},
                    {0, 0, 1, 0, 1}, {0, 0, n40, 0, (a + b) * n40}, n40, 4.0 * n40 * n40, g_gesummv, d_gesummv};
    /* gemver's rank-2 update: A u1 v1 u2 v2 */
    v[n++] = (form){"ger2", "ger x2", {n40}, 5, {LL(n40) * n40, n40, n40, n40, n40}, {1, 0, 0, 0, 0},
                    {3}, 2, 4.0 * n40 * n40, g_ger2, d_ger2};
    return n;
}

/* ---- buffers, timing, comparison ------------------------------------------------- */

typedef struct bufs {
    size_t es;
    void *in[MAXB];              /* inputs, and the pristine outputs */
    void *g[MAXB], *r[MAXB];     /* outputs of gpufuse and of the direct calls */
} bufs;

static int alloc_bufs(const form *f, int dbl, bufs *b)
{
    b->es = dbl ? sizeof(double) : sizeof(float);
    size_t most = 0;
    for (int i = 0; i < f->nb; i++)
        most = (size_t)f->len[i] > most ? (size_t)f->len[i] : most;
    void *h = malloc(most * b->es);
    if (!h)
        return -1;
    for (int i = 0; i < f->nb; i++) {
        size_t n = (size_t)f->len[i], bytes = n * b->es;
        for (size_t j = 0; j < n; j++)
            if (dbl)
                ((double *)h)[j] = val(j, 1000u + (unsigned)i);
            else
                ((float *)h)[j] = (float)val(j, 1000u + (unsigned)i);
        if (gf_malloc(&b->in[i], bytes) != GF_SUCCESS ||
            gf_memcpy(b->in[i], h, bytes, GF_HOST_TO_DEVICE) != GF_SUCCESS)
            return free(h), -1;
        b->g[i] = b->r[i] = b->in[i];
        if (f->out[i] && (gf_malloc(&b->g[i], bytes) != GF_SUCCESS || gf_malloc(&b->r[i], bytes) != GF_SUCCESS))
            return free(h), -1;
    }
    free(h);
    return 0;
}

static void free_bufs(const form *f, bufs *b)
{
    for (int i = 0; i < f->nb; i++) {
        if (f->out[i]) {
            gf_free(b->g[i]);
            gf_free(b->r[i]);
        }
        gf_free(b->in[i]);
    }
}

/* the outputs of one side back to their values before the form */
static int restore(const form *f, const bufs *b, void *const *p)
{
    for (int i = 0; i < f->nb; i++)
        if (f->out[i] && cudaMemcpyAsync(p[i], b->in[i], (size_t)f->len[i] * b->es, cudaMemcpyDeviceToDevice, 0))
            return -1;
    return 0;
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

/* One repetition of a side: the gpufuse launcher (h NULL) or the direct calls. */
static int run_side(const form *f, int dbl, cublasHandle_t h, void *const *p)
{
    if (!h) {
        f->gf(f, dbl, p);
        return cudaPeekAtLastError() != cudaSuccess;
    }
    return f->direct(h, f, dbl, p);
}

/* median ms after `warm` untimed repetitions; < 0 on failure */
static double time_side(const form *f, int dbl, const bufs *b, cublasHandle_t h, void *const *p, int warm, int reps)
{
    cudaEvent_t e0, e1;
    float *ms = calloc((size_t)reps, sizeof *ms);
    double med = -1;
    int bad = !ms || cudaEventCreate(&e0) != cudaSuccess || cudaEventCreate(&e1) != cudaSuccess;
    for (int i = 0; i < warm && !bad; i++)
        bad = restore(f, b, p) || run_side(f, dbl, h, p);
    for (int i = 0; i < reps && !bad; i++) {
        bad = restore(f, b, p) || cudaDeviceSynchronize() != cudaSuccess || cudaEventRecord(e0, 0) != cudaSuccess ||
              run_side(f, dbl, h, p) || cudaEventRecord(e1, 0) != cudaSuccess ||
              cudaEventSynchronize(e1) != cudaSuccess || cudaEventElapsedTime(&ms[i], e0, e1) != cudaSuccess;
    }
    if (!bad) {
        qsort(ms, (size_t)reps, sizeof *ms, cmp_float);
        med = reps % 2 ? ms[reps / 2] : 0.5 * (ms[reps / 2 - 1] + ms[reps / 2]);
    }
    free(ms);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    return med;
}

/* max over the outputs of max |g - r| / S; NAN when a copy fails */
static double compare(const form *f, int dbl, const bufs *b)
{
    double worst = 0;
    for (int i = 0; i < f->nb; i++) {
        if (!f->out[i])
            continue;
        size_t n = (size_t)f->len[i], bytes = n * b->es;
        char *g = malloc(bytes), *r = malloc(bytes);
        if (!g || !r || gf_memcpy(g, b->g[i], bytes, GF_DEVICE_TO_HOST) != GF_SUCCESS ||
            gf_memcpy(r, b->r[i], bytes, GF_DEVICE_TO_HOST) != GF_SUCCESS) {
            free(g), free(r);
            return NAN;
        }
        for (size_t j = 0; j < n; j++) {
            double x = dbl ? ((double *)g)[j] : ((float *)g)[j], y = dbl ? ((double *)r)[j] : ((float *)r)[j];
            double e = fabs(x - y) / f->scale[i];
            if (!(e <= worst))   /* NaN too */
                worst = e;
        }
        free(g), free(r);
    }
    return worst;
}

static void emit(const form *f, int dbl, double ms, double cms, double err, double tol, int reps, const char *why)
{
    int ok = ms > 0 && cms > 0 && err <= tol;
    printf("{\"workload\": \"form_%s_%s\", \"impl\": \"gpufuse\", ", f->name, dbl ? "f64" : "f32");
    printf(ms > 0 ? "\"ms\": %.6g, " : "\"ms\": null, ", ms);
    printf(cms > 0 ? "\"cublas_ms\": %.6g, " : "\"cublas_ms\": null, ", cms);
    printf(ms > 0 && cms > 0 ? "\"ratio\": %.4g, " : "\"ratio\": null, ", cms / ms);
    printf(ms > 0 ? "\"tflops\": %.6g, " : "\"tflops\": null, ", f->flops / (ms * 1e-3) / 1e12);
    printf(cms > 0 ? "\"cublas_tflops\": %.6g, " : "\"cublas_tflops\": null, ", f->flops / (cms * 1e-3) / 1e12);
    printf("\"ok\": %s, \"err\": %s%s%s, ", ok ? "true" : "false", why ? "\"" : "", why ? why : "null", why ? "\"" : "");
    printf(isfinite(err) ? "\"max_err\": %.3g, " : "\"max_err\": null, ", err);
    printf("\"tol\": %.3g, \"reps\": %d, \"note\": \"direct: %s\"}\n", tol, reps, f->calls);
    fflush(stdout);
}

/* One form in one type: both sides timed, then both run once more from the
 * pristine outputs and compared.  Returns 0 when the outputs agree. */
static int bench_form(const form *f, int dbl, cublasHandle_t h)
{
    bufs b = {0};
    int warm = quick ? 2 : 3, reps = reps_override ? reps_override : quick ? 5 : 20;
    double tol = 2.0 * (double)(f->k + 4) * (dbl ? 0x1p-52 : 0x1p-23), err = NAN, ms = -1, cms = -1;
    const char *why = NULL;
    if (alloc_bufs(f, dbl, &b) != 0) {
        why = "device allocation failed";
    } else {
        ms = time_side(f, dbl, &b, NULL, b.g, warm, reps);
        cms = time_side(f, dbl, &b, h, b.r, warm, reps);
        if (ms < 0 || cms < 0)
            why = ms < 0 ? "the gpufuse launcher failed" : "a direct cuBLAS call failed";
        else if (restore(f, &b, b.g) || run_side(f, dbl, NULL, b.g) || restore(f, &b, b.r) ||
                 run_side(f, dbl, h, b.r) || cudaDeviceSynchronize() != cudaSuccess)
            why = "the checked run failed";
        else
            err = compare(f, dbl, &b);
    }
    emit(f, dbl, ms, cms, err, tol, reps, why);
    free_bufs(f, &b);
    return err <= tol ? 0 : 1;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--type") && i + 1 < argc)
            only_type = !strcmp(argv[++i], "f64") ? 2 : !strcmp(argv[i], "f32") ? 1 : -1;
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps_override = atoi(argv[++i]);
        else
            only_type = -1;
        if (only_type < 0 || reps_override < 0) {
            fprintf(stderr, "usage: %s [--only gemm,2mm,syrk,syr2k,symm,trmm,atax,mvt,gesummv,ger2] "
                            "[--type f32|f64] [--quick] [--reps N]\n", argv[0]);
            return 2;
        }
    }
    if (gf_init() != GF_SUCCESS) {
        fprintf(stderr, "bench_forms: no GPU (%s): skipped\n", gf_last_error());
        return 77;
    }
    cublasHandle_t h;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS || cublasSetStream(h, 0) != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "bench_forms: cublasCreate failed\n");
        return 1;
    }
    form v[16];
    int n = bench_forms_make(v, 1), failed = 0;
    for (int i = 0; i < n; i++)
        for (int dbl = 1; dbl >= 0; dbl--)
            if (wanted(v[i].name) && (!only_type || only_type == 2 - !dbl))
                failed |= bench_form(&v[i], dbl, h);
    cublasDestroy(h);
    return failed;
}
