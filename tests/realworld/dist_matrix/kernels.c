/* dist_matrix: pairwise Euclidean distances, the nearest neighbour of each
 * point (argmin pair), a Gaussian kernel matrix, k-nearest counting */
#include <gpufuse.h>
#include <math.h>
#include <float.h>

GPUFUSE void pairwise(int n, int d, const double X[n][d], double D[n][n])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k = 0; k < d; k++) {
                double t = X[i][k] - X[j][k];
                s += t * t;
            }
            D[i][j] = sqrt(s);
        }
}

GPUFUSE void nearest(int n, const double D[n][n], int nn[n], double nd[n])
{
    for (int i = 0; i < n; i++) {
        int best = -1;
        double bd = DBL_MAX;
        for (int j = 0; j < n; j++)
            if (j != i && D[i][j] < bd) {
                bd = D[i][j];
                best = j;
            }
        nn[i] = best;
        nd[i] = bd;
    }
}

GPUFUSE void gaussian_kernel(int n, const double D[n][n], double gamma, double K[n][n])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            K[i][j] = exp(-gamma * D[i][j] * D[i][j]);
}

GPUFUSE void within_radius(int n, const double D[n][n], double r, int count[n])
{
    for (int i = 0; i < n; i++) {
        int c = 0;
        for (int j = 0; j < n; j++)
            c += D[i][j] <= r;
        count[i] = c;
    }
}
