/* forms_check.c - every region of forms.c through gf_<name> against its C
 * body, on the same random inputs, every array it writes compared whole
 * (the triangle SYRK leaves alone included), and the number of library
 * calls gf_<name> made.  Two builds:
 *   FORMS_GPU: gf_<name> is the launcher (forms.gf.cu) on the GPU, the
 *     library calls counted through wrappers (wrap.c, -Wl,--wrap); exit 77
 *     without a GPU;
 *   otherwise: gf_<name> is emulate.py's copy of the launcher's library
 *     calls, computed on the CPU by emul.c (what the compiler decided, without
 *     a GPU); regions with other kernels are skipped there.
 * Results may differ by the reassociation of sums of length K (the C loop's
 * order against the library's): |got - want| <= 32 (K + 2) eps sqrt(K) (1 + |want|).
 * Exit 1 on any difference or a wrong number of calls. */
#include <gpufuse.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DECL2(name, ...) void name(__VA_ARGS__); void gf_##name(__VA_ARGS__);
DECL2(gemm_ikj, int ni, int nj, int nk, double alpha, double beta, double C[ni][nj], const double A[ni][nk],
      const double B[nk][nj])
DECL2(gemm_acc, int n, int m, int p, float alpha, float beta, const float A[n][p], const float B[p][m], float C[n][m])
DECL2(gemm_kij, int n, int m, int p, float alpha, float beta, float C[n][m], const float A[n][p], const float B[p][m])
DECL2(gemm_tt, int n, int m, int p, const double *At, const double *Bt, double *C)
DECL2(two_mm, int ni, int nj, int nk, int nl, double alpha, double beta, double tmp[ni][nj], const double A[ni][nk],
      const double B[nk][nj], const double C[nj][nl], double D[ni][nl])
DECL2(three_mm, int ni, int nj, int nk, int nl, int nm, const float A[ni][nk], const float B[nk][nj],
      const float C[nj][nm], const float D[nm][nl], float G[ni][nl])
DECL2(syrk, int n, int m, double alpha, double beta, double C[n][n], const double A[n][m])
DECL2(syrk_upper, int n, int m, float C[n][n], const float A[m][n])
DECL2(syr2k, int n, int m, double alpha, double beta, double C[n][n], const double A[n][m], const double B[n][m])
DECL2(symm, int m, int n, double alpha, double beta, double C[m][n], const double A[m][m], const double B[m][n])
DECL2(trmm, int m, int n, double alpha, const double A[m][m], double B[m][n])
DECL2(symm_right, int m, int n, float alpha, float beta, float C[m][n], const float A[n][n], const float B[m][n])
DECL2(trmm_right, int m, int n, const float A[n][n], const float B[m][n], float C[m][n])
DECL2(atax, int m, int n, const double A[m][n], const double x[n], double y[n], double tmp[m])
DECL2(bicg, int m, int n, const double A[n][m], double s[m], double q[n], const double p[m], const double r[n])
DECL2(mvt, int n, double x1[n], double x2[n], const double y_1[n], const double y_2[n], const double A[n][n])
DECL2(gesummv, int n, double alpha, double beta, const double A[n][n], const double B[n][n], double tmp[n],
      const double x[n], double y[n])
DECL2(gesummv_stored, int n, double alpha, double beta, const double A[n][n], const double B[n][n], double t[n],
      const double x[n], double y[n])
DECL2(gesummv_acc, int n, float alpha, float beta, const float A[n][n], const float B[n][n], const float x[n],
      float y[n])
DECL2(gemver, int n, double alpha, double beta, double A[n][n], const double u1[n], const double v1[n],
      const double u2[n], const double v2[n], double w[n], double x[n], const double y[n], const double z[n])
DECL2(ger_sub, int n, int m, float alpha, float A[n][m], const float u[n], const float v[m])
DECL2(not_blas, int n, double C[n][n], const double A[n][n], double y[n], const double x[n])

extern long forms_lib_calls;     /* emul.c or wrap.c */
int forms_emulated(const char *name);

static int failures, checked;
static unsigned seed = 2024;

/* an array and its copy, the same random values in [-1, 1] */
typedef struct Arr {
    const char *name;
    void *want, *got;
    size_t n;
    bool f32;
} Arr;

static Arr arr(const char *name, size_t n, bool f32)
{
    size_t bytes = (n + 1) * (f32 ? sizeof(float) : sizeof(double));
    Arr a = {name, malloc(bytes), malloc(bytes), n, f32};
    if (!a.want || !a.got) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        double v = (double)((seed >> 8) % 2001) / 1000.0 - 1.0;
        if (f32)
            ((float *)a.want)[i] = (float)v;
        else
            ((double *)a.want)[i] = v;
    }
    memcpy(a.got, a.want, bytes);
    return a;
}

