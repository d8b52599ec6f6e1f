#include "rw.h"

void column_means(int n, int m, const double data[n][m], double mean[m]);
void covariance(int n, int m, const double data[n][m], const double mean[m], double cov[m][m]);
void correlation(int n, int m, double data[n][m], double corr[m][m]);

int main(void)
{
    const int n = 500, m = 40;
    rw_seed(27);
    double *data = rw_alloc(n * m, 8), *mean = rw_alloc(m, 8), *cov = rw_alloc(m * m, 8),
           *corr = rw_alloc(m * m, 8);
    for (int i = 0; i < n; i++) {
        double common = rw_uniform(-1, 1);
        for (int j = 0; j < m; j++)
            data[i * m + j] = common * (j % 5) + rw_uniform(-1, 1) + j;
    }
    column_means(n, m, (const double (*)[m])data, mean);
    rw_out_d("column_means.mean", mean, m, 1e-12, 1e-12);
    covariance(n, m, (const double (*)[m])data, mean, (double (*)[m])cov);
    rw_out_d("covariance.cov", cov, m * m, 1e-10, 1e-12);
    correlation(n, m, (double (*)[m])data, (double (*)[m])corr);
    rw_out_d("correlation.data", data, n * m, 1e-10, 1e-12);
    rw_out_d("correlation.corr", corr, m * m, 1e-10, 1e-12);
    return 0;
}
