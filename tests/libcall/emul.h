/* emul.h - the launcher interface the library calls of generated launchers
 * use (gpufuse/launch.h), on the CPU: emul.c computes each call on host
 * arrays (rowmajor.h), so that emulate.py's copies of the launchers' calls
 * run without a GPU.  forms_lib_calls counts the calls made. */
#ifndef EMUL_H
#define EMUL_H

#include <gpufuse.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct gf_call gf_call;
extern long forms_lib_calls;

void gf_call_gemm(gf_call *c, gf_op ta, gf_op tb, long long m, long long n, long long k, double alpha,
                  const void *A, long long lda, const void *B, long long ldb, double beta, void *C,
                  long long ldc, gf_dtype type, const char *what);
void gf_call_gemm_epilogue(gf_call *c, long long m, long long n, long long k, const float *A, const float *B,
                           const float *bias, float *C, int flags, const char *what);
void gf_call_gemv(gf_call *c, gf_op ta, long long m, long long n, double alpha, const void *A, long long lda,
                  const void *x, double beta, void *y, gf_dtype type, const char *what);
void gf_call_ger(gf_call *c, long long m, long long n, double alpha, const void *x, const void *y, void *A,
                 long long lda, gf_dtype type, const char *what);
void gf_call_syrk(gf_call *c, int upper, gf_op ta, long long n, long long k, double alpha, const void *A,
                  long long lda, double beta, void *C, long long ldc, gf_dtype type, const char *what);
void gf_call_syr2k(gf_call *c, int upper, gf_op ta, long long n, long long k, double alpha, const void *A,
                   long long lda, const void *B, long long ldb, double beta, void *C, long long ldc, gf_dtype type,
                   const char *what);
void gf_call_symm(gf_call *c, int right, int upper, long long m, long long n, double alpha, const void *A,
                  long long lda, const void *B, long long ldb, double beta, void *C, long long ldc, gf_dtype type,
                  const char *what);
void gf_call_trmm(gf_call *c, int right, int upper, gf_op ta, int unit, long long m, long long n, double alpha,
                  const void *A, long long lda, const void *B, long long ldb, void *C, long long ldc, gf_dtype type,
                  const char *what);
void gf_call_geam(gf_call *c, long long m, long long n, double alpha, const void *A, long long lda, double beta,
                  void *C, long long ldc, gf_dtype type, const char *what);

static inline int gf_blas_fits(long long r, long long c, long long ld)
{
    return r > 0 && c > 0 && ld >= c && r <= 2147483647LL && c <= 2147483647LL && ld <= 2147483647LL;
}

/* emul.c: every call the launchers can make is counted (no GPUFUSE_BLAS) */
int gf_blas_use(gf_call *c, double extra_ns);

static inline long long gf_max(long long a, long long b) { return a > b ? a : b; }

/* emulate.py: the launcher could not make its calls (sizes): reported */
void emul_refused(const char *kernel);

#endif /* EMUL_H */
