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
 * until the warm-up the .gf.cu started when the process started is done
 * (a program with that much work of its own before its first call);
 * "none": nothing), and then
 * times the first three calls of fc_gesummv on host arrays (N x N doubles,
 * staged).  Prints one JSON line, with "prewarm" false when GPUFUSE_PREWARM=0
 * turned the warm-up off.  Exits 77 without a GPU. */
#define _POSIX_C_SOURCE 199309L
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
    } else if (!strcmp(mode, "devmem")) {
        void *p;
        cudaMalloc(&p, 64u << 20);
    } else if (strcmp(mode, "none")) {
        fprintf(stderr, "first_call: unknown mode %s\n", mode);
        exit(2);
    }
    return now_ms() - t0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "none";
    int n = argc > 2 ? atoi(argv[2]) : 2000;
    int count = 0;
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
    double pre = pre_step(mode), call[3];
    for (int k = 0; k < 3; k++) {
        double t = now_ms();
        fc_gesummv(n, 1.5, 1.2, A, B, x, y);
        call[k] = now_ms() - t;
    }
    const char *pw = getenv("GPUFUSE_PREWARM");
    printf("{\"mode\": \"%s\", \"prewarm\": %s, \"n\": %d, \"context_ms\": %.3f, \"pre_ms\": %.3f, \"call_ms\": [%.3f, %.3f, %.3f], "
           "\"y0\": %.6f}\n", mode, pw && !strcmp(pw, "0") ? "false" : "true", n, ctx, pre, call[0], call[1], call[2], y[0]);
    free(A), free(B), free(x), free(y);
    return 0;
}
