/* emul.c - the launchers' library calls on the CPU (emul.h), each computed
 * by rowmajor.h's reference on the host arrays, and counted. */
#include "emul.h"

#include "rowmajor.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

long forms_lib_calls;

static void run(gf_blas_rm rm, double alpha, double beta, gf_dtype t)
{
    forms_lib_calls++;
    rm_run(&rm, alpha, beta, t == GF_F32);
}

/* The emulation counts every call the launchers can make (GPUFUSE_BLAS is
 * not consulted). */
int gf_blas_use(gf_call *c, double extra_ns)
{
    (void)c, (void)extra_ns;
    return 1;
}

void emul_refused(const char *kernel)
{
    printf("  %s: the launcher would run the kernel (sizes cuBLAS cannot take)\n", kernel);
}

/* C = alpha op(A) op(B) + beta C, row-major */
void gf_call_gemm(gf_call *c, gf_op ta, gf_op tb, long long m, long long n, long long k, double alpha,
                  const void *A, long long lda, const void *B, long long ldb, double beta, void *C,
                  long long ldc, gf_dtype type, const char *what)
{
    (void)c, (void)what;
    forms_lib_calls++;
    int f32 = type == GF_F32;
    for (long long i = 0; i < m; i++)
        for (long long j = 0; j < n; j++) {
            double s = 0;
            for (long long p = 0; p < k; p++)
                s += rm_ld(A, f32, ta == GF_OP_T ? p * lda + i : i * lda + p) *
                     rm_ld(B, f32, tb == GF_OP_T ? j * ldb + p : p * ldb + j);
            rm_st(C, f32, i * ldc + j, alpha * s + (beta == 0 ? 0 : beta * rm_ld(C, f32, i * ldc + j)));
        }
}

void gf_call_gemm_epilogue(gf_call *c, long long m, long long n, long long k, const float *A, const float *B,
                           const float *bias, float *C, int flags, const char *what)
{
    gf_call_gemm(c, GF_OP_N, GF_OP_N, m, n, k, 1, A, k, B, n, 0, C, n, GF_F32, what);
    for (long long i = 0; i < m; i++)
        for (long long j = 0; j < n; j++) {
            float v = C[i * n + j] + ((flags & GF_EPI_BIAS) ? bias[j] : 0.0f);
            if (flags & GF_EPI_RELU)
                v = v > 0 ? v : 0;
            if (flags & GF_EPI_GELU)
                v = 0.5f * v * (1.0f + tanhf(0.7978845608028654f * (v + 0.044715f * v * v * v)));
            C[i * n + j] = v;
        }
}

void gf_call_gemv(gf_call *c, gf_op ta, long long m, long long n, double alpha, const void *A, long long lda,
                  const void *x, double beta, void *y, gf_dtype type, const char *what)
{
    (void)c, (void)what;
    run((gf_blas_rm){.kind = GF_BLAS_GEMV, .ta = ta == GF_OP_T, .m = m, .n = n, .a = A, .b = x, .c = y, .lda = lda},
        alpha, beta, type);
}

void gf_call_ger(gf_call *c, long long m, long long n, double alpha, const void *x, const void *y, void *A,
                 long long lda, gf_dtype type, const char *what)
{
    (void)c, (void)what;
    run((gf_blas_rm){.kind = GF_BLAS_GER, .m = m, .n = n, .a = x, .b = y, .c = A, .ldc = lda}, alpha, 1, type);
}

void gf_call_syrk(gf_call *c, int upper, gf_op ta, long long n, long long k, double alpha, const void *A,
                  long long lda, double beta, void *C, long long ldc, gf_dtype type, const char *what)
{
    (void)c, (void)what;
    run((gf_blas_rm){.kind = GF_BLAS_SYRK, .ta = ta == GF_OP_T, .upper = upper, .m = n, .n = n, .k = k, .a = A,
                     .c = C, .lda = lda, .ldc = ldc},
        alpha, beta, type);
}

void gf_call_syr2k(gf_call *c, int upper, gf_op ta, long long n, long long k, double alpha, const void *A,
                   long long lda, const void *B, long long ldb, double beta, void *C, long long ldc, gf_dtype type,
                   const char *what)
{
    (void)c, (void)what;
    run((gf_blas_rm){.kind = GF_BLAS_SYR2K, .ta = ta == GF_OP_T, .upper = upper, .m = n, .n = n, .k = k, .a = A,
                     .b = B, .c = C, .lda = lda, .ldb = ldb, .ldc = ldc},
        alpha, beta, type);
}

void gf_call_symm(gf_call *c, int right, int upper, long long m, long long n, double alpha, const void *A,
                  long long lda, const void *B, long long ldb, double beta, void *C, long long ldc, gf_dtype type,
                  const char *what)
{
    (void)c, (void)what;
    run((gf_blas_rm){.kind = GF_BLAS_SYMM, .right = right, .upper = upper, .m = m, .n = n, .a = A, .b = B, .c = C,
                     .lda = lda, .ldb = ldb, .ldc = ldc},
        alpha, beta, type);
}

void gf_call_trmm(gf_call *c, int right, int upper, gf_op ta, int unit, long long m, long long n, double alpha,
                  const void *A, long long lda, const void *B, long long ldb, void *C, long long ldc, gf_dtype type,
                  const char *what)
{
    (void)c, (void)what;
    run((gf_blas_rm){.kind = GF_BLAS_TRMM, .ta = ta == GF_OP_T, .upper = upper, .right = right, .unit = unit,
                     .m = m, .n = n, .a = A, .b = B, .c = C, .lda = lda, .ldb = ldb, .ldc = ldc},
        alpha, 0, type);
}

void gf_call_geam(gf_call *c, long long m, long long n, double alpha, const void *A, long long lda, double beta,
                  void *C, long long ldc, gf_dtype type, const char *what)
{
    (void)c, (void)what;
    run((gf_blas_rm){.kind = GF_BLAS_GEAM, .m = m, .n = n, .a = A, .c = C, .lda = lda, .ldc = ldc}, alpha, beta,
        type);
}
