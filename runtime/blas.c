/* blas.c - row-major GEMM over cuBLAS (f32/f64/f16/bf16, TF32 opt-in,
 * strided batched) and f32 GEMM with bias/ReLU/GELU epilogues over cuBLASLt;
 * a blocked C loop computes the same when there is no GPU.
 *
 * Row-major without transposes: a row-major X (r x c, ld) is the
 * column-major X^T, so C = op(A) op(B) is computed as the column-major
 * C^T = op(B)^T op(A)^T, i.e. cuBLAS with the operands swapped.  The other
 * forms launchers call (GEMV, GER, SYRK, SYR2K, SYMM, TRMM, GEAM) are mapped
 * the same way by blas_map.c. */
#include "rt.h"
#include "blas_map.h"

#include <gpufuse/launch.h>
#include <cublasLt.h>
#include <cublas_v2.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static atomic_int tf32_on;

gf_status gf_set_tf32(int on)
{
    atomic_store(&tf32_on, on ? 1 : 0);
    return GF_SUCCESS;
}

int gf_get_tf32(void) { return atomic_load(&tf32_on); }

/* ---- fp16 / bf16 conversions ---------------------------------------------- */

float gf_half_to_float(uint16_t h)
{
    uint32_t s = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, f = h & 0x3ffu, u;
    if (e == 0) {
        float v = ldexpf((float)f, -24); /* zero or subnormal */
        return s ? -v : v;
    }
    u = e == 31 ? (s | 0x7f800000u | (f << 13)) : (s | ((e + 112) << 23) | (f << 13));
    float r;
    memcpy(&r, &u, sizeof r);
    return r;
}

uint16_t gf_float_to_half(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    uint32_t s = (u >> 16) & 0x8000u, a = u & 0x7fffffffu;
    if (a >= 0x7f800000u) /* inf, nan (quiet) */
        return (uint16_t)(s | 0x7c00u | (a > 0x7f800000u ? 0x200u : 0));
    if (a >= 0x477ff000u) /* >= 65520 rounds to inf */
        return (uint16_t)(s | 0x7c00u);
    if (a < 0x38800000u) { /* below 2^-14: subnormal, exact scaling then RNE */
        float v;
        memcpy(&v, &a, sizeof v);
        return (uint16_t)(s | (uint32_t)lrintf(v * 16777216.0f));
    }
    uint32_t r = a - 0x38000000u;
    r += 0xfffu + ((r >> 13) & 1u);
    return (uint16_t)(s | (r >> 13));
}

float gf_bf16_to_float(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float r;
    memcpy(&r, &u, sizeof r);
    return r;
}

