/* prewarm.c - gf_prewarm: the once-only work of a process's first GPU call
 * (the context, cuBLAS loading its kernels), started on a thread of its own
 * when the program starts, so that it overlaps with what the program does
 * before its first call.  Measured on the H200 (bench/first_call/libprobe):
 * the first cuBLAS GEMM of a process costs ~60 ms, a later one at another
 * size 0.5 ms once any GEMM of the same routine has run, also from another
 * thread and handle.
 *
 * The thread uses CUDA and cuBLAS only: no pool, no runtime configuration
 * (GPUFUSE_POOL_LIMIT and the like are still read at the first call, after
 * main may have set them).  At exit the process waits for a warm-up still
 * running (a process may end while the thread is inside CUDA: CUDA must not
 * tear down under it); the thread stops between steps once exit began. */
#include "rt.h"

#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t idle = PTHREAD_COND_INITIALIZER;
static unsigned started;         /* flags a thread was started for */
static atomic_int running;       /* threads not finished (changed under mu) */
static atomic_int stopping;      /* exit began: stop between steps */

/* The device GPUFUSE_DEVICE names, 0 for auto/gpu; -1: none (cpu, bad). */
static int wanted_device(void)
{
    const char *w = getenv("GPUFUSE_DEVICE");
    if (!w || !*w || !strcasecmp(w, "auto") || !strcasecmp(w, "gpu"))
        return 0;
    char *end;
    long i = strtol(w, &end, 10);
    return *end || i < 0 || i >= GF_MAX_DEVICES ? -1 : (int)i;
}

static int off(void)
{
    const char *e = getenv("GPUFUSE_PREWARM");
    return e && (!strcmp(e, "0") || !strcasecmp(e, "off") || !strcasecmp(e, "no"));
}

static void at_exit(void);

static void *warm(void *arg)
{
    unsigned what = (unsigned)(uintptr_t)arg;
    int dev = wanted_device(), n = 0;
    if (!atomic_load(&stopping) && cudaGetDeviceCount(&n) == cudaSuccess && dev < n &&
        cudaSetDevice(dev) == cudaSuccess && cudaFree(0) == cudaSuccess) {
        atexit(at_exit); /* after CUDA's: runs before them */
        if (!atomic_load(&stopping))
            gf_blas_warm(what);
    }
    cudaGetLastError(); /* this thread's errors are nobody's */
    pthread_mutex_lock(&mu);
    running--;
    pthread_cond_broadcast(&idle);
    pthread_mutex_unlock(&mu);
    return NULL;
}

void gf_prewarm_wait(void)
{
    if (!atomic_load(&running))
        return;
    pthread_mutex_lock(&mu);
    while (running > 0)
        pthread_cond_wait(&idle, &mu);
    pthread_mutex_unlock(&mu);
}

static void at_exit(void)
{
    atomic_store(&stopping, 1);
    gf_prewarm_wait();
}

static void forked_child(void)
{
    pthread_mutex_init(&mu, NULL);
    pthread_cond_init(&idle, NULL);
    running = 0;
}

void gf_prewarm(unsigned what)
{
    what |= GF_WARM_CONTEXT;
    if (off() || wanted_device() < 0)
        return;
    pthread_mutex_lock(&mu);
    unsigned fresh = what & ~started;
    if (!fresh || atomic_load(&stopping)) {
        pthread_mutex_unlock(&mu);
        return;
    }
    if (!started) {
        atexit(at_exit);
        pthread_atfork(NULL, NULL, forked_child);
    }
    pthread_t t;
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    /* the routines in both types when the caller named neither */
    unsigned w = fresh & (GF_WARM_F32 | GF_WARM_F64) ? what : what | GF_WARM_F32 | GF_WARM_F64;
    if (pthread_create(&t, &at, warm, (void *)(uintptr_t)w) == 0) {
        started |= what;
        running++;
    }
    pthread_attr_destroy(&at);
    pthread_mutex_unlock(&mu);
}
