/* libprobe.c - what the CUDA libraries charge once per process, measured
 * without gpufuse (the first-call probe, first_call.c, measures gpufuse's
 * launchers; this one splits the once-only costs they are made of, so that
 * the runtime can move each off the first call or avoid it):
 *
 *   libprobe MODE [N]
 *
 * creates the context (timed, not counted), then, by MODE, times:
 *   gemv      cublasCreate, then the first and second cublasDgemv (N x N)
 *   gemvex    the same GEMV as cublasGemmEx with one column (what gf_gemm does)
 *   gemm      the first and second cublasGemmEx, N x N x N doubles
 *   gemmwarm  a 64 x 64 x 64 GemmEx first, then the N-sized one
 *   gemmbg    cublasCreate and a 64-sized GemmEx on a second thread while
 *             the main thread copies 64 MiB pageable to the device; then the
 *             main thread's first N-sized GemmEx
 *   pin       cudaHostAlloc of 1, 4 and 32 MiB; a 64 MiB pageable copy each
 *             way; cudaHostRegister of 64 MiB
 * Prints one JSON line.  Exits 77 without a GPU. */
#define _POSIX_C_SOURCE 199309L
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

#define CK(x)                                                                                   \
    do {                                                                                        \
        int e_ = (int)(x);                                                                      \
        if (e_) {                                                                               \
            fprintf(stderr, "libprobe: %s failed (%d) at line %d\n", #x, e_, __LINE__);          \
            exit(1);                                                                            \
        }                                                                                       \
    } while (0)

static double *dev(size_t n)
{
    double *p;
    CK(cudaMalloc((void **)&p, n * sizeof *p));
    CK(cudaMemset(p, 0, n * sizeof *p));
    return p;
}

static double gemm_ex(cublasHandle_t h, int m, int n, int k, const double *A, const double *B, double *C)
{
    const double one = 1, zero = 0;
    double t = now_ms();
    CK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, A, CUDA_R_64F, m, B, CUDA_R_64F, k, &zero, C,
                    CUDA_R_64F, m, CUBLAS_COMPUTE_64F, CUBLAS_GEMM_DEFAULT));
    CK(cudaDeviceSynchronize());
    return now_ms() - t;
}

static double gemv(cublasHandle_t h, int n, const double *A, const double *x, double *y)
{
    const double one = 1, zero = 0;
    double t = now_ms();
    CK(cublasDgemv(h, CUBLAS_OP_N, n, n, &one, A, n, x, 1, &zero, y, 1));
    CK(cudaDeviceSynchronize());
    return now_ms() - t;
}

static void *warm_thread(void *arg)
{
    double *t = arg, t0 = now_ms();
    cublasHandle_t h;
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CK(cublasCreate(&h));
    CK(cublasSetStream(h, s));
    double *A = dev(3 * 64 * 64);
    const double one = 1, zero = 0;
    CK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 64, 64, 64, &one, A, CUDA_R_64F, 64, A + 4096, CUDA_R_64F, 64,
                    &zero, A + 8192, CUDA_R_64F, 64, CUBLAS_COMPUTE_64F, CUBLAS_GEMM_DEFAULT));
    CK(cudaStreamSynchronize(s));
    *t = now_ms() - t0;
    return NULL;
}

static void copy_times(double *h2d, double *d2h, size_t bytes)
{
    char *h = malloc(bytes), *d;
    if (!h)
        exit(1);
    memset(h, 1, bytes);
    CK(cudaMalloc((void **)&d, bytes));
    double t = now_ms();
    CK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
    *h2d = now_ms() - t;
    t = now_ms();
    CK(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost));
    *d2h = now_ms() - t;
    CK(cudaFree(d));
    free(h);
}

static void pin(void)
{
    size_t sz[] = {1u << 20, 4u << 20, 32u << 20};
    double ta[3], h2d, d2h, h2d2, d2h2, reg;
    for (int i = 0; i < 3; i++) {
        void *p;
        double t = now_ms();
        CK(cudaHostAlloc(&p, sz[i], cudaHostAllocPortable));
        ta[i] = now_ms() - t;
    }
    copy_times(&h2d, &d2h, 64u << 20);
    copy_times(&h2d2, &d2h2, 64u << 20);
    char *h = malloc(64u << 20);
    memset(h, 2, 64u << 20);
    double t = now_ms();
    CK(cudaHostRegister(h, 64u << 20, cudaHostRegisterDefault));
    reg = now_ms() - t;
    printf("{\"mode\": \"pin\", \"hostalloc_ms\": [%.3f, %.3f, %.3f], \"pageable_64MiB_h2d_ms\": [%.3f, %.3f], "
           "\"pageable_64MiB_d2h_ms\": [%.3f, %.3f], \"register_64MiB_ms\": %.3f}\n",
           ta[0], ta[1], ta[2], h2d, h2d2, d2h, d2h2, reg);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "gemm";
    int n = argc > 2 ? atoi(argv[2]) : 2000;
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        fprintf(stderr, "libprobe: no GPU\n");
        return 77;
    }
    double t0 = now_ms();
    CK(cudaFree(0));
    double ctx = now_ms() - t0;
    if (!strcmp(mode, "pin")) {
        pin();
        return 0;
    }
    size_t nn = (size_t)n * n;
    double *A = dev(nn), *B = dev(nn), *C = dev(nn), bg = 0, pre = 0, first, second, create = 0;
    cublasHandle_t h;
    pthread_t th;
    if (!strcmp(mode, "gemmbg")) {
        double h2d, d2h;
        t0 = now_ms();
        pthread_create(&th, NULL, warm_thread, &bg);
        copy_times(&h2d, &d2h, 64u << 20);
        pre = now_ms() - t0; /* the main thread's copies, beside the warm-up */
        pthread_join(th, NULL);
    }
    t0 = now_ms();
    CK(cublasCreate(&h));
    create = now_ms() - t0;
    if (!strcmp(mode, "gemv")) {
        first = gemv(h, n, A, B, C);
        second = gemv(h, n, A, B, C);
    } else if (!strcmp(mode, "gemvex")) {
        first = gemm_ex(h, n, 1, n, A, B, C);
        second = gemm_ex(h, n, 1, n, A, B, C);
    } else if (!strcmp(mode, "gemm") || !strcmp(mode, "gemmbg")) {
        first = gemm_ex(h, n, n, n, A, B, C);
        second = gemm_ex(h, n, n, n, A, B, C);
    } else if (!strcmp(mode, "gemmwarm")) {
        pre = gemm_ex(h, 64, 64, 64, A, B, C);
        first = gemm_ex(h, n, n, n, A, B, C);
        second = gemm_ex(h, n, n, n, A, B, C);
    } else {
        fprintf(stderr, "libprobe: unknown mode %s\n", mode);
        return 2;
    }
    printf("{\"mode\": \"%s\", \"n\": %d, \"context_ms\": %.3f, \"create_ms\": %.3f, \"pre_ms\": %.3f, "
           "\"bg_ms\": %.3f, \"first_ms\": %.3f, \"second_ms\": %.3f}\n",
           mode, n, ctx, create, pre, bg, first, second);
    cublasDestroy(h);
    return 0;
}
