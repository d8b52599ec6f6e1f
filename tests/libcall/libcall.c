/* libcall.c - every matrix-product region of kernels.c through its launcher
 * (cuBLAS / cuBLASLt on a GPU; the CPU fallback or the host back end
 * otherwise) against its own C body, over shapes that take the library path
 * (odd sizes, a longer row stride, transposed operands, C += A B, a scale,
 * bias/ReLU epilogues in the nest and in the next nest) and shapes that must
 * take the kernel (empty, k = 0).  Exit 1 on any difference beyond the
 * reassociation of a length-p sum. */
#include <gpufuse.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DECL2(name, ...) void name(__VA_ARGS__); void gf_##name(__VA_ARGS__);
DECL2(matmul, int n, int m, int p, const float A[n][p], const float B[p][m], float C[n][m])
DECL2(matmul_flat_tb, int n, int m, int p, const double *A, const double *Bt, double *C)
DECL2(dense_relu, int n, int m, int p, const float x[n][p], const float w[p][m], const float b[m], float y[n][m])
DECL2(dense_inline, int n, int m, int p, const float x[n][p], const float w[p][m], const float b[m], float y[n][m])
DECL2(gemm_acc, int n, int m, int p, const float A[p][n], const float B[p][m], float C[n][m])
DECL2(scaled, int n, int m, int p, float alpha, const float A[n][p], const float B[p][m], float C[n][m])
DECL2(notmm, int n, int m, int p, const float A[n][p], const float B[p][m], float C[n][m])
DECL2(matmul_ld, int n, int m, int p, int ld, const float A[n][ld], const float B[p][m], float C[n][m])
DECL2(matmul_tanh, int n, int m, int p, const float A[n][p], const float B[p][m], float C[n][m])
DECL2(mlp, int n, int d, int h, const float x[n][d], const float w1[d][h], const float b1[h], const float w2[h][d],
      float y[n][d])
DECL2(dgemm_steps, int steps, int n, const double A[n][n], double X[n][n], double Y[n][n])
DECL2(dense_gelu, int n, int m, int p, const float x[n][p], const float w[p][m], const float b[m], float y[n][m])
DECL2(gelu_inline, int n, int m, int p, const float x[n][p], const float w[p][m], float y[n][m])
DECL2(power_spectrum, int n, int m, const float x[n][m], float p[n][m])
DECL2(row_spectrum, int n, int m, const float x[n][m], float spec[n][m + 2], float mag[n][m / 2 + 1])

static int failures;

static void fill_f(float *x, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        x[i] = (float)((seed >> 8) % 2001) / 1000.0f - 1.0f;
    }
}

static void fill_d(double *x, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        x[i] = (double)((seed >> 8) % 2001) / 1000.0 - 1.0;
    }
}

/* Elements in [-1, 1]: a length-p sum reassociated differs by about
 * p * eps at most.  want/got are float, or double when `dbl`. */
static void check_sum(const char *what, int n, int m, int p, const void *want, const void *got, size_t len, bool dbl,
                      double slack)
{
    double tol = 4.0 * (p + 1) * (dbl ? 2.3e-16 : 1.2e-7) + slack, worst = 0;
    size_t bad = 0, first = 0, nan_want = 0, nan_got = 0;
    for (size_t i = 0; i < len; i++) {
        double w = dbl ? ((const double *)want)[i] : ((const float *)want)[i];
        double g = dbl ? ((const double *)got)[i] : ((const float *)got)[i];
        double d = fabs(w - g);
        if (!(d <= tol * (1 + fabs(w))) && !bad++)
            first = i;
        nan_want += w != w, nan_got += g != g;
        if (d > worst || d != d)
            worst = d;
    }
    printf("  %-14s n=%-4d m=%-4d p=%-4d max |diff| %.2e  %s\n", what, n, m, p, worst, bad ? "FAILED" : "ok");
    if (bad) /* which side is wrong, and where: what an intermittent failure needs to be found */
        printf("    %zu of %zu elements differ, the first at %zu (row %zu, column %zu): the C body %.9g, the "
               "launcher %.9g; NaN: %zu in the C body's, %zu in the launcher's\n",
               bad, len, first, m ? first / (size_t)m : 0, m ? first % (size_t)m : 0,
               dbl ? ((const double *)want)[first] : ((const float *)want)[first],
               dbl ? ((const double *)got)[first] : ((const float *)got)[first], nan_want, nan_got);
    failures += bad != 0;
}

static void check_f_slack(const char *what, int n, int m, int p, const float *want, const float *got, size_t len,
                          double slack)
{
    check_sum(what, n, m, p, want, got, len, false, slack);
}

static void check_f(const char *what, int n, int m, int p, const float *want, const float *got, size_t len)
{
    check_sum(what, n, m, p, want, got, len, false, 0);
}

