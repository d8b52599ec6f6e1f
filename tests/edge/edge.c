/* edge.c - run-time edge cases of generated launchers, each compared with
 * the C body: zero-length arrays, a misaligned pointer (the 128-bit path must
 * step aside), NaN and infinities, arguments overlapping at a shifted offset
 * (the plan must not run in parallel: the launcher runs the original body),
 * and the same array as input and output.  Exit 1 on any difference. */
#include <gpufuse.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void scale(int n, float a, const float *x, float *y);
void gf_scale(int n, float a, const float *x, float *y);
float total(int n, const float *restrict x);
float gf_total(int n, const float *restrict x);
float biggest(int n, const float *restrict x);
float gf_biggest(int n, const float *restrict x);
typedef void row_fn(int rows, int cols, const float *x, float *y);
void row_affine(int rows, int cols, int ld, const float *x, const float *g, const float *b, const float *w, float *y);
void gf_row_affine(int rows, int cols, int ld, const float *x, const float *g, const float *b, const float *w,
                   float *y);
void row_softmax(int rows, int cols, const float *x, float *y);
void gf_row_softmax(int rows, int cols, const float *x, float *y);
void row_shifted(int rows, int cols, const float *x, float *y);
void gf_row_shifted(int rows, int cols, const float *x, float *y);
void row_partial(int rows, int cols, const float *x, float *y);
void gf_row_partial(int rows, int cols, const float *x, float *y);

static int failures;

static void check(const char *what, int ok)
{
    printf("  %-52s %s\n", what, ok ? "ok" : "FAILED");
    failures += !ok;
}

/* Within rtol of each other (NaN where the other is NaN). */
static int close(const float *a, const float *b, long n, float rtol)
{
    for (long i = 0; i < n; i++) {
        if (isnan(a[i]) != isnan(b[i]))
            return 0;
        if (!isnan(a[i]) && fabsf(a[i] - b[i]) > rtol * fmaxf(1.0f, fabsf(a[i])))
            return 0;
    }
    return 1;
}

/* Every row length a row kernel treats its own way: a warp per row (1-512
 * elements, 16-byte loads when a multiple of 4), a block per row with the
 * row in registers (up to 16 per thread), a block reading memory (more). */
static void check_rows(const char *name, row_fn *c_body, row_fn *gf)
{
    static const int shapes[][2] = {{7, 1}, {9, 31}, {40, 128}, {33, 130}, {17, 512}, {9, 513}, {5, 4096}, {3, 20000}};
    for (size_t t = 0; t < sizeof shapes / sizeof shapes[0]; t++) {
        const int rows = shapes[t][0], cols = shapes[t][1];
        const long n = (long)rows * cols;
        float *x = malloc(n * sizeof *x), *r1 = malloc(n * sizeof *r1), *r2 = malloc(n * sizeof *r2);
        for (long i = 0; i < n; i++)
            x[i] = (float)((i * 37) % 101) / 25.0f - 2.0f;
        c_body(rows, cols, x, r1);
        gf(rows, cols, x, r2);
        char what[96];
        snprintf(what, sizeof what, "%s, %d rows of %d", name, rows, cols);
        /* sums of up to 20000 terms, reassociated */
        check(what, close(r1, r2, n, 2e-4f));
        free(x);
        free(r1);
        free(r2);
    }
}

/* A row kernel's per-column operands g[j], b[j] (16-byte loads where
 * aligned): every row length above, g and b at 16-byte boundaries and
 * shifted by one and by three elements, w's rows one longer than x's. */
