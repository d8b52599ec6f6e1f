/* test_threadpool.c - gf_parallel_memcpy (threadpool.c: the host half of
 * staging, split over helper threads) copies every byte, for sizes around
 * the split's page rounding and every helper count from 1 to 9: each size
 * n = q * threads * 4096 + r (r < threads) once lost its last r bytes.
 * gf_parallel_pages (transfer.c's populating of fresh output pages) hands
 * every byte of its range to exactly one call, in parts that start on whole
 * units.
 * A child forked after the helpers started (gf_threadpool_start: the
 * warm-up starts them when the program starts) has none of them: its big
 * copies must still finish, on its own thread.
 * With a team registered (gf_host_team: a .gf.cu compiled with OpenMP lends
 * the program's OpenMP threads) the same jobs go over the team, each of its
 * threads running its part at once (here threads of the test's own, teams of
 * 2 to 33); a team that declines (returns 0) leaves the job to the helpers;
 * a team taken back, or a forked child, is not used.  With a team registered
 * the warm-up starts no helpers (unless OMP_WAIT_POLICY=passive, when the
 * team declines every job); the first job it declines does.  A team whose
 * region ends well after the calling thread's part (a thread joining late)
 * is not used for half a second: the calling thread copies alone.
 * CUDA-free: runs everywhere. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>
#include <dirent.h>
#include <pthread.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "rt.h"

#define MiB ((size_t)1 << 20)

static unsigned char *src, *dst;
static const size_t most = 40 * MiB;

static void check(size_t n)
{
    memset(dst, 0xee, n + 64);
    gf_parallel_memcpy(dst, src, n);
    size_t i = 0;
    while (i < n && dst[i] == src[i])
        i++;
    if (i < n)
        fail_msg("n = %zu: byte %zu differs (%zu bytes short)", n, i, n - i);
    for (size_t j = n; j < n + 64; j++)
        if (dst[j] != 0xee)
            fail_msg("n = %zu: wrote past the end at %zu", n, j);
}

/* One helper count per process: the pool starts once, from the environment. */
static void test_sizes(void **state)
{
    (void)state;
    const char *env = getenv("GPUFUSE_STAGING_THREADS");
    size_t t = env && atoi(env) > 0 ? (size_t)atoi(env) : 8;
    size_t base[] = {2 * MiB, 3 * MiB, 17 * MiB, 8 * MiB - 4096, 32 * MiB};
    for (size_t b = 0; b < sizeof base / sizeof *base; b++)
        for (size_t r = 0; r <= t + 1; r++) {
            check(base[b] + r);
            if (base[b] > r)
                check(base[b] - r);
        }
    for (size_t q = 64; q < 64 * 40; q += 397) /* n / t a whole number of pages, plus r */
        for (size_t r = 1; r < t; r++)
            if (q * t * 4096 + r <= most)
                check(q * t * 4096 + r);
}

/* gf_parallel_pages: each byte of [base, base + n) visited once. */
static unsigned char *pages_base;
static atomic_uint visits[(40u << 20) / 4096 + 2];
static atomic_int bad_start;
static size_t pages_unit;

static void visit(void *p, size_t n)
{
    size_t off = (size_t)((unsigned char *)p - pages_base);
    if (off % pages_unit)
        atomic_store(&bad_start, 1);
    for (size_t b = off; b < off + n; b += 4096)
        atomic_fetch_add(&visits[b / 4096], 1);
}

static void test_pages(void **state)
{
    (void)state;
    size_t units[] = {4096, 2 * MiB};
    size_t sizes[] = {4096, 2 * MiB, 2 * MiB + 4096, 17 * MiB, 33 * MiB + 8192, 40 * MiB};
    for (size_t u = 0; u < 2; u++)
        for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
            size_t n = sizes[k];
            for (size_t i = 0; i < sizeof visits / sizeof *visits; i++)
                atomic_store(&visits[i], 0);
            atomic_store(&bad_start, 0);
            pages_base = dst;
            pages_unit = units[u];
            gf_parallel_pages(dst, n, units[u], visit);
            for (size_t b = 0; b < n; b += 4096)
                if (atomic_load(&visits[b / 4096]) != 1)
                    fail_msg("n = %zu, unit %zu: page %zu visited %u times", n, units[u], b / 4096,
                             atomic_load(&visits[b / 4096]));
            assert_int_equal(atomic_load(&visits[n / 4096 + (n % 4096 != 0)]), 0);
            assert_int_equal(atomic_load(&bad_start), 0);
        }
}

