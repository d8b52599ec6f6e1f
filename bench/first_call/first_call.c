/* first_call.c - what the first call of a generated launcher costs in a new
 * process, beyond its transfers and its GPU time (issue: whole programs pay
 * a fixed cost once).  One process per measurement:
 *
 *   first_call MODE [N]
 *
 * creates the CUDA context (timed, not counted: PolyBench-style timing starts
 * after it), then, by MODE, does one runtime step on its own and times it
 * ("init": gf_init; "props": cudaGetDeviceProperties; "pinned": 4 x 8 MiB
 * cudaHostAlloc; "devmem": cudaMalloc of 64 MiB; "blas": a 2 x 2 gf_dgemm on device memory (cuBLAS's
 * handle and first kernel); "map": the first call of fc_scale, a generated
 * kernel on host arrays (everything but cuBLAS); "wait": gf_prewarm_wait,
 * until the warm-up the .gf.cu started when the process started is done;
 * "work": 50 ms of the program's own CPU work (a real program reads its
 * input before its first call: the warm-up overlaps that);
 * "none": nothing), and then
 * times the first three calls of fc_gesummv on host arrays (N x N doubles,
 * staged), each under the runtime's profile (GPUFUSE_PROFILE, set by the
 * probe itself so that the runtime still initialises inside the first call:
 * the call's GPU time from its events, and the bytes it staged in and out;
 * the table it prints at exit is silenced).  After
 * the calls it times copies of those bytes the way the launcher makes them
 * (gf_memcpy from and to pageable memory, through the then warm staging
 * ring): the call's transfers.  Prints one JSON line: "extra_ms" is each
 * call's wall time minus its transfers minus its GPU time (the goal:
 * the first at most 5 ms), "prewarm" false when GPUFUSE_PREWARM=0 turned
 * the warm-up off.  Exits 77 without a GPU. */
#define _GNU_SOURCE /* open_memstream */
#include <cuda_runtime_api.h>
#include <gpufuse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void fc_gesummv(int n, double alpha, double beta, const double *A, const double *B, const double *x, double *y);
void fc_scale(int n, double a, const double *x, double *y);

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static double pre_step(const char *mode)
{
    double t0 = now_ms();
    if (!strcmp(mode, "init")) {
        gf_init();
    } else if (!strcmp(mode, "props")) {
        struct cudaDeviceProp p;
        cudaGetDeviceProperties(&p, 0);
    } else if (!strcmp(mode, "pinned")) {
        for (int i = 0; i < 4; i++) {
            void *p;
            cudaHostAlloc(&p, 8u << 20, cudaHostAllocPortable);
        }
    } else if (!strcmp(mode, "blas")) {
        double *d = NULL;
        if (gf_malloc((void **)&d, 12 * sizeof *d) != GF_SUCCESS ||
            gf_dgemm(GF_OP_N, GF_OP_N, 2, 2, 2, 1.0, d, 2, d + 4, 2, 0.0, d + 8, 2) != GF_SUCCESS) {
            fprintf(stderr, "first_call: blas: %s\n", gf_last_error());
            exit(1);
        }
        cudaDeviceSynchronize();
    } else if (!strcmp(mode, "map")) {
        double x[64] = {0}, y[64];
        fc_scale(64, 2.0, x, y);
    } else if (!strcmp(mode, "wait")) {
        gf_prewarm_wait();
    } else if (!strcmp(mode, "work")) {
        volatile double acc = 1.0; /* CPU work of the program's own, ~50 ms */
        while (now_ms() - t0 < 50.0)
            for (int i = 0; i < 10000; i++)
                acc = acc * 1.0000001 + 1e-9;
    } else if (!strcmp(mode, "devmem")) {
        void *p;
        cudaMalloc(&p, 64u << 20);
    } else if (strcmp(mode, "none")) {
        fprintf(stderr, "first_call: unknown mode %s\n", mode);
        exit(2);
    }
    return now_ms() - t0;
}

/* The profile's line for fc_gesummv since the last reset: GPU ms (0 when it
 * has none) and MB staged in and out.  The columns are gf_profile_print's. */
