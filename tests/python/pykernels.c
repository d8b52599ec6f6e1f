/* pykernels.c - marked functions built into a shared library the way a
 * user's recipe builds one (the C file and its .gf.cu), which
 * test_python.py calls through python/gpufuse. */
#include <gpufuse.h>
#include <stdint.h>

GPUFUSE void py_axpby(int n, float a, const float *restrict x, float b, float *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + b * y[i];
}

GPUFUSE double py_dot(int n, const double *restrict x, const double *restrict y)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}

GPUFUSE void py_affine2d(int rows, int cols, const float x[rows][cols], float k, float y[rows][cols])
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            y[i][j] = x[i][j] * k + (float)j;
}

GPUFUSE void py_widen(int n, const int32_t *restrict x, int64_t *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] += (int64_t)x[i] * 3;
}
