/* blas_map.c - row-major BLAS calls as column-major cuBLAS calls.
 *
 * A row-major r x c matrix with row stride ld is, in the same memory, the
 * column-major c x r matrix X^T with leading dimension ld.  So every call is
 * rewritten on the transposes:
 *   y = op(A) x          ->  y = op'(A^T) x with op' the other op
 *   A += x y^T           ->  A^T += y x^T
 *   C = S B (left)       ->  C^T = B^T S^T = B^T S (right), and the stored
 *                            triangle of S flips (row-major lower = column-major upper)
 *   C = op(T) B (left)   ->  C^T = B^T op(T)^T (right); A's memory is T^T column-
 *                            major, op(T)^T = op(T^T): the op stays, the triangle flips
 *   C = A A^T (triangle) ->  C^T's other triangle = (A^T)^T (A^T): trans T
 *   C = a A + b C        ->  C^T = a A^T + b C^T. */
#include "blas_map.h"

#include <limits.h>

static int fits(long long v) { return v >= 0 && v <= INT_MAX; }

/* A row-major r x c operand with row stride ld. */
static int operand(long long r, long long c, long long ld)
{
    return fits(r) && fits(c) && fits(ld) && ld >= (c > 1 ? c : 1);
}

int gf_blas_map(const gf_blas_rm *rm, gf_blas_cm *cm)
{
    long long m = rm->m, n = rm->n, k = rm->k;
    int ok = fits(m) && fits(n) && fits(k);
    *cm = (gf_blas_cm){.kind = rm->kind, .a = rm->a, .b = rm->b, .c = rm->c,
                       .lda = (int)rm->lda, .ldb = (int)rm->ldb, .ldc = (int)rm->ldc};
    switch (rm->kind) {
    case GF_BLAS_GEMV:
        /* A^T is n x m column-major */
        ok = ok && operand(m, n, rm->lda);
        cm->trans = !rm->ta, cm->m = (int)n, cm->n = (int)m;
        break;
    case GF_BLAS_GER:
        /* A^T (n x m) += y x^T */
        ok = ok && operand(m, n, rm->ldc);
        cm->m = (int)n, cm->n = (int)m, cm->a = rm->b, cm->b = rm->a;
        break;
    case GF_BLAS_SYRK:
    case GF_BLAS_SYR2K:
        ok = ok && operand(n, n, rm->ldc) && operand(rm->ta ? k : n, rm->ta ? n : k, rm->lda) &&
             (rm->kind == GF_BLAS_SYRK || operand(rm->ta ? k : n, rm->ta ? n : k, rm->ldb));
        cm->trans = !rm->ta, cm->upper = !rm->upper, cm->n = (int)n, cm->k = (int)k;
        break;
    case GF_BLAS_SYMM:
    case GF_BLAS_TRMM: {
        long long s = rm->right ? n : m;
        ok = ok && operand(m, n, rm->ldc) && operand(m, n, rm->ldb) && operand(s, s, rm->lda);
        cm->right = !rm->right, cm->upper = !rm->upper, cm->m = (int)n, cm->n = (int)m;
        cm->trans = rm->ta, cm->unit = rm->unit;
        break;
    }
    case GF_BLAS_GEAM:
        ok = ok && operand(m, n, rm->ldc) && operand(m, n, rm->lda);
        cm->m = (int)n, cm->n = (int)m, cm->b = rm->c;
        break;
    default: ok = 0;
    }
    return ok ? 0 : -1;
}
