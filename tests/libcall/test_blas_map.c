/* test_blas_map.c - runtime/blas_map.c without a GPU: every row-major call a
 * launcher makes (its meaning as gpufuse/launch.h states it, computed
 * directly on row-major arrays by rowmajor.h) against the column-major call blas_map.c
 * turns it into, computed by reference routines written from cuBLAS's
 * documentation.  Every kind, every flag, odd sizes, row strides longer than
 * the rows, TRMM in place.  Exit 1 on any difference. */
#include "blas_map.h"
#include "rowmajor.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RM(X, ld, i, j) (X)[(size_t)(i) * (size_t)(ld) + (size_t)(j)]
#define CM(X, ld, i, j) (X)[(size_t)(j) * (size_t)(ld) + (size_t)(i)]

static int failures, checks;

/* ---- cuBLAS's column-major routines, as its documentation defines them --------- */

static void cm_gemv(const gf_blas_cm *c, double al, double be)
{
    const double *A = c->a, *x = c->b;
    double *y = c->c;
    int ylen = c->trans ? c->n : c->m, xlen = c->trans ? c->m : c->n;
    for (int i = 0; i < ylen; i++) {
        double s = 0;
        for (int j = 0; j < xlen; j++)
            s += (c->trans ? CM(A, c->lda, j, i) : CM(A, c->lda, i, j)) * x[j];
        y[i] = al * s + be * y[i];
    }
}

static void cm_ger(const gf_blas_cm *c, double al)
{
    const double *x = c->a, *y = c->b;
    double *A = c->c;
    for (int i = 0; i < c->m; i++)
        for (int j = 0; j < c->n; j++)
            CM(A, c->ldc, i, j) += al * x[i] * y[j];
}

/* op(X)[i][p]: X is n x k (N) or k x n (T) */
static double opx(const double *X, int ld, int trans, int i, int p) { return trans ? CM(X, ld, p, i) : CM(X, ld, i, p); }

static void cm_syr(const gf_blas_cm *c, double al, double be, int two)
{
    const double *A = c->a, *B = c->b;
    double *C = c->c;
    for (int j = 0; j < c->n; j++)
        for (int i = 0; i < c->n; i++) {
            if (c->upper ? i > j : i < j)
                continue;
            double s = 0;
            for (int p = 0; p < c->k; p++)
                s += two ? opx(A, c->lda, c->trans, i, p) * opx(B, c->ldb, c->trans, j, p) +
                               opx(B, c->ldb, c->trans, i, p) * opx(A, c->lda, c->trans, j, p)
                         : opx(A, c->lda, c->trans, i, p) * opx(A, c->lda, c->trans, j, p);
            CM(C, c->ldc, i, j) = al * s + be * CM(C, c->ldc, i, j);
        }
}

/* the symmetric matrix from the stored triangle */
static double sym(const gf_blas_cm *c, int i, int j)
{
    const double *A = c->a;
    bool stored = c->upper ? i <= j : i >= j;
    return stored ? CM(A, c->lda, i, j) : CM(A, c->lda, j, i);
}

/* the triangular matrix, before op */
static double tri(const gf_blas_cm *c, int i, int j)
{
    const double *A = c->a;
    if (c->upper ? i > j : i < j)
        return 0;
    return i == j && c->unit ? 1 : CM(A, c->lda, i, j);
}

static double optri(const gf_blas_cm *c, int i, int j) { return c->trans ? tri(c, j, i) : tri(c, i, j); }

/* SYMM (kind) or TRMM: C = alpha M B + beta C or alpha B M, M m x m or n x n */
static void cm_sided(const gf_blas_cm *c, double al, double be, int symm)
{
    const double *B = c->b;
    double *C = c->c, *out = malloc(sizeof(double) * (size_t)c->m * (size_t)c->n + 8);
    int s = c->right ? c->n : c->m;
    for (int i = 0; i < c->m; i++)
        for (int j = 0; j < c->n; j++) {
            double acc = 0;
            for (int p = 0; p < s; p++) {
                double mv = c->right ? (symm ? sym(c, p, j) : optri(c, p, j)) : (symm ? sym(c, i, p) : optri(c, i, p));
                acc += c->right ? CM(B, c->ldb, i, p) * mv : mv * CM(B, c->ldb, p, j);
            }
            out[(size_t)j * c->m + i] = al * acc + (symm ? be * CM(C, c->ldc, i, j) : 0);
        }
    for (int i = 0; i < c->m; i++) /* after every read: C may be B */
        for (int j = 0; j < c->n; j++)
            CM(C, c->ldc, i, j) = out[(size_t)j * c->m + i];
    free(out);
}

static void cm_geam(const gf_blas_cm *c, double al, double be)
{
    const double *A = c->a, *B = c->b;
    double *C = c->c;
    for (int i = 0; i < c->m; i++)
        for (int j = 0; j < c->n; j++)
            CM(C, c->ldc, i, j) = al * CM(A, c->lda, i, j) + be * CM(B, c->ldc, i, j);
}

static void cm_run(const gf_blas_cm *c, double al, double be)
{
    switch (c->kind) {
    case GF_BLAS_GEMV: cm_gemv(c, al, be); break;
    case GF_BLAS_GER: cm_ger(c, al); break;
    case GF_BLAS_SYRK: cm_syr(c, al, be, 0); break;
    case GF_BLAS_SYR2K: cm_syr(c, al, be, 1); break;
    case GF_BLAS_SYMM: cm_sided(c, al, be, 1); break;
    case GF_BLAS_TRMM: cm_sided(c, al, be, 0); break;
    case GF_BLAS_GEAM: cm_geam(c, al, be); break;
    }
}

