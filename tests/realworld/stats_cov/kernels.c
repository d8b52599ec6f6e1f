/* stats_cov: column means, covariance and correlation matrices of a data
 * matrix (rows are observations), upper triangle mirrored, a guard on tiny
 * standard deviations with a macro */
#include <gpufuse.h>
#include <math.h>

#define EPS 0.1

GPUFUSE void column_means(int n, int m, const double data[n][m], double mean[m])
{
    for (int j = 0; j < m; j++) {
        mean[j] = 0.0;
        for (int i = 0; i < n; i++)
            mean[j] += data[i][j];
        mean[j] /= n;
    }
}

GPUFUSE void covariance(int n, int m, const double data[n][m], const double mean[m], double cov[m][m])
{
    for (int a = 0; a < m; a++)
        for (int b = a; b < m; b++) {
            double s = 0.0;
            for (int i = 0; i < n; i++)
                s += (data[i][a] - mean[a]) * (data[i][b] - mean[b]);
            cov[a][b] = s / (n - 1);
            cov[b][a] = cov[a][b];
        }
}

GPUFUSE void correlation(int n, int m, double data[n][m], double corr[m][m])
{
    double mean[m], sd[m];
    for (int j = 0; j < m; j++) {
        mean[j] = 0.0;
        for (int i = 0; i < n; i++)
            mean[j] += data[i][j];
        mean[j] /= n;
    }
    for (int j = 0; j < m; j++) {
        sd[j] = 0.0;
        for (int i = 0; i < n; i++)
            sd[j] += (data[i][j] - mean[j]) * (data[i][j] - mean[j]);
        sd[j] = sqrt(sd[j] / n);
        sd[j] = sd[j] <= EPS ? 1.0 : sd[j];
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            data[i][j] = (data[i][j] - mean[j]) / (sqrt((double)n) * sd[j]);
    for (int a = 0; a < m; a++) {
        corr[a][a] = 1.0;
        for (int b = a + 1; b < m; b++) {
            corr[a][b] = 0.0;
            for (int i = 0; i < n; i++)
                corr[a][b] += data[i][a] * data[i][b];
            corr[b][a] = corr[a][b];
        }
    }
}