uint16_t gf_float_to_bf16(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((u >> 16) | 0x40u);
    return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

/* ---- library-call staging (shared with fft.c) ------------------------------ */

gf_status gf_lib_begin(gf_site *site, const gf_libarg *a, int n, gf_call **call, void **dev)
{
    gf_argdesc d[GF_LIB_MAXARGS];
    *call = NULL;
    for (int i = 0; i < n; i++) {
        d[i] = (gf_argdesc){a[i].p, 0, (ptrdiff_t)a[i].bytes, a[i].mode, 0};
        dev[i] = (void *)a[i].p;
    }
    if (gf_args_hazard(d, n))
        return gf_fail(GF_ERROR_INVALID_VALUE, "%s: an output overlaps another argument",
                       site->function);
    if (gf_runtime_get()->cpu)
        return gf_cpu_fallback(); /* the notice, or GPUFUSE_DEVICE's error */
    gf_call *c = gf_call_begin(site, n);
    for (int i = 0; i < n; i++)
        gf_call_arg(c, i, a[i].p, 0, (ptrdiff_t)a[i].bytes, a[i].mode, 0);
    if (gf_call_map(c) != GF_PATH_DEVICE) {
        /* staging failed (already reported through the error handler) */
        char msg[512];
        snprintf(msg, sizeof msg, "%s", gf_last_error());
        gf_call_end(c, 0, 0);
        return gf_fail(GF_ERROR_OUT_OF_MEMORY, "%s: cannot stage host arguments: %s",
                       site->function, msg);
    }
    for (int i = 0; i < n; i++)
        dev[i] = gf_call_ptr(c, i);
    *call = c;
    return GF_SUCCESS;
}

void gf_lib_end(gf_call *call, size_t bytes)
{
    if (call)
        gf_call_end(call, bytes, 0);
}

/* ---- cuBLAS status checks and handles -------------------------------------- */

#define BLAS(call) blas_check((int)(call), #call, __func__, __FILE__, __LINE__)

static gf_status blas_check(int st, const char *expr, const char *func, const char *file, int line)
{
    if (st == CUBLAS_STATUS_SUCCESS)
        return GF_SUCCESS;
    gf_status s = st == CUBLAS_STATUS_ALLOC_FAILED     ? GF_ERROR_OUT_OF_MEMORY
                  : st == CUBLAS_STATUS_NOT_SUPPORTED  ? GF_ERROR_NOT_SUPPORTED
                  : st == CUBLAS_STATUS_INVALID_VALUE  ? GF_ERROR_INVALID_VALUE
                                                       : GF_ERROR_CUDA;
    return gf_lib_fail(s, expr, cublasGetStatusString((cublasStatus_t)st), func, file, line);
}

/* One cuBLAS handle per (device, stream), bound to that stream once and
 * never reconfigured, so threads may share it.  They are destroyed at exit
 * by an atexit handler registered after the first handle exists, so after
 * CUDA's own initialisation: it runs before CUDA's teardown (a leak checker
 * sees every handle's memory returned). */
typedef struct blas_handle {
    int device;
    cudaStream_t stream;
    cublasHandle_t h;
    unsigned gen;                /* tl_last: blas_gen when it was taken */
} blas_handle;

static pthread_mutex_t blas_mu = PTHREAD_MUTEX_INITIALIZER;
static blas_handle *handles;
static int nhandles, caphandles;
static _Thread_local blas_handle tl_last;
/* Bumped when handles are destroyed before exit (a stream retired): a
 * thread's tl_last of an older generation is looked up again. */
static _Atomic unsigned blas_gen;
static cublasLtHandle_t lt_handles[GF_MAX_DEVICES];
static pthread_once_t release_once = PTHREAD_ONCE_INIT;
static void lt_release(void);

static void blas_release(void)
{
    pthread_mutex_lock(&blas_mu);
    for (int i = 0; i < nhandles; i++) {
        cudaSetDevice(handles[i].device);
        cublasDestroy(handles[i].h);
    }
    nhandles = 0;
    tl_last = (blas_handle){0};
    for (int d = 0; d < GF_MAX_DEVICES; d++)
        if (lt_handles[d]) {
            cublasLtDestroy(lt_handles[d]);
            lt_handles[d] = NULL;
        }
    pthread_mutex_unlock(&blas_mu);
    lt_release();
}

static void register_release(void) { atexit(blas_release); }

/* GPUFUSE_BLAS: GF_BLAS_OFF (0, off, no), GF_BLAS_ON (1, on, yes), else
 * GF_BLAS_AUTO; read once. */
int gf_blas_mode(void)
{
    static atomic_int mode = -1;
    int v = atomic_load(&mode);
    if (v < 0) {
        const char *e = getenv("GPUFUSE_BLAS");
        v = !e ? GF_BLAS_AUTO
            : !strcmp(e, "0") || !strcasecmp(e, "off") || !strcasecmp(e, "no") ? GF_BLAS_OFF
            : !strcmp(e, "1") || !strcasecmp(e, "on") || !strcasecmp(e, "yes") ? GF_BLAS_ON
                                                                                 : GF_BLAS_AUTO;
        atomic_store(&mode, v);
    }
    return v;
}

/* cuBLAS is loaded in this process (a handle made, or the warm-up's routines
 * ran); else the time the launchers' kernels took beyond cuBLAS's, in ns. */
static atomic_int blas_loaded;
static atomic_llong blas_rent_ns;

int gf_blas_use(gf_call *c, double extra_ns)
{
    (void)c;
    int mode = gf_blas_mode();
    if (mode != GF_BLAS_AUTO)
        return mode == GF_BLAS_ON;
    if (atomic_load(&blas_loaded) || !(extra_ns >= 0))
        return 1;
    long long add = extra_ns < GF_BLAS_FIRST_USE_NS ? (long long)extra_ns : (long long)GF_BLAS_FIRST_USE_NS;
    return (double)(atomic_fetch_add(&blas_rent_ns, add) + add) >= GF_BLAS_FIRST_USE_NS;
}

static gf_status get_handle(int device, cudaStream_t stream, cublasHandle_t *out)
{
    /* on the H200, golden matmul and gemm_epilogue crashed (SIGSEGV) when their
     * first cuBLAS call ran beside the warm-up: the first call waits for it */
    gf_prewarm_wait();
    if (tl_last.h && tl_last.device == device && tl_last.stream == stream && tl_last.gen == blas_gen) {
        *out = tl_last.h;
        return GF_SUCCESS;
    }
    gf_status st = GF_SUCCESS;
    pthread_mutex_lock(&blas_mu);
    int i = 0;
    while (i < nhandles && !(handles[i].device == device && handles[i].stream == stream))
        i++;
    if (i == nhandles) {
        if (nhandles == caphandles) {
            int cap = caphandles ? 2 * caphandles : 8;
            blas_handle *v = realloc(handles, (size_t)cap * sizeof *v);
            if (!v) {
                pthread_mutex_unlock(&blas_mu);
                return gf_fail(GF_ERROR_OUT_OF_MEMORY, "gf_gemm: out of host memory");
            }
            handles = v;
            caphandles = cap;
        }
        cublasHandle_t h;
        pthread_once(&release_once, register_release);
        st = BLAS(cublasCreate(&h));
        if (st == GF_SUCCESS && (st = BLAS(cublasSetStream(h, stream))) != GF_SUCCESS)
            cublasDestroy(h);
        if (st == GF_SUCCESS)
            handles[nhandles++] = (blas_handle){device, stream, h, 0};
    }
    if (st == GF_SUCCESS) {
        atomic_store(&blas_loaded, 1);
        tl_last = handles[i];
        tl_last.gen = blas_gen;
    }
    pthread_mutex_unlock(&blas_mu);
    *out = tl_last.h;
    return st;
}

/* The stream is going away (gf_stream_destroy, after synchronising it): the
 * handles bound to it are destroyed, so none outlives its stream or is
 * found again by a later stream that gets the same handle value. */
void gf_blas_retire_stream(void *stream)
{
    pthread_mutex_lock(&blas_mu);
    for (int i = 0; i < nhandles;) {
        if (handles[i].stream != (cudaStream_t)stream) {
            i++;
            continue;
        }
        cudaSetDevice(handles[i].device);
        cublasDestroy(handles[i].h);
        handles[i] = handles[--nhandles];
        blas_gen++;
    }
    pthread_mutex_unlock(&blas_mu);
}

static gf_status get_lt_handle(int device, cublasLtHandle_t *out)
{
    gf_prewarm_wait();
    gf_status st = GF_SUCCESS;
    pthread_mutex_lock(&blas_mu);
    pthread_once(&release_once, register_release);
    if (!lt_handles[device])
        st = BLAS(cublasLtCreate(&lt_handles[device]));
    *out = lt_handles[device];
    pthread_mutex_unlock(&blas_mu);
    return st;
}

/* ---- argument checks -------------------------------------------------------- */

static size_t type_size(gf_dtype t)
{
    switch (t) {
    case GF_F32: return 4;
    case GF_F64: return 8;
    case GF_F16: case GF_BF16: return 2;
    case GF_C32: return 8;
    case GF_C64: return 16;
    }
    return 0;
}

static const char *type_name(gf_dtype t)
{
    switch (t) {
    case GF_F32: return "GF_F32";
    case GF_F64: return "GF_F64";
    case GF_F16: return "GF_F16";
    case GF_BF16: return "GF_BF16";
    case GF_C32: return "GF_C32";
    case GF_C64: return "GF_C64";
    }
    return "?";
}

typedef struct gemm_args {
    gf_op ta, tb;
    int m, n, k;
    double alpha, beta;
    const void *A, *B;
    void *C;
    int lda, ldb, ldc;
    long long sa, sb, sc;
    int batch;
    gf_dtype type;
} gemm_args;

/* Elements a strided batch of r x c row-major matrices spans. */
static size_t span(int r, int c, int ld, long long stride, int batch)
{
    if (r == 0 || c == 0)
        return 0;
    return (size_t)(r - 1) * (size_t)ld + (size_t)c + (size_t)(batch - 1) * (size_t)stride;
}

static gf_status check_gemm(const char *fn, const gemm_args *g)
{
    if (g->ta != GF_OP_N && g->ta != GF_OP_T)
        return gf_fail(GF_ERROR_INVALID_VALUE, "%s: ta is %d, expected GF_OP_N or GF_OP_T", fn, (int)g->ta);
    if (g->tb != GF_OP_N && g->tb != GF_OP_T)
        return gf_fail(GF_ERROR_INVALID_VALUE, "%s: tb is %d, expected GF_OP_N or GF_OP_T", fn, (int)g->tb);
    if (g->type != GF_F32 && g->type != GF_F64 && g->type != GF_F16 && g->type != GF_BF16)
        return gf_fail(GF_ERROR_INVALID_VALUE, "%s: type %d is not GF_F32, GF_F64, GF_F16 or GF_BF16",
                       fn, (int)g->type);
    if (g->m < 0 || g->n < 0 || g->k < 0 || g->batch < 1)
        return gf_fail(GF_ERROR_INVALID_VALUE, "%s: m=%d n=%d k=%d batch=%d: sizes must be >= 0, batch >= 1",
                       fn, g->m, g->n, g->k, g->batch);
    int ca = g->ta == GF_OP_N ? g->k : g->m, cb = g->tb == GF_OP_N ? g->n : g->k;
    if (g->lda < (ca > 1 ? ca : 1) || g->ldb < (cb > 1 ? cb : 1) || g->ldc < (g->n > 1 ? g->n : 1))
        return gf_fail(GF_ERROR_INVALID_VALUE,
                       "%s: leading dimensions lda=%d ldb=%d ldc=%d are below the row lengths %d, %d, %d "
                       "(row-major: ld is the distance between rows, in elements)",
                       fn, g->lda, g->ldb, g->ldc, ca, cb, g->n);
    if (g->sa < 0 || g->sb < 0 || g->sc < 0)
        return gf_fail(GF_ERROR_INVALID_VALUE, "%s: negative batch stride", fn);
    if (g->batch > 1 && g->m && g->n && (size_t)g->sc < span(g->m, g->n, g->ldc, 0, 1))
        return gf_fail(GF_ERROR_INVALID_VALUE, "%s: strideC=%lld makes the %d outputs overlap", fn, g->sc,
                       g->batch);
    if (g->m && g->n && (!g->C || (g->k && (!g->A || !g->B))))
        return gf_fail(GF_ERROR_INVALID_VALUE, "%s: null matrix pointer", fn);
    return GF_SUCCESS;
}

/* ---- CPU fallback -------------------------------------------------------------- */

#define NB 256 /* columns of C per accumulator block (fits L1) */

/* C = alpha op(A) op(B) + beta C for one matrix; T is float or double.
 * Transposed operands are packed first so the inner loop runs along rows. */
#define DEFINE_GEMM_CPU(NAME, T)                                                           \
    static gf_status NAME(gf_op ta, gf_op tb, int m, int n, int k, T alpha, const T *A,   \
                          int lda, const T *B, int ldb, T beta, T *C, int ldc)             \
    {                                                                                      \
        T *pa = NULL, *pb = NULL;                                                          \
        if (ta == GF_OP_T && k) {                                                          \
            if (!(pa = malloc((size_t)m * k * sizeof *pa)))                                \
                return gf_fail(GF_ERROR_OUT_OF_MEMORY, "gf_gemm: out of host memory");     \
            for (int p = 0; p < k; p++)                                                    \
                for (int i = 0; i < m; i++)                                                \
                    pa[(size_t)i * k + p] = A[(size_t)p * lda + i];                        \
            A = pa, lda = k;                                                               \
        }                                                                                  \
        if (tb == GF_OP_T && k) {                                                          \
            if (!(pb = malloc((size_t)k * n * sizeof *pb))) {                              \
                free(pa);                                                                  \
                return gf_fail(GF_ERROR_OUT_OF_MEMORY, "gf_gemm: out of host memory");     \
            }                                                                              \
            for (int j = 0; j < n; j++)                                                    \
                for (int p = 0; p < k; p++)                                                \
                    pb[(size_t)p * n + j] = B[(size_t)j * ldb + p];                        \
            B = pb, ldb = n;                                                               \
        }                                                                                  \
        _Pragma("omp parallel for schedule(static)")                                       \
        for (int i = 0; i < m; i++) {                                                      \
            T acc[NB];                                                                     \
            for (int j0 = 0; j0 < n; j0 += NB) {                                           \
                int nb = n - j0 < NB ? n - j0 : NB;                                        \
                for (int j = 0; j < nb; j++)                                               \
                    acc[j] = 0;                                                            \
                for (int p = 0; p < k; p++) {                                              \
                    T av = A[(size_t)i * lda + p];                                         \
                    const T *brow = B + (size_t)p * ldb + j0;                              \
                    for (int j = 0; j < nb; j++)                                           \
                        acc[j] += av * brow[j];                                            \
                }                                                                          \
                T *crow = C + (size_t)i * ldc + j0;                                        \
                if (beta == 0)                                                             \
                    for (int j = 0; j < nb; j++)                                           \
                        crow[j] = alpha * acc[j];                                          \
                else                                                                       \
                    for (int j = 0; j < nb; j++)                                           \
                        crow[j] = alpha * acc[j] + beta * crow[j];                         \
            }                                                                              \
        }                                                                                  \
        free(pa);                                                                          \
        free(pb);                                                                          \
        return GF_SUCCESS;                                                                 \
    }

DEFINE_GEMM_CPU(gemm_cpu_f32, float)
DEFINE_GEMM_CPU(gemm_cpu_f64, double)

static float load16(const uint16_t *p, gf_dtype t)
{
    return t == GF_F16 ? gf_half_to_float(*p) : gf_bf16_to_float(*p);
}

/* f16/bf16: widen op(A), op(B) and C to packed f32, multiply, narrow C. */
static gf_status gemm_cpu_16(const gemm_args *g, const uint16_t *A, const uint16_t *B, uint16_t *C)
{
    int m = g->m, n = g->n, k = g->k;
    float *a = malloc(((size_t)m * k + (size_t)k * n + (size_t)m * n + 1) * sizeof *a);
    if (!a)
        return gf_fail(GF_ERROR_OUT_OF_MEMORY, "gf_gemm: out of host memory");
    float *b = a + (size_t)m * k, *c = b + (size_t)k * n;
    for (int i = 0; i < m; i++)
        for (int p = 0; p < k; p++)
            a[(size_t)i * k + p] = load16(g->ta == GF_OP_N ? &A[(size_t)i * g->lda + p]
                                                           : &A[(size_t)p * g->lda + i], g->type);
    for (int p = 0; p < k; p++)
        for (int j = 0; j < n; j++)
            b[(size_t)p * n + j] = load16(g->tb == GF_OP_N ? &B[(size_t)p * g->ldb + j]
                                                           : &B[(size_t)j * g->ldb + p], g->type);
    if (g->beta != 0)
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++)
                c[(size_t)i * n + j] = load16(&C[(size_t)i * g->ldc + j], g->type);
    gf_status st = gemm_cpu_f32(GF_OP_N, GF_OP_N, m, n, k, (float)g->alpha, a, k, b, n,
                                (float)g->beta, c, n);
    for (int i = 0; i < m && st == GF_SUCCESS; i++)
        for (int j = 0; j < n; j++) {
            float v = c[(size_t)i * n + j];
            C[(size_t)i * g->ldc + j] = g->type == GF_F16 ? gf_float_to_half(v) : gf_float_to_bf16(v);
        }
    free(a);
    return st;
}