/* ---- the check -------------------------------------------------------------------- */

static unsigned seed = 12345;

static double rnd(void)
{
    seed = seed * 1664525u + 1013904223u;
    return (double)((seed >> 8) % 2001) / 1000.0 - 1.0;
}

#define BIG 4096

static void fill(double *x)
{
    for (int i = 0; i < BIG; i++)
        x[i] = rnd();
}

static const char *const kind_names[] = {"GEMV", "GER", "SYRK", "SYR2K", "SYMM", "TRMM", "GEAM"};

/* Runs rm both ways (on copies of the same data) and compares all of C's
 * memory, the gaps between rows included. */
static void check(gf_blas_rm rm, int inplace)
{
    static double a[BIG], b[BIG], c1[BIG], c2[BIG];
    fill(a), fill(b), fill(c1);
    memcpy(c2, c1, sizeof c1);
    double al = 0.75, be = -1.25;
    gf_blas_rm r1 = rm, r2 = rm;
    r1.a = a, r1.b = inplace ? c1 : b, r1.c = c1;
    r2.a = a, r2.b = inplace ? c2 : b, r2.c = c2;
    if (rm.kind == GF_BLAS_GER)
        r1.a = r2.a = a, r1.b = r2.b = b;
    rm_run(&r1, al, be, 0);
    gf_blas_cm cm;
    checks++;
    if (gf_blas_map(&r2, &cm) != 0) {
        printf("FAILED %s m=%lld n=%lld k=%lld: not mapped\n", kind_names[rm.kind], rm.m, rm.n, rm.k);
        failures++;
        return;
    }
    cm_run(&cm, al, be);
    double worst = 0;
    for (int i = 0; i < BIG; i++)
        worst = fmax(worst, fabs(c1[i] - c2[i]));
    if (!(worst <= 1e-12)) {
        printf("FAILED %s ta=%d upper=%d right=%d unit=%d inplace=%d m=%lld n=%lld k=%lld: max |diff| %g\n",
               kind_names[rm.kind], rm.ta, rm.upper, rm.right, rm.unit, inplace, rm.m, rm.n, rm.k, worst);
        failures++;
    }
}

int main(void)
{
    static const long long sizes[][3] = {{5, 7, 3}, {7, 5, 4}, {1, 6, 2}, {6, 1, 1}, {9, 9, 9}};
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        long long m = sizes[z][0], n = sizes[z][1], k = sizes[z][2];
        for (int pad = 0; pad < 3; pad += 2)
            for (int ta = 0; ta < 2; ta++) {
                check((gf_blas_rm){.kind = GF_BLAS_GEMV, .ta = ta, .m = m, .n = n, .lda = n + pad}, 0);
                check((gf_blas_rm){.kind = GF_BLAS_GER, .m = m, .n = n, .ldc = n + pad}, 0);
                check((gf_blas_rm){.kind = GF_BLAS_GEAM, .m = m, .n = n, .lda = n + pad, .ldc = n + 2 * pad}, 0);
                for (int up = 0; up < 2; up++) {
                    long long w = ta ? n : k; /* op(A) is n x k */
                    check((gf_blas_rm){.kind = GF_BLAS_SYRK, .ta = ta, .upper = up, .m = n, .n = n, .k = k,
                                       .lda = w + pad, .ldc = n + pad},
                          0);
                    check((gf_blas_rm){.kind = GF_BLAS_SYR2K, .ta = ta, .upper = up, .m = n, .n = n, .k = k,
                                       .lda = w + pad, .ldb = w + 2 * pad, .ldc = n},
                          0);
                    for (int right = 0; right < 2; right++) {
                        long long s = right ? n : m;
                        if (!ta)
                            check((gf_blas_rm){.kind = GF_BLAS_SYMM, .upper = up, .right = right, .m = m, .n = n,
                                               .lda = s + pad, .ldb = n + pad, .ldc = n + 2 * pad},
                                  0);
                        for (int unit = 0; unit < 2; unit++)
                            for (int inplace = 0; inplace < 2; inplace++)
                                check((gf_blas_rm){.kind = GF_BLAS_TRMM, .ta = ta, .upper = up, .right = right,
                                                   .unit = unit, .m = m, .n = n, .lda = s + pad, .ldb = n + pad,
                                                   .ldc = n + pad},
                                      inplace);
                    }
                }
            }
    }
    /* what cuBLAS cannot take is refused */
    gf_blas_cm cm;
    gf_blas_rm bad = {.kind = GF_BLAS_GEMV, .m = 4, .n = 8, .lda = 7};
    checks++;
    if (gf_blas_map(&bad, &cm) == 0)
        printf("FAILED: a row stride shorter than the row was mapped\n"), failures++;
    bad = (gf_blas_rm){.kind = GF_BLAS_GER, .m = 3000000000LL, .n = 2, .ldc = 2};
    checks++;
    if (gf_blas_map(&bad, &cm) == 0)
        printf("FAILED: a size past INT_MAX was mapped\n"), failures++;
    printf("%d checks, %d failed\n", checks, failures);
    return failures != 0;
}
