/* threadpool.c - a few helper threads that split big host memcpys (the
 * pageable<->pinned half of staging), since one core copies far slower than
 * the PCIe/NVLink-C2C DMA, and the faulting-in of fresh output pages before
 * the copies back (transfer.c).  GPUFUSE_STAGING_THREADS sets the count (default
 * min(8, online CPUs)); 1 disables the helpers.  They start at the first big
 * copy, or when the program starts (the warm-up, prewarm.c); each waits on
 * a condition variable between jobs (after a short spin), so idle helpers
 * cost no CPU.  A forked child has none and copies alone.
 *
 * In an OpenMP program the copies go over the program's own OpenMP team
 * instead (gf_host_team, registered by a .gf.cu compiled with OpenMP):
 * right after a parallel region libgomp's threads spin on every core for
 * about 10 ms, and the helpers here then waited for cores (PolyBench gemm
 * on the H200 after its cache flush: 29 MB copied in 7.9 ms instead of 1.3,
 * slower than one thread copying alone).  The team's threads are the ones
 * spinning: they start the copy at once.  Such a program gets no helpers
 * until the team declines a job (inside a parallel region, or every job
 * under passive waiting: then the warm-up starts them): started beside the
 * team, they cost it its speed in most processes (PolyBench covariance,
 * correlation, syrk, trmm on the H200: 25-63 ms a call instead of 2-4,
 * docs/performance.md). */
#include "rt.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS 32
#define MIN_PARALLEL (2u << 20) /* below this one thread is faster */

_Thread_local gf_stage_stats gf_tl_stage; /* rt.h; transfer.c times, parallel() counts */

static int nthreads = 1;          /* including the caller */
static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_mutex_t job_mu = PTHREAD_MUTEX_INITIALIZER; /* one job at a time */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t go = PTHREAD_COND_INITIALIZER, done = PTHREAD_COND_INITIALIZER;
static atomic_ulong gen;
static atomic_int remaining;
static char *job_dst;
static const char *job_src;
static size_t job_n, job_part;
static void (*job_fn)(void *p, size_t n); /* job_src == NULL: job_fn on each part */
static _Atomic(gf_team_fn) team;          /* the program's OpenMP team (gf_host_team) */
#define MAX_TEAMS 64
static pthread_mutex_t teams_mu = PTHREAD_MUTEX_INITIALIZER;
static gf_team_fn teams[MAX_TEAMS];       /* the units' team functions, under teams_mu */
static int nteams;
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

/* Part i of a job of n bytes in parts of `part` bytes (the last shorter):
 * memcpy from src, or fn on each part (gf_parallel_pages). */
static void slice(char *dst, const char *src, void (*fn)(void *, size_t), size_t n, size_t part, int i)
{
    size_t lo = (size_t)i * part;
    if (lo >= n)
        return;
    size_t len = n - lo < part ? n - lo : part;
    if (src)
        memcpy(dst + lo, src + lo, len);
    else
        fn(dst + lo, len);
}

/* Parts of whole units, enough of them to cover all n bytes (rounding
 * n / parts down first lost the last n % parts bytes whenever the quotient
 * was a whole number of pages). */
static size_t part_size(size_t n, size_t parts, size_t unit)
{
    return ((n + parts - 1) / parts + unit - 1) / unit * unit;
}

static void do_part(int i) { slice(job_dst, job_src, job_fn, job_n, job_part, i); }

static void *worker(void *arg)
{
    int id = (int)(intptr_t)arg;
    unsigned long seen = 0;
    for (int jobs = 0;; jobs++) {
        /* after a job spin briefly (jobs come back to back while staging),
         * then sleep; a new helper sleeps at once */
        int spins = jobs ? 0 : 20000;
        while (atomic_load(&gen) == seen && spins < 20000) {
            spins++;
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#endif
        }
        if (atomic_load(&gen) == seen) {
            pthread_mutex_lock(&mu);
            while (atomic_load(&gen) == seen)
                pthread_cond_wait(&go, &mu);
            pthread_mutex_unlock(&mu);
        }
        seen = atomic_load(&gen);
        do_part(id);
        if (atomic_fetch_sub(&remaining, 1) == 1) {
            pthread_mutex_lock(&mu);
            pthread_cond_signal(&done);
            pthread_mutex_unlock(&mu);
        }
    }
    return NULL;
}

