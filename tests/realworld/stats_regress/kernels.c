/* stats_regress: least squares line fit (several sums in one loop),
 * residuals, weighted mean, a histogram of residuals */
#include <gpufuse.h>
#include <math.h>

GPUFUSE void linfit(int n, const double *x, const double *y, double *slope, double *intercept)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int i = 0; i < n; i++) {
        sx += x[i];
        sy += y[i];
        sxx += x[i] * x[i];
        sxy += x[i] * y[i];
    }
    double d = n * sxx - sx * sx;
    *slope = (n * sxy - sx * sy) / d;
    *intercept = (sy - *slope * sx) / n;
}

GPUFUSE double residuals(int n, const double *x, const double *y, double a, double b, double *r)
{
    double sse = 0;
    for (int i = 0; i < n; i++) {
        r[i] = y[i] - (a * x[i] + b);
        sse += r[i] * r[i];
    }
    return sse;
}

GPUFUSE double weighted_mean(int n, const double *v, const double *w)
{
    double num = 0, den = 0;
    for (int i = 0; i < n; i++) {
        num += w[i] * v[i];
        den += w[i];
    }
    return num / den;
}

GPUFUSE void residual_hist(int n, const double *r, double lo, double width, int nbins, int hist[nbins])
{
    for (int b = 0; b < nbins; b++)
        hist[b] = 0;
    for (int i = 0; i < n; i++) {
        int b = (int)floor((r[i] - lo) / width);
        if (b < 0)
            b = 0;
        if (b >= nbins)
            b = nbins - 1;
        hist[b]++;
    }
}
