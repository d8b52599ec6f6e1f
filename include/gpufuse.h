/* gpufuse.h - the one header a user includes: the GPUFUSE marker and the
 * runtime API of libgpufuse (device, memory pool, transfers, data regions,
 * streams, errors, profiling, cuBLAS/cuFFT calls).  Plain C11; usable from C++ and CUDA. */
#ifndef GPUFUSE_H
#define GPUFUSE_H

#include <stddef.h>
#include <stdint.h>

#define GPUFUSE_VERSION_MAJOR 0
#define GPUFUSE_VERSION_MINOR 1
#define GPUFUSE_VERSION_PATCH 0
#define GPUFUSE_VERSION_STRING "0.1.0"

/* GPUFUSE marks a fusion region.  While gpufuse parses the file it defines
 * __GPUFUSE__, and the marker carries the annotation gpufuse looks for; any
 * other compiler sees only `weak`, so the file stays warning-free C whose
 * marked bodies are the CPU reference and fallback.  gpufuse's launchers are
 * strong definitions of the same names and win at link time. */
#if defined(__GPUFUSE__)
#define GPUFUSE __attribute__((annotate("gpufuse"), weak))
#else
#define GPUFUSE __attribute__((weak))
#endif

/* GPUFUSE_CUDA marks a function as GPUFUSE does, but its GPU code is a
 * kernel the user wrote: `extern "C" __global__ void kernel(...)` in a .cu
 * of their own, taking the function's parameters in order (arrays as device
 * pointers to their first element, scalars by value).  The launcher stages
 * the arrays as for any marked function (their extents come from the C
 * body), launches `kernel` on the call's stream, checks and profiles it;
 * the C body stays the CPU fallback and GPUFUSE_VERIFY's reference.  The
 * launch geometry (docs/cuda-kernels.md):
 *   GPUFUSE_CUDA(kernel)                  256 threads a block, one thread per
 *                                         element of the first array the C
 *                                         body writes (up to the last written)
 *   GPUFUSE_CUDA_THREADS(kernel, count)   256 threads a block, `count` threads
 *                                         (an expression in the scalar parameters)
 *   GPUFUSE_CUDA_GRID(kernel, (gx, gy), (bx, by))
 *                                         grid and block, 1 to 3 expressions each
 * Macros in the expressions are expanded; they may name only the function's
 * scalar parameters and literals. */