static gf_status gemm_cpu(const gemm_args *g)
{
    size_t es = type_size(g->type);
    gf_status st = GF_SUCCESS;
    for (int b = 0; b < g->batch && st == GF_SUCCESS; b++) {
        const char *A = (const char *)g->A + (size_t)b * g->sa * es;
        const char *B = (const char *)g->B + (size_t)b * g->sb * es;
        char *C = (char *)g->C + (size_t)b * g->sc * es;
        switch (g->type) {
        case GF_F32:
            st = gemm_cpu_f32(g->ta, g->tb, g->m, g->n, g->k, (float)g->alpha, (const float *)A, g->lda,
                              (const float *)B, g->ldb, (float)g->beta, (float *)C, g->ldc);
            break;
        case GF_F64:
            st = gemm_cpu_f64(g->ta, g->tb, g->m, g->n, g->k, g->alpha, (const double *)A, g->lda,
                              (const double *)B, g->ldb, g->beta, (double *)C, g->ldc);
            break;
        default:
            st = gemm_cpu_16(g, (const uint16_t *)A, (const uint16_t *)B, (uint16_t *)C);
            break;
        }
    }
    return st;
}

/* ---- GPU ----------------------------------------------------------------------- */

static gf_status gemm_gpu(cublasHandle_t h, const gemm_args *g, const void *A, const void *B, void *C)
{
    cudaDataType dt = CUDA_R_32F;
    cublasComputeType_t ct = CUBLAS_COMPUTE_32F;
    float fa = (float)g->alpha, fb = (float)g->beta;
    const void *pa = &fa, *pb = &fb;
    switch (g->type) {
    case GF_F32: ct = gf_get_tf32() ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F; break;
    case GF_F64: dt = CUDA_R_64F, ct = CUBLAS_COMPUTE_64F, pa = &g->alpha, pb = &g->beta; break;
    case GF_F16: dt = CUDA_R_16F; break;
    case GF_BF16: dt = CUDA_R_16BF; break;
    default: return gf_fail(GF_ERROR_INTERNAL, "gf_gemm: type %d", (int)g->type);
    }
    cublasOperation_t oa = g->ta == GF_OP_T ? CUBLAS_OP_T : CUBLAS_OP_N;
    cublasOperation_t ob = g->tb == GF_OP_T ? CUBLAS_OP_T : CUBLAS_OP_N;
    if (g->batch == 1)
        return BLAS(cublasGemmEx(h, ob, oa, g->n, g->m, g->k, pa, B, dt, g->ldb, A, dt, g->lda, pb, C,
                                 dt, g->ldc, ct, CUBLAS_GEMM_DEFAULT));
    return BLAS(cublasGemmStridedBatchedEx(h, ob, oa, g->n, g->m, g->k, pa, B, dt, g->ldb, g->sb, A, dt,
                                           g->lda, g->sa, pb, C, dt, g->ldc, g->sc, g->batch, ct,
                                           CUBLAS_GEMM_DEFAULT));
}