static void check_affine(void)
{
    static const int shapes[][2] = {{7, 1}, {9, 31}, {40, 128}, {33, 130}, {17, 512}, {9, 513}, {5, 4096}, {3, 20000}};
    static const int shifts[][2] = {{0, 0}, {1, 3}, {3, 1}};
    for (size_t t = 0; t < sizeof shapes / sizeof shapes[0]; t++) {
        const int rows = shapes[t][0], cols = shapes[t][1], ld = cols + 1;
        const long n = (long)rows * cols;
        float *x = malloc(n * sizeof *x), *w = malloc((long)rows * ld * sizeof *w), *gb = malloc(2 * (cols + 4) * sizeof *gb);
        float *r1 = malloc(n * sizeof *r1), *r2 = malloc(n * sizeof *r2);
        for (long i = 0; i < n; i++)
            x[i] = (float)((i * 37) % 101) / 25.0f - 2.0f;
        for (long i = 0; i < (long)rows * ld; i++)
            w[i] = (float)((i * 11) % 23) / 8.0f;
        for (int i = 0; i < 2 * (cols + 4); i++)
            gb[i] = (float)((i * 7) % 19) / 9.0f - 1.0f;
        for (size_t s = 0; s < sizeof shifts / sizeof shifts[0]; s++) {
            const float *g = gb + shifts[s][0], *b = gb + cols + 4 + shifts[s][1];
            row_affine(rows, cols, ld, x, g, b, w, r1);
            gf_row_affine(rows, cols, ld, x, g, b, w, r2);
            char what[96];
            snprintf(what, sizeof what, "row per-column operands, %d rows of %d, g+%d b+%d", rows, cols, shifts[s][0],
                     shifts[s][1]);
            check(what, close(r1, r2, n, 2e-4f));
        }
        free(x);
        free(w);
        free(gb);
        free(r1);
        free(r2);
    }
}

static int same(const float *a, const float *b, int n)
{
    for (int i = 0; i < n; i++) {
        if (isnan(a[i]) != isnan(b[i]))
            return 0;
        if (!isnan(a[i]) && fabsf(a[i] - b[i]) > 1e-6f * fmaxf(1.0f, fabsf(a[i])))
            return 0;
    }
    return 1;
}

int main(void)
{
    enum { N = 1000 };
    float x[N + 8], r1[N + 8], r2[N + 8];
    for (int i = 0; i < N + 8; i++)
        x[i] = (float)((i * 37) % 101) / 7.0f - 5.0f;
#ifdef EDGE_HOST_TARGET
    printf("run-time edge cases (--target=host)\n");
#else
    printf("run-time edge cases (%s)\n", gf_have_device() ? "GPU" : "no GPU: CPU fallback");
#endif

    memset(r1, 0, sizeof r1);
    memset(r2, 0, sizeof r2);
    scale(0, 2.0f, x, r1);
    gf_scale(0, 2.0f, x, r2);
    check("zero-length arrays leave the output untouched", same(r1, r2, N));
    check("a sum over nothing is the initial value", gf_total(0, x) == 0.0f);
    check("a max over nothing is -INFINITY", isinf(gf_biggest(0, x)) && gf_biggest(0, x) < 0);

    scale(N - 1, 3.0f, x + 1, r1 + 3);
    gf_scale(N - 1, 3.0f, x + 1, r2 + 3);
    check("misaligned pointers (x+1, y+3)", same(r1 + 3, r2 + 3, N - 1));

    float y[N];
    memcpy(y, x, sizeof y);
    y[5] = NAN;
    y[17] = INFINITY;
    y[99] = -INFINITY;
    scale(N, 0.5f, y, r1);
    gf_scale(N, 0.5f, y, r2);
    check("NaN and infinities pass through element-wise", same(r1, r2, N));
    check("a sum with NaN is NaN", isnan(gf_total(N, y)));
    float z[N];
    memcpy(z, x, sizeof z);
    z[400] = INFINITY;
    check("a max with +INFINITY is +INFINITY", isinf(gf_biggest(N, z)) && gf_biggest(N, z) > 0);
    check("a sum equals the C body's up to reassociation",
          fabsf(gf_total(N, x) - total(N, x)) <= 1e-4f * fmaxf(1.0f, fabsf(total(N, x))));

    /* y overlaps x one element further on: the C body reads what the
     * previous iteration wrote, so no parallel plan may run */
    float a1[N + 1], a2[N + 1];
    for (int i = 0; i <= N; i++)
        a1[i] = a2[i] = (float)(i % 13);
    scale(N, 2.0f, a1, a1 + 1);
    gf_scale(N, 2.0f, a2, a2 + 1);
    check("arguments overlapping at a shifted offset", same(a1, a2, N + 1));

    for (int i = 0; i < N; i++)
        a1[i] = a2[i] = (float)(i % 11);
    scale(N, 2.0f, a1, a1);
    gf_scale(N, 2.0f, a2, a2);
    check("the same array as input and output", same(a1, a2, N));

    check_rows("row softmax (exp reused)", row_softmax, gf_row_softmax);
    check_rows("row, scalar changed between loops", row_shifted, gf_row_shifted);
    check_rows("row, value computed under a condition", row_partial, gf_row_partial);
    check_affine();

    printf("%s\n", failures ? "FAILED" : "all edge cases match the C bodies");
    return failures ? 1 : 0;
}
