#include "rw.h"

void pairwise(int n, int d, const double X[n][d], double D[n][n]);
void nearest(int n, const double D[n][n], int nn[n], double nd[n]);
void gaussian_kernel(int n, const double D[n][n], double gamma, double K[n][n]);
void within_radius(int n, const double D[n][n], double r, int count[n]);

int main(void)
{
    const int n = 400, d = 8;
    rw_seed(53);
    double *X = rw_alloc(n * d, 8), *D = rw_alloc(n * n, 8), *K = rw_alloc(n * n, 8), *nd = rw_alloc(n, 8);
    int *nn = rw_alloc(n, sizeof(int)), *cnt = rw_alloc(n, sizeof(int));
    /* coordinates are multiples of 1/8: squared distances are exact, ties are ties everywhere */
    for (int i = 0; i < n * d; i++)
        X[i] = rw_int(-16, 16) / 8.0;
    pairwise(n, d, (const double (*)[d])X, (double (*)[n])D);
    rw_out_d("pairwise.D", D, n * n, 0, 0);
    nearest(n, (const double (*)[n])D, nn, nd);
    rw_out_i("nearest.nn", nn, n, 0);
    rw_out_d("nearest.nd", nd, n, 0, 0);
    gaussian_kernel(n, (const double (*)[n])D, 0.3, (double (*)[n])K);
    rw_out_d("gaussian_kernel.K", K, n * n, 1e-13, 1e-15);
    within_radius(n, (const double (*)[n])D, 2.5, cnt);
    rw_out_i("within_radius.count", cnt, n, 0);
    return 0;
}
