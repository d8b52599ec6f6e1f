/* reduce.c - whole-array reductions of 2-D and 3-D nests on the GPU against
 * their C bodies, at shapes that cross every threshold of the launch
 * geometry: one row, fewer and more rows than a block walks (GF_ROWS), rows
 * shorter and longer than a block (GF_THREADS), more blocks along a row than
 * a reduction keeps partials for (GF_PARTS), and 3-D nests whose outer two
 * dimensions share the grid's second dimension.  A grid reduction that
 * counted or stored partials by blockIdx.x alone passed every test with one
 * block row and was wrong on the H200 for 1000 x 1000 (realworld life,
 * matrix_ops, stencil_heat3d, stencil_jacobi2d).
 *
 * The arguments are device memory (gf_malloc), so the launcher cannot take
 * the C body.  Integer results are compared exactly, floating-point ones to
 * a relative 1e-9 (double) or exactly (max).  Built twice: with the default
 * last-block finish and with --atomic-reductions.  Needs a GPU: exit 77. */
#include <gpufuse.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "devcopy.h"

#define PROTO2(ret, name, ...) ret name(__VA_ARGS__); ret gf_##name(__VA_ARGS__)
PROTO2(long long, sum2_i, int h, int w, const int *g);
PROTO2(double, norm2_d, int h, int w, const double *a);
PROTO2(float, max2_f, int h, int w, const float *a);
PROTO2(int, sum3_i, int n0, int n1, int n2, const int *a);
PROTO2(void, sum_min2, int h, int w, const int *g, int *out);

static int failures;
static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 32);
}

static void check(const char *what, int ok)
{
    printf("  %-72s %s\n", what, ok ? "ok" : "FAILED");
    failures += !ok;
}

static void check_2d(int h, int w)
{
    size_t n = (size_t)h * w;
    int *g = malloc(n * sizeof *g);
    double *a = malloc(n * sizeof *a);
    float *f = malloc(n * sizeof *f);
    for (size_t i = 0; i < n; i++) {
        g[i] = (int)(next() % 201) - 100;
        a[i] = (double)(next() % 1000) / 999.0;
        f[i] = (float)(next() % 100000) - 50000.0f;
    }
    int *dg = to_dev(g, n * sizeof *g);
    double *da = to_dev(a, n * sizeof *a);
    float *df = to_dev(f, n * sizeof *f);
    char what[96];
    long long si = sum2_i(h, w, g), gi = gf_sum2_i(h, w, dg);
    snprintf(what, sizeof what, "sum of int, %d x %d: %lld", h, w, si);
    check(what, si == gi);
    if (si != gi)
        printf("    got %lld\n", gi);
    double sd = norm2_d(h, w, a), gd = gf_norm2_d(h, w, da);
    snprintf(what, sizeof what, "norm of double, %d x %d: %.6f", h, w, sd);
    check(what, fabs(sd - gd) <= 1e-9 * fmax(1.0, sd));
    if (!(fabs(sd - gd) <= 1e-9 * fmax(1.0, sd)))
        printf("    got %.17g\n", gd);
    float mf = max2_f(h, w, f), gm = gf_max2_f(h, w, df);
    snprintf(what, sizeof what, "max of float, %d x %d: %.1f", h, w, mf);
    check(what, mf == gm);
    int out0[2] = {-1, -1}, out1[2] = {-1, -1};
    int *dout = to_dev(out1, sizeof out1);
    sum_min2(h, w, g, out0);
    gf_sum_min2(h, w, dg, dout);
    gf_memcpy(out1, dout, sizeof out1, GF_DEVICE_TO_HOST);
    snprintf(what, sizeof what, "sum and min in one nest, %d x %d: %d, %d", h, w, out0[0], out0[1]);
    check(what, out0[0] == out1[0] && out0[1] == out1[1]);
    gf_free(dg), gf_free(da), gf_free(df), gf_free(dout);
    free(g), free(a), free(f);
}

static void check_3d(int n0, int n1, int n2)
{
    size_t n = (size_t)n0 * n1 * n2;
    int *a = malloc(n * sizeof *a);
    for (size_t i = 0; i < n; i++)
        a[i] = (int)(next() % 7) - 3;
    int *da = to_dev(a, n * sizeof *a);
    int want = sum3_i(n0, n1, n2, a), got = gf_sum3_i(n0, n1, n2, da);
    char what[96];
    snprintf(what, sizeof what, "sum of int from 7, %d x %d x %d: %d", n0, n1, n2, want);
    check(what, want == got);
    if (want != got)
        printf("    got %d\n", got);
    gf_free(da);
    free(a);
}

int main(void)
{
    if (gf_init() != GF_SUCCESS || !gf_have_device()) {
        printf("no GPU (%s): skipped\n", gf_last_error());
        return 77;
    }
    printf("2-D and 3-D whole-array reductions on the GPU against their C bodies\n");
    static const int shapes[][2] = {{1, 1}, {1, 1000}, {15, 300}, {17, 257}, {33, 1},
                                    {1000, 1000}, {4096, 3}, {3, 3000000}};
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++)
        check_2d(shapes[i][0], shapes[i][1]);
    static const int cubes[][3] = {{1, 1, 1}, {2, 9, 300}, {64, 64, 64}, {120, 120, 120}, {5, 7, 300000}, {300, 300, 2}};
    for (size_t i = 0; i < sizeof cubes / sizeof *cubes; i++)
        check_3d(cubes[i][0], cubes[i][1], cubes[i][2]);
    printf("%s\n", failures ? "FAILED" : "every reduction agrees with its C body");
    return failures ? 1 : 0;
}
