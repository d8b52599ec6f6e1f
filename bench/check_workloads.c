/* check_workloads.c - runs the CPU bodies of the bench/workloads sources (built
 * without gpufuse, so the weak C definitions are what gets called) at small
 * sizes on the benchmark's inputs and compares them with float64 references,
 * using the same error metric and tolerances as the GPU drivers.  Proves
 * that the workload sources are correct reference code. */
#include "bench.h"
#include <stdio.h>
#include <stdlib.h>

void chain(int n, const float *restrict a, const float *restrict b,
           const float *restrict c, float *restrict out);
float dot(int n, const float *restrict a, const float *restrict b);
void softmax(int rows, int cols, const float x[rows][cols], float y[rows][cols]);
void layernorm(int rows, int cols, const float x[rows][cols], const float gamma[cols],
               const float beta[cols], float y[rows][cols]);
void vsqrt(int n, const float *restrict x, float *restrict y);
void jacobi(int n, int steps, float a[n][n], float b[n][n]);
void blackscholes(int n, const float *restrict S, const float *restrict K,
                  const float *restrict T, float r, float v,
                  float *restrict call, float *restrict put);

static int checks, failures;

static float *fill(size_t n, uint32_t seed, float lo, float hi)
{
    float *p = malloc(n * sizeof *p);
    if (!p) { perror("malloc"); exit(2); }
    for (size_t i = 0; i < n; i++) p[i] = bench_uniform(seed, (uint32_t)i, lo, hi);
    return p;
}

static void report(const char *name, double err, double tol)
{
    int ok = err <= tol;
    printf("%-13s max err %.3g (tolerance %.0e)  %s\n", name, err, tol, ok ? "ok" : "FAIL");
    checks++;
    failures += !ok;
}

static void check_chain(int n)
{
    float *a = fill(n, SEED_CHAIN_A, RANGE_CHAIN_AB), *b = fill(n, SEED_CHAIN_B, RANGE_CHAIN_AB);
    float *c = fill(n, SEED_CHAIN_C, RANGE_CHAIN_C), *out = fill(n, 99, 1, 2);
    chain(n, a, b, c, out);
    double e = 0;
    for (int i = 0; i < n; i++)
        e = fmax(e, bench_err(out[i], ref_chain(a[i], b[i], c[i]), BENCH_FLOOR_RELATIVE));
    report("chain", e, BENCH_TOL_ELEMENTWISE);
    free(a); free(b); free(c); free(out);
}

static void check_dot(int n)
{
    float *a = fill(n, SEED_DOT_A, RANGE_DOT), *b = fill(n, SEED_DOT_B, RANGE_DOT);
    float s = dot(n, a, b);
    double ref = 0;
    for (int i = 0; i < n; i++) ref += (double)a[i] * b[i];
    report("dot", bench_err(s, ref, BENCH_FLOOR_RELATIVE), BENCH_TOL_REDUCTION);
    free(a); free(b);
}

static void check_softmax(const char *name, int rows, int cols)
{
    float *x = fill((size_t)rows * cols, SEED_SOFTMAX_X, RANGE_SOFTMAX);
    float *y = fill((size_t)rows * cols, 99, 1, 2);
    softmax(rows, cols, (const float (*)[cols])x, (float (*)[cols])y);
    double e = 0;
    for (int i = 0; i < rows; i++) {
        const float *xr = x + (size_t)i * cols;
        double m, s;
        ref_softmax_row(xr, cols, &m, &s);
        for (int j = 0; j < cols; j++)
            e = fmax(e, bench_err(y[(size_t)i * cols + j], exp((double)xr[j] - m) / s,
                                  BENCH_FLOOR_RELATIVE));
    }
    report(name, e, BENCH_TOL_REDUCTION);
    free(x); free(y);
}