/* A child forked after the threads started has none of them: it copies on
 * its own thread. */
static void forked_child(void)
{
    pthread_mutex_init(&job_mu, NULL);
    pthread_mutex_init(&mu, NULL);
    pthread_cond_init(&go, NULL);
    pthread_cond_init(&done, NULL);
    nthreads = 1;
    pthread_mutex_init(&teams_mu, NULL);
    nteams = 0;
    atomic_store(&team, NULL); /* the parent's OpenMP threads are not here either */
}

static void hook_fork(void) { pthread_atfork(NULL, NULL, forked_child); }

static void start(void)
{
    pthread_once(&fork_once, hook_fork);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int n = cpus > 0 ? (int)(cpus < 8 ? cpus : 8) : 1;
    const char *env = getenv("GPUFUSE_STAGING_THREADS");
    if (env && atoi(env) > 0)
        n = atoi(env) < MAX_THREADS ? atoi(env) : MAX_THREADS;
    for (int i = 1; i < n; i++) {
        pthread_t t;
        pthread_attr_t at;
        pthread_attr_init(&at);
        pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
        if (pthread_create(&t, &at, worker, (void *)(intptr_t)i) != 0) {
            pthread_attr_destroy(&at);
            n = i;
            break;
        }
        pthread_attr_destroy(&at);
    }
    nthreads = n;
}

/* The warm-up's start of the helpers: not in a program that lent its
 * OpenMP team (above), unless the team will decline every job: its threads
 * sleep when idle (OMP_WAIT_POLICY=passive, the test the registered team
 * function makes too); otherwise they start at the first job it declines. */
void gf_threadpool_start(void)
{
    const char *w = getenv("OMP_WAIT_POLICY");
    if (!atomic_load(&team) || (w && (*w == 'p' || *w == 'P')))
        pthread_once(&once, start);
}

/* One job over the threads: memcpy (src) or fn on each part, parts a
 * multiple of `unit` bytes. */
static void run_job(void *dst, const void *src, void (*fn)(void *, size_t), size_t n, size_t unit)
{
    pthread_mutex_lock(&job_mu);
    job_dst = dst;
    job_src = src;
    job_fn = fn;
    job_n = n;
    job_part = part_size(n, (size_t)nthreads, unit);
    atomic_store(&remaining, nthreads - 1);
    pthread_mutex_lock(&mu);
    atomic_fetch_add(&gen, 1);
    pthread_cond_broadcast(&go);
    pthread_mutex_unlock(&mu);
    do_part(0);
    if (atomic_load(&remaining) > 0) {
        int spins = 0;
        while (atomic_load(&remaining) > 0 && spins < 200000)
            spins++;
        pthread_mutex_lock(&mu);
        while (atomic_load(&remaining) > 0)
            pthread_cond_wait(&done, &mu);
        pthread_mutex_unlock(&mu);
    }
    pthread_mutex_unlock(&job_mu);
}

/* Every unit compiled with OpenMP registers its team function; the last
 * registered is used, and taking it back (its unit unloaded) falls back to
 * the one registered before it that is still there. */
void gf_host_team(gf_team_fn fn, int on)
{
    if (!fn)
        return;
    pthread_once(&fork_once, hook_fork); /* a child drops the team, helpers or not */
    pthread_mutex_lock(&teams_mu);
    int at = -1;
    for (int i = 0; i < nteams && at < 0; i++)
        at = teams[i] == fn ? i : -1;
    if (at >= 0) { /* out of the list; on: back at its end */
        memmove(&teams[at], &teams[at + 1], (size_t)(nteams - at - 1) * sizeof *teams);
        nteams--;
    }
    if (on && nteams < MAX_TEAMS)
        teams[nteams++] = fn;
    /* beyond MAX_TEAMS units the newest is used while it is there */
    atomic_store(&team, on ? fn : nteams ? teams[nteams - 1] : NULL);
    pthread_mutex_unlock(&teams_mu);
}