static gf_status gemm(gf_site *site, const gemm_args *g)
{
    gf_status st = check_gemm(site->function, g);
    if (st != GF_SUCCESS || g->m == 0 || g->n == 0)
        return st;
    size_t es = type_size(g->type);
    int ra = g->ta == GF_OP_N ? g->m : g->k, rb = g->tb == GF_OP_N ? g->k : g->n;
    size_t cbytes = span(g->m, g->n, g->ldc, g->sc, g->batch) * es;
    /* C is write-only when beta == 0 and the batch is packed: otherwise the
     * gaps between rows must survive the copy back */
    int packed = g->ldc == g->n && (g->batch == 1 || g->sc == (long long)g->m * g->n);
    gf_libarg a[3] = {
        {g->A, g->k ? span(ra, g->ta == GF_OP_N ? g->k : g->m, g->lda, g->sa, g->batch) * es : 0, GF_ARG_READ},
        {g->B, g->k ? span(rb, g->tb == GF_OP_N ? g->n : g->k, g->ldb, g->sb, g->batch) * es : 0, GF_ARG_READ},
        {g->C, cbytes, g->beta == 0 && packed ? GF_ARG_WRITE : GF_ARG_READ | GF_ARG_WRITE},
    };
    gf_call *c;
    void *d[3];
    st = gf_lib_begin(site, a, 3, &c, d);
    if (st != GF_SUCCESS)
        return st;
    if (!c)
        return gemm_cpu(g);
    cublasHandle_t h = NULL;
    st = get_handle(gf_current_device(), gf_call_stream(c), &h);
    if (st == GF_SUCCESS)
        st = gemm_gpu(h, g, d[0], d[1], d[2]);
    gf_lib_end(c, a[0].bytes + a[1].bytes + cbytes);
    return st;
}

gf_status gf_gemm(gf_op ta, gf_op tb, int m, int n, int k, double alpha, const void *A, int lda,
                  const void *B, int ldb, double beta, void *C, int ldc, gf_dtype type)
{
    static gf_site site = {"gf_gemm", __FILE__, __LINE__, -1};
    gemm_args g = {ta, tb, m, n, k, alpha, beta, A, B, C, lda, ldb, ldc, 0, 0, 0, 1, type};
    return gemm(&site, &g);
}

gf_status gf_sgemm(gf_op ta, gf_op tb, int m, int n, int k, float alpha, const float *A, int lda,
                   const float *B, int ldb, float beta, float *C, int ldc)
{
    static gf_site site = {"gf_sgemm", __FILE__, __LINE__, -1};
    gemm_args g = {ta, tb, m, n, k, alpha, beta, A, B, C, lda, ldb, ldc, 0, 0, 0, 1, GF_F32};
    return gemm(&site, &g);
}

gf_status gf_dgemm(gf_op ta, gf_op tb, int m, int n, int k, double alpha, const double *A, int lda,
                   const double *B, int ldb, double beta, double *C, int ldc)
{
    static gf_site site = {"gf_dgemm", __FILE__, __LINE__, -1};
    gemm_args g = {ta, tb, m, n, k, alpha, beta, A, B, C, lda, ldb, ldc, 0, 0, 0, 1, GF_F64};
    return gemm(&site, &g);
}

