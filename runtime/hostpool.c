/* hostpool.c - the pinned host pool (gf_host_malloc/gf_host_free), pool.c
 * over cudaHostAlloc.  Staging buffers come from here.  In CPU mode the
 * same pool caches plain page-aligned host memory instead. */
#include "rt.h"

#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdlib.h>

static gf_pool *pinned;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static gf_status pin_alloc(void *ctx, void **ptr, size_t bytes)
{
    (void)ctx;
    cudaError_t e = cudaHostAlloc(ptr, bytes, cudaHostAllocPortable);
    if (e == cudaErrorMemoryAllocation) {
        cudaGetLastError();
        return GF_ERROR_OUT_OF_MEMORY;
    }
    return GF_CUDA(e);
}

static void pin_free(void *ctx, void *ptr, size_t bytes)
{
    (void)ctx;
    (void)bytes;
    GF_CUDA(cudaFreeHost(ptr));
}

static gf_status cpu_alloc(void *ctx, void **ptr, size_t bytes)
{
    (void)ctx;
    *ptr = aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
    return *ptr ? GF_SUCCESS : GF_ERROR_OUT_OF_MEMORY;
}

static void cpu_free(void *ctx, void *ptr, size_t bytes)
{
    (void)ctx;
    (void)bytes;
    free(ptr);
}

/* Host memory is used on one timeline (staging waits on its own events), so
 * the pool never needs cross-stream events. */
static void create(void)
{
    gf_pool_config cfg;
    gf_pool_default_config(&cfg);
    gf_pool_config_from_env(&cfg);
    cfg.limit = 0; /* GPUFUSE_POOL_LIMIT is about device memory */
    gf_pool_backend be = {0};
    if (gf_runtime_get()->cpu) {
        be.alloc = cpu_alloc;
        be.free = cpu_free;
    } else {
        be.alloc = pin_alloc;
        be.free = pin_free;
    }
    __atomic_store_n(&pinned, gf_pool_create(&be, &cfg), __ATOMIC_RELEASE);
}

gf_pool *gf_pinned_pool_if_any(void) { return __atomic_load_n(&pinned, __ATOMIC_ACQUIRE); }

gf_pool *gf_pinned_pool(void)
{
    pthread_once(&once, create);
    return pinned;
}

gf_status gf_host_malloc(void **ptr, size_t bytes)
{
    gf_pool *p = gf_pinned_pool();
    if (!p)
        return gf_fail(GF_ERROR_OUT_OF_MEMORY, "gf_host_malloc: cannot create the pinned pool");
    return gf_pool_alloc(p, ptr, bytes, NULL);
}

gf_status gf_host_free(void *ptr)
{
    gf_pool *p = gf_pinned_pool();
    if (!ptr)
        return GF_SUCCESS;
    if (!p || !gf_pool_block_size(p, ptr))
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_host_free(%p): not allocated by gf_host_malloc", ptr);
    return gf_pool_free(p, ptr);
}
