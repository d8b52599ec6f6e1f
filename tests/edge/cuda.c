/* cuda.c - hand-written CUDA kernels through gpufuse's launchers
 * (GPUFUSE_CUDA, docs/cuda-kernels.md): the kernels of cuda_kernels.cu
 * against the C bodies of cuda_kernels.c, which gpufuse compiled with
 * --prefix=gf_ (gf_uk_saxpy is the launcher, uk_saxpy the C body).
 *
 * On the GPU (exit 77 without one): a saxpy with the default rule on host
 * arrays (staged) and device arrays (passed through), a 2-D transpose with a
 * grid rule at shapes around its 32 x 8 blocks, a deliberately wrong kernel
 * whose results differ from the C body where it is wrong (so the kernel, not
 * the C body, ran), a launch that fails (block of 2048 threads) reported
 * with the runtime's message, and in child processes GPUFUSE_VERIFY=abort:
 * the right kernels agree (the profile names them), the wrong one aborts.
 *
 * With --cpu (run with GPUFUSE_DEVICE=cpu, no GPU needed: CI): every
 * launcher takes the C body, so every function, the wrong one included,
 * gives the C body's results and nothing is reported. */
#define _POSIX_C_SOURCE 200809L /* fork, pipe, setenv */
#include <gpufuse.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define PROTO2(ret, name, ...) ret name(__VA_ARGS__); ret gf_##name(__VA_ARGS__)
PROTO2(void, uk_saxpy, int n, float a, const float *restrict x, float *restrict y);
PROTO2(void, uk_transpose, int h, int w, float s, const float *in, float *out);
PROTO2(void, uk_wrong, int n, const float *restrict x, float *restrict y);
PROTO2(void, uk_badlaunch, int n, float a, const float *restrict x, float *restrict y);

static int failures;
static uint64_t rng = 0x9e3779b97f4a7c15ull;

static float frand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (float)((rng >> 40) / 16777216.0) * 2.0f - 1.0f;
}

static void check(const char *what, int ok)
{
    printf("  %-72s %s\n", what, ok ? "ok" : "FAILED");
    failures += !ok;
}

static float *rand_array(size_t n)
{
    float *a = malloc((n ? n : 1) * sizeof *a);
    for (size_t i = 0; i < n; i++)
        a[i] = frand();
    return a;
}

static float *dup_array(const float *a, size_t n)
{
    float *b = malloc((n ? n : 1) * sizeof *b);
    memcpy(b, a, n * sizeof *b);
    return b;
}

/* the same up to the float rounding of a*x+y (a contraction may differ) */
static int close_arrays(const float *a, const float *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!(fabsf(a[i] - b[i]) <= 1e-6f * fmaxf(1.0f, fabsf(a[i])))) {
            printf("    [%zu]: %.9g, the C body %.9g\n", i, (double)a[i], (double)b[i]);
            return 0;
        }
    return 1;
}

static void saxpy_host(int n)
{
    float *x = rand_array((size_t)n), *y = rand_array((size_t)n), *ref = dup_array(y, (size_t)n);
    uk_saxpy(n, 1.5f, x, ref);
    gf_uk_saxpy(n, 1.5f, x, y);
    char what[96];
    snprintf(what, sizeof what, "saxpy, default rule, host arrays, n = %d", n);
    check(what, close_arrays(y, ref, (size_t)n));
    free(x), free(y), free(ref);
}

static void saxpy_device(int n)
{
    size_t bytes = (size_t)n * sizeof(float);
    float *x = rand_array((size_t)n), *y = rand_array((size_t)n), *ref = dup_array(y, (size_t)n);
    void *dx = NULL, *dy = NULL;
    if (gf_malloc(&dx, bytes) != GF_SUCCESS || gf_malloc(&dy, bytes) != GF_SUCCESS) {
        printf("gf_malloc: %s\n", gf_last_error());
        exit(1);
    }
    gf_memcpy(dx, x, bytes, GF_HOST_TO_DEVICE);
    gf_memcpy(dy, y, bytes, GF_HOST_TO_DEVICE);
    uk_saxpy(n, -0.5f, x, ref);
    gf_uk_saxpy(n, -0.5f, dx, dy);
    gf_memcpy(y, dy, bytes, GF_DEVICE_TO_HOST);
    char what[96];
    snprintf(what, sizeof what, "saxpy, device arrays passed through, n = %d", n);
    check(what, close_arrays(y, ref, (size_t)n));
    gf_free(dx), gf_free(dy);
    free(x), free(y), free(ref);
}

static void transpose(int h, int w)
{
    size_t n = (size_t)h * (size_t)w;
    float *in = rand_array(n), *out = rand_array(n), *ref = dup_array(out, n);
    uk_transpose(h, w, 3.0f, in, ref);
    gf_uk_transpose(h, w, 3.0f, in, out);
    char what[96];
    snprintf(what, sizeof what, "transpose, 2-D grid of 32 x 8 blocks, %d x %d", h, w);
    check(what, close_arrays(out, ref, n));
    free(in), free(out), free(ref);
}

/* On the GPU the wrong kernel runs: odd elements differ from the C body's,
 * even ones agree.  On the CPU the C body runs: all agree. */
