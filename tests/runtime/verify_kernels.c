/* verify_kernels.c - functions whose generated kernels break_kernels.py
 * breaks on purpose (one element each), for the GPUFUSE_VERIFY test. */
#include <gpufuse.h>

/* 2-D: element y[3][5] is broken (3.5f instead of 3.25f). */
GPUFUSE void affine2d(int rows, int cols, const float x[rows][cols], float y[rows][cols])
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            y[i][j] = x[i][j] * 3.25f + 1.0f;
}

/* A reduction: the term of i == 9 is broken (78 instead of 77). */
GPUFUSE long long weighted_sum(int n, const int *restrict x)
{
    long long s = 0;
    for (int i = 0; i < n; i++)
        s += (long long)x[i] * 77;
    return s;
}

struct pt {
    float x, y;
    int tag;
};

/* Structs: p[6].tag is broken (+2 instead of +1). */
GPUFUSE void shift_points(int n, float dx, struct pt *restrict p)
{
    for (int i = 0; i < n; i++) {
        p[i].x = p[i].x + dx;
        p[i].tag = p[i].tag + 1;
    }
}
