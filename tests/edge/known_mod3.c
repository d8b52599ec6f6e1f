/* known_mod3.c - a wrong answer the GPU gave (docs/testing.md G8, seed 910
 * of the default mix): the launcher of nest_mod3 against its C body, with
 * data filled as the generator fills it.  Needs a GPU: exit 77 without one. */
#include <gpufuse.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void nest_mod3(int n, int m, int a[n][m], const float *b, float c[n], double y[n][m], int s0);
void gf_nest_mod3(int n, int m, int *a, const float *b, float *c, double *y, int s0);

int main(void)
{
    if (gf_init() != GF_SUCCESS || !gf_have_device()) {
        printf("no GPU (%s): skipped\n", gf_last_error());
        return 77;
    }
    enum { N = 13, M = 32 };
    static int a[N][M];
    static float b[M], c[N];
    static double y[N][M], ref[N][M];
    /* as the generator fills them: a in [-100, 100], b in [-1, 1), c in [0.5, 2) */
    unsigned s = 910;
    for (int i = 0; i < N; i++) {
        s = s * 1103515245u + 12345u;
        c[i] = 0.5f + 1.5f * (float)(s >> 8) / 16777216.0f;
        for (int j = 0; j < M; j++) {
            s = s * 1103515245u + 12345u;
            a[i][j] = (int)((s >> 8) % 201) - 100;
        }
    }
    for (int j = 0; j < M; j++) {
        s = s * 1103515245u + 12345u;
        b[j] = -1.0f + 2.0f * (float)(s >> 8) / 16777216.0f;
    }
    nest_mod3(N, M, a, b, c, ref, -33);
    gf_nest_mod3(N, M, &a[0][0], b, c, &y[0][0], -33);
    int bad = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            if (fabs(y[i][j] - ref[i][j]) > 1e-6 * (1 + fabs(ref[i][j])) && bad++ < 5)
                printf("y[%d][%d] = %.9g, C body: %.9g (a = %d)\n", i, j, y[i][j], ref[i][j], a[i][j]);
    printf("%d elements differ\n", bad);
    return bad ? 1 : 0;
}
