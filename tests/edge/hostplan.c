/* hostplan.c - the host plan (--target=host) against the C body: each call
 * evaluates the cost model (compiler/back/host_cost.c) and runs either the
 * fused OpenMP plan or the C body.  Compiled with -DGF_HOST_CHOICE=hp_choice,
 * the generated entry points report which one ran; this checks the choice
 * (the C body for a tiny region, for a fork per step of little work and for
 * atomic updates; the plan for a large region) and every result against the
 * C body.  The model is told the machine has 2 free threads
 * (GPUFUSE_HOST_THREADS), so the choice does not depend on the load.
 * Exit 77 without OpenMP: then the plan always runs (no fork to pay). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(_OPENMP)
#include <omp.h>
#endif

void hp_scale(int n, const float *restrict x, float *restrict y);
void gf_hp_scale(int n, const float *restrict x, float *restrict y);
void hp_colsum(int rows, int cols, const float *a, const float *w, float *y);
void gf_hp_colsum(int rows, int cols, const float *a, const float *w, float *y);
void hp_count(int n, int nbins, const int *restrict bin, int *count);
void gf_hp_count(int n, int nbins, const int *restrict bin, int *count);
void hp_steps(int steps, int n, float *a, const float *b);
void gf_hp_steps(int steps, int n, float *a, const float *b);
void hp_wave(int steps, int n, float *A);
void gf_hp_wave(int steps, int n, float *A);
void hp_gemm(int ni, int nj, int nk, double alpha, double beta, double *C, const double *A, const double *B);
void gf_hp_gemm(int ni, int nj, int nk, double alpha, double beta, double *C, const double *A, const double *B);

static const char *last_name;
static int last_plan = -1;

void hp_choice(const char *name, int plan);
void hp_choice(const char *name, int plan)
{
    last_name = name;
    last_plan = plan;
}

static int failures;

static void expect(const char *what, const char *name, int plan, int same)
{
    int ok = last_name && !strcmp(last_name, name) && last_plan == plan && same;
    printf("  %-58s %s: %s\n", what, last_name ? (last_plan ? "the plan" : "the C body") : "no choice reported",
           ok ? "ok" : "FAILED");
    failures += !ok;
    last_name = NULL;
    last_plan = -1;
}

static float *filled(size_t n, unsigned seed)
{
    float *p = malloc(n * sizeof *p);
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        p[i] = (float)((seed >> 8) & 0xffff) / 65536.0f - 0.5f;
    }
    return p;
}

static int same(const void *a, const void *b, size_t bytes) { return !memcmp(a, b, bytes); }

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* PolyBench-style gemm: the plan's rows keep the C body's i-k-j order, so
 * each C[i][j] sums over k in the same order: bit for bit.  The times are
 * printed (not checked: the machine is shared). */
static void gemm(int n, const char *what)
{
    size_t nn = (size_t)n * n;
    float *f = filled(3 * nn, 9);
    double *A = malloc(nn * sizeof *A), *B = malloc(nn * sizeof *B), *C1 = malloc(nn * sizeof *C1),
           *C2 = malloc(nn * sizeof *C2);
    for (size_t i = 0; i < nn; i++)
        A[i] = f[i], B[i] = f[nn + i], C1[i] = C2[i] = f[2 * nn + i];
    double t0 = seconds();
    hp_gemm(n, n, n, 1.5, 1.2, C1, A, B);
    double t1 = seconds();
    gf_hp_gemm(n, n, n, 1.5, 1.2, C2, A, B);
    double t2 = seconds();
    printf("  gemm %d^3: C body %.1f ms, host plan %.1f ms\n", n, 1e3 * (t1 - t0), 1e3 * (t2 - t1));
    expect(what, "hp_gemm", 1, same(C1, C2, nn * sizeof *C1));
    free(f), free(A), free(B), free(C1), free(C2);
}

