/* known_mod3.c - a wrong answer the GPU gave (docs/testing.md G8, seed 910
 * of the default mix): the launcher of nest_mod3 against its C body, with
 * data filled as the generator fills it.  Needs a GPU: exit 77 without one. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <gpufuse.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void nest_mod3(int n, int m, int a[n][m], const float *b, float c[n], double y[n][m], int s0);
void gf_nest_mod3(int n, int m, int *a, const float *b, float *c, double *y, int s0);

int main(void)
{
    setenv("GPUFUSE_COST_MODEL", "0", 1);   /* the kernels, not the host plan a size this small gets */
    if (gf_init() != GF_SUCCESS || !gf_have_device()) {
        printf("no GPU (%s): skipped\n", gf_last_error());
        return 77;
    }
    /* 13 x 32 runs as one thread block (GF_BLOCK_ELEMS); the larger ones as
     * the strip kernel, whose thread walks a row: the read-only cache keeps
     * the line of t a load brought in, so the next element read back was
     * stale (seed 910's program was that size) */
    static const int sizes[][2] = {{13, 32}, {300, 64}, {1024, 33}};
    int bad = 0;
    for (int z = 0; z < 3; z++) {
        const int N = sizes[z][0], M = sizes[z][1];
        int *a = malloc(sizeof(int) * N * M);
        float *b = malloc(sizeof(float) * M), *c = malloc(sizeof(float) * N);
        double *y = malloc(sizeof(double) * N * M), *ref = malloc(sizeof(double) * N * M);
        if (!a || !b || !c || !y || !ref)
            return 2;
        /* as the generator fills them: a in [-100, 100], b in [-1, 1), c in [0.5, 2) */
        unsigned s = 910;
        for (int i = 0; i < N; i++) {
            s = s * 1103515245u + 12345u;
            c[i] = 0.5f + 1.5f * (float)(s >> 8) / 16777216.0f;
            for (int j = 0; j < M; j++) {
                s = s * 1103515245u + 12345u;
                a[i * M + j] = (int)((s >> 8) % 201) - 100;
            }
        }
        for (int j = 0; j < M; j++) {
            s = s * 1103515245u + 12345u;
            b[j] = -1.0f + 2.0f * (float)(s >> 8) / 16777216.0f;
        }
        nest_mod3(N, M, (int (*)[M])a, b, c, (double (*)[M])ref, -33);
        gf_nest_mod3(N, M, a, b, c, y, -33);
        int here = 0;
        for (int i = 0; i < N; i++)
            for (int j = 0; j < M; j++)
                if (fabs(y[i * M + j] - ref[i * M + j]) > 1e-6 * (1 + fabs(ref[i * M + j])) && here++ < 5)
                    printf("%d x %d: y[%d][%d] = %.9g, C body: %.9g (a = %d)\n", N, M, i, j, y[i * M + j],
                           ref[i * M + j], a[i * M + j]);
        printf("%d x %d: %d elements differ\n", N, M, here);
        bad += here;
        free(a);
        free(b);
        free(c);
        free(y);
        free(ref);
    }
    return bad ? 1 : 0;
}