static void check_layernorm(int rows, int cols)
{
    float *x = fill((size_t)rows * cols, SEED_LN_X, RANGE_LN_X);
    float *g = fill(cols, SEED_LN_GAMMA, RANGE_LN_GAMMA), *bt = fill(cols, SEED_LN_BETA, RANGE_LN_BETA);
    float *y = fill((size_t)rows * cols, 99, 1, 2);
    layernorm(rows, cols, (const float (*)[cols])x, g, bt, (float (*)[cols])y);
    double e = 0;
    for (int i = 0; i < rows; i++) {
        const float *xr = x + (size_t)i * cols;
        double mu, rs;
        ref_layernorm_row(xr, cols, &mu, &rs);
        for (int j = 0; j < cols; j++)
            e = fmax(e, bench_err(y[(size_t)i * cols + j], (xr[j] - mu) * rs * g[j] + bt[j],
                                  BENCH_FLOOR_LAYERNORM));
    }
    report("layernorm", e, BENCH_TOL_REDUCTION);
    free(x); free(g); free(bt); free(y);
}

static void check_sqrt(int n)
{
    float *x = fill(n, SEED_SQRT_X, RANGE_SQRT), *y = fill(n, 99, 1, 2);
    vsqrt(n, x, y);
    double e = 0;
    for (int i = 0; i < n; i++) e = fmax(e, bench_err(y[i], sqrt((double)x[i]), BENCH_FLOOR_RELATIVE));
    report("sqrt", e, BENCH_TOL_ELEMENTWISE);
    free(x); free(y);
}

static void check_jacobi(int n, int steps)
{
    size_t nn = (size_t)n * n;
    float *a = fill(nn, SEED_JACOBI, RANGE_JACOBI), *b = malloc(nn * sizeof *b);
    double *ra = malloc(nn * sizeof *ra), *rb = malloc(nn * sizeof *rb);
    for (size_t k = 0; k < nn; k++) b[k] = a[k], ra[k] = rb[k] = a[k];
    jacobi(n, steps, (float (*)[n])a, (float (*)[n])b);
    for (int s = 0; s < 2 * steps; s++) {
        double *src = s % 2 ? rb : ra, *dst = s % 2 ? ra : rb;
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++)
                dst[(size_t)i * n + j] = 0.25 * (src[(size_t)(i - 1) * n + j] + src[(size_t)(i + 1) * n + j] +
                                                 src[(size_t)i * n + j - 1] + src[(size_t)i * n + j + 1]);
    }
    double e = 0;
    for (size_t k = 0; k < nn; k++) e = fmax(e, bench_err(a[k], ra[k], BENCH_FLOOR_RELATIVE));
    report("jacobi", e, BENCH_TOL_ELEMENTWISE);
    free(a); free(b); free(ra); free(rb);
}

static void check_blackscholes(int n)
{
    float *S = fill(n, SEED_BS_S, RANGE_BS_S), *K = fill(n, SEED_BS_K, RANGE_BS_K);
    float *T = fill(n, SEED_BS_T, RANGE_BS_T);
    float *call = fill(n, 99, 1, 2), *put = fill(n, 98, 1, 2);
    blackscholes(n, S, K, T, BENCH_BS_R, BENCH_BS_V, call, put);
    double e = 0;
    for (int i = 0; i < n; i++) {
        double c, p;
        ref_blackscholes(S[i], K[i], T[i], BENCH_BS_R, BENCH_BS_V, &c, &p);
        e = fmax(e, bench_err(call[i], c, BENCH_FLOOR_BS));
        e = fmax(e, bench_err(put[i], p, BENCH_FLOOR_BS));
    }
    report("blackscholes", e, BENCH_TOL_BS);
    free(S); free(K); free(T); free(call); free(put);
}

int main(int argc, char **argv)
{
    /* scale 1 runs in about a second; larger scales stress the tolerances. */
    int k = argc > 1 ? atoi(argv[1]) : 1;
    if (k < 1) k = 1;
    check_chain(k << 20);
    /* the C body sums sequentially in float: beyond ~2^20 terms of ~1 its
     * own rounding exceeds the tolerance, so dot stays at 2^20. */
    check_dot(1 << 20);
    check_softmax("softmax", 64 * k, BENCH_COLS);
    check_softmax("softmax_short", 2048 * k, BENCH_SHORT_COLS);
    check_layernorm(64 * k, BENCH_COLS);
    check_sqrt(k * 1000000);
    check_jacobi(256 * k, BENCH_JACOBI_STEPS);
    check_blackscholes(k << 20);
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures != 0;
}
