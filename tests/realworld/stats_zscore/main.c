#define _POSIX_C_SOURCE 200809L /* setenv */
#include "rw.h"
#include <stdlib.h>
#include <stddef.h>

void zscore_columns(size_t rows, size_t cols, float x[rows][cols]);
void minmax_scale(int n, const float *x, float *y);
int clip_outliers(int n, float *x, float limit);
void running_mean(int n, const float *x, float *y);

int main(void)
{
    const size_t rows = 2000, cols = 24;
    const int n = (int)(rows * cols);
    /* GPUFUSE_VERIFY compares each call with its C body at 1e-4 relative;
     * this program's variance is ill-conditioned (below), so a user checking
     * it raises verify's tolerance to the conditioning's, as documented */
    setenv("GPUFUSE_VERIFY_RTOL", "1e-2", 0);
    rw_seed(28);
    float *x = rw_alloc(n, 4), *y = rw_alloc(n, 4), *z = rw_alloc(n, 4);
    for (size_t i = 0; i < rows; i++)
        for (size_t j = 0; j < cols; j++)
            x[i * cols + j] = (float)(j + rw_uniform(-1, 1) * (1 + j % 3));
    zscore_columns(rows, cols, (float (*)[cols])x);
    /* the variance as E[x^2] - mu^2 in float: column 23 has mean 23 and
     * variance about 1, so the sum of squares (about 1e6, rounded 2000 times)
     * carries an error of order 1 that the subtraction leaves in a variance of
     * 1: the C loop's own error.  A reduction in another order (the GPU's
     * tree, which the floating-point contract allows) differs by as much:
     * 3e-3 relative on the H200.  The tolerance is the conditioning's, not
     * the rounding's. */
    rw_out_f("zscore_columns.x", x, n, 1e-2, 1e-2);
    /* scaling of values that carry that difference: compared as loosely */
    minmax_scale(n, x, y);
    rw_out_f("minmax_scale.y", y, n, 1e-2, 1e-3);
    /* fresh inputs: a count of values over a limit must not depend on rounding */
    rw_fill_f(x, n, -2, 2);
    rw_out_int("clip_outliers.return", clip_outliers(n, x, 1.5f));
    rw_out_f("clip_outliers.x", x, n, 0, 0);
    running_mean(n, x, z);
    rw_out_f("running_mean.y", z, n, 1e-3, 1e-3);
    return 0;
}
