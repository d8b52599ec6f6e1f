/* transfer.c - host<->device copies.  Pageable host memory goes through a
 * ring of pinned staging buffers, chunk by chunk: the CPU copies chunk k
 * (split over the staging threads) while the DMA engine moves chunk k-1, so
 * a big pageable copy runs near pinned bandwidth instead of the driver's
 * pageable path.  Pinned memory and device memory are copied directly.
 *
 * The ring (32 MiB of pinned memory, one cudaHostAlloc: 13-18 ms on the
 * H200) is made once per device by whichever thread needs it first: the
 * warm-up thread (prewarm.c, gf_stage_prepare) when the program starts, or
 * the first staged copy.  A gf_lazy (lazy.c) makes it under its lock, so a
 * copy that comes while the warm-up allocates waits for that ring; there is
 * never a second ring nor a half-made one.  When it cannot be allocated
 * (pinned memory exhausted), copies take the driver's pageable path instead
 * of failing.  (Letting the first copies take the driver's path while
 * another thread allocated the ring was tried: a process doing that crashed
 * inside cuFFT under load on the H200, 6 runs of 6, cause not found; today
 * copies wait for the ring, and cuFFT for the whole warm-up, fft.c.)
 * The ring is cudaHostAlloc'd directly, not from the pinned pool, so that
 * making it reads no runtime configuration (GPUFUSE_POOL* are read at the
 * first call, after main may have set them). */
#include "rt.h"

#include <string.h>

#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define NBUF 4
#define SMALL_COPY (64u << 10) /* below this the driver's own path is as good */

typedef struct stager {
    gf_lazy made;  /* the ring; its lock is held while a copy uses it */
    int device;
    size_t chunk;
    char *base;    /* NBUF chunks, one allocation */
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
    for (int i = 0; i < GF_MAX_DEVICES; i++) {
        stagers[i].made = (gf_lazy)GF_LAZY_INIT;
        stagers[i].device = i;
    }
}

/* At exit the rings go back to the driver and cached segments too, so leak
 * checkers (compute-sanitizer, LSan) see only real leaks.  Registered after
 * CUDA initialised, so it runs before CUDA's teardown. */
