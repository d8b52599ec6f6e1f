/* stats_zscore: standardisation and min-max scaling of columns, outlier
 * clipping, a running mean over rows that is not parallel */
#include <gpufuse.h>
#include <math.h>
#include <stddef.h>

GPUFUSE void zscore_columns(size_t rows, size_t cols, float x[rows][cols])
{
    for (size_t j = 0; j < cols; j++) {
        float s = 0, ss = 0;
        for (size_t i = 0; i < rows; i++) {
            s += x[i][j];
            ss += x[i][j] * x[i][j];
        }
        float mu = s / rows;
        float sd = sqrtf(ss / rows - mu * mu);
        for (size_t i = 0; i < rows; i++)
            x[i][j] = (x[i][j] - mu) / (sd > 0 ? sd : 1.0f);
    }
}

GPUFUSE void minmax_scale(int n, const float *x, float *y)
{
    float lo = x[0], hi = x[0];
    for (int i = 1; i < n; i++) {
        lo = x[i] < lo ? x[i] : lo;
        hi = x[i] > hi ? x[i] : hi;
    }
    float range = hi - lo;
    for (int i = 0; i < n; i++)
        y[i] = range > 0 ? (x[i] - lo) / range : 0.0f;
}

GPUFUSE int clip_outliers(int n, float *x, float limit)
{
    int clipped = 0;
    for (int i = 0; i < n; i++) {
        if (x[i] > limit) {
            x[i] = limit;
            clipped++;
        } else if (x[i] < -limit) {
            x[i] = -limit;
            clipped++;
        }
    }
    return clipped;
}

GPUFUSE void running_mean(int n, const float *x, float *y)
{
    float acc = 0;
    for (int i = 0; i < n; i++) {
        acc += x[i];
        y[i] = acc / (i + 1);
    }
}
