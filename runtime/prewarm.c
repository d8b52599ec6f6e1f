/* prewarm.c - gf_prewarm: the once-only work of a process's first GPU call,
 * started on a thread of its own when the program starts, so that it
 * overlaps with what the program does before its first call.  One worker
 * thread at a time takes the work the units' constructors asked for, in
 * the order a first call needs it:
 *   1. the CUDA context of the device (cudaGetDeviceCount, cudaSetDevice,
 *      cudaFree(0));
 *   2. the units' kernels (CUDA_MODULE_LOADING=LAZY is CUDA's default:
 *      each kernel would be loaded at its first launch): each
 *      unit passes a loader, compiled in the unit (the unit's own CUDA
 *      runtime holds its kernels' registrations), that calls
 *      cudaFuncGetAttributes on every kernel instance the unit launches;
 *   3. GF_WARM_STAGING: the pinned staging ring (transfer.c, 32 MiB: 13-18
 *      ms on the H200) and the staging threads (threadpool.c; not while the
 *      program's OpenMP team takes the copies);
 *   4. the cuBLAS routines named (blas.c gf_blas_warm: ~60 ms the first).
 * The first call waits only for what it uses: a copy for the ring if the
 * worker is allocating it (gf_lazy, lazy.c), cuBLAS and cuFFT for the whole
 * warm-up (blas.c, fft.c: overlapping them with it crashed on the H200),
 * a kernel launch for nothing (CUDA serialises module loading itself).
 *
 * No pool and no runtime configuration (GPUFUSE_POOL_LIMIT and the like
 * are still read at the first call, after main may have set them); the
 * ring and the threads read GPUFUSE_STAGING_CHUNK and _THREADS here.  At
 * exit the process waits for a warm-up still running (CUDA must not tear
 * down under it); the thread stops between steps once exit began. */
#include "rt.h"

#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_LOADERS 256 /* units in one process; beyond, kernels load at launch */
#define ROUTINES (GF_WARM_GEMM | GF_WARM_GEMV | GF_WARM_GER | GF_WARM_SYRK | GF_WARM_SYR2K | GF_WARM_SYMM | \
                  GF_WARM_TRMM | GF_WARM_GEAM)
#define TYPES (GF_WARM_F32 | GF_WARM_F64)

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t idle = PTHREAD_COND_INITIALIZER;
/* under mu: */
static unsigned wanted, done;    /* GF_WARM_* asked for; taken by the worker */
static void (*loaders[MAX_LOADERS])(void);
static int nloaders, nloaded;    /* asked for; taken by the worker */
static int registered;           /* the exit and fork hooks */
static int no_context;           /* the context could not be made: stop asking */
static atomic_int running;       /* a worker is running (changed under mu) */
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
    return !gf_env_on(getenv("GPUFUSE_PREWARM"));
}

static void at_exit(void);

static int make_context(int dev)
{
    int n = 0;
    if (atomic_load(&stopping) || cudaGetDeviceCount(&n) != cudaSuccess || dev >= n ||
        cudaSetDevice(dev) != cudaSuccess || cudaFree(0) != cudaSuccess)
        return 0;
    /* after CUDA's own exit hooks, so these run before them: the ring's
     * release first registered, then the wait for this thread */
    gf_release_at_exit();
    atexit(at_exit);
    return 1;
}

/* Takes the work not done yet; 0 (and the worker ends) when there is none. */
static int take(unsigned *flags, int *lo, int *hi)
{
    pthread_mutex_lock(&mu);
    *flags = wanted & ~done;
    *lo = nloaded;
    *hi = nloaders;
    int any = !atomic_load(&stopping) && !no_context && (*flags || *lo < *hi);
    if (any) {
        done |= *flags;
        nloaded = nloaders;
    } else {
        running = 0;
        pthread_cond_broadcast(&idle);
    }
    pthread_mutex_unlock(&mu);
    return any;
}

static void *worker(void *arg)
{
    (void)arg;
    int dev = wanted_device(), have_context = 0;
    unsigned flags;
    int lo, hi;
    while (take(&flags, &lo, &hi)) {
        if (!have_context && !(have_context = make_context(dev))) {
            pthread_mutex_lock(&mu);
            no_context = 1;
            pthread_mutex_unlock(&mu);
            continue;
        }
        for (int i = lo; i < hi && !atomic_load(&stopping); i++)
            loaders[i]();
        if (lo < hi)
            atexit(at_exit); /* a unit's own (static) CUDA runtime may have registered
                                its teardown at its first call, in the loader */
        if ((flags & GF_WARM_STAGING) && !atomic_load(&stopping)) {
            gf_stage_prepare(dev);
            gf_threadpool_start();
        }
        if ((flags & (ROUTINES | TYPES)) && !atomic_load(&stopping)) {
            pthread_mutex_lock(&mu);
            unsigned all = wanted; /* re-warming a warmed routine costs ~0.5 ms */
            pthread_mutex_unlock(&mu);
            gf_blas_warm(all & TYPES ? all : all | TYPES);
        }
        cudaGetLastError(); /* this thread's errors are nobody's */
    }
    return NULL;
}

void gf_prewarm_wait(void)
{
    if (!atomic_load(&running))
        return;
    pthread_mutex_lock(&mu);
    while (running)
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

/* Records `what` and `load` (under mu); 1 when that is new work. */
static int add(unsigned what, void (*load)(void))
{
    int fresh = (what & ~wanted) != 0;
    wanted |= what;
    if (!load)
        return fresh;
    for (int i = 0; i < nloaders; i++)
        if (loaders[i] == load)
            return fresh;
    if (nloaders == MAX_LOADERS)
        return fresh;
    loaders[nloaders++] = load;
    return 1;
}

/* The units' constructors ask for the cuBLAS routines their launchers may
 * call; they are loaded only under GPUFUSE_BLAS=1: by default the launchers
 * run their own kernels until cuBLAS pays (gf_blas_use), and loading it
 * beside the program's first calls would cost them what it saves.  An
 * explicit gf_prewarm (the program asks) loads them unless GPUFUSE_BLAS=0. */
static void prewarm(unsigned what, void (*load_kernels)(void), int asked)
{
    int mode = gf_blas_mode();
    if (mode == GF_BLAS_OFF || (mode == GF_BLAS_AUTO && !asked))
        what &= ~(unsigned)(ROUTINES | TYPES);
    what |= GF_WARM_CONTEXT;
    if (off() || wanted_device() < 0)
        return;
    pthread_mutex_lock(&mu);
    if (!atomic_load(&stopping) && !no_context && add(what, load_kernels) && !running) {
        if (!registered) {
            registered = 1;
            atexit(at_exit);
            pthread_atfork(NULL, NULL, forked_child);
        }
        pthread_t t;
        pthread_attr_t at;
        pthread_attr_init(&at);
        pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
        if (pthread_create(&t, &at, worker, NULL) == 0)
            running = 1;
        pthread_attr_destroy(&at);
    }
    pthread_mutex_unlock(&mu);
}

void gf_prewarm_load(unsigned what, void (*load_kernels)(void)) { prewarm(what, load_kernels, 0); }

void gf_prewarm(unsigned what) { prewarm(what, NULL, 1); }
