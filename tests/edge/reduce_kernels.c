/* reduce_kernels.c - whole-array reductions over 2-D and 3-D nests, the
 * form of PolyBench's and the corpus's norms, populations and totals
 * (tests/edge/reduce.c runs them on the GPU at shapes that cross every
 * threshold of the launch geometry). */
#include <gpufuse.h>
#include <limits.h>
#include <math.h>

GPUFUSE long long sum2_i(int h, int w, const int g[h][w])
{
    long long p = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            p += g[y][x];
    return p;
}

GPUFUSE double norm2_d(int h, int w, const double a[h][w])
{
    double s = 0;
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++)
            s += a[i][j] * a[i][j];
    return sqrt(s);
}

GPUFUSE float max2_f(int h, int w, const float a[h][w])
{
    float m = -INFINITY;
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++)
            if (a[i][j] > m)
                m = a[i][j];
    return m;
}

GPUFUSE int sum3_i(int n0, int n1, int n2, const int a[n0][n1][n2])
{
    int s = 7; /* not the identity: the start is added once */
    for (int i = 0; i < n0; i++)
        for (int j = 0; j < n1; j++)
            for (int k = 0; k < n2; k++)
                s += a[i][j][k];
    return s;
}

/* two results of one nest, stored */
GPUFUSE void sum_min2(int h, int w, const int g[h][w], int out[2])
{
    int s = 0, lo = INT_MAX;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            s += g[y][x];
            lo = g[y][x] < lo ? g[y][x] : lo;
        }
    out[0] = s;
    out[1] = lo;
}