gf_status gf_gemm_strided_batched(gf_op ta, gf_op tb, int m, int n, int k, double alpha,
                                  const void *A, int lda, long long strideA, const void *B,
                                  int ldb, long long strideB, double beta, void *C, int ldc,
                                  long long strideC, int batch, gf_dtype type)
{
    static gf_site site = {"gf_gemm_strided_batched", __FILE__, __LINE__, -1};
    gemm_args g = {ta, tb, m, n, k, alpha, beta, A, B, C, lda, ldb, ldc,
                   strideA, strideB, strideC, batch, type};
    return gemm(&site, &g);
}

/* A launcher's matrix product: device pointers, the call's stream. */
void gf_call_gemm(gf_call *c, gf_op ta, gf_op tb, long long m, long long n, long long k, double alpha,
                  const void *A, long long lda, const void *B, long long ldb, double beta, void *C,
                  long long ldc, gf_dtype type, const char *what)
{
    gemm_args g = {ta, tb, (int)m, (int)n, (int)k, alpha, beta, A, B, C, (int)lda, (int)ldb, (int)ldc,
                   0, 0, 0, 1, type};
    gf_status st = GF_SUCCESS;
    if (m > INT_MAX || n > INT_MAX || k > INT_MAX || lda > INT_MAX || ldb > INT_MAX || ldc > INT_MAX)
        st = gf_fail(GF_ERROR_INVALID_VALUE, "sizes past INT_MAX");
    if (st == GF_SUCCESS)
        st = check_gemm("gf_call_gemm", &g);
    cublasHandle_t h = NULL;
    if (st == GF_SUCCESS)
        st = get_handle(gf_current_device(), gf_call_stream(c), &h);
    if (st == GF_SUCCESS)
        st = gemm_gpu(h, &g, A, B, C);
    if (st == GF_ERROR_INVALID_VALUE)
        return;                  /* as gf_gemm: recorded (gf_last_error), nothing done */
    if (st != GF_SUCCESS) {
        char msg[640];
        snprintf(msg, sizeof msg, "cuBLAS GEMM for %s failed: %s", what ? what : "?", gf_last_error());
        gf_call_fail(c, st, msg);
    }
}

/* ---- the other BLAS forms of launchers ------------------------------------------------ */

static cublasOperation_t op_of(int t) { return t ? CUBLAS_OP_T : CUBLAS_OP_N; }
static cublasFillMode_t fill_of(int upper) { return upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER; }
static cublasSideMode_t side_of(int right) { return right ? CUBLAS_SIDE_RIGHT : CUBLAS_SIDE_LEFT; }
static cublasDiagType_t diag_of(int unit) { return unit ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT; }

/* The column-major call of m (blas_map.c), float or double. */
#define BLAS_CALL(T, S, D)                                                                                        \
    static gf_status blas_##T(cublasHandle_t h, const gf_blas_cm *m, T alpha, T beta)                            \
    {                                                                                                           \
        const T *a = m->a, *b = m->b;                                                                           \
        T *c = m->c;                                                                                            \
        switch (m->kind) {                                                                                      \
        case GF_BLAS_GEMV:                                                                                      \
            return BLAS(S##gemv(h, op_of(m->trans), m->m, m->n, &alpha, a, m->lda, b, 1, &beta, c, 1));        \
        case GF_BLAS_GER: return BLAS(S##ger(h, m->m, m->n, &alpha, a, 1, b, 1, c, m->ldc));                  \
        case GF_BLAS_SYRK:                                                                                      \
            return BLAS(S##syrk(h, fill_of(m->upper), op_of(m->trans), m->n, m->k, &alpha, a, m->lda, &beta, c,  \
                                m->ldc));                                                                       \
        case GF_BLAS_SYR2K:                                                                                     \
            return BLAS(S##syr2k(h, fill_of(m->upper), op_of(m->trans), m->n, m->k, &alpha, a, m->lda, b, m->ldb, \
                                 &beta, c, m->ldc));                                                            \
        case GF_BLAS_SYMM:                                                                                      \
            return BLAS(S##symm(h, side_of(m->right), fill_of(m->upper), m->m, m->n, &alpha, a, m->lda, b,       \
                                m->ldb, &beta, c, m->ldc));                                                     \
        case GF_BLAS_TRMM:                                                                                      \
            return BLAS(S##trmm(h, side_of(m->right), fill_of(m->upper), op_of(m->trans), diag_of(m->unit), m->m, \
                                m->n, &alpha, a, m->lda, b, m->ldb, c, m->ldc));                                \
        case GF_BLAS_GEAM:                                                                                      \
            return BLAS(S##geam(h, CUBLAS_OP_N, CUBLAS_OP_N, m->m, m->n, &alpha, a, m->lda, &beta, b, m->ldc, c, \
                                m->ldc));                                                                       \
        }                                                                                                       \
        return gf_fail(GF_ERROR_INTERNAL, "blas: kind %d", (int)m->kind);                                      \
    }
BLAS_CALL(float, cublasS, 0)
BLAS_CALL(double, cublasD, 0)
#undef BLAS_CALL

/* One launcher call: the mapping, the handle of the call's stream, the
 * routine; invalid sizes do nothing (the launcher checked them: the kernel
 * ran instead), failures are reported naming the kernel. */
static void call_blas(gf_call *c, const gf_blas_rm *rm, double alpha, double beta, gf_dtype type, const char *what)
{
    static const char *const names[] = {"GEMV", "GER", "SYRK", "SYR2K", "SYMM", "TRMM", "GEAM"};
    gf_blas_cm m;
    gf_status st = GF_SUCCESS;
    if (type != GF_F32 && type != GF_F64)
        st = gf_fail(GF_ERROR_INVALID_VALUE, "type %s: GF_F32 or GF_F64", type_name(type));
    else if (gf_blas_map(rm, &m) != 0)
        st = gf_fail(GF_ERROR_INVALID_VALUE, "sizes or strides cuBLAS cannot take");
    if (st != GF_SUCCESS || rm->m == 0 || (rm->kind != GF_BLAS_SYRK && rm->kind != GF_BLAS_SYR2K && rm->n == 0))
        return;
    cublasHandle_t h = NULL;
    st = get_handle(gf_current_device(), gf_call_stream(c), &h);
    if (st == GF_SUCCESS)
        st = type == GF_F32 ? blas_float(h, &m, (float)alpha, (float)beta) : blas_double(h, &m, alpha, beta);
    if (st != GF_SUCCESS) {
        char msg[640];
        snprintf(msg, sizeof msg, "cuBLAS %s for %s failed: %s", names[rm->kind], what ? what : "?", gf_last_error());
        gf_call_fail(c, st, msg);
    }
}

