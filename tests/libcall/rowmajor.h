/* rowmajor.h - what each launcher BLAS call means, computed directly on
 * row-major arrays of float or double (gpufuse/launch.h states it): the
 * reference of test_blas_map.c (against blas_map.c's column-major cuBLAS
 * calls) and of emul.c (the calls of generated launchers, on the CPU).
 * Sums in double. */
#ifndef ROWMAJOR_H
#define ROWMAJOR_H

#include "blas_map.h"

#include <stdlib.h>

static inline double rm_ld(const void *p, int f32, long long i)
{
    return f32 ? ((const float *)p)[i] : ((const double *)p)[i];
}

static inline void rm_st(void *p, int f32, long long i, double v)
{
    if (f32)
        ((float *)p)[i] = (float)v;
    else
        ((double *)p)[i] = v;
}

#define RMX(P, ld, i, j) rm_ld(P, f32, (long long)(i) * (ld) + (j))

static inline double rm_opa(const gf_blas_rm *r, const void *X, long long ld, int f32, int i, int p)
{
    return r->ta ? RMX(X, ld, p, i) : RMX(X, ld, i, p);
}

static inline double rm_sym(const gf_blas_rm *r, int f32, int i, int j)
{
    int lo = i < j ? i : j, hi = i < j ? j : i;
    return r->upper ? RMX(r->a, r->lda, lo, hi) : RMX(r->a, r->lda, hi, lo);
}

static inline double rm_tri(const gf_blas_rm *r, int f32, int i, int j)
{
    if (r->upper ? j < i : j > i)
        return 0;
    return i == j && r->unit ? 1 : RMX(r->a, r->lda, i, j);
}

/* r's call with alpha, beta on float (f32) or double arrays. */
static inline void rm_run(const gf_blas_rm *r, double al, double be, int f32)
{
    const void *A = r->a, *B = r->b;
    void *C = r->c;
    int m = (int)r->m, n = (int)r->n, k = (int)r->k;
    switch (r->kind) {
    case GF_BLAS_GEMV: {
        int ylen = r->ta ? n : m, xlen = r->ta ? m : n;
        for (int i = 0; i < ylen; i++) {
            double s = 0;
            for (int j = 0; j < xlen; j++)
                s += (r->ta ? RMX(A, r->lda, j, i) : RMX(A, r->lda, i, j)) * rm_ld(B, f32, j);
            rm_st(C, f32, i, al * s + (be == 0 ? 0 : be * rm_ld(C, f32, i)));
        }
        break;
    }
    case GF_BLAS_GER:
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++) {
                long long e = (long long)i * r->ldc + j;
                rm_st(C, f32, e, rm_ld(C, f32, e) + al * rm_ld(A, f32, i) * rm_ld(B, f32, j));
            }
        break;
    case GF_BLAS_SYRK:
    case GF_BLAS_SYR2K:
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                if (r->upper ? j < i : j > i)
                    continue;
                double s = 0;
                for (int p = 0; p < k; p++)
                    s += r->kind == GF_BLAS_SYRK
                             ? rm_opa(r, A, r->lda, f32, i, p) * rm_opa(r, A, r->lda, f32, j, p)
                             : rm_opa(r, A, r->lda, f32, i, p) * rm_opa(r, B, r->ldb, f32, j, p) +
                                   rm_opa(r, B, r->ldb, f32, i, p) * rm_opa(r, A, r->lda, f32, j, p);
                long long e = (long long)i * r->ldc + j;
                rm_st(C, f32, e, al * s + (be == 0 ? 0 : be * rm_ld(C, f32, e)));
            }
        break;
    case GF_BLAS_SYMM:
    case GF_BLAS_TRMM: {
        int symm = r->kind == GF_BLAS_SYMM, s = r->right ? n : m;
        double *out = malloc(sizeof(double) * (size_t)m * (size_t)n + 8);
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++) {
                double acc = 0;
                for (int p = 0; p < s; p++) {
                    double mv;
                    if (r->right)
                        mv = symm ? rm_sym(r, f32, p, j) : r->ta ? rm_tri(r, f32, j, p) : rm_tri(r, f32, p, j);
                    else
                        mv = symm ? rm_sym(r, f32, i, p) : r->ta ? rm_tri(r, f32, p, i) : rm_tri(r, f32, i, p);
                    acc += r->right ? RMX(B, r->ldb, i, p) * mv : mv * RMX(B, r->ldb, p, j);
                }
                long long e = (long long)i * r->ldc + j;
                out[(size_t)i * n + j] = al * acc + (symm && be != 0 ? be * rm_ld(C, f32, e) : 0);
            }
        for (int i = 0; i < m; i++) /* after every read: C may be B */
            for (int j = 0; j < n; j++)
                rm_st(C, f32, (long long)i * r->ldc + j, out[(size_t)i * n + j]);
        free(out);
        break;
    }
    case GF_BLAS_GEAM:
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++) {
                long long e = (long long)i * r->ldc + j;
                rm_st(C, f32, e, al * RMX(A, r->lda, i, j) + (be == 0 ? 0 : be * rm_ld(C, f32, e)));
            }
        break;
    }
}

#undef RMX
#endif /* ROWMAJOR_H */
