#include "rw.h"
#include <stddef.h>

void reverse_copy(int n, const float *x, float *y);
void scale_down(size_t n, double *x, double s);
void shift_right(int n, float *x);
void back_substitution(int n, const double U[n][n], const double b[n], double x[n]);
void last_above(int rows, int cols, const float a[rows][cols], float t, int last[rows]);

int main(void)
{
    const int n = 5000, m = 80, rows = 300, cols = 200;
    rw_seed(45);
    float *x = rw_alloc(n, 4), *y = rw_alloc(n, 4), *a = rw_alloc(rows * cols, 4);
    double *xd = rw_alloc(n, 8), *U = rw_alloc(m * m, 8), *b = rw_alloc(m, 8), *xs = rw_alloc(m, 8);
    int *last = rw_alloc(rows, sizeof(int));
    rw_fill_f(x, n, -1, 1);
    rw_fill_d(xd, n, -1, 1);
    reverse_copy(n, x, y);
    rw_out_f("reverse_copy.y", y, n, 0, 0);
    scale_down(n, xd, 0.75);
    rw_out_d("scale_down.x", xd, n, 0, 0);
    shift_right(n, x);
    rw_out_f("shift_right.x", x, n, 0, 0);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++)
            U[i * m + j] = j < i ? 0 : (j == i ? 4 + rw_unit() : rw_uniform(-0.5, 0.5));
    rw_fill_d(b, m, -1, 1);
    back_substitution(m, (const double (*)[m])U, b, xs);
    rw_out_d("back_substitution.x", xs, m, 1e-12, 1e-13);
    rw_fill_f(a, rows * cols, 0, 1);
    last_above(rows, cols, (const float (*)[cols])a, 0.999f, last);
    rw_out_i("last_above.last", last, rows, 0);
    return 0;
}