static void colsum(int rows, int cols, const char *what, int plan)
{
    float *a = filled((size_t)rows * cols, 7), *w = filled((size_t)rows, 8);
    float *y1 = calloc((size_t)cols, sizeof(float)), *y2 = calloc((size_t)cols, sizeof(float));
    hp_colsum(rows, cols, a, w, y1);
    gf_hp_colsum(rows, cols, a, w, y2);
    /* by blocks or not, each column adds its rows in the C loop's order: bit for bit */
    expect(what, "hp_colsum", plan, same(y1, y2, (size_t)cols * sizeof(float)));
    free(a), free(w), free(y1), free(y2);
}

int main(void)
{
#if !defined(_OPENMP)
    printf("built without OpenMP: the plan always runs, nothing to choose\n");
    return 77;
#else
    omp_set_num_threads(2);
    setenv("GPUFUSE_HOST_THREADS", "2", 1);
    unsetenv("GPUFUSE_COST_MODEL");
    int big = 1 << 22;
    float *x = filled((size_t)big, 1), *y1 = malloc((size_t)big * 4), *y2 = malloc((size_t)big * 4);

    hp_scale(64, x, y1);
    gf_hp_scale(64, x, y2);
    expect("64 elements: a fork costs more than the work", "hp_scale", 0, same(y1, y2, 64 * 4));
    hp_scale(big, x, y1);
    gf_hp_scale(big, x, y2);
    expect("4M elements: the work spread over 2 threads", "hp_scale", 1, same(y1, y2, (size_t)big * 4));

    colsum(4, 5, "column sums 4 x 5", 0);
    colsum(2048, 1000, "column sums 2048 x 1000 (column blocks, a ragged last one)", 1);
    colsum(4096, 37, "column sums 4096 x 37 (fewer columns than a block)", 1);

    int nb = 64, *bin = malloc((size_t)big * sizeof(int));
    for (int i = 0; i < big; i++)
        bin[i] = (int)((x[i] + 0.5f) * nb) & (nb - 1);
    int c1[64] = {0}, c2[64] = {0};
    hp_count(big, nb, bin, c1);
    gf_hp_count(big, nb, bin, c2);
    expect("4M atomic updates: slower among threads than in order", "hp_count", 0, same(c1, c2, sizeof c1));

    float *a1 = filled(256, 3), *a2 = malloc(256 * 4), *b = filled(256, 4);
    memcpy(a2, a1, 256 * 4);
    hp_steps(2000, 256, a1, b);
    gf_hp_steps(2000, 256, a2, b);
    expect("2000 steps of 256 elements: 4000 forks", "hp_steps", 0, same(a1, a2, 256 * 4));
    float *l1 = filled((size_t)big, 5), *l2 = malloc((size_t)big * 4), *lb = filled((size_t)big, 6);
    memcpy(l2, l1, (size_t)big * 4);
    hp_steps(3, big, l1, lb);
    gf_hp_steps(3, big, l2, lb);
    expect("3 steps of 4M elements", "hp_steps", 1, same(l1, l2, (size_t)big * 4));

    gemm(300, "gemm 300^3 i-k-j: the plan, rows in the C body's order");

    /* wavefronts (min/max bounds): 2 steps of 16 x 16 fork more than they
     * compute; 50 steps of 600 x 600: 1300 forks for 18M updates */
    int wn[2] = {16, 600}, ws[2] = {2, 50};
    for (int c = 0; c < 2; c++) {
        size_t bytes = (size_t)wn[c] * wn[c] * sizeof(float);
        float *w1 = filled((size_t)wn[c] * wn[c], 7), *w2 = malloc(bytes);
        memcpy(w2, w1, bytes);
        hp_wave(ws[c], wn[c], w1);
        gf_hp_wave(ws[c], wn[c], w2);
        expect(c ? "Gauss-Seidel 50 steps of 600 x 600 (wavefronts)" : "Gauss-Seidel 2 steps of 16 x 16 (wavefronts)",
               "hp_wave", c, same(w1, w2, bytes));
        free(w1), free(w2);
    }

    free(x), free(y1), free(y2), free(bin), free(a1), free(a2), free(b), free(l1), free(l2), free(lb);
    printf("%s\n", failures ? "FAILED" : "all choices and results as expected");
    return failures ? 1 : 0;
#endif
}