void gf_call_gemv(gf_call *c, gf_op ta, long long m, long long n, double alpha, const void *A, long long lda,
                  const void *x, double beta, void *y, gf_dtype type, const char *what)
{
    gf_blas_rm rm = {.kind = GF_BLAS_GEMV, .ta = ta == GF_OP_T, .m = m, .n = n, .a = A, .b = x, .c = y, .lda = lda};
    call_blas(c, &rm, alpha, beta, type, what);
}

void gf_call_ger(gf_call *c, long long m, long long n, double alpha, const void *x, const void *y, void *A,
                 long long lda, gf_dtype type, const char *what)
{
    gf_blas_rm rm = {.kind = GF_BLAS_GER, .m = m, .n = n, .a = x, .b = y, .c = A, .ldc = lda};
    call_blas(c, &rm, alpha, 1.0, type, what);
}

void gf_call_syrk(gf_call *c, int upper, gf_op ta, long long n, long long k, double alpha, const void *A,
                  long long lda, double beta, void *C, long long ldc, gf_dtype type, const char *what)
{
    gf_blas_rm rm = {.kind = GF_BLAS_SYRK, .ta = ta == GF_OP_T, .upper = upper, .m = n, .n = n, .k = k,
                     .a = A, .c = C, .lda = lda, .ldc = ldc};
    call_blas(c, &rm, alpha, beta, type, what);
}

void gf_call_syr2k(gf_call *c, int upper, gf_op ta, long long n, long long k, double alpha, const void *A,
                   long long lda, const void *B, long long ldb, double beta, void *C, long long ldc, gf_dtype type,
                   const char *what)
{
    gf_blas_rm rm = {.kind = GF_BLAS_SYR2K, .ta = ta == GF_OP_T, .upper = upper, .m = n, .n = n, .k = k,
                     .a = A, .b = B, .c = C, .lda = lda, .ldb = ldb, .ldc = ldc};
    call_blas(c, &rm, alpha, beta, type, what);
}

void gf_call_symm(gf_call *c, int right, int upper, long long m, long long n, double alpha, const void *A,
                  long long lda, const void *B, long long ldb, double beta, void *C, long long ldc, gf_dtype type,
                  const char *what)
{
    gf_blas_rm rm = {.kind = GF_BLAS_SYMM, .right = right, .upper = upper, .m = m, .n = n, .a = A, .b = B,
                     .c = C, .lda = lda, .ldb = ldb, .ldc = ldc};
    call_blas(c, &rm, alpha, beta, type, what);
}

void gf_call_trmm(gf_call *c, int right, int upper, gf_op ta, int unit, long long m, long long n, double alpha,
                  const void *A, long long lda, const void *B, long long ldb, void *C, long long ldc, gf_dtype type,
                  const char *what)
{
    gf_blas_rm rm = {.kind = GF_BLAS_TRMM, .ta = ta == GF_OP_T, .upper = upper, .right = right, .unit = unit,
                     .m = m, .n = n, .a = A, .b = B, .c = C, .lda = lda, .ldb = ldb, .ldc = ldc};
    call_blas(c, &rm, alpha, 0.0, type, what);
}

void gf_call_geam(gf_call *c, long long m, long long n, double alpha, const void *A, long long lda, double beta,
                  void *C, long long ldc, gf_dtype type, const char *what)
{
    gf_blas_rm rm = {.kind = GF_BLAS_GEAM, .m = m, .n = n, .a = A, .c = C, .lda = lda, .ldc = ldc};
    call_blas(c, &rm, alpha, beta, type, what);
}

/* ---- prewarm (prewarm.c) ------------------------------------------------------------ */

/* One routine of gf_blas_warm at 64 x 64 on d (3 matrices of 64 x 64 doubles). */
static void warm_one(cublasHandle_t h, unsigned routine, gf_dtype t, char *d)
{
    enum { N = 64 };
    size_t mat = (size_t)N * N * (t == GF_F64 ? 8 : 4);
    void *A = d, *B = d + mat, *C = d + 2 * mat;
    if (routine == GF_WARM_GEMM) {
        gemm_args g = {.ta = GF_OP_N, .tb = GF_OP_N, .m = N, .n = N, .k = N, .alpha = 1, .beta = 0, .lda = N,
                       .ldb = N, .ldc = N, .batch = 1, .type = t};
        gemm_gpu(h, &g, A, B, C);
        return;
    }
    static const struct { unsigned flag; gf_blas_kind kind; int ta; } forms[] = {
        {GF_WARM_GEMV, GF_BLAS_GEMV, 0}, {GF_WARM_GEMV, GF_BLAS_GEMV, 1}, {GF_WARM_GER, GF_BLAS_GER, 0},
        {GF_WARM_SYRK, GF_BLAS_SYRK, 0}, {GF_WARM_SYR2K, GF_BLAS_SYR2K, 0}, {GF_WARM_SYMM, GF_BLAS_SYMM, 0},
        {GF_WARM_TRMM, GF_BLAS_TRMM, 0}, {GF_WARM_GEAM, GF_BLAS_GEAM, 0}};
    for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
        if (forms[i].flag != routine)
            continue;
        gf_blas_rm rm = {.kind = forms[i].kind, .ta = forms[i].ta, .upper = 1, .m = N, .n = N, .k = N,
                         .a = A, .b = B, .c = C, .lda = N, .ldb = N, .ldc = N};
        gf_blas_cm m;
        if (gf_blas_map(&rm, &m) == 0)
            t == GF_F32 ? blas_float(h, &m, 1.0f, 0.0f) : blas_double(h, &m, 1.0, 0.0);
    }
}