#define GPUFUSE_CUDA_STR_(x) #x
#define GPUFUSE_CUDA_STR(x) GPUFUSE_CUDA_STR_(x)
#if defined(__GPUFUSE__)
#define GPUFUSE_CUDA(kernel) __attribute__((annotate("gpufuse"), annotate("gpufuse_cuda:" #kernel), weak))
#define GPUFUSE_CUDA_THREADS(kernel, count)                                                                     \
    __attribute__((annotate("gpufuse"), annotate("gpufuse_cuda:" #kernel),                                    \
                   annotate("gpufuse_cuda_threads:" GPUFUSE_CUDA_STR(count)), weak))
#define GPUFUSE_CUDA_GRID(kernel, grid, block)                                                                  \
    __attribute__((annotate("gpufuse"), annotate("gpufuse_cuda:" #kernel),                                    \
                   annotate("gpufuse_cuda_grid:" GPUFUSE_CUDA_STR(grid)),                                      \
                   annotate("gpufuse_cuda_block:" GPUFUSE_CUDA_STR(block)), weak))
#else
#define GPUFUSE_CUDA(kernel) __attribute__((weak))
#define GPUFUSE_CUDA_THREADS(kernel, count) __attribute__((weak))
#define GPUFUSE_CUDA_GRID(kernel, grid, block) __attribute__((weak))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Static libraries.  An archive holding kernels.o before kernels.gf.o gives
 * the linker the weak C bodies first, and it would never pull the
 * launchers.  A marked file compiled with -DGPUFUSE_UNIT=<its stem> (the
 * file name without .c, other characters than letters, digits and _ made
 * _; the CMake package does it, docs/build-integration.md shows Meson and
 * Make) refers to gpufuse_unit_<stem>, which only its .gf.cu defines: the
 * linker then pulls the launchers as well, and they replace the weak
 * bodies; without the .gf.cu the link fails, naming that symbol. */
#if defined(GPUFUSE_UNIT) && !defined(__GPUFUSE__) && !defined(__CUDACC__)
#define GPUFUSE_UNIT_SYMBOL_(u) gpufuse_unit_##u
#define GPUFUSE_UNIT_SYMBOL(u) GPUFUSE_UNIT_SYMBOL_(u)
extern const char GPUFUSE_UNIT_SYMBOL(GPUFUSE_UNIT);
__attribute__((used)) static const char *const gpufuse_unit_ref_ = &GPUFUSE_UNIT_SYMBOL(GPUFUSE_UNIT);
#endif

/* ---- version ------------------------------------------------------------ */

/* The runtime's version ("0.1.0"), which may differ from the headers'
 * GPUFUSE_VERSION_STRING the program was compiled with. */
const char *gf_version(void);

/* ---- status ------------------------------------------------------------ */

typedef enum gf_status {
    GF_SUCCESS = 0,
    GF_ERROR_INVALID_VALUE,      /* a bad argument: null, zero size, unknown flag */
    GF_ERROR_OUT_OF_MEMORY,      /* device or pinned memory exhausted (after retry) */
    GF_ERROR_NO_DEVICE,          /* no usable GPU, or GPUFUSE_DEVICE=cpu */
    GF_ERROR_CUDA,               /* a CUDA call failed; the message says which */
    GF_ERROR_NOT_MAPPED,         /* a pointer is not inside a data region */
    GF_ERROR_OVERLAP,            /* a data region partly overlaps an existing one */
    GF_ERROR_LIMIT,              /* GPUFUSE_POOL_LIMIT would be exceeded */
    GF_ERROR_NOT_SUPPORTED,      /* the operation is not available in this build */
    GF_ERROR_INTERNAL
} gf_status;

/* Describes a status code ("GF_ERROR_CUDA: ..." with the last detail recorded
 * on this thread when there is one).  Never NULL. */
const char *gf_error_string(gf_status s);
/* The detailed message of the last failing call on this thread ("" if none). */
const char *gf_last_error(void);

/* What a launcher does when it fails (launchers return what the C function
 * returns, so they cannot return a status).  The default prints the message,
 * which names the function and its source line, and aborts. */
typedef void (*gf_error_handler)(gf_status s, const char *message, void *user);
void gf_set_error_handler(gf_error_handler h, void *user);

/* ---- device ------------------------------------------------------------ */

typedef struct gf_device_props {
    char name[256];
    int major, minor;            /* compute capability */
    int multiprocessors;
    size_t total_memory;         /* bytes */
    double peak_bandwidth_gbs;   /* from memory clock and bus width */
} gf_device_props;

/* Initialises the runtime (idempotent, thread-safe).  Returns
 * GF_ERROR_NO_DEVICE when there is no GPU or GPUFUSE_DEVICE=cpu: the CPU
 * fallback is then used by every launcher, which is not an error for them. */
gf_status gf_init(void);
/* The once-only work of a process's first GPU call, done ahead (issue: a
 * first call paid ~120 ms once): gf_prewarm starts a thread that creates the
 * CUDA context of the device GPUFUSE_DEVICE names (0 by default), then, by
 * `what`, allocates the pinned staging ring and starts the staging threads
 * (GF_WARM_STAGING) and runs each cuBLAS routine named once at a small size,
 * on a handle and stream of its own, so that the library's kernels are
 * loaded before the program's first call needs them.  gf_prewarm_load also
 * runs `load_kernels` on that thread once the context exists: generated
 * units pass a function of their own that loads their kernels
 * (cudaFuncGetAttributes on each), which CUDA's lazy loading would
 * otherwise do at each kernel's first launch.  Both return at once; calls
 * with work already asked for do nothing.  Every .gf.cu calls
 * gf_prewarm_load when the program starts (a constructor, with what its
 * launchers use).  GPUFUSE_PREWARM=0 turns it off (a program that forks
 * workers which use the GPU, or one that calls cudaSetDeviceFlags before
 * its first CUDA call, wants that); GPUFUSE_DEVICE=cpu also skips it.  It
 * reads no other configuration but GPUFUSE_STAGING_CHUNK and
 * GPUFUSE_STAGING_THREADS, and touches no pool, so the runtime's own
 * settings are still read at the first call.  docs/performance.md, "The
 * first call". */
enum {
    GF_WARM_CONTEXT = 1u << 0,   /* the device's context (always done) */
    GF_WARM_F32 = 1u << 1,       /* the routines below in float */
    GF_WARM_F64 = 1u << 2,       /* ... in double */
    GF_WARM_GEMM = 1u << 3,
    GF_WARM_GEMV = 1u << 4,
    GF_WARM_GER = 1u << 5,
    GF_WARM_SYRK = 1u << 6,
    GF_WARM_SYR2K = 1u << 7,
    GF_WARM_SYMM = 1u << 8,
    GF_WARM_TRMM = 1u << 9,
    GF_WARM_GEAM = 1u << 10,
    GF_WARM_STAGING = 1u << 11   /* the staging ring (32 MiB pinned) and threads */
};
void gf_prewarm(unsigned what);
void gf_prewarm_load(unsigned what, void (*load_kernels)(void));
/* Waits until every warm-up started so far has finished (benchmarks that
 * time a first call without it, and tests). */
void gf_prewarm_wait(void);
/* Number of usable devices (0 in CPU mode). */
gf_status gf_device_count(int *count);
/* Selects the device for the calling thread. */
gf_status gf_device_select(int device);
gf_status gf_device_current(int *device);
gf_status gf_device_properties(int device, gf_device_props *props);
/* 1 when launchers run on a GPU, 0 when they take the CPU fallback. */
int gf_have_device(void);

/* ---- memory pool -------------------------------------------------------- */

typedef struct gf_pool_stats {
    size_t current_bytes;        /* handed out to callers now */
    size_t peak_bytes;           /* high-water mark of current_bytes */
    size_t cached_bytes;         /* held by the pool, free for reuse */
    size_t reserved_bytes;       /* obtained from the backend (current + cached) */
    uint64_t allocs, frees, backend_allocs, backend_frees, oom_retries;
} gf_pool_stats;

/* Device memory from the caching pool, ordered on the current stream. */
gf_status gf_malloc(void **ptr, size_t bytes);
gf_status gf_free(void *ptr);
gf_status gf_pool_stats_get(gf_pool_stats *stats);
/* Returns cached, unused blocks to the driver. */
gf_status gf_pool_trim(void);
/* Pinned host memory for staging, pooled. */
gf_status gf_host_malloc(void **ptr, size_t bytes);
gf_status gf_host_free(void *ptr);

/* ---- transfers and data regions ---------------------------------------- */

typedef enum gf_copy_kind { GF_HOST_TO_DEVICE = 1, GF_DEVICE_TO_HOST = 2, GF_DEVICE_TO_DEVICE = 3 } gf_copy_kind;
gf_status gf_memcpy(void *dst, const void *src, size_t bytes, gf_copy_kind kind);
gf_status gf_memcpy_async(void *dst, const void *src, size_t bytes, gf_copy_kind kind);

/* Like OpenACC's enter/exit data: while a region is entered, launchers use
 * the device mirror of host memory [ptr, ptr+bytes).  Reference counted. */
enum { GF_COPYIN = 1, GF_COPYOUT = 2, GF_CREATE = 4 };
gf_status gf_data_enter(void *ptr, size_t bytes, int flags);
gf_status gf_data_exit(void *ptr);
gf_status gf_update_device(void *ptr, size_t bytes);
gf_status gf_update_host(void *ptr, size_t bytes);
/* The device mirror of a mapped host address (NULL if not mapped). */
void *gf_device_ptr(const void *host_ptr);

/* ---- streams and events -------------------------------------------------- */

typedef struct gf_stream_s *gf_stream;   /* NULL is the default stream */
typedef struct gf_event_s *gf_event;
gf_status gf_stream_create(gf_stream *s);
gf_status gf_stream_destroy(gf_stream s);
/* The current stream is per thread; launchers and pool calls use it. */
gf_status gf_stream_set(gf_stream s);
gf_stream gf_stream_get(void);
gf_status gf_stream_sync(gf_stream s);
gf_status gf_event_create(gf_event *e);
gf_status gf_event_destroy(gf_event e);
gf_status gf_event_record(gf_event e, gf_stream s);
gf_status gf_stream_wait(gf_stream s, gf_event e);
gf_status gf_event_elapsed_ms(gf_event start, gf_event end, float *ms);
/* Waits for all work on the current device. */
gf_status gf_sync(void);

/* ---- profiling ------------------------------------------------------------ */

/* GPUFUSE_PROFILE=1 prints the table at exit; gf_profile_print prints it now. */
gf_status gf_profile_enable(int on);
gf_status gf_profile_print(void *file /* FILE*, NULL = stderr */);
gf_status gf_profile_reset(void);

/* ---- libraries: cuBLAS, cuBLASLt, cuFFT (runtime/blas.c, runtime/fft.c) ---
 * Pointers may be device memory (gf_malloc, cudaMalloc, managed: used as
 * they are, the call is asynchronous on the thread's current stream) or host
 * memory (staged like a launcher's arguments, or a data region's mirror; the
 * call then returns when the results are back on the host).  Matrices are
 * row-major (C order) and no transpose is materialised.  See
 * docs/libraries.md. */

typedef enum gf_dtype {
    GF_F32 = 1,                  /* float */
    GF_F64,                      /* double */
    GF_F16,                      /* IEEE binary16 (uint16_t storage) */
    GF_BF16,                     /* bfloat16 (uint16_t storage) */
    GF_C32,                      /* complex float: float[2] (re, im) */
    GF_C64                       /* complex double: double[2] */
} gf_dtype;

typedef enum gf_op { GF_OP_N = 0, GF_OP_T = 1 } gf_op;

/* C = alpha * op(A) * op(B) + beta * C, op(A) m x k, op(B) k x n, C m x n,
 * row-major with leading dimensions (row strides, in elements) lda, ldb,
 * ldc.  GF_F16/GF_BF16 accumulate in fp32.  beta == 0: C is not read.
 * No GPU: a blocked C loop (OpenMP) computes the same thing. */
gf_status gf_gemm(gf_op ta, gf_op tb, int m, int n, int k, double alpha, const void *A, int lda,
                  const void *B, int ldb, double beta, void *C, int ldc, gf_dtype type);
gf_status gf_sgemm(gf_op ta, gf_op tb, int m, int n, int k, float alpha, const float *A, int lda,
                   const float *B, int ldb, float beta, float *C, int ldc);
gf_status gf_dgemm(gf_op ta, gf_op tb, int m, int n, int k, double alpha, const double *A, int lda,
                   const double *B, int ldb, double beta, double *C, int ldc);
/* `batch` products; matrix i of A starts at A + i*strideA elements, etc. */
gf_status gf_gemm_strided_batched(gf_op ta, gf_op tb, int m, int n, int k, double alpha,
                                  const void *A, int lda, long long strideA, const void *B,
                                  int ldb, long long strideB, double beta, void *C, int ldc,
                                  long long strideC, int batch, gf_dtype type);
/* 1: fp32 products may use TF32 tensor cores (~1e-3 relative error);
 * 0 (default): exact fp32.  Process-wide. */
gf_status gf_set_tf32(int on);
int gf_get_tf32(void);

/* C = act(A * B + bias), f32, row-major and packed: A m x k, B k x n, C and
 * the result m x n, bias n floats (one per output column, as in x@w + b).
 * flags: GF_EPI_BIAS (bias must not be NULL), and at most one of
 * GF_EPI_RELU, GF_EPI_GELU (tanh approximation).  One cuBLASLt call. */
enum { GF_EPI_BIAS = 1, GF_EPI_RELU = 2, GF_EPI_GELU = 4 };
gf_status gf_gemm_epilogue(int m, int n, int k, const float *A, const float *B, const float *bias,
                           float *C, int flags);

/* FFTs over the last `rank` (1-3) dimensions dims[0..rank) (C order, the
 * last one contiguous) of `batch` packed arrays, unnormalised (inverse of
 * forward is n * x).  c2c: t is GF_C32 or GF_C64, in == out allowed.
 * r2c: real dims -> complex dims[..rank-1] x (dims[rank-1]/2 + 1);
 * c2r: the reverse, and like cuFFT it may overwrite its device input;
 * t names the precision (GF_F32/GF_C32 or GF_F64/GF_C64); in != out. */
enum { GF_FFT_FORWARD = -1, GF_FFT_INVERSE = 1 };
gf_status gf_fft_c2c(int rank, const int dims[], int batch, const void *in, void *out,
                     int direction, gf_dtype t);
gf_status gf_fft_r2c(int rank, const int dims[], int batch, const void *in, void *out, gf_dtype t);
gf_status gf_fft_c2r(int rank, const int dims[], int batch, const void *in, void *out, gf_dtype t);
/* The same with the sizes as arguments (n1, n2 unused below the rank): the
 * forms a GPUFUSE function can call, since it cannot build a dims array.
 * gf_fft_c2c_n and gf_fft_r2c_n are builtins inside marked functions. */
gf_status gf_fft_c2c_n(int rank, int n0, int n1, int n2, int batch, const void *in, void *out, int direction,
                       gf_dtype t);
gf_status gf_fft_r2c_n(int rank, int n0, int n1, int n2, int batch, const void *in, void *out, gf_dtype t);
gf_status gf_fft_c2r_n(int rank, int n0, int n1, int n2, int batch, const void *in, void *out, gf_dtype t);

/* The cuFFT plan cache (LRU, GPUFUSE_FFT_CACHE plans, default 16). */
typedef struct gf_fft_stats {
    uint64_t hits, misses, evictions;
    int plans;                   /* cached now */
    int capacity;
} gf_fft_stats;
gf_status gf_fft_cache_stats(gf_fft_stats *stats);
/* Destroys every cached plan (the counters stay). */
gf_status gf_fft_cache_clear(void);
/* FFTs run with element-wise work folded into cuFFT callbacks
 * (gf_call_fft_cb), those that ran the separate kernels instead, NVRTC
 * compiles, and the last reason for running them separately. */
typedef struct gf_fft_cb_stats {
    uint64_t folded, separate, compiles;
    char last_reason[256];
} gf_fft_cb_stats;
gf_status gf_fft_callback_stats(gf_fft_cb_stats *stats);

#ifdef __cplusplus
}
#endif
#endif /* GPUFUSE_H */
