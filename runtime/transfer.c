/* transfer.c - host<->device copies.  Pageable host memory goes through a
 * ring of pinned staging buffers, chunk by chunk: the CPU copies chunk k
 * (split over the staging threads) while the DMA engine moves chunk k-1, so
 * a big pageable copy runs near pinned bandwidth instead of the driver's
 * pageable path.  Pinned memory and device memory are copied directly.
 *
 * The ring is allocated at the first staged copy of a process (18-22 ms on
 * the H200 for its 32 MiB).  When it cannot be allocated (pinned memory
 * exhausted), copies take the driver's pageable path instead of failing.
 * (Allocating it on a thread of its own while the first copies took the
 * driver's path was tried: a process doing that crashed inside cuFFT under
 * load on the H200, 6 runs of 6, cause not found; so the ring is allocated
 * on the copying thread.) */
#include "rt.h"

#include <string.h>

#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdlib.h>

#define NBUF 4
#define SMALL_COPY (64u << 10) /* below this the driver's own path is as good */

typedef struct stager {
    pthread_mutex_t mu;
    int ready;   /* buf and ev are usable */
    int failed;  /* the allocation failed: copies take the driver's path */
    size_t chunk;
    char *buf[NBUF];
    cudaEvent_t ev[NBUF];
} stager;

static stager stagers[GF_MAX_DEVICES];
static pthread_once_t once = PTHREAD_ONCE_INIT;
static size_t chunk_bytes = 8u << 20;

static void init_stagers(void)
{
    const char *env = getenv("GPUFUSE_STAGING_CHUNK");
    size_t v;
    if (env && gf_parse_size(env, &v) == 0 && v >= (64u << 10))
        chunk_bytes = (v + 4095) / 4096 * 4096;
    for (int i = 0; i < GF_MAX_DEVICES; i++)
        pthread_mutex_init(&stagers[i].mu, NULL);
}

/* At exit the rings go back to the pinned pool and cached segments to the
 * driver, so leak checkers (compute-sanitizer, LSan) see only real leaks.
 * Registered after CUDA initialised, so it runs before CUDA's teardown. */
static void release_at_exit(void)
{
    for (int d = 0; d < GF_MAX_DEVICES; d++) {
        stager *s = &stagers[d];
        if (pthread_mutex_trylock(&s->mu) != 0)
            continue; /* another thread is still staging: leave it */
        if (s->ready) {
            for (int i = 0; i < NBUF; i++) {
                cudaEventSynchronize(s->ev[i]);
                cudaEventDestroy(s->ev[i]);
                gf_host_free(s->buf[i]);
            }
            s->ready = 0;
        }
        pthread_mutex_unlock(&s->mu);
        gf_pool *p = gf_device_pool_if_any(d);
        if (p)
            gf_pool_trim_cached(p);
    }
    gf_pool *pin = gf_pinned_pool();
    if (pin)
        gf_pool_trim_cached(pin);
    cudaGetLastError();
}

static pthread_once_t exit_once = PTHREAD_ONCE_INIT;
static void register_exit(void) { atexit(release_at_exit); }

void gf_release_at_exit(void)
{
    pthread_once(&once, init_stagers);
    pthread_once(&exit_once, register_exit);
}

/* Allocates a ring's buffers and events; on failure frees what it got. */
static gf_status fill(size_t chunk, char **buf, cudaEvent_t *ev)
{
    for (int i = 0; i < NBUF; i++) {
        gf_status st = gf_host_malloc((void **)&buf[i], chunk);
        if (st == GF_SUCCESS)
            st = GF_CUDA(cudaEventCreateWithFlags(&ev[i], cudaEventDisableTiming));
        if (st != GF_SUCCESS) {
            for (int j = 0; j <= i; j++) {
                gf_host_free(buf[j]);
                if (j < i)
                    cudaEventDestroy(ev[j]);
                buf[j] = NULL;
            }
            return st;
        }
    }
    return GF_SUCCESS;
}

/* The calling thread's device's ring, locked; NULL (unlocked) when the copy
 * is to take the driver's pageable path (*st success: the ring could not be
 * allocated) or on failure. */
