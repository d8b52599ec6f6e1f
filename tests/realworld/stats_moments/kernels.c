/* stats_moments: mean, variance, higher moments, min/max written the way
 * statistics code writes them (if-form min/max, several sums in one loop,
 * results through pointers and a struct) */
#include <gpufuse.h>
#include <math.h>
#include "kernels.h"

GPUFUSE double mean(size_t n, const float *x)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += x[i];
    return s / (double)n;
}

GPUFUSE double variance(size_t n, const float *x, double mu)
{
    double s = 0;
    for (size_t i = 0; i < n; i++) {
        double d = x[i] - mu;
        s += d * d;
    }
    return s / (double)(n - 1);
}

GPUFUSE void central_moments(size_t n, const float *x, double mu, double out[3])
{
    double m2 = 0, m3 = 0, m4 = 0;
    for (size_t i = 0; i < n; i++) {
        double d = x[i] - mu, d2 = d * d;
        m2 += d2;
        m3 += d2 * d;
        m4 += d2 * d2;
    }
    out[0] = m2 / n;
    out[1] = m3 / n;
    out[2] = m4 / n;
}

GPUFUSE void min_max(size_t n, const float *x, float *lo, float *hi)
{
    float mn = x[0], mx = x[0];
    for (size_t i = 1; i < n; i++) {
        if (x[i] < mn)
            mn = x[i];
        if (x[i] > mx)
            mx = x[i];
    }
    *lo = mn;
    *hi = mx;
}

GPUFUSE void describe(size_t n, const float *x, moments_t *m)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += x[i];
    double mu = s / n;
    double m2 = 0, m3 = 0, m4 = 0;
    for (size_t i = 0; i < n; i++) {
        double d = x[i] - mu;
        m2 += d * d;
        m3 += d * d * d;
        m4 += d * d * d * d;
    }
    m2 /= n, m3 /= n, m4 /= n;
    m->mean = mu;
    m->var = m2;
    m->skew = m3 / pow(m2, 1.5);
    m->kurt = m4 / (m2 * m2) - 3.0;
    float lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        lo = fminf(lo, x[i]);
        hi = fmaxf(hi, x[i]);
    }
    m->min = lo;
    m->max = hi;
}
