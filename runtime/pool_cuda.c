/* pool_cuda.c - the CUDA backend of the device memory pool (cudaMalloc,
 * events for cross-stream frees) and gf_malloc/gf_free/stats/trim on top
 * of pool.c.  One pool per device, created on first use.  On the CPU
 * fallback gf_malloc's pool holds host memory, so that code written for
 * the GPU runs unchanged (launchers see plain host pointers). */
#include "rt.h"

#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

static _Atomic(gf_pool *) pools[GF_MAX_DEVICES];
static int pool_dev[GF_MAX_DEVICES];
static pthread_mutex_t create_mu = PTHREAD_MUTEX_INITIALIZER;

static gf_status dev_alloc(void *ctx, void **ptr, size_t bytes)
{
    (void)ctx;
    cudaError_t e = cudaMalloc(ptr, bytes);
    if (e == cudaErrorMemoryAllocation) {
        cudaGetLastError();
        return GF_ERROR_OUT_OF_MEMORY; /* the pool frees its cache and retries */
    }
    return GF_CUDA(e);
}

static void dev_free(void *ctx, void *ptr, size_t bytes)
{
    (void)ctx;
    (void)bytes;
    GF_CUDA(cudaFree(ptr));
}

static gf_status ev_create(void *ctx, void **ev)
{
    (void)ctx;
    return GF_CUDA(cudaEventCreateWithFlags((cudaEvent_t *)ev, cudaEventDisableTiming));
}

static gf_status ev_record(void *ctx, void *ev, void *stream)
{
    (void)ctx;
    return GF_CUDA(cudaEventRecord((cudaEvent_t)ev, (cudaStream_t)stream));
}

static int ev_query(void *ctx, void *ev)
{
    (void)ctx;
    cudaError_t e = cudaEventQuery((cudaEvent_t)ev);
    if (e == cudaErrorNotReady)
        return 0;
    if (e != cudaSuccess)
        GF_CUDA(e); /* recorded; the block is treated as done */
    return 1;
}

static void ev_destroy(void *ctx, void *ev)
{
    (void)ctx;
    cudaEventDestroy((cudaEvent_t)ev);
}

static void dev_sync(void *ctx)
{
    (void)ctx;
    GF_CUDA(cudaDeviceSynchronize());
}

gf_pool *gf_device_pool_if_any(int device)
{
    return device >= 0 && device < GF_MAX_DEVICES ? atomic_load_explicit(&pools[device], memory_order_acquire) : NULL;
}

gf_pool *gf_device_pool(int device)
{
    if (gf_runtime_get()->cpu || device < 0 || device >= gf_rt.ndev)
        return NULL;
    gf_pool *p = atomic_load_explicit(&pools[device], memory_order_acquire);
    if (p)
        return p;
    pthread_mutex_lock(&create_mu);
    p = atomic_load_explicit(&pools[device], memory_order_relaxed);
    if (!p) {
        gf_pool_config cfg;
        gf_pool_default_config(&cfg);
        if (gf_pool_config_from_env(&cfg) == GF_SUCCESS) {
            pool_dev[device] = device;
            gf_pool_backend be = {&pool_dev[device], dev_alloc, dev_free, ev_create,
                                  ev_record, ev_query, ev_destroy, dev_sync};
            p = gf_pool_create(&be, &cfg);
            gf_release_at_exit();
            atomic_store_explicit(&pools[device], p, memory_order_release);
        }
    }
    pthread_mutex_unlock(&create_mu);
    return p;
}

int gf_pool_owns_device_ptr(const void *addr)
{
    for (int d = 0; d < GF_MAX_DEVICES; d++) {
        gf_pool *p = gf_device_pool_if_any(d);
        if (p && gf_pool_contains(p, addr))
            return 1;
    }
    return 0;
}

/* ---- the CPU fallback's pool -------------------------------------------- */

static gf_pool *cpu_pool;
static pthread_once_t cpu_once = PTHREAD_ONCE_INIT;