/* A team of `team_n` threads of the test's own, all running part() at once
 * as an OpenMP parallel region would; declines when team_n is 0. */
static int team_n;
static atomic_int team_calls, team_threads_seen;

typedef struct member {
    pthread_t t;
    void (*part)(void *, int, int);
    void *ctx;
    int i;
} member;

static void *member_run(void *arg)
{
    member *m = arg;
    m->part(m->ctx, m->i, team_n);
    atomic_fetch_add(&team_threads_seen, 1);
    return NULL;
}

static int fake_team(void (*part)(void *ctx, int i, int n), void *ctx)
{
    atomic_fetch_add(&team_calls, 1);
    if (team_n == 0)
        return 0;
    member m[64];
    for (int i = 1; i < team_n; i++) {
        m[i] = (member){.part = part, .ctx = ctx, .i = i};
        if (pthread_create(&m[i].t, NULL, member_run, &m[i]) != 0)
            abort();
    }
    part(ctx, 0, team_n);
    atomic_fetch_add(&team_threads_seen, 1);
    for (int i = 1; i < team_n; i++)
        pthread_join(m[i].t, NULL);
    return 1;
}

static int other_team(void (*part)(void *ctx, int i, int n), void *ctx)
{
    (void)part;
    (void)ctx;
    return 0;
}

static void test_team(void **state)
{
    (void)state;
    gf_team_late_limit(1LL << 60); /* this fake team makes its threads per job */
    gf_host_team(fake_team, 1);
    int sizes[] = {2, 3, 7, 16, 33};
    for (size_t t = 0; t < sizeof sizes / sizeof *sizes; t++) {
        team_n = sizes[t];
        atomic_store(&team_calls, 0);
        atomic_store(&team_threads_seen, 0);
        for (size_t r = 0; r <= (size_t)team_n + 1; r++) {
            check(2 * MiB + r);
            check(17 * MiB - r);
            check(32 * MiB + r);
        }
        int jobs = atomic_load(&team_calls);
        assert_int_equal(jobs, 3 * (team_n + 2));
        assert_int_equal(atomic_load(&team_threads_seen), jobs * team_n);
        check(MiB); /* below the split: no job at all */
        assert_int_equal(atomic_load(&team_calls), jobs);
    }
    /* parts of whole units, every page once, over teams too */
    team_n = 7;
    test_pages(state);
    team_n = 0; /* declines: the helpers copy */
    atomic_store(&team_calls, 0);
    check(17 * MiB + 5);
    assert_int_equal(atomic_load(&team_calls), 1);
    team_n = 5;
    gf_host_team(other_team, 0); /* not the registered one: stays */
    check(9 * MiB + 1);
    assert_int_equal(atomic_load(&team_calls), 2);
    gf_host_team(fake_team, 0); /* taken back: not called again */
    check(9 * MiB + 1);
    assert_int_equal(atomic_load(&team_calls), 2);
    gf_host_team(fake_team, 1); /* a forked child does not use it */
    pid_t p = fork();
    if (p == 0) {
        alarm(20);
        atomic_store(&team_calls, 0);
        memset(dst, 0xee, 32 * MiB);
        gf_parallel_memcpy(dst, src, 32 * MiB);
        _exit(memcmp(dst, src, 32 * MiB) ? 1 : atomic_load(&team_calls) ? 2 : 0);
    }
    int st = 0;
    assert_true(p > 0 && waitpid(p, &st, 0) == p);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
    gf_host_team(fake_team, 0);
    gf_team_late_limit(2000000);
}

