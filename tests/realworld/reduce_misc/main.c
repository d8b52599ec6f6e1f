#include "rw.h"

int64_t sum_i64(int n, const int *x);
int argmax(int n, const float *x);
int count_in_range(int n, const float *x, float lo, float hi);
int any_negative(int n, const float *x);
int all_finite(int n, const double *x);
double dot(int n, const double *x, const double *y);
float norm2(int n, const float *x);
void range_of(int n, const int *x, int *lo, int *hi);

int main(void)
{
    const int n = 100000;
    rw_seed(39);
    int *xi = rw_alloc(n, sizeof(int));
    float *xf = rw_alloc(n, 4);
    double *xd = rw_alloc(n, 8), *yd = rw_alloc(n, 8);
    rw_fill_i(xi, n, -2000000000, 2000000000);
    rw_fill_f(xf, n, -1, 3);
    rw_fill_d(xd, n, -1, 1);
    rw_fill_d(yd, n, -1, 1);
    xf[77777] = 3.5f;      /* one maximum */
    rw_out_int("sum_i64.return", sum_i64(n, xi));
    rw_out_int("argmax.return", argmax(n, xf));
    rw_out_int("count_in_range.return", count_in_range(n, xf, 0.25f, 1.75f));
    rw_out_int("any_negative.return", any_negative(n, xf));
    rw_out_int("all_finite.return", all_finite(n, xd));
    xd[n / 2] = INFINITY;
    rw_out_int("all_finite.return_inf", all_finite(n, xd));
    xd[n / 2] = 0.5;
    rw_out_scalar("dot.return", dot(n, xd, yd), 1e-10, 1e-10);
    rw_out_scalar("norm2.return", norm2(n, xf), 1e-4, 1e-4);
    int lo, hi;
    range_of(n, xi, &lo, &hi);
    rw_out_int("range_of.lo", lo);
    rw_out_int("range_of.hi", hi);
    return 0;
}