static gf_status host_alloc(void *ctx, void **ptr, size_t bytes)
{
    (void)ctx;
    *ptr = aligned_alloc(256, (bytes + 255) / 256 * 256);
    return *ptr ? GF_SUCCESS : GF_ERROR_OUT_OF_MEMORY;
}

static void host_free(void *ctx, void *ptr, size_t bytes)
{
    (void)ctx;
    (void)bytes;
    free(ptr);
}

static void trim_cpu_pool(void) { gf_pool_trim_cached(cpu_pool); }

static void create_cpu_pool(void)
{
    gf_pool_config cfg;
    gf_pool_default_config(&cfg);
    if (gf_pool_config_from_env(&cfg) != GF_SUCCESS)
        return;
    gf_pool_backend be = {.alloc = host_alloc, .free = host_free};
    cpu_pool = gf_pool_create(&be, &cfg);
    if (cpu_pool)
        atexit(trim_cpu_pool); /* cached blocks go back; live ones are the program's */
}

gf_pool *gf_cpu_pool(void)
{
    if (!gf_runtime_get()->cpu)
        return NULL;
    pthread_once(&cpu_once, create_cpu_pool);
    return cpu_pool;
}

static gf_status current_pool(gf_pool **out, const char *what)
{
    if (gf_runtime_get()->cpu) {
        gf_status s = gf_cpu_fallback(); /* the notice, or GPUFUSE_DEVICE's error */
        if (s != GF_SUCCESS)
            return s;
        pthread_once(&cpu_once, create_cpu_pool);
        if (!cpu_pool) {
            gf_pool_config cfg;
            gf_pool_default_config(&cfg);
            s = gf_pool_config_from_env(&cfg);
            return s != GF_SUCCESS ? s : gf_fail(GF_ERROR_OUT_OF_MEMORY, "%s: cannot create the pool", what);
        }
        *out = cpu_pool;
        return GF_SUCCESS;
    }
    gf_pool *p = gf_device_pool(gf_current_device());
    if (!p) {
        gf_pool_config cfg;
        gf_pool_default_config(&cfg);
        gf_status s = gf_pool_config_from_env(&cfg);
        return s != GF_SUCCESS ? s : gf_fail(GF_ERROR_OUT_OF_MEMORY, "%s: cannot create the pool", what);
    }
    *out = p;
    return GF_SUCCESS;
}

gf_status gf_malloc(void **ptr, size_t bytes)
{
    gf_pool *p;
    gf_status s = current_pool(&p, "gf_malloc");
    if (s != GF_SUCCESS)
        return s;
    return gf_pool_alloc(p, ptr, bytes, gf_current_cuda_stream());
}

gf_status gf_free(void *ptr)
{
    if (!ptr)
        return GF_SUCCESS;
    gf_pool *p;
    gf_status s = current_pool(&p, "gf_free");
    if (s != GF_SUCCESS)
        return s;
    if (gf_pool_block_size(p, ptr))
        return gf_pool_free(p, ptr);
    for (int d = 0; d < GF_MAX_DEVICES; d++) {
        gf_pool *q = gf_device_pool_if_any(d);
        if (q && q != p && gf_pool_block_size(q, ptr))
            return gf_pool_free(q, ptr);
    }
    return gf_fail(GF_ERROR_INVALID_VALUE, "gf_free(%p): not allocated by gf_malloc (or freed twice)", ptr);
}

gf_status gf_pool_stats_get(gf_pool_stats *stats)
{
    if (!stats)
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_pool_stats_get: null pointer");
    gf_pool *p;
    gf_status s = current_pool(&p, "gf_pool_stats_get");
    if (s != GF_SUCCESS)
        return s;
    gf_pool_stats_read(p, stats);
    return GF_SUCCESS;
}

gf_status gf_pool_trim(void)
{
    gf_pool *p;
    gf_status s = current_pool(&p, "gf_pool_trim");
    if (s != GF_SUCCESS)
        return s;
    gf_pool_trim_cached(p);
    return GF_SUCCESS;
}
