/* test_prewarm.c - gf_prewarm (runtime/prewarm.c): the warm-up thread that
 * every .gf.cu starts when the program starts.  This binary holds one such
 * unit (prewarm_unit.c: its constructor asks for the context, its kernels'
 * loading and the staging ring), so every process below starts with the
 * warm-up running.  Runs anywhere; on a GPU the races it guards against are
 * real:
 *   - a process that returns from main while the thread is inside CUDA or
 *     cuBLAS, loading the unit's kernels or allocating the staging ring,
 *     exits cleanly (the exit hook waits for it), 12 times over;
 *   - a first call on big host arrays (staged through the ring) right when
 *     the program starts, racing the ring's allocation and the kernels'
 *     loading, gives the right answer (fresh processes, 6 times; and with
 *     GPUFUSE_PREWARM=0);
 *   - a child forked while the thread runs does not wait for a thread it
 *     does not have (gf_prewarm_wait in the child returns);
 *   - a GEMM's result is right when the first call races the warm-up,
 *     and after it (the CPU fallback's without a GPU);
 *   - GPUFUSE_PREWARM=0 and GPUFUSE_DEVICE=cpu start nothing;
 *   - GPUFUSE_STAGING=0 (the driver's pageable path) gives the same answer,
 *     and GPUFUSE_PROFILE=calls's `staging:` line says which path the
 *     copies took (on a GPU).
 * The ring's own locking (one ring, never half made) is tested with a fake
 * maker in test_lazy.c. */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <gpufuse.h>

static const char *self;

void gf_pw_axpy(int n, double a, const double *x, double *y); /* prewarm_unit.c's launcher */

#define ALL (GF_WARM_F32 | GF_WARM_F64 | GF_WARM_GEMM | GF_WARM_GEMV | GF_WARM_GER | GF_WARM_SYRK | \
             GF_WARM_SYR2K | GF_WARM_SYMM | GF_WARM_TRMM | GF_WARM_GEAM)

