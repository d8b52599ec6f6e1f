/* main.c - calls the marked functions through kernels.h and prints a
 * checksum: the plain C build and the fused build must print the same. */
#include <stdio.h>
#include <stdlib.h>
#include "inc/kernels.h"

int main(void)
{
    enum { N = 1000, M = 40 };
    particle *p = malloc(N * sizeof *p);
    props *q = malloc(N * sizeof *q);
    struct class *c = malloc(N * sizeof *c);
    float *out = malloc(N * sizeof *out), (*m)[M] = malloc(sizeof(float[M][M]));
    for (int i = 0; i < N; i++) {
        p[i] = (particle){(float)(i % 17) - 8.0f, (float)(i % 13) - 6.0f, 0.5f, -0.25f};
        q[i] = (props){1.0f + (float)(i % 5), i % 3 ? LIGHT : HEAVY};
        c[i] = (struct class){(float)i / 10.0f, 0.5f, i % 7};
    }
    for (int i = 0; i < M * M; i++)
        m[i / M][i % M] = (float)(i % 11);
    for (int s = 0; s < 5; s++)
        advance(N, 0.01f, p, q);
    float e = energy(N, p, q);
    keywords(N, c, out);
    vla_scale(M, 1.5f, m);
    double sum = 0;
    for (int i = 0; i < N; i++)
        sum += p[i].x + 2.0 * p[i].y + 3.0 * p[i].vx + out[i];
    for (int i = 0; i < M * M; i++)
        sum += m[i / M][i % M];
    printf("%.3f %.3f\n", sum, e);
    free(p), free(q), free(c), free(out), free(m);
    return 0;
}