void gf_blas_warm(unsigned what)
{
    static const unsigned routines[] = {GF_WARM_GEMM, GF_WARM_GEMV, GF_WARM_GER, GF_WARM_SYRK,
                                        GF_WARM_SYR2K, GF_WARM_SYMM, GF_WARM_TRMM, GF_WARM_GEAM};
    unsigned any = 0;
    for (size_t i = 0; i < sizeof routines / sizeof *routines; i++)
        any |= routines[i];
    if (!(what & any) || !(what & (GF_WARM_F32 | GF_WARM_F64)))
        return;
    cudaStream_t s = NULL;
    cublasHandle_t h = NULL;
    char *d = NULL;
    size_t bytes = 3 * 64 * 64 * sizeof(double);
    if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess && cublasCreate(&h) == CUBLAS_STATUS_SUCCESS &&
        cublasSetStream(h, s) == CUBLAS_STATUS_SUCCESS && cudaMalloc((void **)&d, bytes) == cudaSuccess &&
        cudaMemsetAsync(d, 0, bytes, s) == cudaSuccess) {
        for (int t = 0; t < 2; t++) {
            if (!(what & (t ? GF_WARM_F64 : GF_WARM_F32)))
                continue;
            for (size_t i = 0; i < sizeof routines / sizeof *routines; i++)
                if (what & routines[i])
                    warm_one(h, routines[i], t ? GF_F64 : GF_F32, d);
        }
        if (cudaStreamSynchronize(s) == cudaSuccess)
            atomic_store(&blas_loaded, 1);
    }
    if (d)
        cudaFree(d);
    if (h)
        cublasDestroy(h);
    if (s)
        cudaStreamDestroy(s);
    cudaGetLastError();
}

/* ---- cuBLASLt epilogues ------------------------------------------------------------ */

/* Descriptors, layouts and the heuristic's algorithm per shape, LRU. */
#define LT_CACHE 32
#define LT_WORKSPACE (32u << 20)

typedef struct lt_plan {
    int device, m, n, k, flags, tf32, align;
    cublasLtMatmulDesc_t op;
    cublasLtMatrixLayout_t la, lb, lc;
    cublasLtMatmulAlgo_t algo;
    size_t ws;
    uint64_t last_use;
} lt_plan;

static pthread_mutex_t lt_mu = PTHREAD_MUTEX_INITIALIZER;
static lt_plan lt_cache[LT_CACHE];
static int lt_n;
static uint64_t lt_clock;

static void lt_plan_destroy(lt_plan *p)
{
    if (p->op)
        cublasLtMatmulDescDestroy(p->op);
    if (p->la)
        cublasLtMatrixLayoutDestroy(p->la);
    if (p->lb)
        cublasLtMatrixLayoutDestroy(p->lb);
    if (p->lc)
        cublasLtMatrixLayoutDestroy(p->lc);
    memset(p, 0, sizeof *p);
}

/* At exit (blas_release): the cached descriptors. */
static void lt_release(void)
{
    pthread_mutex_lock(&lt_mu);
    for (int i = 0; i < lt_n; i++)
        lt_plan_destroy(&lt_cache[i]);
    lt_n = 0;
    pthread_mutex_unlock(&lt_mu);
}

static int epilogue_of(int flags)
{
    switch (flags) {
    case 0: return CUBLASLT_EPILOGUE_DEFAULT;
    case GF_EPI_BIAS: return CUBLASLT_EPILOGUE_BIAS;
    case GF_EPI_RELU: return CUBLASLT_EPILOGUE_RELU;
    case GF_EPI_GELU: return CUBLASLT_EPILOGUE_GELU;
    case GF_EPI_BIAS | GF_EPI_RELU: return CUBLASLT_EPILOGUE_RELU_BIAS;
    case GF_EPI_BIAS | GF_EPI_GELU: return CUBLASLT_EPILOGUE_GELU_BIAS;
    }
    return -1;
}

/* Column-major view (see the top): D^T (n x m) = B^T (n x k) * A^T (k x m),
 * so cuBLASLt's "A" is our B, its "B" our A, and the bias (one per row of
 * D^T) is one per column of our C. */
static gf_status lt_plan_make(lt_plan *p, cublasLtHandle_t lt)
{
    cublasLtMatmulPreference_t pref = NULL;
    cublasLtEpilogue_t epi = (cublasLtEpilogue_t)epilogue_of(p->flags);
    uint64_t ws = LT_WORKSPACE;
    uint32_t al = (uint32_t)p->align;
    cublasLtMatmulHeuristicResult_t res;
    int nres = 0;
    gf_status st = BLAS(cublasLtMatmulDescCreate(
        &p->op, p->tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F, CUDA_R_32F));
    if (st == GF_SUCCESS)
        st = BLAS(cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof epi));
    if (st == GF_SUCCESS)
        st = BLAS(cublasLtMatrixLayoutCreate(&p->la, CUDA_R_32F, (uint64_t)p->n, (uint64_t)p->k, p->n));
    if (st == GF_SUCCESS)
        st = BLAS(cublasLtMatrixLayoutCreate(&p->lb, CUDA_R_32F, (uint64_t)p->k, (uint64_t)p->m, p->k));
    if (st == GF_SUCCESS)
        st = BLAS(cublasLtMatrixLayoutCreate(&p->lc, CUDA_R_32F, (uint64_t)p->n, (uint64_t)p->m, p->n));
    if (st == GF_SUCCESS)
        st = BLAS(cublasLtMatmulPreferenceCreate(&pref));
    if (st == GF_SUCCESS)
        st = BLAS(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                       &ws, sizeof ws));
    /* the heuristic assumes 256-byte aligned pointers unless told */
    cublasLtMatmulPreferenceAttributes_t attrs[4] = {
        CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES,
        CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES};
    for (int i = 0; i < 4 && st == GF_SUCCESS; i++)
        st = BLAS(cublasLtMatmulPreferenceSetAttribute(pref, attrs[i], &al, sizeof al));
    if (st == GF_SUCCESS)
        st = BLAS(cublasLtMatmulAlgoGetHeuristic(lt, p->op, p->la, p->lb, p->lc, p->lc, pref, 1, &res, &nres));
    if (pref)
        cublasLtMatmulPreferenceDestroy(pref);
    if (st == GF_SUCCESS && nres < 1)
        st = gf_fail(GF_ERROR_NOT_SUPPORTED,
                     "gf_gemm_epilogue: cuBLASLt has no algorithm for m=%d n=%d k=%d flags=%d", p->m,
                     p->n, p->k, p->flags);
    if (st != GF_SUCCESS) {
        lt_plan_destroy(p);
        return st;
    }
    p->algo = res.algo;
    p->ws = res.workspaceSize;
    return GF_SUCCESS;
}

static int pointer_align(const void *const *v, int n)
{
    uintptr_t bits = 256;
    for (int i = 0; i < n; i++)
        if (v[i])
            bits |= (uintptr_t)v[i];
    return (int)(bits & (~bits + 1)); /* lowest set bit, at most 256 */
}

static float gelu(float x)
{
    return 0.5f * x * (1.0f + tanhf(0.7978845608028654f * (x + 0.044715f * x * x * x)));
}