/* Runs this binary with `arg` under `env` (NAME=VALUE or NULL); its exit code. */
static int run_self(const char *arg, const char *env)
{
    pid_t p = fork();
    if (p == 0) {
        if (env)
            putenv((char *)env);
        alarm(60);
        execl(self, self, arg, (char *)NULL);
        _exit(127);
    }
    int st = 0;
    if (p < 0 || waitpid(p, &st, 0) != p)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void test_exit_during_warmup(void **state)
{
    (void)state;
    for (int i = 0; i < 12; i++)
        assert_int_equal(run_self("exit-now", NULL), 0);
    assert_int_equal(run_self("exit-now", "GPUFUSE_PREWARM=0"), 0);
    assert_int_equal(run_self("exit-now", "GPUFUSE_DEVICE=cpu"), 0);
}

/* gf_pw_axpy on 6M doubles (48 MB each way: several chunks of the ring) at
 * once, while the warm-up allocates the ring; every element checked. */
static int first_call_race(void)
{
    enum { N = 6 << 20 };
    double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    if (!x || !y)
        return 2;
    for (int i = 0; i < N; i++)
        x[i] = (double)(i % 1000), y[i] = (double)(i % 7);
    gf_pw_axpy(N, 3.0, x, y);
    int bad = 0;
    for (int i = 0; i < N && !bad; i++)
        bad = y[i] != 3.0 * (double)(i % 1000) + (double)(i % 7);
    free(x);
    free(y);
    return bad;
}

static void test_first_call_races_ring(void **state)
{
    (void)state;
    for (int i = 0; i < 6; i++)
        assert_int_equal(run_self("first-call", NULL), 0);
    assert_int_equal(run_self("first-call", "GPUFUSE_PREWARM=0"), 0);
    assert_int_equal(run_self("first-call", "GPUFUSE_STAGING_CHUNK=64K"), 0);
    assert_int_equal(run_self("first-call", "GPUFUSE_STAGING=0"), 0); /* the driver's path */
}

/* The first call under GPUFUSE_PROFILE=calls (and `env`), its stderr in a
 * file: the text of that file (malloc'd), NULL if the call failed. */
static char *profiled_first_call(const char *env)
{
    char path[] = "/tmp/gf_prewarm_profile_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return NULL;
    pid_t p = fork();
    if (p == 0) {
        dup2(fd, 2);
        putenv((char *)"GPUFUSE_PROFILE=calls");
        if (env)
            putenv((char *)env);
        alarm(60);
        execl(self, self, "first-call", (char *)NULL);
        _exit(127);
    }
    int st = 0;
    bool ok = p > 0 && waitpid(p, &st, 0) == p && WIFEXITED(st) && WEXITSTATUS(st) == 0;
    char *text = calloc(1, 1 << 16);
    if (ok && text && lseek(fd, 0, SEEK_SET) == 0)
        ok = read(fd, text, (1 << 16) - 1) >= 0;
    close(fd);
    unlink(path);
    if (!ok) {
        free(text);
        return NULL;
    }
    return text;
}

/* GPUFUSE_PROFILE=calls says where the staged copies of a GPU call spent
 * their time, and GPUFUSE_STAGING=0 moves them to the driver's path. */
static void test_profile_staging_line(void **state)
{
    (void)state;
    int n = 0;
    if (gf_device_count(&n) != GF_SUCCESS || n == 0)
        skip(); /* the CPU fallback has no per-call line */
    char *ring = profiled_first_call(NULL), *driver = profiled_first_call("GPUFUSE_STAGING=0");
    assert_non_null(ring);
    assert_non_null(driver);
    assert_non_null(strstr(ring, "call 1: map "));
    assert_non_null(strstr(ring, "(100.7 MB in)")); /* x and y, 2 x 48 MiB */
    const char *line = strstr(ring, "pw_axpy call 1 staging: ring wait ");
    assert_non_null(line);
    double cpu = -1, drv = -1;
    const char *c = strstr(line, "CPU copies "), *d = strstr(line, "driver's path ");
    assert_non_null(c);
    assert_non_null(d);
    sscanf(c, "CPU copies %lf", &cpu);
    sscanf(d, "driver's path %lf", &drv);
    assert_true(cpu > 0 && drv == 0); /* the ring's copies, not the driver's */
    line = strstr(driver, "pw_axpy call 1 staging: ring wait ");
    assert_non_null(line);
    c = strstr(line, "CPU copies ");
    d = strstr(line, "driver's path ");
    assert_non_null(c);
    assert_non_null(d);
    sscanf(c, "CPU copies %lf", &cpu);
    sscanf(d, "driver's path %lf", &drv);
    assert_true(cpu == 0 && drv > 0);
    free(ring);
    free(driver);
}

static void test_fork_while_warming(void **state)
{
    (void)state;
    assert_int_equal(run_self("fork", NULL), 0);
}

/* A row-major GEMM and GEMV through the library calls, on host arrays (the
 * launcher machinery stages them), checked against loops. */
static void test_results(void **state)
{
    (void)state;
    enum { M = 37, N = 45, K = 29 };
    double A[M * K], B[K * N], C[M * N];
    for (int i = 0; i < M * K; i++)
        A[i] = (double)(i % 11) - 5;
    for (int i = 0; i < K * N; i++)
        B[i] = (double)(i % 7) - 3;
    for (int round = 0; round < 2; round++) {
        memset(C, 0, sizeof C);
        assert_int_equal(gf_dgemm(GF_OP_N, GF_OP_N, M, N, K, 1.0, A, K, B, N, 0.0, C, N), GF_SUCCESS);
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                double s = 0;
                for (int k = 0; k < K; k++)
                    s += A[i * K + k] * B[k * N + j];
                assert_true(C[i * N + j] == s); /* small integers: exact */
            }
        gf_prewarm_wait();
    }
}

int main(int argc, char **argv)
{
    self = argv[0];
    if (argc > 1 && !strcmp(argv[1], "exit-now")) {
        gf_prewarm(ALL); /* and return while it runs */
        return 0;
    }
    if (argc > 1 && !strcmp(argv[1], "first-call"))
        return first_call_race();
    if (argc > 1 && !strcmp(argv[1], "fork")) {
        gf_prewarm(ALL);
        pid_t p = fork();
        if (p == 0) {
            alarm(20);
            gf_prewarm_wait(); /* no thread here: returns */
            _exit(0);
        }
        int st = 0;
        if (p < 0 || waitpid(p, &st, 0) != p || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
            return 1;
        gf_prewarm_wait();
        return 0;
    }
    gf_prewarm(ALL);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_results),
        cmocka_unit_test(test_exit_during_warmup),
        cmocka_unit_test(test_first_call_races_ring),
        cmocka_unit_test(test_profile_staging_line),
        cmocka_unit_test(test_fork_while_warming),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
