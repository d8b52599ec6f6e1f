/* blas_map.h - the launchers' row-major BLAS calls (GEMV, GER, SYRK, SYR2K,
 * SYMM, TRMM, GEAM) as the column-major cuBLAS calls that compute them.
 * CUDA-free, so that tests check the mapping against reference column-major
 * routines on machines without a GPU (tests/libcall/test_blas_map.c). */
#ifndef GPUFUSE_BLAS_MAP_H
#define GPUFUSE_BLAS_MAP_H

#define GF_BLAS_HIDDEN __attribute__((visibility("hidden")))

typedef enum gf_blas_kind {
    GF_BLAS_GEMV, GF_BLAS_GER, GF_BLAS_SYRK, GF_BLAS_SYR2K, GF_BLAS_SYMM, GF_BLAS_TRMM, GF_BLAS_GEAM
} gf_blas_kind;

/* A call as the launcher makes it, every matrix row-major with its row
 * stride (launch.h gives each kind's meaning):
 *   GEMV   y = alpha op(A) x + beta y        A m x n; a = A, b = x, c = y
 *   GER    A = alpha x y^T + A               A m x n; a = x, b = y, c = A
 *   SYRK   C = alpha op(A) op(A)^T + beta C  C n x n, triangle `upper`; op(A) n x k
 *   SYR2K  C = alpha (op(A) op(B)^T + op(B) op(A)^T) + beta C
 *   SYMM   C = alpha S B + beta C (right: B S), S from A's triangle `upper`; C m x n
 *   TRMM   C = alpha op(T) B (right: B op(T)), T A's triangle `upper`, unit: ones
 *          on the diagonal; C m x n, C may be B
 *   GEAM   C = alpha A + beta C              C m x n */
typedef struct gf_blas_rm {
    gf_blas_kind kind;
    int ta, upper, right, unit;
    long long m, n, k;
    const void *a, *b;
    void *c;
    long long lda, ldb, ldc;
} gf_blas_rm;

/* The cuBLAS call: its arguments in cuBLAS's (column-major) meaning. */
typedef struct gf_blas_cm {
    gf_blas_kind kind;
    int trans;                   /* CUBLAS_OP_T (1) or CUBLAS_OP_N (0) */
    int upper;                   /* CUBLAS_FILL_MODE_UPPER (1) or _LOWER (0) */
    int right;                   /* CUBLAS_SIDE_RIGHT (1) or _LEFT (0) */
    int unit;                    /* CUBLAS_DIAG_UNIT (1) or _NON_UNIT (0) */
    int m, n, k;
    const void *a, *b;           /* GEMV: A, x; GER: x, y; GEAM: A, and b is C itself */
    void *c;
    int lda, ldb, ldc;
} gf_blas_cm;

/* Fills *cm; -1 when a size or stride is outside [0, INT_MAX] or a stride is
 * shorter than its row (nothing to call), else 0. */
GF_BLAS_HIDDEN int gf_blas_map(const gf_blas_rm *rm, gf_blas_cm *cm);

#endif /* GPUFUSE_BLAS_MAP_H */