static double at(const Arr *a, void *p, size_t i) { return a->f32 ? ((float *)p)[i] : ((double *)p)[i]; }

/* got against want after the region ran on each */
static bool same(const char *region, const Arr *a, double K)
{
    double eps = a->f32 ? 1.2e-7 : 2.3e-16, tol = 32 * (K + 2) * eps * sqrt(K > 1 ? K : 1), worst = 0;
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < a->n; i++) {
        double w = at(a, a->want, i), g = at(a, a->got, i), d = fabs(w - g);
        if (!(d <= tol * (1 + fabs(w))) && !bad++)
            first = i;
        if (d > worst || d != d)
            worst = d;
    }
    if (bad)
        printf("  %-12s %s: %zu of %zu elements differ (first [%zu]: %.9g, want %.9g), max |diff| %.2e\n", region,
               a->name, bad, a->n, first, at(a, a->got, first), at(a, a->want, first), worst);
    return !bad;
}

static void done(Arr *a)
{
    free(a->want);
    free(a->got);
}

/* The library calls a region should make: none under GPUFUSE_BLAS=0 (the
 * launchers' own kernels; run so as test libcall_forms_gpu_kernels). */
static int forms_calls(int calls)
{
    const char *e = getenv("GPUFUSE_BLAS");
    return e && !strcmp(e, "0") ? 0 : calls;
}

