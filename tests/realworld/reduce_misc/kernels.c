/* reduce_misc: reductions without a prefix: a 64-bit integer sum, argmax as
 * a pair, count-if, any/all, a double dot product, the L2 norm, a bounding
 * range in one loop */
#include <gpufuse.h>
#include <math.h>
#include <stdint.h>

GPUFUSE int64_t sum_i64(int n, const int *x)
{
    int64_t s = 0;
    for (int i = 0; i < n; i++)
        s += x[i];
    return s;
}

GPUFUSE int argmax(int n, const float *x)
{
    int best = 0;
    float bv = x[0];
    for (int i = 1; i < n; i++) {
        if (x[i] > bv) {
            bv = x[i];
            best = i;
        }
    }
    return best;
}

GPUFUSE int count_in_range(int n, const float *x, float lo, float hi)
{
    int c = 0;
    for (int i = 0; i < n; i++)
        if (x[i] >= lo && x[i] < hi)
            c++;
    return c;
}

GPUFUSE int any_negative(int n, const float *x)
{
    int any = 0;
    for (int i = 0; i < n; i++)
        any = any || x[i] < 0.0f;
    return any;
}

GPUFUSE int all_finite(int n, const double *x)
{
    int ok = 1;
    for (int i = 0; i < n; i++)
        ok &= isfinite(x[i]) != 0;
    return ok;
}

GPUFUSE double dot(int n, const double *x, const double *y)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}

GPUFUSE float norm2(int n, const float *x)
{
    float s = 0.0f;
    for (int i = 0; i < n; i++)
        s += x[i] * x[i];
    return sqrtf(s);
}

GPUFUSE void range_of(int n, const int *x, int *lo, int *hi)
{
    int a = INT32_MAX, b = INT32_MIN;
    for (int i = 0; i < n; i++) {
        a = x[i] < a ? x[i] : a;
        b = x[i] > b ? x[i] : b;
    }
    *lo = a;
    *hi = b;
}
