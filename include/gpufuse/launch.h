/* gpufuse/launch.h - the part of libgpufuse that gpufuse's generated
 * launchers call.  Generated code is its only intended user: the interface
 * follows the code generator's version, not the public API's stability. */
#ifndef GPUFUSE_LAUNCH_H
#define GPUFUSE_LAUNCH_H

#include <gpufuse.h>
#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>
#include <gpufuse/entry.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The launcher interface's version.  Generated code is compiled against the
 * ABI gpufuse generated it for; a change here changes the number.
 *   1: gpufuse 0.1.0
 *   2: verify mode (gpufuse/entry.h)
 *   3: gf_prewarm, called by every .gf.cu when the program starts
 *   4: CUDA graphs of repeated calls (gf_graph_begin, gf_graph_on,
 *      gf_graph_kernel); gf_prewarm_load: the unit passes its kernel loader
 *      (GF_WARM_STAGING)
 *   5: gf_call_weigh (copies of host arguments against the CPU's time)
 *   6: gf_host_team (staging copies over the program's OpenMP threads) */
#define GF_LAUNCH_ABI 7

/* The program's OpenMP threads, lent to the runtime: fn runs
 * part(ctx, i, n) on each thread i of a team of n (`#pragma omp parallel`)
 * and returns 1, or returns 0 without running anything when it cannot give
 * more than one thread (inside a parallel region, OMP_NUM_THREADS=1) or when
 * OpenMP's threads sleep when idle (OMP_WAIT_POLICY=passive).  A .gf.cu
 * compiled with OpenMP registers one when the program starts (on), and
 * takes it back when it is unloaded (off); of several units' functions the
 * last registered and not taken back is used.  The runtime then splits its
 * big host copies (the pageable half of staging, the population of fresh
 * output pages) over that team instead of its own staging threads: right
 * after a parallel region, OpenMP's threads spin on every core for a while
 * (libgomp: about 10 ms), and the runtime's own threads would wait for
 * cores they hold. */
#ifndef GF_TEAM_FN_DEFINED /* also in the runtime's CUDA-free part (rt.h) */
#define GF_TEAM_FN_DEFINED
typedef int (*gf_team_fn)(void (*part)(void *ctx, int i, int n), void *ctx);
#endif
void gf_host_team(gf_team_fn fn, int on);

/* One per marked function, static in the generated file. */
typedef struct gf_site {
    const char *function;        /* the C function's name */
    const char *file;            /* its source file and line, for messages */
    int line;
    int profile_slot;            /* runtime-owned; starts at -1 */
} gf_site;

/* What an argument's memory is used for in this call. */
enum { GF_ARG_READ = 1, GF_ARG_WRITE = 2 };

/* Which code the launcher runs after gf_call_map. */
typedef enum gf_path {
    GF_PATH_DEVICE = 0,          /* kernels on the GPU, pointers from gf_call_ptr */
    GF_PATH_HOST = 1,            /* no GPU, or not enough device memory for this
                                    call: the fused plan compiled for the CPU */
    GF_PATH_SEQUENTIAL = 2,      /* arguments overlap in a way the plan does not
                                    allow: the original sequential body */
    GF_PATH_FAILED = 3           /* the call cannot run anywhere (device memory
                                    arguments and no room on the GPU, or a
                                    hazard): already reported through the error
                                    handler; the launcher returns at once and
                                    writes nothing */
} gf_path;

typedef struct gf_call gf_call;

/* Starts a call of `site` with up to `nargs` pointer arguments.  Never NULL:
 * the call object is per thread and reused.  Opens an NVTX range named after
 * the function and, when profiling, records a start event. */
gf_call *gf_call_begin(gf_site *site, int nargs);

/* Declares pointer argument `idx`: the call touches bytes [p+lo, p+hi) of it
 * (lo <= hi; lo == hi means untouched), for `mode` (GF_ARG_*).  Arguments with
 * the same nonzero `alias_class` are accessed through identical subscripts,
 * so the plan stays right when they are the same pointer; any other overlap
 * of a written argument with another argument is a hazard. */
void gf_call_arg(gf_call *c, int idx, const void *p, ptrdiff_t lo, ptrdiff_t hi,
                 int mode, int alias_class);

/* Bytes [p+lo, p+hi) of an argument as the host can read them now, for the
 * launcher's pass that finds which elements of other arguments the call
 * touches (the indices of a gather, the row pointers of a sparse matrix):
 * plain host memory as it is; managed memory once the work queued before
 * has finished; a data region's host copy brought up to date; device
 * memory copied to host memory that lives until gf_call_end.  The result
 * is addressed as p is (result + lo is the first byte).  On failure the
 * error is reported, the call is marked broken (gf_call_map returns
 * GF_PATH_FAILED) and NULL is returned.  Call before gf_call_map.  With c
 * NULL (an entry point's own extents, gpufuse/entry.h) copies live until
 * gf_entry_end. */
const void *gf_call_host_view(gf_call *c, const void *p, ptrdiff_t lo, ptrdiff_t hi);

/* Whether p lies in device memory the call uses in place whose bounds the
 * runtime knows (a block of the device pool, gf_malloc's; an imported
 * DLPack tensor): then 1, with [p+lo, p+hi) that block, which the launcher
 * declares as the argument's extent instead of running the pass that finds
 * which elements the call touches (there is nothing to stage, and the pass
 * would copy the indices it reads to the host).  0 otherwise (host memory,
 * data regions, memory allocated elsewhere) and in CPU mode. */
int gf_call_arg_bounds(gf_call *c, const void *p, ptrdiff_t *lo, ptrdiff_t *hi);

/* Declares the call's next piece of device scratch (reduction partials,
 * tickets and results, temporaries): `bytes` of device memory, 256-byte
 * aligned, that gf_call_map allocates together with the staging and that
 * lives until gf_call_end.  Pieces are numbered 0, 1, ... in the order
 * declared; call before gf_call_map. */
void gf_call_reserve(gf_call *c, size_t bytes);

/* The launcher's cost model found that the GPU cannot win this call (its
 * launches would cost more than the work they do): gf_call_map then returns
 * GF_PATH_SEQUENTIAL, and the launcher runs the C body, unless an argument
 * is device memory the host cannot touch (then the GPU runs the call).  Call
 * before gf_call_map; the profile counts such calls as C-body calls. */
void gf_call_prefer_c_body(gf_call *c);

/* The same, for a call whose host plan (the fused plan with OpenMP, the
 * launcher's GF_PATH_HOST) beats its C body: gf_call_map then returns
 * GF_PATH_HOST, with the same exception for device memory. */
void gf_call_prefer_host(gf_call *c);

/* The launcher's estimates for this call, in ns: the GPU's time without
 * copies, and the CPU's (the host plan when `plan`, else the C body).
 * gf_call_map adds to the GPU's side the copies of the arguments that are
 * plain host memory (and the device pool's creation at the process's first
 * device call); when every argument with bytes is plain host memory and the
 * CPU is then sooner, it returns GF_PATH_HOST or GF_PATH_SEQUENTIAL.  Device
 * memory, managed memory and data regions keep the call on the GPU.
 * GPUFUSE_COST_MODEL=0 turns it off.  Call before gf_call_map. */
void gf_call_weigh(gf_call *c, double gpu_ns, double cpu_ns, int plan);

/* Resolves the declared arguments: device pointers are used as they are, host
 * pointers inside a data region use their mirror, plain host pointers are
 * staged through the pinned pool (what is read is copied in now, what is
 * written is copied out by gf_call_end); then allocates every reserved scratch
 * piece.  Returns the path to run.  When staging or scratch does not fit in
 * device memory, nothing has run yet: the failure is reported through the
 * error handler (naming the function), staged buffers are dropped without
 * copying anything back, and the host is made ready for GF_PATH_HOST (mirrors
 * refreshed, the stream synchronised) - or, when an argument is device memory
 * that a host body cannot touch, GF_PATH_FAILED.  A hazard gives
 * GF_PATH_SEQUENTIAL, or GF_PATH_FAILED with device memory (reported). */
gf_path gf_call_map(gf_call *c);

/* Device address of reserved piece `k` (valid after gf_call_map returned
 * GF_PATH_DEVICE, until gf_call_end). */
void *gf_call_reserved(gf_call *c, int k);

/* Device address for argument `idx` (valid after gf_call_map returned
 * GF_PATH_DEVICE): the address of p itself, even when only [p+lo, p+hi)
 * was staged. */
void *gf_call_ptr(gf_call *c, int idx);

/* Device memory that lives until gf_call_end, from the pool, on the call's
 * stream, allocated now: for sizes known only once kernels have run.  NULL
 * when it does not fit (reported through the error handler); the launcher
 * must then stop with gf_call_cancel.  Prefer gf_call_reserve. */
void *gf_call_scratch(gf_call *c, size_t bytes);

/* Ends a call that cannot finish (gf_call_scratch returned NULL), instead of
 * gf_call_end: staged outputs are NOT copied back, staging and scratch are
 * released.  When the launcher has queued no device work yet (no
 * gf_call_check so far), the host is made ready as for a failed gf_call_map
 * and GF_PATH_HOST is returned: the launcher runs the host plan.  Otherwise
 * GF_PATH_FAILED: host arguments keep their values, but arguments in device
 * memory or data regions may hold results of the kernels already run; that
 * is reported through the error handler. */
gf_path gf_call_cancel(gf_call *c);

/* The stream kernels of this call are launched on (the thread's current). */
cudaStream_t gf_call_stream(gf_call *c);

/* SM count of the current device (cached), to size grid-stride launches. */
int gf_call_sm_count(gf_call *c);

/* Pinned host memory of at least `bytes` for reading results back (a
 * device-to-host copy into pageable memory is synchronous and slower):
 * per thread, valid until the thread's next call.  NULL when it cannot be
 * had; the launcher then copies into its own variables. */
void *gf_call_host_slot(gf_call *c, size_t bytes);

/* Checks the launch just made (cudaGetLastError); on failure reports through
 * the error handler, naming the kernel, the function and its source line. */
void gf_call_check(gf_call *c, cudaError_t err, const char *what);

/* A matrix product inside a launcher (device path only): row-major
 * C = alpha * op(A) op(B) + beta * C with device pointers from gf_call_ptr,
 * on the call's stream through the per-device cuBLAS handle; `type` is
 * GF_F32 or GF_F64.  Invalid arguments (what gf_gemm would refuse with
 * GF_ERROR_INVALID_VALUE) do nothing and set gf_last_error, as the library
 * call in the C body would; a cuBLAS or CUDA failure is reported through the
 * error handler naming `what`, the function and its line. */
void gf_call_gemm(gf_call *c, gf_op ta, gf_op tb, long long m, long long n, long long k, double alpha,
                  const void *A, long long lda, const void *B, long long ldb, double beta, void *C,
                  long long ldc, gf_dtype type, const char *what);

/* C = act(A B + bias) in one cuBLASLt call (gf_gemm_epilogue's semantics:
 * f32, packed row-major, flags GF_EPI_*), device pointers, the call's
 * stream; m or n zero does nothing; invalid arguments and failures as for
 * gf_call_gemm. */
void gf_call_gemm_epilogue(gf_call *c, long long m, long long n, long long k, const float *A, const float *B,
                           const float *bias, float *C, int flags, const char *what);

/* The other BLAS forms a launcher calls for a nest (compiler/plan/libcall.c),
 * row-major operands with their row strides, device pointers, the call's
 * stream, type GF_F32 or GF_F64; invalid sizes do nothing (the launcher
 * checks gf_blas_fits first and runs the kernel instead), failures as for
 * gf_call_gemm:
 *   gemv   y = alpha op(A) x + beta y          A is m x n
 *   ger    A = alpha x y^T + A                 A is m x n
 *   syrk   C = alpha op(A) op(A)^T + beta C    the triangle of the n x n C that `upper`
 *                                              names (j >= i), op(A) n x k (A^T with ta)
 *   syr2k  C = alpha (op(A) op(B)^T + op(B) op(A)^T) + beta C
 *   symm   C = alpha S B + beta C, or B S (right): S symmetric, its `upper` (or lower)
 *          triangle in A; C and B m x n
 *   trmm   C = alpha op(T) B, or B op(T) (right): T triangular, A's `upper` (or lower)
 *          triangle, ones on the diagonal with unit; C may be B (in place)
 *   geam   C = alpha A + beta C                C is m x n */
void gf_call_gemv(gf_call *c, gf_op ta, long long m, long long n, double alpha, const void *A, long long lda,
                  const void *x, double beta, void *y, gf_dtype type, const char *what);
void gf_call_ger(gf_call *c, long long m, long long n, double alpha, const void *x, const void *y, void *A,
                 long long lda, gf_dtype type, const char *what);
void gf_call_syrk(gf_call *c, int upper, gf_op ta, long long n, long long k, double alpha, const void *A,
                  long long lda, double beta, void *C, long long ldc, gf_dtype type, const char *what);
void gf_call_syr2k(gf_call *c, int upper, gf_op ta, long long n, long long k, double alpha, const void *A,
                   long long lda, const void *B, long long ldb, double beta, void *C, long long ldc, gf_dtype type,
                   const char *what);
void gf_call_symm(gf_call *c, int right, int upper, long long m, long long n, double alpha, const void *A,
                  long long lda, const void *B, long long ldb, double beta, void *C, long long ldc, gf_dtype type,
                  const char *what);
void gf_call_trmm(gf_call *c, int right, int upper, gf_op ta, int unit, long long m, long long n, double alpha,
                  const void *A, long long lda, const void *B, long long ldb, void *C, long long ldc, gf_dtype type,
                  const char *what);
void gf_call_geam(gf_call *c, long long m, long long n, double alpha, const void *A, long long lda, double beta,
                  void *C, long long ldc, gf_dtype type, const char *what);

/* Whether this call's library calls go to cuBLAS (1) or the launcher runs
 * its own kernel for the nest (0).  GPUFUSE_BLAS=0: never cuBLAS; =1: always
 * (as the report says).  By default (auto): cuBLAS once it is loaded in the
 * process (a call made it, or gf_prewarm was asked for BLAS routines);
 * before that the kernel, until the time the kernels have taken beyond
 * what cuBLAS would have taken (`extra_ns` for this call, the launcher's
 * estimate) adds up to cuBLAS's first use (its handle and modules, about
 * 50 ms: docs/performance.md): then cuBLAS, loaded by that call.  A program
 * that calls once never loads cuBLAS; one that calls often loads it once
 * and pays at most twice what the best choice would have.  A negative
 * `extra_ns` (unknown) asks for cuBLAS. */
int gf_blas_use(gf_call *c, double extra_ns);

/* Whether cuBLAS takes a row-major r x c operand whose rows are ld elements
 * apart (a vector: 1 x c, ld = c): r, c, ld in [1, INT_MAX], ld >= c. */
static inline int gf_blas_fits(long long r, long long c, long long ld)
{
    return r > 0 && c > 0 && ld >= c && r <= 2147483647LL && c <= 2147483647LL && ld <= 2147483647LL;
}

/* An FFT inside a launcher: gf_fft_c2c (kind 0) or gf_fft_r2c (kind 1)
 * semantics with device pointers, on the call's stream through the plan
 * cache; invalid arguments and failures as for gf_call_gemm. */
void gf_call_fft(gf_call *c, int kind, int rank, int n0, int n1, int n2, int batch, const void *in, void *out,
                 int direction, gf_dtype t, const char *what);

/* An FFT with element-wise nests folded into cuFFT LTO callbacks
 * (docs/libraries.md "FFT callbacks"): `cb` is the launcher's static
 * description (the callbacks' CUDA source, compiled once per process with
 * NVRTC to LTO-IR, and their symbols), `info` the caller-info block the
 * callbacks read (copied to the device before each execution), `cover` the
 * number of complex elements the folded nests cover (must equal the
 * transform's elements, else nothing runs).  c2c only.  Returns 1 when the
 * FFT ran with its callbacks (the folded nests' work is done), 0 when
 * nothing ran: GPUFUSE_FFT_CALLBACKS is not 1 (the default), no NVRTC, a compile or planning
 * failure; the launcher then runs the kernels and gf_call_fft. */
typedef struct gf_fft_cb {
    const char *source;
    const char *load;            /* extern "C" symbol of the load callback, or NULL */
    const char *store;           /* of the store callback, or NULL */
} gf_fft_cb;
int gf_call_fft_cb(gf_call *c, const gf_fft_cb *cb, int rank, int n0, int n1, int n2, int batch, const void *in,
                   void *out, int direction, gf_dtype t, const void *info, size_t info_size, long long cover,
                   const char *what);

/* CUDA graphs of repeated calls (runtime/graph.c, docs/runtime.md "Graphs").
 * A launcher whose device path is only kernel launches calls gf_graph_begin
 * after gf_call_map returned GF_PATH_DEVICE, with a hash of its integer
 * scalars (the runtime adds the site, the device and the arguments'
 * extents).  While gf_graph_on is nonzero the launcher hands each launch to
 * gf_graph_kernel instead of launching it (templates/device.cuh, gf_launch):
 * the runtime records it for a graph, or updates the captured graph's node
 * in place, and gf_call_end launches the graph on the call's stream.  A
 * launch that does not match the graph, a graph CUDA refuses and
 * GPUFUSE_GRAPHS=0 all end in direct launches; a failed launch is reported
 * as gf_call_check reports it. */
void gf_graph_begin(gf_call *c, unsigned long long key);
int gf_graph_on(gf_call *c);
void gf_graph_kernel(gf_call *c, const char *name, const void *func, dim3 grid, dim3 block, size_t shmem,
                     void *const *params, const size_t *sizes, int nparams);

/* Finishes the call: copies staged outputs back, waits when host memory was
 * involved or `sync` is nonzero, releases staging and scratch, records time
 * and `bytes` moved for the profile, closes the NVTX range.  On the host,
 * sequential and failed paths it only closes the range and counts the call. */
void gf_call_end(gf_call *c, size_t bytes, int sync);

#ifdef __cplusplus
}
#endif
#endif /* GPUFUSE_LAUNCH_H */
