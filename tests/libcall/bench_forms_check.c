/* bench_forms_check.c - the direct cuBLAS calls of bench/libs/bench_forms.c
 * checked without a GPU: the cuBLAS routines it calls are defined here as
 * column-major reference loops on host memory, its launchers (gfd_*, gfs_*)
 * are the C bodies of bench/workloads/blasforms.c (compiled twice with the
 * names mapped), and every form, float and double, at its sizes divided by
 * 100 and by 37, runs both ways from the same inputs; the outputs must agree
 * within the benchmark's bound (max |c body - direct| / S <= 2 (k+4) eps).
 * So a wrong transpose, triangle, side or leading dimension in the
 * benchmark's hand-written calls fails here, not on the GPU machine. */
#define main bench_forms_main
#include "../../bench/libs/bench_forms.c"
#undef main

/* ---- column-major references of the cuBLAS routines bench_forms calls ---- */

#define OPN(o) ((o) == CUBLAS_OP_N)
/* element (r, c) of op(X), X column-major with leading dimension ld */
#define AT(X, ld, tr, r, c) ((tr) ? (X)[(size_t)(c) + (size_t)(r) * (ld)] : (X)[(size_t)(r) + (size_t)(c) * (ld)])

#define REFS(T, P)                                                                                                 \
    cublasStatus_t cublas##P##gemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n,    \
                                   int k, const T *al, const T *A, int lda, const T *B, int ldb, const T *be,     \
                                   T *C, int ldc)                                                                 \
    {                                                                                                              \
        (void)h;                                                                                                   \
        for (int j = 0; j < n; j++)                                                                                \
            for (int i = 0; i < m; i++) {                                                                          \
                double s = 0;                                                                                      \
                for (int p = 0; p < k; p++)                                                                        \
                    s += (double)AT(A, lda, !OPN(ta), i, p) * AT(B, ldb, !OPN(tb), p, j);                          \
                T *c = &C[i + (size_t)j * ldc];                                                                    \
                *c = (T)(*al * s + (*be == 0 ? 0 : *be * (double)*c));                                             \
            }                                                                                                      \
        return CUBLAS_STATUS_SUCCESS;                                                                              \
    }                                                                                                              \
    cublasStatus_t cublas##P##gemv(cublasHandle_t h, cublasOperation_t t, int m, int n, const T *al, const T *A,  \
                                   int lda, const T *x, int incx, const T *be, T *y, int incy)                    \
    {                                                                                                              \
        (void)h, (void)incx, (void)incy;                                                                           \
        int rows = OPN(t) ? m : n, cols = OPN(t) ? n : m;                                                          \
        for (int i = 0; i < rows; i++) {                                                                           \
            double s = 0;                                                                                          \
            for (int p = 0; p < cols; p++)                                                                         \
                s += (double)AT(A, lda, !OPN(t), i, p) * x[p];                                                     \
            y[i] = (T)(*al * s + (*be == 0 ? 0 : *be * (double)y[i]));                                             \
        }                                                                                                          \
        return CUBLAS_STATUS_SUCCESS;                                                                              \
    }                                                                                                              \
    cublasStatus_t cublas##P##ger(cublasHandle_t h, int m, int n, const T *al, const T *x, int incx, const T *y,  \
                                  int incy, T *A, int lda)                                                         \
    {                                                                                                              \
        (void)h, (void)incx, (void)incy;                                                                           \
        for (int j = 0; j < n; j++)                                                                                \
            for (int i = 0; i < m; i++)                                                                            \
                A[i + (size_t)j * lda] += *al * x[i] * y[j];                                                       \
        return CUBLAS_STATUS_SUCCESS;                                                                              \
    }                                                                                                              \
    cublasStatus_t cublas##P##syrk(cublasHandle_t h, cublasFillMode_t up, cublasOperation_t t, int n, int k,      \
                                   const T *al, const T *A, int lda, const T *be, T *C, int ldc)                  \
    {                                                                                                              \
        return cublas##P##syr2k(h, up, t, n, k, al, A, lda, NULL, 0, be, C, ldc);                                  \
    }                                                                                                              \
    /* B NULL: SYRK */                                                                                             \
    cublasStatus_t cublas##P##syr2k(cublasHandle_t h, cublasFillMode_t up, cublasOperation_t t, int n, int k,     \
                                    const T *al, const T *A, int lda, const T *B, int ldb, const T *be, T *C,     \
                                    int ldc)                                                                       \
    {                                                                                                              \
        (void)h;                                                                                                   \
        for (int j = 0; j < n; j++)                                                                                \
            for (int i = 0; i < n; i++) {                                                                          \
                if (up == CUBLAS_FILL_MODE_UPPER ? i > j : i < j)                                                  \
                    continue;                                                                                      \
                double s = 0;                                                                                      \
                for (int p = 0; p < k; p++)                                                                        \
                    s += B ? (double)AT(A, lda, !OPN(t), i, p) * AT(B, ldb, !OPN(t), j, p) +                       \
                                 (double)AT(B, ldb, !OPN(t), i, p) * AT(A, lda, !OPN(t), j, p)                     \
                           : (double)AT(A, lda, !OPN(t), i, p) * AT(A, lda, !OPN(t), j, p);                        \
                T *c = &C[i + (size_t)j * ldc];                                                                    \
                *c = (T)(*al * s + (*be == 0 ? 0 : *be * (double)*c));                                             \
            }                                                                                                      \
        return CUBLAS_STATUS_SUCCESS;                                                                              \
    }                                                                                                              \
    cublasStatus_t cublas##P##symm(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t up, int m, int n,    \
                                   const T *al, const T *A, int lda, const T *B, int ldb, const T *be, T *C,      \
                                   int ldc)                                                                        \
    {                                                                                                              \
        (void)h;                                                                                                   \
        int left = side == CUBLAS_SIDE_LEFT, ks = left ? m : n, upper = up == CUBLAS_FILL_MODE_UPPER;              \
        for (int j = 0; j < n; j++)                                                                                \
            for (int i = 0; i < m; i++) {                                                                          \
                double s = 0;                                                                                      \
                for (int p = 0; p < ks; p++) {                                                                     \
                    int r = left ? i : p, c = left ? p : j;       /* S(r, c) */                                    \
                    int lo = r < c ? r : c, hi = r < c ? c : r;                                                    \
                    double sv = upper ? A[lo + (size_t)hi * lda] : A[hi + (size_t)lo * lda];                       \
                    s += left ? sv * B[p + (size_t)j * ldb] : B[i + (size_t)p * ldb] * sv;                         \
                }                                                                                                  \
                T *c = &C[i + (size_t)j * ldc];                                                                    \
                *c = (T)(*al * s + (*be == 0 ? 0 : *be * (double)*c));                                             \
            }                                                                                                      \
        return CUBLAS_STATUS_SUCCESS;                                                                              \
    }                                                                                                              \
    cublasStatus_t cublas##P##trmm(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t up,                  \
                                   cublasOperation_t t, cublasDiagType_t dg, int m, int n, const T *al, const T *A, \
                                   int lda, const T *B, int ldb, T *C, int ldc)                                   \
    {                                                                                                              \
        (void)h;                                                                                                   \
        int left = side == CUBLAS_SIDE_LEFT, ks = left ? m : n, upper = up == CUBLAS_FILL_MODE_UPPER;              \
        T *out = malloc((size_t)m * n * sizeof *out);                                                              \
        for (int j = 0; j < n; j++)                                                                                \
            for (int i = 0; i < m; i++) {                                                                          \
                double s = 0;                                                                                      \
                for (int p = 0; p < ks; p++) {                                                                     \
                    int r = left ? i : p, c = left ? p : j;       /* op(T)(r, c) */                                \
                    if (!OPN(t)) {                                                                                 \
                        int x = r;                                                                                 \
                        r = c, c = x;                                                                              \
                    }                                                                                              \
                    double tv = r == c && dg == CUBLAS_DIAG_UNIT ? 1                                               \
                                : (upper ? r <= c : r >= c) ? A[r + (size_t)c * lda] : 0;                          \
                    s += left ? tv * B[p + (size_t)j * ldb] : B[i + (size_t)p * ldb] * tv;                         \
                }                                                                                                  \
                out[i + (size_t)j * m] = (T)(*al * s);                                                             \
            }                                                                                                      \
        for (int j = 0; j < n; j++)                                                                                \
            for (int i = 0; i < m; i++)                                                                            \
                C[i + (size_t)j * ldc] = out[i + (size_t)j * m];                                                   \
        free(out);                                                                                                 \
        return CUBLAS_STATUS_SUCCESS;                                                                              \
    }                                                                                                              \
    cublasStatus_t cublas##P##axpy(cublasHandle_t h, int n, const T *al, const T *x, int incx, T *y, int incy)     \
    {                                                                                                              \
        (void)h, (void)incx, (void)incy;                                                                           \
        for (int i = 0; i < n; i++)                                                                                \
            y[i] += *al * x[i];                                                                                    \
        return CUBLAS_STATUS_SUCCESS;                                                                              \
    }
