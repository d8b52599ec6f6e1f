/* apitime.c - an LD_PRELOAD library that times the CUDA runtime and cuBLAS
 * calls of a process (count, total and longest milliseconds per function,
 * and the time of the first call of each since the process started), and
 * prints them at exit on stderr.  bench/first_call/run.sh runs the
 * first-call probe under it, to split the first call's once-only cost into
 * the API calls that pay it (cuBLAS's handle, pinned allocations, module
 * loads at a kernel's first launch) and the host code around them.
 *
 *   LD_PRELOAD=build/bench/libapitime.so build/bench/first_call none 2000
 *
 * Only the functions listed below are timed; kernel launches go through
 * cudaLaunchKernel. */
#define _GNU_SOURCE
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    const char *name;
    long calls;
    double total, longest, first_at;
} Stat;

enum { NSTAT = 64 };
static Stat stats[NSTAT];
static int nstats;
static double t_start;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

__attribute__((constructor)) static void start(void) { t_start = now_ms(); }

static Stat *stat_of(const char *name)
{
    for (int i = 0; i < nstats; i++)
        if (stats[i].name == name)
            return &stats[i];
    if (nstats == NSTAT)
        return NULL;
    stats[nstats] = (Stat){.name = name, .first_at = -1};
    return &stats[nstats++];
}

static void account(const char *name, double t0)
{
    double t1 = now_ms(), d = t1 - t0;
    Stat *s = stat_of(name);
    if (!s)
        return;
    if (s->first_at < 0)
        s->first_at = t0 - t_start;
    s->calls++;
    s->total += d;
    if (d > s->longest)
        s->longest = d;
}

static int by_total(const void *a, const void *b)
{
    double x = ((const Stat *)a)->total, y = ((const Stat *)b)->total;
    return (x < y) - (x > y);
}

__attribute__((destructor)) static void report(void)
{
    qsort(stats, (size_t)nstats, sizeof *stats, by_total);
    fprintf(stderr, "apitime: %.1f ms since the process started\n", now_ms() - t_start);
    fprintf(stderr, "apitime: %-50s %7s %10s %10s %10s\n", "function", "calls", "total ms", "max ms", "first at");
    for (int i = 0; i < nstats; i++)
        fprintf(stderr, "apitime: %-50s %7ld %10.3f %10.3f %10.1f\n", stats[i].name, stats[i].calls, stats[i].total,
                stats[i].longest, stats[i].first_at);
}

static void *next_fn(const char *name)
{
    void *f = dlsym(RTLD_NEXT, name);
    if (!f) {
        fprintf(stderr, "apitime: %s not found\n", name);
        abort();
    }
    return f;
}

/* One wrapper: the real function looked up once, the call timed. */
#define WRAP(ret, fn, params, args)                                                                                    \
    ret fn params                                                                                                      \
    {                                                                                                                  \
        static ret(*real) params;                                                                                      \
        if (!real)                                                                                                     \
            *(void **)&real = next_fn(#fn);                                                                            \
        double t0 = now_ms();                                                                                          \
        ret r = real args;                                                                                             \
        account(#fn, t0);                                                                                              \
        return r;                                                                                                      \
    }

WRAP(cudaError_t, cudaMalloc, (void **p, size_t n), (p, n))
WRAP(cudaError_t, cudaFree, (void *p), (p))
WRAP(cudaError_t, cudaHostAlloc, (void **p, size_t n, unsigned f), (p, n, f))
WRAP(cudaError_t, cudaFreeHost, (void *p), (p))
WRAP(cudaError_t, cudaMemcpyAsync, (void *d, const void *s, size_t n, enum cudaMemcpyKind k, cudaStream_t st),
     (d, s, n, k, st))
WRAP(cudaError_t, cudaMemsetAsync, (void *d, int v, size_t n, cudaStream_t st), (d, v, n, st))
WRAP(cudaError_t, cudaStreamSynchronize, (cudaStream_t s), (s))
WRAP(cudaError_t, cudaStreamCreate, (cudaStream_t * s), (s))
WRAP(cudaError_t, cudaStreamWaitEvent, (cudaStream_t s, cudaEvent_t e, unsigned f), (s, e, f))
WRAP(cudaError_t, cudaEventCreate, (cudaEvent_t * e), (e))
WRAP(cudaError_t, cudaEventCreateWithFlags, (cudaEvent_t * e, unsigned f), (e, f))
WRAP(cudaError_t, cudaEventRecord, (cudaEvent_t e, cudaStream_t s), (e, s))
WRAP(cudaError_t, cudaEventSynchronize, (cudaEvent_t e), (e))
WRAP(cudaError_t, cudaDeviceSynchronize, (void), ())
WRAP(cudaError_t, cudaSetDevice, (int d), (d))
WRAP(cudaError_t, cudaGetDeviceCount, (int *n), (n))
WRAP(cudaError_t, cudaDeviceGetAttribute, (int *v, enum cudaDeviceAttr a, int d), (v, a, d))
WRAP(cudaError_t, cudaPointerGetAttributes, (struct cudaPointerAttributes * a, const void *p), (a, p))
WRAP(cudaError_t, cudaOccupancyMaxActiveBlocksPerMultiprocessor, (int *n, const void *f, int b, size_t sm),
     (n, f, b, sm))
WRAP(cudaError_t, cudaLaunchKernel, (const void *f, dim3 g, dim3 b, void **a, size_t sm, cudaStream_t s),
     (f, g, b, a, sm, s))
WRAP(cublasStatus_t, cublasCreate_v2, (cublasHandle_t * h), (h))
WRAP(cublasStatus_t, cublasSetStream_v2, (cublasHandle_t h, cudaStream_t s), (h, s))
WRAP(cublasStatus_t, cublasGemmEx,
     (cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const void *al,
      const void *A, cudaDataType at, int lda, const void *B, cudaDataType bt, int ldb, const void *be, void *C,
      cudaDataType ct, int ldc, cublasComputeType_t ctype, cublasGemmAlgo_t algo),
     (h, ta, tb, m, n, k, al, A, at, lda, B, bt, ldb, be, C, ct, ldc, ctype, algo))