static void wrong(int n, int gpu)
{
    float *x = rand_array((size_t)n), *y = rand_array((size_t)n), *ref = dup_array(y, (size_t)n);
    uk_wrong(n, x, ref);
    gf_uk_wrong(n, x, y);
    int even_ok = 1, odd_differ = 1, odd_ok = 1;
    for (int i = 0; i < n; i++) {
        if (i % 2 == 0)
            even_ok &= y[i] == ref[i];
        else
            odd_differ &= y[i] != ref[i], odd_ok &= y[i] == ref[i];
    }
    char what[96];
    snprintf(what, sizeof what, "the wrong kernel %s, n = %d", gpu ? "ran (odd elements differ)" : "did not run", n);
    check(what, even_ok && (gpu ? odd_differ : odd_ok));
    free(x), free(y), free(ref);
}

static char reported[1024];

static void record(gf_status s, const char *message, void *user)
{
    (void)s;
    (void)user;
    snprintf(reported, sizeof reported, "%s", message);
}

static void bad_launch(int gpu)
{
    int n = 1000;
    float *x = rand_array((size_t)n), *y = rand_array((size_t)n), *ref = dup_array(y, (size_t)n);
    reported[0] = '\0';
    gf_set_error_handler(record, NULL);
    gf_uk_badlaunch(n, 2.0f, x, y);
    gf_set_error_handler(NULL, NULL);
    if (gpu) {
        printf("    reported: %s\n", reported);
        check("a block of 2048 threads: reported with CUDA's message and the kernel",
              /* CUDA 13 on the H200 says "invalid argument" (cudaErrorInvalidValue),
               * earlier releases "invalid configuration argument" */
              (strstr(reported, "invalid configuration argument") || strstr(reported, "invalid argument")) &&
                  strstr(reported, "edge_saxpy_k") &&
                  strstr(reported, "uk_badlaunch"));
    } else {
        uk_badlaunch(n, 2.0f, x, ref);
        check("a block of 2048 threads on the CPU: the C body, nothing reported",
              !reported[0] && close_arrays(y, ref, (size_t)n));
    }
    free(x), free(y), free(ref);
}

/* Runs this program with `mode` and the environment variable `env` set;
 * its standard error in out.  The wait status. */
static int run_child(const char *self, const char *mode, const char *env, const char *val, char *out, size_t cap)
{
    int fd[2];
    if (pipe(fd))
        return -1;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 2);
        dup2(fd[1], 1);
        close(fd[0]);
        setenv(env, val, 1);
        setenv("GPUFUSE_PROFILE", "1", 1);
        execl("/proc/self/exe", self, mode, (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    size_t len = 0;
    ssize_t k;
    while ((k = read(fd[0], out + len, cap - 1 - len)) > 0 && len + (size_t)k < cap - 1)
        len += (size_t)k;
    out[len] = '\0';
    close(fd[0]);
    int st = 0;
    waitpid(pid, &st, 0);
    return st;
}

static void verify_children(const char *self)
{
    static char out[65536];
    int st = run_child(self, "verify-good", "GPUFUSE_VERIFY", "abort", out, sizeof out);
    int ok = WIFEXITED(st) && WEXITSTATUS(st) == 0 && strstr(out, "all agree") && strstr(out, "uk_saxpy") &&
             strstr(out, "uk_transpose");
    check("GPUFUSE_VERIFY=abort: the right kernels agree with their C bodies (profiled)", ok);
    if (!ok)
        printf("%s\n", out);
    st = run_child(self, "verify-wrong", "GPUFUSE_VERIFY", "abort", out, sizeof out);
    ok = WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT && strstr(out, "gpufuse: verify: uk_wrong");
    check("GPUFUSE_VERIFY=abort: the wrong kernel is caught (the program aborts)", ok);
    if (!ok)
        printf("status %d\n%s\n", st, out);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    int gpu = gf_init() == GF_SUCCESS && gf_have_device();
    if (!strcmp(mode, "verify-good")) {
        saxpy_host(100003);
        transpose(300, 500);
        return failures != 0;
    }
    if (!strcmp(mode, "verify-wrong")) {
        wrong(4096, gpu);
        return 0; /* GPUFUSE_VERIFY=abort should have stopped it */
    }
    if (!strcmp(mode, "--cpu")) {
        if (gpu) {
            printf("--cpu: a GPU is in use (run with GPUFUSE_DEVICE=cpu)\n");
            return 1;
        }
        printf("hand-written CUDA kernels without a GPU: the C bodies run\n");
    } else if (!gpu) {
        printf("no GPU (%s): skipped\n", gf_last_error());
        return 77;
    } else {
        printf("hand-written CUDA kernels on the GPU against their C bodies\n");
    }
    static const int sizes[] = {0, 1, 255, 256, 257, 1000003};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        saxpy_host(sizes[i]);
    if (gpu)
        for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
            if (sizes[i])
                saxpy_device(sizes[i]);
    static const int shapes[][2] = {{1, 1}, {8, 32}, {7, 33}, {33, 7}, {1, 5000}, {5000, 1}, {1000, 999}};
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++)
        transpose(shapes[i][0], shapes[i][1]);
    wrong(1001, gpu);
    bad_launch(gpu);
    if (gpu)
        verify_children(argv[0]);
    printf("%s\n", failures ? "FAILED" : "every hand-written kernel agrees with its C body");
    return failures ? 1 : 0;
}
