#include "rw.h"
#include <stddef.h>

void zscore_columns(size_t rows, size_t cols, float x[rows][cols]);
void minmax_scale(int n, const float *x, float *y);
int clip_outliers(int n, float *x, float limit);
void running_mean(int n, const float *x, float *y);

int main(void)
{
    const size_t rows = 2000, cols = 24;
    const int n = (int)(rows * cols);
    rw_seed(28);
    float *x = rw_alloc(n, 4), *y = rw_alloc(n, 4), *z = rw_alloc(n, 4);
    for (size_t i = 0; i < rows; i++)
        for (size_t j = 0; j < cols; j++)
            x[i * cols + j] = (float)(j + rw_uniform(-1, 1) * (1 + j % 3));
    zscore_columns(rows, cols, (float (*)[cols])x);
    /* float sums of 2000 squares: relative error of the standard deviation ~1e-5 */
    rw_out_f("zscore_columns.x", x, n, 1e-3, 1e-3);
    minmax_scale(n, x, y);
    rw_out_f("minmax_scale.y", y, n, 1e-5, 1e-6);
    /* fresh inputs: a count of values over a limit must not depend on rounding */
    rw_fill_f(x, n, -2, 2);
    rw_out_int("clip_outliers.return", clip_outliers(n, x, 1.5f));
    rw_out_f("clip_outliers.x", x, n, 0, 0);
    running_mean(n, x, z);
    rw_out_f("running_mean.y", z, n, 1e-3, 1e-3);
    return 0;
}