/* A job split over an OpenMP team: thread i of n takes the i-th of n parts,
 * each a multiple of `unit` bytes.
 *
 * A parallel region ends when its last thread does.  When two of the
 * team's threads share a CPU (made while another thread kept a CPU busy:
 * the warm-up allocating the staging ring), both spin between regions and
 * one of them joins every region a scheduler slice late (7-8 ms on the
 * H200) for as long as the process runs: PolyBench correlation's 38 MB of
 * copies took 25-63 ms instead of 3 in a third of its processes.  So a
 * region that ends more than late_ns after the calling thread's own part
 * (and twice as long) marks the team as lagging: the jobs of the next
 * LAG_PAUSE_NS are copied by the calling thread alone (not by the helpers,
 * which would wait for the spinning threads' cores), then the team is tried
 * again. */
#define LAG_PAUSE_NS 500000000LL

typedef struct team_job {
    char *dst;
    const char *src;
    void (*fn)(void *p, size_t n);
    size_t n, unit;
    long long own_ns; /* thread 0's part */
} team_job;

static _Atomic long long late_ns = 2000000; /* gf_team_late_limit */
static _Atomic long long lag_until;         /* the team is not used before */
static atomic_int lags;

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void team_part(void *ctx, int i, int n)
{
    team_job *j = ctx;
    long long t = i == 0 ? now_ns() : 0;
    slice(j->dst, j->src, j->fn, j->n, part_size(j->n, (size_t)n, j->unit), i);
    if (i == 0)
        j->own_ns = now_ns() - t;
}

void gf_team_late_limit(long long ns)
{
    atomic_store(&late_ns, ns);
    atomic_store(&lag_until, 0);
}

int gf_team_lags(void) { return atomic_load(&lags); }

/* The job on the program's OpenMP team: 1 done there; 0 no team, or it
 * declined; -1 the team lags: the caller copies alone. */
static int on_team(void *dst, const void *src, void (*fn)(void *, size_t), size_t n, size_t unit)
{
    gf_team_fn t = atomic_load(&team);
    if (!t)
        return 0;
    long long t0 = now_ns();
    if (t0 < atomic_load(&lag_until))
        return -1;
    team_job j = {dst, src, fn, n, unit, 0};
    if (!t(team_part, &j))
        return 0;
    long long took = now_ns() - t0;
    if (took - j.own_ns > atomic_load(&late_ns) && took > 2 * j.own_ns) {
        atomic_store(&lag_until, now_ns() + LAG_PAUSE_NS);
        atomic_fetch_add(&lags, 1);
    }
    return 1;
}

/* One job: on the team, else over the helpers, else (small, a lagging
 * team, one thread) on the calling thread. */
static void parallel(void *dst, const void *src, void (*fn)(void *, size_t), size_t n, size_t unit)
{
    int on = n < MIN_PARALLEL ? -1 : on_team(dst, src, fn, n, unit);
    if (on > 0) {
        gf_tl_stage.on_team++;
        return;
    }
    if (on == 0)
        pthread_once(&once, start);
    if (on < 0 || nthreads <= 1) {
        gf_tl_stage.alone++;
        slice(dst, src, fn, n, n, 0);
    } else {
        gf_tl_stage.on_helpers++;
        run_job(dst, src, fn, n, unit);
    }
}

void gf_parallel_memcpy(void *dst, const void *src, size_t n) { parallel(dst, src, NULL, n, 4096); }

void gf_parallel_pages(void *p, size_t n, size_t unit, void (*fn)(void *p, size_t n))
{
    parallel(p, NULL, fn, n, unit);
}