static gf_status epilogue_cpu(int m, int n, int k, const float *A, const float *B, const float *bias,
                              float *C, int flags)
{
    gf_status st = gemm_cpu_f32(GF_OP_N, GF_OP_N, m, n, k, 1.0f, A, k, B, n, 0.0f, C, n);
    if (st != GF_SUCCESS)
        return st;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            float v = C[(size_t)i * n + j] + ((flags & GF_EPI_BIAS) ? bias[j] : 0.0f);
            if (flags & GF_EPI_RELU)
                v = v > 0 ? v : 0;
            else if (flags & GF_EPI_GELU)
                v = gelu(v);
            C[(size_t)i * n + j] = v;
        }
    return GF_SUCCESS;
}

/* One cuBLASLt matmul with its epilogue, through the plan cache: d = {A, B,
 * bias, C} device pointers, on the call's stream. */
static gf_status lt_matmul(gf_call *c, int m, int n, int k, const void *const d[4], int flags)
{
    gf_status st;
    int device = gf_current_device();
    cublasLtHandle_t lt;
    st = get_lt_handle(device, &lt);
    if (st == GF_SUCCESS) {
        int align = pointer_align(d, 4), tf32 = gf_get_tf32();
        pthread_mutex_lock(&lt_mu);
        lt_plan *p = NULL, *lru = &lt_cache[0];
        for (int i = 0; i < lt_n && !p; i++) {
            lt_plan *q = &lt_cache[i];
            if (q->device == device && q->m == m && q->n == n && q->k == k && q->flags == flags &&
                q->tf32 == tf32 && q->align == align)
                p = q;
            if (q->last_use < lru->last_use)
                lru = q;
        }
        if (!p) {
            if (lt_n < LT_CACHE)
                p = &lt_cache[lt_n++];
            else
                lt_plan_destroy(p = lru); /* host objects only: safe with work in flight */
            *p = (lt_plan){.device = device, .m = m, .n = n, .k = k, .flags = flags, .tf32 = tf32,
                           .align = align};
            st = lt_plan_make(p, lt);
            if (st != GF_SUCCESS) { /* drop the empty slot */
                *p = lt_cache[--lt_n];
                memset(&lt_cache[lt_n], 0, sizeof lt_cache[lt_n]);
                p = NULL;
            }
        }
        if (p) {
            p->last_use = ++lt_clock;
            void *ws = p->ws ? gf_call_scratch(c, p->ws) : NULL;
            const float one = 1.0f, zero = 0.0f;
            if (p->ws && !ws)
                st = gf_fail(GF_ERROR_OUT_OF_MEMORY, "gf_gemm_epilogue: no memory for a %zu-byte workspace", p->ws);
            if (st == GF_SUCCESS && (flags & GF_EPI_BIAS))
                st = BLAS(cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &d[2],
                                                         sizeof d[2]));
            if (st == GF_SUCCESS)
                st = BLAS(cublasLtMatmul(lt, p->op, &one, d[1], p->la, d[0], p->lb, &zero, d[3], p->lc,
                                         (void *)d[3], p->lc, &p->algo, ws, p->ws, gf_call_stream(c)));
        }
        pthread_mutex_unlock(&lt_mu);
    }
    return st;
}

gf_status gf_gemm_epilogue(int m, int n, int k, const float *A, const float *B, const float *bias,
                           float *C, int flags)
{
    static gf_site site = {"gf_gemm_epilogue", __FILE__, __LINE__, -1};
    if (epilogue_of(flags) < 0)
        return gf_fail(GF_ERROR_INVALID_VALUE,
                       "gf_gemm_epilogue: flags 0x%x: expected GF_EPI_BIAS and at most one of "
                       "GF_EPI_RELU, GF_EPI_GELU", (unsigned)flags);
    if (m < 0 || n < 0 || k < 0)
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_gemm_epilogue: m=%d n=%d k=%d: sizes must be >= 0", m, n, k);
    if (m == 0 || n == 0)
        return GF_SUCCESS;
    if (k == 0)
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_gemm_epilogue: k must be > 0");
    if (!A || !B || !C || ((flags & GF_EPI_BIAS) && !bias))
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_gemm_epilogue: null pointer%s",
                       (flags & GF_EPI_BIAS) && !bias ? " (GF_EPI_BIAS needs a bias)" : "");
    gf_libarg a[4] = {
        {A, (size_t)m * k * sizeof(float), GF_ARG_READ},
        {B, (size_t)k * n * sizeof(float), GF_ARG_READ},
        {(flags & GF_EPI_BIAS) ? bias : NULL, (flags & GF_EPI_BIAS) ? (size_t)n * sizeof(float) : 0,
         GF_ARG_READ},
        {C, (size_t)m * n * sizeof(float), GF_ARG_WRITE},
    };
    gf_call *c;
    void *d[4];
    gf_status st = gf_lib_begin(&site, a, 4, &c, d);
    if (st != GF_SUCCESS)
        return st;
    if (!c)
        return epilogue_cpu(m, n, k, A, B, bias, C, flags);
    const void *ptrs[4] = {d[0], d[1], d[2], d[3]};
    st = lt_matmul(c, m, n, k, ptrs, flags);
    gf_lib_end(c, a[0].bytes + a[1].bytes + a[2].bytes + a[3].bytes);
    return st;
}

void gf_call_gemm_epilogue(gf_call *c, long long m, long long n, long long k, const float *A, const float *B,
                           const float *bias, float *C, int flags, const char *what)
{
    gf_status st = GF_SUCCESS;
    if (m == 0 || n == 0)
        return;
    if (epilogue_of(flags) < 0 || ((flags & GF_EPI_BIAS) && !bias))
        st = gf_fail(GF_ERROR_INVALID_VALUE, "epilogue flags 0x%x", (unsigned)flags);
    else if (m <= 0 || n <= 0 || k <= 0 || m > INT_MAX || n > INT_MAX || k > INT_MAX)
        st = gf_fail(GF_ERROR_INVALID_VALUE, "m=%lld n=%lld k=%lld: sizes must be in [1, INT_MAX]", m, n, k);
    if (st == GF_SUCCESS) {
        const void *d[4] = {A, B, bias, C};
        st = lt_matmul(c, (int)m, (int)n, (int)k, d, flags);
    }
    if (st == GF_ERROR_INVALID_VALUE)
        return;                  /* as gf_gemm_epilogue: recorded, nothing done */
    if (st != GF_SUCCESS) {
        char msg[640];
        snprintf(msg, sizeof msg, "cuBLASLt matmul for %s failed: %s", what ? what : "?", gf_last_error());
        gf_call_fail(c, st, msg);
    }
}