static void release_at_exit(void)
{
    for (int d = 0; d < GF_MAX_DEVICES; d++) {
        stager *s = &stagers[d];
        if (pthread_mutex_trylock(&s->made.mu) != 0)
            continue; /* another thread is still staging: leave it */
        if (s->made.state == GF_LAZY_READY) {
            for (int i = 0; i < NBUF; i++) {
                cudaEventSynchronize(s->ev[i]);
                cudaEventDestroy(s->ev[i]);
            }
            cudaFreeHost(s->base);
            s->made.state = GF_LAZY_NONE;
        }
        pthread_mutex_unlock(&s->made.mu);
        gf_pool *p = gf_device_pool_if_any(d);
        if (p)
            gf_pool_trim_cached(p);
    }
    gf_pool *pin = gf_pinned_pool_if_any(); /* no runtime set up at exit for it */
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

/* gf_lazy's maker: the ring's buffer and events; on failure frees what it
 * got (the copies then take the driver's path). */
static int make_ring(void *arg)
{
    stager *s = arg;
    s->chunk = chunk_bytes;
    int ok = cudaHostAlloc((void **)&s->base, NBUF * s->chunk, cudaHostAllocPortable) == cudaSuccess;
    int nev = 0;
    for (; ok && nev < NBUF; nev++) {
        s->buf[nev] = s->base + (size_t)nev * s->chunk;
        ok = cudaEventCreateWithFlags(&s->ev[nev], cudaEventDisableTiming) == cudaSuccess;
    }
    if (!ok) {
        for (int i = 0; i < nev - 1; i++)
            cudaEventDestroy(s->ev[i]);
        if (nev)
            cudaFreeHost(s->base);
        s->base = NULL;
    }
    cudaGetLastError(); /* a failure here is a path choice, not an error */
    return ok;
}

void gf_stage_prepare(int device)
{
    if (device < 0 || device >= GF_MAX_DEVICES)
        return;
    gf_release_at_exit();
    gf_lazy_prepare(&stagers[device].made, make_ring, &stagers[device]);
}

/* The calling thread's device's ring, locked; NULL (unlocked) when the copy
 * is to take the driver's pageable path (the ring could not be allocated). */
static stager *acquire(void)
{
    gf_release_at_exit();
    stager *s = &stagers[gf_current_device()];
    return gf_lazy_acquire(&s->made, make_ring, s) ? s : NULL;
}

/* The time since *t added to *acc, *t moved to now; only under
 * GPUFUSE_PROFILE=calls (t is 0 otherwise). */
static void lap(double *t, double *acc)
{
    if (*t) {
        double n = gf_now_ms();
        *acc += n - *t;
        *t = n;
    }
}

/* GPUFUSE_STAGING=0 (off, no, false): every copy takes the driver's pageable path. */
static int staging_on(void)
{
    static int on = -1;
    if (on < 0)
        on = gf_env_on(getenv("GPUFUSE_STAGING"));
    return on;
}

/* The driver's pageable path (no ring: staging off, or the ring could not be
 * allocated). */
static gf_status driver_copy(void *dst, const void *src, size_t n, enum cudaMemcpyKind k, cudaStream_t cs)
{
    double t = gf_profile_calls ? gf_now_ms() : 0;
    gf_status st = GF_CUDA(cudaMemcpyAsync(dst, src, n, k, cs));
    lap(&t, &gf_tl_stage.driver_ms);
    return st;
}

gf_status gf_stage_h2d(void *dst, const void *src, size_t n, void *stream)
{
    gf_status st = GF_SUCCESS;
    cudaStream_t cs = (cudaStream_t)stream;
    double t = gf_profile_calls ? gf_now_ms() : 0;
    stager *s = staging_on() ? acquire() : NULL;
    lap(&t, &gf_tl_stage.ring_ms);
    if (!s)
        return driver_copy(dst, src, n, cudaMemcpyHostToDevice, cs);
    for (size_t off = 0, k = 0; off < n && st == GF_SUCCESS; k++) {
        size_t len = n - off < s->chunk ? n - off : s->chunk;
        int i = (int)(k % NBUF);
        st = GF_CUDA(cudaEventSynchronize(s->ev[i])); /* its previous DMA is done */
        lap(&t, &gf_tl_stage.dma_ms);
        if (st != GF_SUCCESS)
            break;
        gf_parallel_memcpy(s->buf[i], (const char *)src + off, len);
        lap(&t, &gf_tl_stage.cpu_ms);
        st = GF_CUDA(cudaMemcpyAsync((char *)dst + off, s->buf[i], len, cudaMemcpyHostToDevice, cs));
        if (st == GF_SUCCESS)
            st = GF_CUDA(cudaEventRecord(s->ev[i], cs));
        off += len;
    }
    gf_lazy_release(&s->made);
    return st;
}

/* Makes the pages of host [p, p+n) present and writable (Linux 5.14+,
 * MADV_POPULATE_WRITE; elsewhere nothing): an output the program just
 * allocated (malloc, never written) would otherwise take a page fault per
 * 4 KiB inside the copies back (PolyBench covariance: 11.5 MB of fresh
 * output took the copy back from ~1 to ~10 ms on the H200).  Called once the
 * copies are queued behind the kernels, so that it overlaps them.  Split
 * over the staging threads (one thread populated deriche's 106 MB in 30-40
 * ms), and the 2 MiB-aligned middle of a big range is first marked
 * MADV_HUGEPAGE (GPUFUSE_HUGEPAGES=0: not), so that where the kernel's
 * transparent huge pages are "madvise" (the H200 machine's setting) a fresh
 * range is faulted in 2 MiB at a time: the copy back writes every byte of
 * it, so no page is made that the program does not get filled.  It changes
 * no byte (populating keeps what a page holds), and failures (read-only or
 * special mappings, old kernels) only leave the faults. */
#define HUGE (2u << 20)
#define HUGE_MIN (8u << 20) /* smaller ranges keep the process's own policy */

static void populate_part(void *p, size_t n)
{
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
    (void)madvise(p, n, MADV_POPULATE_WRITE);
#else
    (void)p, (void)n;
#endif
}

static int hugepages_on(void)
{
    static int on = -1;
    if (on < 0)
        on = gf_env_on(getenv("GPUFUSE_HUGEPAGES"));
    return on;
}

static void populate(void *p, size_t n)
{
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
    static long page;
    if (!page)
        page = sysconf(_SC_PAGESIZE) > 0 ? sysconf(_SC_PAGESIZE) : 4096;
    uintptr_t lo = (uintptr_t)p & ~(uintptr_t)(page - 1), hi = (uintptr_t)p + n;
#if defined(MADV_HUGEPAGE)
    uintptr_t hlo = (lo + HUGE - 1) & ~(uintptr_t)(HUGE - 1), hhi = hi & ~(uintptr_t)(HUGE - 1);
    if (hi - lo >= HUGE_MIN && hhi > hlo && hugepages_on())
        (void)madvise((void *)hlo, hhi - hlo, MADV_HUGEPAGE);
#endif
    /* parts of whole huge pages from the first huge boundary: the head below
     * it on this thread */
    uintptr_t start = (lo + HUGE - 1) & ~(uintptr_t)(HUGE - 1);
    if (start >= hi) {
        populate_part((void *)lo, hi - lo);
        return;
    }
    if (start > lo)
        populate_part((void *)lo, start - lo);
    gf_parallel_pages((void *)start, hi - start, HUGE, populate_part);
#else
    (void)p, (void)n;
#endif
}

gf_status gf_stage_d2h(void *dst, const void *src, size_t n, void *stream)
{
    gf_status st = GF_SUCCESS;
    cudaStream_t cs = (cudaStream_t)stream;
    double t = gf_profile_calls ? gf_now_ms() : 0;
    stager *s = staging_on() ? acquire() : NULL;
    lap(&t, &gf_tl_stage.ring_ms);
    if (!s)
        return driver_copy(dst, src, n, cudaMemcpyDeviceToHost, cs);
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
    if (st == GF_SUCCESS)
        populate(dst, n); /* while the kernels and the first copies run */
    lap(&t, &gf_tl_stage.cpu_ms);
    for (size_t k = 0; k < nchunks && st == GF_SUCCESS; k++) {
        int i = (int)(k % NBUF);
        size_t off = k * s->chunk, len = n - off < s->chunk ? n - off : s->chunk;
        st = GF_CUDA(cudaEventSynchronize(s->ev[i]));
        lap(&t, &gf_tl_stage.dma_ms);
        if (st != GF_SUCCESS)
            break;
        gf_parallel_memcpy((char *)dst + off, s->buf[i], len);
        lap(&t, &gf_tl_stage.cpu_ms);
        size_t nk = k + NBUF;
        if (nk < nchunks) {
            size_t noff = nk * s->chunk, nlen = n - noff < s->chunk ? n - noff : s->chunk;
            st = GF_CUDA(cudaMemcpyAsync(s->buf[i], (const char *)src + noff, nlen,
                                         cudaMemcpyDeviceToHost, cs));
            if (st == GF_SUCCESS)
                st = GF_CUDA(cudaEventRecord(s->ev[i], cs));
        }
    }
    gf_lazy_release(&s->made);
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