/* Several units' teams: the last registered is used; taking it back falls
 * back to the one before it still registered; taking back one that is not
 * in use changes nothing. */
static atomic_int calls_a, calls_b;

static int team_a(void (*part)(void *ctx, int i, int n), void *ctx)
{
    (void)part, (void)ctx;
    atomic_fetch_add(&calls_a, 1);
    return 0;
}

static int team_b(void (*part)(void *ctx, int i, int n), void *ctx)
{
    (void)part, (void)ctx;
    atomic_fetch_add(&calls_b, 1);
    return 0;
}

static void test_teams_of_units(void **state)
{
    (void)state;
    gf_host_team(team_a, 1);
    gf_host_team(team_b, 1);
    check(3 * MiB);
    assert_int_equal(atomic_load(&calls_b), 1);
    assert_int_equal(atomic_load(&calls_a), 0);
    gf_host_team(team_b, 0); /* its unit unloaded: team_a again */
    check(3 * MiB);
    assert_int_equal(atomic_load(&calls_a), 1);
    gf_host_team(team_b, 1);
    gf_host_team(team_a, 0); /* not the one in use: team_b stays */
    check(3 * MiB);
    assert_int_equal(atomic_load(&calls_b), 2);
    assert_int_equal(atomic_load(&calls_a), 1);
    gf_host_team(team_b, 0); /* none left */
    check(3 * MiB);
    assert_int_equal(atomic_load(&calls_a) + atomic_load(&calls_b), 3);
    gf_host_team(team_a, 1); /* registered twice: one entry */
    gf_host_team(team_a, 1);
    gf_host_team(team_a, 0);
    check(3 * MiB);
    assert_int_equal(atomic_load(&calls_a), 1);
}

/* A team whose second thread joins its region 100 ms late, as one sharing
 * a CPU with another thread of the team does (7-8 ms on the H200). */
static atomic_int late_calls;

static void *late_member(void *arg)
{
    member *m = arg;
    struct timespec ts = {0, 100000000}; /* far beyond the caller's part, even on a loaded machine */
    nanosleep(&ts, NULL);
    m->part(m->ctx, 1, 2);
    return NULL;
}

static int late_team(void (*part)(void *ctx, int i, int n), void *ctx)
{
    atomic_fetch_add(&late_calls, 1);
    member m = {.part = part, .ctx = ctx, .i = 1};
    if (pthread_create(&m.t, NULL, late_member, &m) != 0)
        abort();
    part(ctx, 0, 2);
    pthread_join(m.t, NULL);
    return 1;
}

/* A lagging team: the copies of the next half second are made by the
 * calling thread alone (right, and without the team), then the team is
 * used again. */
static void test_team_lag(void **state)
{
    (void)state;
    gf_team_late_limit(2000000);
    gf_host_team(late_team, 1);
    int lags = gf_team_lags();
    check(3 * MiB + 5);
    assert_int_equal(atomic_load(&late_calls), 1);
    assert_int_equal(gf_team_lags(), lags + 1);
    check(3 * MiB + 5); /* lagging: not the team (small copies: well within the half second) */
    check(2 * MiB + 1);
    assert_int_equal(atomic_load(&late_calls), 1);
    struct timespec ts = {0, 600000000};
    nanosleep(&ts, NULL);
    check(3 * MiB + 5); /* tried again */
    assert_int_equal(atomic_load(&late_calls), 2);
    assert_int_equal(gf_team_lags(), lags + 2);
    gf_host_team(late_team, 0);
    gf_team_late_limit(2000000);
}

/* Threads of this process (Linux: /proc/self/task); -1 elsewhere. */
static int threads_now(void)
{
    int n = -1;
#if defined(__linux__)
    DIR *d = opendir("/proc/self/task");
    if (!d)
        return -1;
    n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += e->d_name[0] != '.';
    closedir(d);
#endif
    return n;
}

