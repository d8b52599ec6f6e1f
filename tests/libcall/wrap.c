/* wrap.c - forms_check.c on the GPU: every library call a launcher makes
 * counted on its way to libgpufuse (linked with -Wl,--wrap=gf_call_...). */
#include <gpufuse/launch.h>

long forms_lib_calls;

int forms_emulated(const char *name)
{
    (void)name;
    return 1;                    /* on the GPU every region runs */
}

#define WRAP(name, params, args)                                                                                \
    void __real_##name params;                                                                                 \
    void __wrap_##name params;                                                                                 \
    void __wrap_##name params                                                                                  \
    {                                                                                                           \
        forms_lib_calls++;                                                                                      \
        __real_##name args;                                                                                     \
    }

WRAP(gf_call_gemm,
     (gf_call * c, gf_op ta, gf_op tb, long long m, long long n, long long k, double alpha, const void *A, long long lda,
      const void *B, long long ldb, double beta, void *C, long long ldc, gf_dtype type, const char *what),
     (c, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, type, what))
WRAP(gf_call_gemm_epilogue,
     (gf_call * c, long long m, long long n, long long k, const float *A, const float *B, const float *bias, float *C,
      int flags, const char *what),
     (c, m, n, k, A, B, bias, C, flags, what))
WRAP(gf_call_gemv,
     (gf_call * c, gf_op ta, long long m, long long n, double alpha, const void *A, long long lda, const void *x,
      double beta, void *y, gf_dtype type, const char *what),
     (c, ta, m, n, alpha, A, lda, x, beta, y, type, what))
WRAP(gf_call_ger,
     (gf_call * c, long long m, long long n, double alpha, const void *x, const void *y, void *A, long long lda,
      gf_dtype type, const char *what),
     (c, m, n, alpha, x, y, A, lda, type, what))
WRAP(gf_call_syrk,
     (gf_call * c, int upper, gf_op ta, long long n, long long k, double alpha, const void *A, long long lda,
      double beta, void *C, long long ldc, gf_dtype type, const char *what),
     (c, upper, ta, n, k, alpha, A, lda, beta, C, ldc, type, what))
WRAP(gf_call_syr2k,
     (gf_call * c, int upper, gf_op ta, long long n, long long k, double alpha, const void *A, long long lda,
      const void *B, long long ldb, double beta, void *C, long long ldc, gf_dtype type, const char *what),
     (c, upper, ta, n, k, alpha, A, lda, B, ldb, beta, C, ldc, type, what))
WRAP(gf_call_symm,
     (gf_call * c, int right, int upper, long long m, long long n, double alpha, const void *A, long long lda,
      const void *B, long long ldb, double beta, void *C, long long ldc, gf_dtype type, const char *what),
     (c, right, upper, m, n, alpha, A, lda, B, ldb, beta, C, ldc, type, what))
WRAP(gf_call_trmm,
     (gf_call * c, int right, int upper, gf_op ta, int unit, long long m, long long n, double alpha, const void *A,
      long long lda, const void *B, long long ldb, void *C, long long ldc, gf_dtype type, const char *what),
     (c, right, upper, ta, unit, m, n, alpha, A, lda, B, ldb, C, ldc, type, what))
WRAP(gf_call_geam,
     (gf_call * c, long long m, long long n, double alpha, const void *A, long long lda, double beta, void *C,
      long long ldc, gf_dtype type, const char *what),
     (c, m, n, alpha, A, lda, beta, C, ldc, type, what))