REFS(float, S)
REFS(double, D)

/* the handle calls of bench_forms' main (not run here) */
cublasStatus_t cublasCreate(cublasHandle_t *h)
{
    *h = NULL;
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSetStream(cublasHandle_t h, cudaStream_t s)
{
    (void)h, (void)s;
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasDestroy(cublasHandle_t h)
{
    (void)h;
    return CUBLAS_STATUS_SUCCESS;
}

/* ---- each form both ways on the host ----------------------------------------------- */

static int check(const form *f, int dbl)
{
    size_t es = dbl ? sizeof(double) : sizeof(float);
    void *in[MAXB], *g[MAXB], *r[MAXB];
    for (int i = 0; i < f->nb; i++) {
        size_t n = (size_t)f->len[i];
        in[i] = malloc(n * es);
        for (size_t j = 0; j < n; j++)
            if (dbl)
                ((double *)in[i])[j] = val(j, 1000u + (unsigned)i);
            else
                ((float *)in[i])[j] = (float)val(j, 1000u + (unsigned)i);
        g[i] = r[i] = in[i];
        if (f->out[i]) {
            g[i] = malloc(n * es), r[i] = malloc(n * es);
            memcpy(g[i], in[i], n * es), memcpy(r[i], in[i], n * es);
        }
    }
    f->gf(f, dbl, g);                       /* the C body */
    int bad = f->direct((cublasHandle_t)0, f, dbl, r);
    double tol = 2.0 * (double)(f->k + 4) * (dbl ? 0x1p-52 : 0x1p-23), worst = 0;
    for (int i = 0; i < f->nb; i++) {
        if (!f->out[i])
            continue;
        for (size_t j = 0; j < (size_t)f->len[i]; j++) {
            double x = dbl ? ((double *)g[i])[j] : ((float *)g[i])[j], y = dbl ? ((double *)r[i])[j] : ((float *)r[i])[j];
            double e = fabs(x - y) / f->scale[i];
            if (!(e <= worst))
                worst = e;
        }
        free(g[i]), free(r[i]);
    }
    for (int i = 0; i < f->nb; i++)
        free(in[i]);
    int ok = !bad && worst <= tol;
    printf("  %-8s %s sizes %d %d %d %d: max err %.3g (tol %.3g) %s\n", f->name, dbl ? "f64" : "f32", f->d[0],
           f->d[1], f->d[2], f->d[3], worst, tol, ok ? "ok" : "FAILED");
    return !ok;
}

int main(void)
{
    int failures = 0, checked = 0;
    printf("bench_forms' direct cuBLAS calls (column-major references) against the C bodies\n");
    for (int s = 100; s >= 37; s -= 63) {
        form v[16];
        int n = bench_forms_make(v, s);
        for (int i = 0; i < n; i++)
            for (int dbl = 0; dbl < 2; dbl++, checked++)
                failures += check(&v[i], dbl);
    }
    printf("%d of %d checks failed\n", failures, checked);
    return failures != 0 || checked != 40;
}