static int never_team(void (*part)(void *ctx, int i, int n), void *ctx)
{
    (void)part;
    (void)ctx;
    return 0;
}

static atomic_int counted;

static int counting_team(void (*part)(void *ctx, int i, int n), void *ctx)
{
    (void)part;
    (void)ctx;
    atomic_fetch_add(&counted, 1);
    return 0;
}

/* In a child that has no helpers yet: the warm-up's start with a team
 * registered starts none (unless `passive`); the first job the team
 * declines starts them; a child forked before any helper started does not
 * use the team either.  Exit status: 0 right, 1-4 which check failed. */
static int warmup_child(int passive)
{
    if (passive)
        setenv("OMP_WAIT_POLICY", "PASSIVE", 1);
    else
        unsetenv("OMP_WAIT_POLICY");
    int before = threads_now();
    if (before < 1)
        return 0; /* no /proc: nothing to count */
    /* whether this process gets helpers at all (threadpool.c's count) */
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    const char *env = getenv("GPUFUSE_STAGING_THREADS");
    int helpers = env && atoi(env) > 0 ? atoi(env) > 1 : cpus > 1;
    if (!passive) {
        /* a child forked from here (no helpers yet) does not use the team */
        gf_host_team(counting_team, 1);
        pid_t p = fork();
        if (p == 0) {
            memset(dst, 0xee, 17 * MiB);
            gf_parallel_memcpy(dst, src, 17 * MiB);
            _exit(memcmp(dst, src, 17 * MiB) ? 1 : atomic_load(&counted) ? 2 : 0);
        }
        int st = 0;
        if (p < 0 || waitpid(p, &st, 0) != p || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
            return 4;
        gf_host_team(counting_team, 0);
    }
    gf_host_team(never_team, 1);
    gf_threadpool_start();
    int after = threads_now();
    if (passive && helpers ? after <= before : after != before)
        return 1;
    memset(dst, 0xee, 17 * MiB);
    gf_parallel_memcpy(dst, src, 17 * MiB); /* declined: the helpers copy */
    if (memcmp(dst, src, 17 * MiB))
        return 2;
    if (helpers && threads_now() <= before)
        return 3;
    return 0;
}

static void test_warmup_with_team(void **state)
{
    (void)state;
    for (int passive = 0; passive < 2; passive++) {
        pid_t p = fork();
        if (p == 0) {
            alarm(20);
            _exit(warmup_child(passive));
        }
        int st = 0;
        assert_true(p > 0 && waitpid(p, &st, 0) == p);
        assert_true(WIFEXITED(st));
        if (WEXITSTATUS(st) != 0)
            fail_msg("passive %d: check %d failed", passive, WEXITSTATUS(st));
    }
}

static void test_fork_after_start(void **state)
{
    (void)state;
    gf_threadpool_start();
    check(17 * MiB + 3); /* the helpers are running */
    pid_t p = fork();
    if (p == 0) {
        alarm(20); /* waiting for helpers it does not have would hang */
        memset(dst, 0xee, 32 * MiB);
        gf_parallel_memcpy(dst, src, 32 * MiB);
        _exit(memcmp(dst, src, 32 * MiB) ? 1 : 0);
    }
    int st = 0;
    assert_true(p > 0 && waitpid(p, &st, 0) == p);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
    check(9 * MiB + 1); /* and the parent's helpers still work */
}

int main(void)
{
    src = malloc(most + 64);
    dst = malloc(most + 64);
    if (!src || !dst)
        return 1;
    for (size_t i = 0; i < most + 64; i++)
        src[i] = (unsigned char)(i * 131 + (i >> 12));
    /* test_warmup_with_team first: its children need a process whose
     * helpers have not started */
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_warmup_with_team), cmocka_unit_test(test_sizes), cmocka_unit_test(test_pages),
                                       cmocka_unit_test(test_fork_after_start), cmocka_unit_test(test_team),
                                       cmocka_unit_test(test_team_lag), cmocka_unit_test(test_teams_of_units)};
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    free(src);
    free(dst);
    return rc;
}
