/* tile_kernels.c - nests the CUDA back end runs as tiled kernels (SH_TILED:
 * shared-memory tiles of (i, j), the k loop in chunks), run by tile.c on the
 * GPU against their C bodies: covariance's triangle with a non-literal
 * divisor, correlation's strict triangle with the diagonal set by the row
 * (every row: the last has no column, m = 1 none at all),
 * an integer product with an epilogue, a double product with operands read
 * across their rows (a[k][i]) and along them (b[j][k]), its accumulator
 * starting from c[i][j], and an integer lower triangle (j <= i).
 * Register blocks (several outputs per thread): all of these, and a float
 * and a double product with a non-literal divisor (no library call), a float
 * covariance; tkeep keeps one output per thread (a scalar before the k loop
 * read after it), so both forms run. */
#include <gpufuse.h>

GPUFUSE void tcov(int m, int n, double float_n, const double data[n][m], double cov[m][m])
{
    for (int i = 0; i < m; i++)
        for (int j = i; j < m; j++) {
            cov[i][j] = 0.0;
            for (int k = 0; k < n; k++)
                cov[i][j] += data[k][i] * data[k][j];
            cov[i][j] /= (float_n - 1.0);
            cov[j][i] = cov[i][j];
        }
}

GPUFUSE void tcorr(int m, int n, const double data[n][m], double corr[m][m])
{
    for (int i = 0; i < m; i++) {
        corr[i][i] = 1.0;
        for (int j = i + 1; j < m; j++) {
            corr[i][j] = 0.0;
            for (int k = 0; k < n; k++)
                corr[i][j] += data[k][i] * data[k][j];
            corr[j][i] = corr[i][j];
        }
    }
}

GPUFUSE void tgemm_int(int ni, int nj, int nk, int q, const int a[ni][nk], const int b[nk][nj], int c[ni][nj])
{
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++) {
            int s = 0;
            for (int k = 0; k < nk; k++)
                s += a[i][k] * b[k][j];
            c[i][j] = s / q + c[i][j];
        }
}

GPUFUSE void tgemm_d(int ni, int nj, int nk, double d, const double a[nk][ni], const double b[nj][nk], double c[ni][nj])
{
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++) {
            double s = c[i][j];
            for (int k = 0; k < nk; k++)
                s += a[k][i] * b[j][k] - 0.5 * a[k][i];
            c[i][j] = s / d;
        }
}

GPUFUSE void tlower(int m, int n, const int x[m][n], int y[m][m])
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j <= i; j++) {
            int s = 0;
            for (int k = 0; k < n; k++)
                s += x[i][k] * x[j][k];
            y[i][j] = s;
        }
}

GPUFUSE void tsgemm(int ni, int nj, int nk, float q, const float a[ni][nk], const float b[nk][nj], float c[ni][nj])
{
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++) {
            float s = 0.0f;
            for (int k = 0; k < nk; k++)
                s += a[i][k] * b[k][j];
            c[i][j] = s / q;
        }
}

GPUFUSE void tdgemm(int ni, int nj, int nk, double q, const double a[ni][nk], const double b[nk][nj], double c[ni][nj])
{
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++) {
            double s = 0.0;
            for (int k = 0; k < nk; k++)
                s += a[i][k] * b[k][j];
            c[i][j] = s / q;
        }
}

GPUFUSE void tcovf(int m, int n, float float_n, const float data[n][m], float cov[m][m])
{
    for (int i = 0; i < m; i++)
        for (int j = i; j < m; j++) {
            cov[i][j] = 0.0f;
            for (int k = 0; k < n; k++)
                cov[i][j] += data[k][i] * data[k][j];
            cov[i][j] /= (float_n - 1.0f);
            cov[j][i] = cov[i][j];
        }
}

GPUFUSE void tkeep(int ni, int nj, int nk, const double a[ni][nk], const double b[nk][nj], double c[ni][nj])
{
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++) {
            double t = c[i][j] * 0.5 + 4.0;
            double s = 0.0;
            for (int k = 0; k < nk; k++)
                s += a[i][k] * b[k][j];
            c[i][j] = s / t;
        }
}

/* PolyBench's order (i-k-j, the scaling by beta in a loop of its own):
 * interchanged and the two column loops fused (deps_fuse_siblings), the
 * products are 2-D tiles; cuBLAS's forms by default, so the tests set
 * GPUFUSE_BLAS=0 to run these kernels.  tpgemm a rectangle, tsyrk and
 * tsyr2k the lower triangle (j <= i). */
GPUFUSE void tpgemm(int ni, int nj, int nk, double alpha, double beta, double c[ni][nj], const double a[ni][nk],
                    const double b[nk][nj])
{
    for (int i = 0; i < ni; i++) {
        for (int j = 0; j < nj; j++)
            c[i][j] *= beta;
        for (int k = 0; k < nk; k++)
            for (int j = 0; j < nj; j++)
                c[i][j] += alpha * a[i][k] * b[k][j];
    }
}

GPUFUSE void tsyrk(int n, int m, double alpha, double beta, double c[n][n], const double a[n][m])
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j <= i; j++)
            c[i][j] *= beta;
        for (int k = 0; k < m; k++)
            for (int j = 0; j <= i; j++)
                c[i][j] += alpha * a[i][k] * a[j][k];
    }
}

GPUFUSE void tsyr2k(int n, int m, double alpha, double beta, double c[n][n], const double a[n][m], const double b[n][m])
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j <= i; j++)
            c[i][j] *= beta;
        for (int k = 0; k < m; k++)
            for (int j = 0; j <= i; j++)
                c[i][j] += a[j][k] * alpha * b[i][k] + b[j][k] * alpha * a[i][k];
    }
}
