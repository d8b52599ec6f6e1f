#include "rw.h"

void linfit(int n, const double *x, const double *y, double *slope, double *intercept);
double residuals(int n, const double *x, const double *y, double a, double b, double *r);
double weighted_mean(int n, const double *v, const double *w);
void residual_hist(int n, const double *r, double lo, double width, int nbins, int hist[nbins]);

int main(void)
{
    const int n = 50000, nbins = 32;
    rw_seed(29);
    double *x = rw_alloc(n, 8), *y = rw_alloc(n, 8), *r = rw_alloc(n, 8), *w = rw_alloc(n, 8);
    int hist[32];
    for (int i = 0; i < n; i++) {
        x[i] = rw_uniform(0, 10);
        y[i] = 2.5 * x[i] - 1.0 + rw_uniform(-1, 1);
    }
    rw_fill_d(w, n, 0.1, 1);
    double a, b;
    linfit(n, x, y, &a, &b);
    double ab[2] = {a, b};
    rw_out_d("linfit.slope_intercept", ab, 2, 1e-10, 1e-12);
    /* the residuals use the reference fit, so the comparison is of residuals alone */
    double fixed_a = 2.5, fixed_b = -1.0;
    rw_out_scalar("residuals.return", residuals(n, x, y, fixed_a, fixed_b, r), 1e-10, 1e-12);
    rw_out_d("residuals.r", r, n, 1e-12, 1e-14);
    rw_out_scalar("weighted_mean.return", weighted_mean(n, y, w), 1e-11, 1e-12);
    /* bin edges at multiples of 1/16, residuals random: a residual on an edge
       has probability ~0; still one element may move by one bin */
    residual_hist(n, r, -1.0, 1.0 / 16, nbins, hist);
    rw_out_i("residual_hist.hist", hist, nbins, 1);
    return 0;
}