/* Runs `want` then `got` on the arrays, checks each and the library calls. */
#define RUN(region, calls, K, call_want, call_got, ...)                                                        \
    do {                                                                                                        \
        if (!forms_emulated(#region)) {                                                                         \
            printf("  %-12s skipped: it launches kernels besides its library calls\n", #region);               \
            break;                                                                                              \
        }                                                                                                       \
        Arr *list[] = {__VA_ARGS__};                                                                            \
        long before = forms_lib_calls;                                                                          \
        call_want;                                                                                              \
        call_got;                                                                                               \
        long made = forms_lib_calls - before;                                                                   \
        bool ok = true;                                                                                         \
        for (size_t q = 0; q < sizeof list / sizeof list[0]; q++)                                              \
            ok &= same(#region, list[q], K);                                                                    \
        if (made != forms_calls(calls))                                                                         \
            printf("  %-12s made %ld library calls, expected %d\n", #region, made, forms_calls(calls)), ok = false; \
        printf("  %-12s %s\n", #region, ok ? "ok" : "FAILED");                                                  \
        failures += !ok;                                                                                        \
        checked++;                                                                                              \
    } while (0)

#define W(x) (x).want
#define G(x) (x).got

static void run(int a, int b, int c)
{
    const int L = 1;             /* positive sizes: every call is made */
    printf("sizes %d %d %d\n", a, b, c);
    double al = 0.75, be = -1.25;
    {
        Arr C = arr("C", (size_t)a * b, 0), A = arr("A", (size_t)a * c, 0), B = arr("B", (size_t)c * b, 0);
        RUN(gemm_ikj, L, c, gemm_ikj(a, b, c, al, be, W(C), W(A), W(B)), gf_gemm_ikj(a, b, c, al, be, G(C), G(A), G(B)),
            &C);
        done(&C), done(&A), done(&B);
    }
    {
        Arr C = arr("C", (size_t)a * b, 1), A = arr("A", (size_t)a * c, 1), B = arr("B", (size_t)c * b, 1);
        RUN(gemm_acc, L, c, gemm_acc(a, b, c, al, be, W(A), W(B), W(C)), gf_gemm_acc(a, b, c, al, be, G(A), G(B), G(C)),
            &C);
        RUN(gemm_kij, L, c, gemm_kij(a, b, c, al, be, W(C), W(A), W(B)), gf_gemm_kij(a, b, c, al, be, G(C), G(A), G(B)),
            &C);
        done(&C), done(&A), done(&B);
    }
    {
        Arr C = arr("C", (size_t)a * b, 0), A = arr("At", (size_t)c * a, 0), B = arr("Bt", (size_t)b * c, 0);
        RUN(gemm_tt, L, c, gemm_tt(a, b, c, W(A), W(B), W(C)), gf_gemm_tt(a, b, c, G(A), G(B), G(C)), &C);
        done(&C), done(&A), done(&B);
    }
    {
        int d = b + 3; /* nl */
        Arr T = arr("tmp", (size_t)a * b, 0), A = arr("A", (size_t)a * c, 0), B = arr("B", (size_t)c * b, 0);
        Arr C = arr("C", (size_t)b * d, 0), D = arr("D", (size_t)a * d, 0);
        RUN(two_mm, 2 * L, c + b, two_mm(a, b, c, d, al, be, W(T), W(A), W(B), W(C), W(D)),
            gf_two_mm(a, b, c, d, al, be, G(T), G(A), G(B), G(C), G(D)), &T, &D);
        done(&T), done(&A), done(&B), done(&C), done(&D);
    }
    {
        int d = b + 2, e = c + 1; /* nl, nm */
        Arr A = arr("A", (size_t)a * c, 1), B = arr("B", (size_t)c * b, 1), C = arr("C", (size_t)b * e, 1);
        Arr D = arr("D", (size_t)e * d, 1), Gm = arr("G", (size_t)a * d, 1);
        RUN(three_mm, 3 * L, (double)b * (c + e), three_mm(a, b, c, d, e, W(A), W(B), W(C), W(D), W(Gm)),
            gf_three_mm(a, b, c, d, e, G(A), G(B), G(C), G(D), G(Gm)), &Gm);
        done(&A), done(&B), done(&C), done(&D), done(&Gm);
    }
    {
        Arr C = arr("C", (size_t)a * a, 0), A = arr("A", (size_t)a * c, 0), B = arr("B", (size_t)a * c, 0);
        RUN(syrk, L, c, syrk(a, c, al, be, W(C), W(A)), gf_syrk(a, c, al, be, G(C), G(A)), &C);
        RUN(syr2k, L, 2 * c, syr2k(a, c, al, be, W(C), W(A), W(B)), gf_syr2k(a, c, al, be, G(C), G(A), G(B)), &C);
        done(&C), done(&A), done(&B);
    }
    {
        Arr C = arr("C", (size_t)a * a, 1), A = arr("A", (size_t)c * a, 1);
        RUN(syrk_upper, L, c, syrk_upper(a, c, W(C), W(A)), gf_syrk_upper(a, c, G(C), G(A)), &C);
        done(&C), done(&A);
    }
    {
        Arr C = arr("C", (size_t)a * b, 0), A = arr("A", (size_t)a * a, 0), B = arr("B", (size_t)a * b, 0);
        RUN(symm, L, a, symm(a, b, al, be, W(C), W(A), W(B)), gf_symm(a, b, al, be, G(C), G(A), G(B)), &C);
        RUN(trmm, L, a, trmm(a, b, al, W(A), W(B)), gf_trmm(a, b, al, G(A), G(B)), &B);
        done(&C), done(&A), done(&B);
    }
    {
        Arr C = arr("C", (size_t)a * b, 1), A = arr("A", (size_t)b * b, 1), B = arr("B", (size_t)a * b, 1);
        RUN(symm_right, L, b, symm_right(a, b, (float)al, (float)be, W(C), W(A), W(B)),
            gf_symm_right(a, b, (float)al, (float)be, G(C), G(A), G(B)), &C);
        done(&C), done(&A), done(&B);
    }
    {
        Arr C = arr("C", (size_t)a * b, 1), A = arr("A", (size_t)b * b, 1), B = arr("B", (size_t)a * b, 1);
        RUN(trmm_right, L, b, trmm_right(a, b, W(A), W(B), W(C)), gf_trmm_right(a, b, G(A), G(B), G(C)), &C);
        done(&C), done(&A), done(&B);
    }
    {
        Arr A = arr("A", (size_t)a * b, 0), x = arr("x", (size_t)b, 0), y = arr("y", (size_t)b, 0);
        Arr t = arr("tmp", (size_t)a, 0);
        RUN(atax, 2 * L, (double)a * b, atax(a, b, W(A), W(x), W(y), W(t)), gf_atax(a, b, G(A), G(x), G(y), G(t)), &y, &t);
        done(&A), done(&x), done(&y), done(&t);
    }
    {
        Arr A = arr("A", (size_t)a * b, 0), s = arr("s", (size_t)b, 0), q = arr("q", (size_t)a, 0);
        Arr p = arr("p", (size_t)b, 0), r = arr("r", (size_t)a, 0);
        RUN(bicg, 2 * L, a + b, bicg(b, a, W(A), W(s), W(q), W(p), W(r)), gf_bicg(b, a, G(A), G(s), G(q), G(p), G(r)),
            &s, &q);
        done(&A), done(&s), done(&q), done(&p), done(&r);
    }
    {
        Arr A = arr("A", (size_t)a * a, 0), B = arr("B", (size_t)a * a, 0), x1 = arr("x1", (size_t)a, 0);
        Arr x2 = arr("x2", (size_t)a, 0), y1 = arr("y_1", (size_t)a, 0), y2 = arr("y_2", (size_t)a, 0);
        Arr t = arr("tmp", (size_t)a, 0);
        RUN(mvt, 2 * L, a, mvt(a, W(x1), W(x2), W(y1), W(y2), W(A)), gf_mvt(a, G(x1), G(x2), G(y1), G(y2), G(A)), &x1,
            &x2);
        RUN(gesummv, 3 * L, a, gesummv(a, al, be, W(A), W(B), W(t), W(y1), W(x1)),
            gf_gesummv(a, al, be, G(A), G(B), G(t), G(y1), G(x1)), &t, &x1);
        RUN(gesummv_stored, 3 * L, a, gesummv_stored(a, al, be, W(A), W(B), W(t), W(y1), W(x1)),
            gf_gesummv_stored(a, al, be, G(A), G(B), G(t), G(y1), G(x1)), &t, &x1);
        Arr u1 = arr("u1", (size_t)a, 0), v1 = arr("v1", (size_t)a, 0), z = arr("z", (size_t)a, 0);
        RUN(gemver, 4 * L, 2 * a, gemver(a, al, be, W(A), W(u1), W(v1), W(y1), W(y2), W(x1), W(x2), W(u1), W(z)),
            gf_gemver(a, al, be, G(A), G(u1), G(v1), G(y1), G(y2), G(x1), G(x2), G(u1), G(z)), &A, &x1, &x2);
        RUN(not_blas, 0, 2 * a, not_blas(a, W(A), W(B), W(x1), W(x2)), gf_not_blas(a, G(A), G(B), G(x1), G(x2)), &A,
            &x1);
        done(&A), done(&B), done(&x1), done(&x2), done(&y1), done(&y2), done(&t), done(&u1), done(&v1), done(&z);
    }
    {
        Arr A = arr("A", (size_t)a * a, 1), B = arr("B", (size_t)a * a, 1), x = arr("x", (size_t)a, 1);
        Arr y = arr("y", (size_t)a, 1), u = arr("u", (size_t)a, 1), v = arr("v", (size_t)b, 1);
        Arr R = arr("A", (size_t)a * b, 1);
        RUN(gesummv_acc, 2 * L, a, gesummv_acc(a, al, be, W(A), W(B), W(x), W(y)),
            gf_gesummv_acc(a, al, be, G(A), G(B), G(x), G(y)), &y);
        RUN(ger_sub, L, 2, ger_sub(a, b, al, W(R), W(u), W(v)), gf_ger_sub(a, b, al, G(R), G(u), G(v)), &R);
        done(&A), done(&B), done(&x), done(&y), done(&u), done(&v), done(&R);
    }
}

int main(int argc, char **argv)
{
#ifdef FORMS_GPU
    if (gf_init() != GF_SUCCESS || !gf_have_device()) {
        printf("no GPU (%s): skipped\n", gf_last_error());
        return 77;
    }
    printf("library forms on the GPU against their C bodies\n");
    static const int sizes[][3] = {{13, 17, 11}, {1, 1, 1}, {40, 23, 31}, {257, 191, 129}, {512, 384, 320}};
#else
    printf("library forms: the launchers' calls on the CPU (emulate.py) against their C bodies\n");
    static const int sizes[][3] = {{13, 17, 11}, {1, 1, 1}, {40, 23, 31}, {8, 5, 3}};
#endif
    (void)argc, (void)argv;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        run(sizes[i][0], sizes[i][1], sizes[i][2]);
#ifdef FORMS_GPU
    /* an empty sum (k = 0): no library call, the kernel scales C */
    printf("sizes 9 7 0\n");
    Arr C = arr("C", 63, 0), A = arr("A", 1, 0), B = arr("B", 1, 0);
    RUN(gemm_ikj, 0, 1, gemm_ikj(9, 7, 0, 0.5, -2.0, W(C), W(A), W(B)), gf_gemm_ikj(9, 7, 0, 0.5, -2.0, G(C), G(A), G(B)),
        &C);
    done(&C), done(&A), done(&B);
#endif
    /* emulate.py must leave most regions in (all but those with other kernels) */
    if (checked < 16 * (int)(sizeof sizes / sizeof sizes[0]))
        printf("only %d regions checked: emulate.py left regions out\n", checked), failures++;
    printf("%s\n", failures ? "FAILED" : "all ok");
    return failures != 0;
}
