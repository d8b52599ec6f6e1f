/* main.c - uses the static library libk (kernels.h) and checks the answers;
 * the install test checks separately which code got linked. */
#include "kernels.h"

#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    enum { N = 1000 };
    static float x[N], y[N];
    for (int i = 0; i < N; i++)
        x[i] = (float)(i % 7), y[i] = 1.0f;
    axpy(N, 2.0f, x, y);
    double m = mean(N, y);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += y[i] != 1.0f + 2.0f * (float)(i % 7);
    printf("static library: mean %.4f, %d wrong\n", m, bad);
    return bad || m < 6.98 || m > 7.0;
}