static stager *acquire(gf_status *st)
{
    pthread_once(&once, init_stagers);
    gf_release_at_exit();
    stager *s = &stagers[gf_current_device()];
    *st = GF_SUCCESS;
    pthread_mutex_lock(&s->mu);
    if (!s->ready && !s->failed) {
        s->chunk = chunk_bytes;
        s->ready = fill(s->chunk, s->buf, s->ev) == GF_SUCCESS;
        s->failed = !s->ready;
        cudaGetLastError();
    }
    if (s->ready)
        return s;
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

gf_status gf_stage_h2d(void *dst, const void *src, size_t n, void *stream)
{
    gf_status st;
    stager *s = acquire(&st);
    cudaStream_t cs = (cudaStream_t)stream;
    if (!s)
        return st == GF_SUCCESS ? GF_CUDA(cudaMemcpyAsync(dst, src, n, cudaMemcpyHostToDevice, cs)) : st;
    for (size_t off = 0, k = 0; off < n && st == GF_SUCCESS; k++) {
        size_t len = n - off < s->chunk ? n - off : s->chunk;
        int i = (int)(k % NBUF);
        st = GF_CUDA(cudaEventSynchronize(s->ev[i])); /* its previous DMA is done */
        if (st != GF_SUCCESS)
            break;
        gf_parallel_memcpy(s->buf[i], (const char *)src + off, len);
        st = GF_CUDA(cudaMemcpyAsync((char *)dst + off, s->buf[i], len, cudaMemcpyHostToDevice, cs));
        if (st == GF_SUCCESS)
            st = GF_CUDA(cudaEventRecord(s->ev[i], cs));
        off += len;
    }
    pthread_mutex_unlock(&s->mu);
    return st;
}

gf_status gf_stage_d2h(void *dst, const void *src, size_t n, void *stream)
{
    gf_status st;
    stager *s = acquire(&st);
    cudaStream_t cs = (cudaStream_t)stream;
    if (!s)
        return st == GF_SUCCESS ? GF_CUDA(cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToHost, cs)) : st;
    size_t nchunks = (n + s->chunk - 1) / s->chunk;
    /* keep NBUF chunks in flight; drain each into dst as it lands */
    for (size_t k = 0; k < nchunks && k < NBUF && st == GF_SUCCESS; k++) {
        size_t off = k * s->chunk, len = n - off < s->chunk ? n - off : s->chunk;
        st = GF_CUDA(cudaEventSynchronize(s->ev[k])); /* a previous h2d may still read it */
        if (st == GF_SUCCESS)
            st = GF_CUDA(cudaMemcpyAsync(s->buf[k], (const char *)src + off, len,
                                         cudaMemcpyDeviceToHost, cs));
        if (st == GF_SUCCESS)
            st = GF_CUDA(cudaEventRecord(s->ev[k], cs));
    }
    for (size_t k = 0; k < nchunks && st == GF_SUCCESS; k++) {
        int i = (int)(k % NBUF);
        size_t off = k * s->chunk, len = n - off < s->chunk ? n - off : s->chunk;
        st = GF_CUDA(cudaEventSynchronize(s->ev[i]));
        if (st != GF_SUCCESS)
            break;
        gf_parallel_memcpy((char *)dst + off, s->buf[i], len);
        size_t nk = k + NBUF;
        if (nk < nchunks) {
            size_t noff = nk * s->chunk, nlen = n - noff < s->chunk ? n - noff : s->chunk;
            st = GF_CUDA(cudaMemcpyAsync(s->buf[i], (const char *)src + noff, nlen,
                                         cudaMemcpyDeviceToHost, cs));
            if (st == GF_SUCCESS)
                st = GF_CUDA(cudaEventRecord(s->ev[i], cs));
        }
    }
    pthread_mutex_unlock(&s->mu);
    return st;
}

int gf_host_kind(const void *p)
{
    gf_pool *pin = gf_pinned_pool();
    if (pin && gf_pool_contains(pin, p))
        return GF_MEM_PINNED;
    gf_pool *dp = gf_device_pool_if_any(gf_current_device());
    if (dp && gf_pool_contains(dp, p))
        return GF_MEM_DEVICE;
    struct cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
        cudaGetLastError();
        return GF_MEM_PAGEABLE;
    }
    switch (a.type) {
    case cudaMemoryTypeDevice:
    case cudaMemoryTypeManaged: return GF_MEM_DEVICE;
    case cudaMemoryTypeHost: return GF_MEM_PINNED;
    default: return GF_MEM_PAGEABLE;
    }
}

static gf_status copy(void *dst, const void *src, size_t bytes, gf_copy_kind kind, int sync)
{
    if (!bytes)
        return GF_SUCCESS;
    if (!dst || !src)
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_memcpy: null pointer");
    if (gf_runtime_get()->cpu) {
        if (kind < GF_HOST_TO_DEVICE || kind > GF_DEVICE_TO_DEVICE)
            return gf_fail(GF_ERROR_INVALID_VALUE, "gf_memcpy: unknown copy kind %d", (int)kind);
        memmove(dst, src, bytes); /* "device" memory is host memory (gf_malloc) */
        return GF_SUCCESS;
    }
    cudaStream_t cs = (cudaStream_t)gf_current_cuda_stream();
    gf_status st;
    switch (kind) {
    case GF_HOST_TO_DEVICE:
        if (bytes >= SMALL_COPY && gf_host_kind(src) == GF_MEM_PAGEABLE)
            st = gf_stage_h2d(dst, src, bytes, cs);
        else
            st = GF_CUDA(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, cs));
        break;
    case GF_DEVICE_TO_HOST:
        if (bytes >= SMALL_COPY && gf_host_kind(dst) == GF_MEM_PAGEABLE)
            st = gf_stage_d2h(dst, src, bytes, cs);
        else
            st = GF_CUDA(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, cs));
        break;
    case GF_DEVICE_TO_DEVICE:
        st = GF_CUDA(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, cs));
        break;
    default:
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_memcpy: unknown copy kind %d", (int)kind);
    }
    if (st == GF_SUCCESS && sync)
        st = GF_CUDA(cudaStreamSynchronize(cs));
    return st;
}

gf_status gf_memcpy(void *dst, const void *src, size_t bytes, gf_copy_kind kind)
{
    return copy(dst, src, bytes, kind, 1);
}

gf_status gf_memcpy_async(void *dst, const void *src, size_t bytes, gf_copy_kind kind)
{
    return copy(dst, src, bytes, kind, 0);
}