static void check_d(const char *what, int n, int m, int p, const double *want, const double *got, size_t len)
{
    check_sum(what, n, m, p, want, got, len, true, 0);
}

/* FFT results: the CPU's DFT against cuFFT, relative to the largest value */
static void check_rel_max(const char *what, int n, int m, const float *want, const float *got, size_t len)
{
    double big = 0, worst = 0;
    for (size_t i = 0; i < len; i++)
        big = fmax(big, fabs(want[i]));
    size_t bad = 0;
    for (size_t i = 0; i < len; i++) {
        double d = fabs((double)want[i] - got[i]);
        if (!(d <= 2e-4 * (1 + big)))
            bad++;
        if (d > worst || d != d)
            worst = d;
    }
    printf("  %-14s n=%-4d m=%-4d        max |diff| %.2e of %.2e  %s\n", what, n, m, worst, big, bad ? "FAILED" : "ok");
    failures += bad != 0;
}

static void run(int n, int m, int p, unsigned seed)
{
    int ld = p + 3;
    size_t big = (size_t)(n > p ? n : p) * (size_t)(m > ld ? m : ld) + 16;
    /* the bias: m values for the dense regions, p for mlp's b1[h] with h = p (it once had m + 1 only:
     * mlp read past it, and NaN in the heap beyond made both sides NaN now and then) */
    const size_t nbias = (size_t)(m > p ? m : p) + 1;
    float *A = malloc(big * sizeof *A), *B = malloc(big * sizeof *B), *b = malloc(nbias * sizeof *b);
    float *c1 = malloc(big * sizeof *c1), *c2 = malloc(big * sizeof *c2);
    double *dA = malloc(big * sizeof *dA), *dB = malloc(big * sizeof *dB);
    double *d1 = malloc(big * sizeof *d1), *d2 = malloc(big * sizeof *d2);
    if (!A || !B || !b || !c1 || !c2 || !dA || !dB || !d1 || !d2) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    fill_f(A, big, seed);
    fill_f(B, big, seed + 1);
    fill_f(b, nbias, seed + 2);
    fill_d(dA, big, seed + 3);
    fill_d(dB, big, seed + 4);
    size_t nc = (size_t)n * m;

#define SAME_START() (fill_f(c1, big, seed + 5), memcpy(c2, c1, big * sizeof *c1))
    SAME_START();
    matmul(n, m, p, (const float(*)[p])A, (const float(*)[m])B, (float(*)[m])c1);
    gf_matmul(n, m, p, (const float(*)[p])A, (const float(*)[m])B, (float(*)[m])c2);
    check_f("matmul", n, m, p, c1, c2, nc);

    fill_d(d1, big, seed + 6);
    memcpy(d2, d1, big * sizeof *d1);
    matmul_flat_tb(n, m, p, dA, dB, d1);
    gf_matmul_flat_tb(n, m, p, dA, dB, d2);
    check_d("flat, B^T, f64", n, m, p, d1, d2, nc);

    SAME_START();
    dense_relu(n, m, p, (const float(*)[p])A, (const float(*)[m])B, b, (float(*)[m])c1);
    gf_dense_relu(n, m, p, (const float(*)[p])A, (const float(*)[m])B, b, (float(*)[m])c2);
    check_f("dense_relu", n, m, p, c1, c2, nc);

    SAME_START();
    dense_inline(n, m, p, (const float(*)[p])A, (const float(*)[m])B, b, (float(*)[m])c1);
    gf_dense_inline(n, m, p, (const float(*)[p])A, (const float(*)[m])B, b, (float(*)[m])c2);
    check_f("dense_inline", n, m, p, c1, c2, nc);

    SAME_START();
    gemm_acc(n, m, p, (const float(*)[n])A, (const float(*)[m])B, (float(*)[m])c1);
    gf_gemm_acc(n, m, p, (const float(*)[n])A, (const float(*)[m])B, (float(*)[m])c2);
    check_f("C += A^T B", n, m, p, c1, c2, nc);

    SAME_START();
    scaled(n, m, p, -0.5f, (const float(*)[p])A, (const float(*)[m])B, (float(*)[m])c1);
    gf_scaled(n, m, p, -0.5f, (const float(*)[p])A, (const float(*)[m])B, (float(*)[m])c2);
    check_f("alpha A B", n, m, p, c1, c2, nc);

    SAME_START();
    notmm(n, m, p, (const float(*)[p])A, (const float(*)[m])B, (float(*)[m])c1);
    gf_notmm(n, m, p, (const float(*)[p])A, (const float(*)[m])B, (float(*)[m])c2);
    check_f("not a product", n, m, p, c1, c2, nc);

    SAME_START();
    matmul_ld(n, m, p, ld, (const float(*)[ld])A, (const float(*)[m])B, (float(*)[m])c1);
    gf_matmul_ld(n, m, p, ld, (const float(*)[ld])A, (const float(*)[m])B, (float(*)[m])c2);
    check_f("lda > p", n, m, p, c1, c2, nc);

    SAME_START();
    dense_gelu(n, m, p, (const float(*)[p])A, (const float(*)[m])B, b, (float(*)[m])c1);
    gf_dense_gelu(n, m, p, (const float(*)[p])A, (const float(*)[m])B, b, (float(*)[m])c2);
    /* cuBLASLt's GELU is the same tanh formula, evaluated its own way */
    check_f_slack("gelu + bias", n, m, p, c1, c2, nc, 2e-5);

    SAME_START();
    gelu_inline(n, m, p, (const float(*)[p])A, (const float(*)[m])B, (float(*)[m])c1);
    gf_gelu_inline(n, m, p, (const float(*)[p])A, (const float(*)[m])B, (float(*)[m])c2);
    check_f_slack("gelu (powf)", n, m, p, c1, c2, nc, 2e-5);

    SAME_START();
    matmul_tanh(n, m, p, (const float(*)[p])A, (const float(*)[m])B, (float(*)[m])c1);
    gf_matmul_tanh(n, m, p, (const float(*)[p])A, (const float(*)[m])B, (float(*)[m])c2);
    check_f("then tanh", n, m, p, c1, c2, nc);

    /* builtins: n rows, d = m features, h = p hidden units */
    SAME_START();
    mlp(n, m, p, (const float(*)[m])A, (const float(*)[p])B, b, (const float(*)[m])B, (float(*)[m])c1);
    gf_mlp(n, m, p, (const float(*)[m])A, (const float(*)[p])B, b, (const float(*)[m])B, (float(*)[m])c2);
    check_f("builtins (mlp)", n, m, p, c1, c2, nc);

    if (n > 0 && m > 1) {
        /* FFT builtins; spec has room for m/2+1 complex values per row */
        size_t ns = (size_t)n * (m + 2), nm = (size_t)n * (m / 2 + 1);
        float *s1 = calloc(ns, sizeof *s1), *s2 = calloc(ns, sizeof *s2);
        float *g1 = calloc(nm, sizeof *g1), *g2 = calloc(nm, sizeof *g2);
        if (!s1 || !s2 || !g1 || !g2)
            exit(1);
        SAME_START();
        power_spectrum(n, m, (const float(*)[m])A, (float(*)[m])c1);
        gf_power_spectrum(n, m, (const float(*)[m])A, (float(*)[m])c2);
        check_rel_max("fft c2c (power)", n, m, c1, c2, nc);
        row_spectrum(n, m, (const float(*)[m])A, (float(*)[m + 2])s1, (float(*)[m / 2 + 1])g1);
        gf_row_spectrum(n, m, (const float(*)[m])A, (float(*)[m + 2])s2, (float(*)[m / 2 + 1])g2);
        check_rel_max("fft r2c (rows)", n, m, g1, g2, nm);
        free(s1), free(s2), free(g1), free(g2);
    }

    if (n == m && n > 0) {
        double *x1 = malloc(big * sizeof *x1), *x2 = malloc(big * sizeof *x2);
        if (!x1 || !x2)
            exit(1);
        fill_d(x1, big, seed + 7);
        memcpy(x2, x1, big * sizeof *x1);
        fill_d(d1, big, seed + 8);
        memcpy(d2, d1, big * sizeof *d1);
        dgemm_steps(3, n, (const double(*)[n])dA, (double(*)[n])x1, (double(*)[n])d1);
        gf_dgemm_steps(3, n, (const double(*)[n])dA, (double(*)[n])x2, (double(*)[n])d2);
        check_d("builtin dgemm", n, n, 3 * n, d1, d2, nc);
        check_d("  its X", n, n, 3 * n, x1, x2, nc);
        free(x1), free(x2);
    }
#undef SAME_START

    free(A), free(B), free(b), free(c1), free(c2), free(dA), free(dB), free(d1), free(d2);
}

int main(void)
{
#ifdef LIBCALL_HOST_TARGET
    printf("matrix-product regions (--target=host)\n");
#else
    printf("matrix-product regions (%s)\n", gf_have_device() ? "GPU: cuBLAS/cuBLASLt" : "no GPU: CPU fallback");
#endif
    static const int shapes[][3] = {{1, 1, 1}, {37, 53, 29}, {128, 96, 64}, {0, 5, 3}, {5, 0, 3},
                                    {5, 7, 0}, {200, 136, 257}, {3, 1000, 17}, {96, 96, 40}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        run(shapes[i][0], shapes[i][1], shapes[i][2], 17u + 7u * (unsigned)i);
    printf("%s\n", failures ? "FAILED" : "all equal");
    return failures != 0;
}
