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

static int failures;

static void check(const char *what, int ok)
{
    printf("  %-52s %s\n", what, ok ? "ok" : "FAILED");
    failures += !ok;
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

    printf("%s\n", failures ? "FAILED" : "all edge cases match the C bodies");
    return failures ? 1 : 0;
}