static int profiled(double *gpu_ms, double *in_mb, double *out_mb)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return 0;
    gf_profile_print(f);
    fclose(f);
    const char *line = strstr(text, "\nfc_gesummv ");
    char gms[32] = "";
    unsigned long long calls, dev, cpu, seq;
    char us[32], gbs[32], pk[32];
    double wall;
    int ok = line && sscanf(line + 1, "fc_gesummv %llu %llu %llu %llu %31s %31s %31s %31s %lf %lf %lf", &calls, &dev,
                            &cpu, &seq, gms, us, gbs, pk, &wall, in_mb, out_mb) == 11;
    *gpu_ms = ok && strcmp(gms, "-") ? atof(gms) : 0;
    free(text);
    gf_profile_reset();
    return ok;
}

/* The call's transfers: its staged bytes copied the way the launcher does. */
static double transfers_ms(double in_mb, double out_mb)
{
    size_t in = (size_t)(in_mb * 1e6), out = (size_t)(out_mb * 1e6), most = in > out ? in : out;
    char *host = malloc(most + 1);
    void *dev = NULL;
    if (!host || gf_malloc(&dev, most + 1) != GF_SUCCESS)
        return -1;
    memset(host, 1, most + 1);
    double best = 1e30;
    for (int rep = 0; rep < 3; rep++) {
        double t = now_ms();
        if (in)
            gf_memcpy(dev, host, in, GF_HOST_TO_DEVICE);
        if (out)
            gf_memcpy(host, dev, out, GF_DEVICE_TO_HOST);
        t = now_ms() - t;
        best = t < best ? t : best;
    }
    gf_free(dev);
    free(host);
    return best;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "none";
    int n = argc > 2 ? atoi(argv[2]) : 2000;
    int count = 0;
    setenv("GPUFUSE_PROFILE", "1", 1); /* read at the runtime's initialisation, in the first call */
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        fprintf(stderr, "first_call: no GPU\n");
        return 77;
    }
    double t0 = now_ms();
    cudaFree(0);
    double ctx = now_ms() - t0;
    size_t nn = (size_t)n * n;
    double *A = malloc(nn * sizeof *A), *B = malloc(nn * sizeof *B), *x = malloc(n * sizeof *x),
           *y = malloc(n * sizeof *y);
    if (!A || !B || !x || !y)
        return 1;
    for (size_t i = 0; i < nn; i++)
        A[i] = (double)(i % 7) / 7, B[i] = (double)(i % 5) / 5;
    for (int i = 0; i < n; i++)
        x[i] = (double)(i % 3) / 3;
    double pre = pre_step(mode), call[3], gpu[3], in_mb = 0, out_mb = 0;
    for (int k = 0; k < 3; k++) {
        double t = now_ms();
        fc_gesummv(n, 1.5, 1.2, A, B, x, y);
        call[k] = now_ms() - t;
        if (!profiled(&gpu[k], &in_mb, &out_mb)) {
            fprintf(stderr, "first_call: no profile line for fc_gesummv\n");
            return 1;
        }
    }
    double xfer = transfers_ms(in_mb, out_mb);
    const char *pw = getenv("GPUFUSE_PREWARM");
    printf("{\"mode\": \"%s\", \"prewarm\": %s, \"n\": %d, \"context_ms\": %.3f, \"pre_ms\": %.3f, "
           "\"call_ms\": [%.3f, %.3f, %.3f], \"gpu_ms\": [%.3f, %.3f, %.3f], \"transfer_ms\": %.3f, "
           "\"staged_mb\": [%.1f, %.1f], \"extra_ms\": [%.3f, %.3f, %.3f], \"y0\": %.6f}\n",
           mode, pw && !strcmp(pw, "0") ? "false" : "true", n, ctx, pre, call[0], call[1], call[2], gpu[0], gpu[1],
           gpu[2], xfer, in_mb, out_mb, call[0] - xfer - gpu[0], call[1] - xfer - gpu[1], call[2] - xfer - gpu[2], y[0]);
    free(A), free(B), free(x), free(y);
    fflush(stdout);
    FILE *quiet = freopen("/dev/null", "w", stderr); /* the profile's table at exit */
    (void)quiet;
    return 0;
}
