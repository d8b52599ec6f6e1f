/* matrix_ops: transpose, add, outer product (rank-1 update), trace,
 * Frobenius norm, a matrix product written i-k-j, a row-normalisation */
#include <gpufuse.h>
#include <math.h>

GPUFUSE void transpose(int n, int m, const float a[n][m], float t[m][n])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            t[j][i] = a[i][j];
}

GPUFUSE void add_scaled(int n, int m, const float a[n][m], float s, const float b[n][m], float c[n][m])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            c[i][j] = a[i][j] + s * b[i][j];
}

GPUFUSE void ger(int n, int m, float alpha, const float x[n], const float y[m], float a[n][m])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            a[i][j] += alpha * x[i] * y[j];
}

GPUFUSE double trace(int n, const double a[n][n])
{
    double t = 0;
    for (int i = 0; i < n; i++)
        t += a[i][i];
    return t;
}

GPUFUSE double frobenius(int n, int m, const double a[n][m])
{
    double s = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            s += a[i][j] * a[i][j];
    return sqrt(s);
}

GPUFUSE void matmul_ikj(int n, int k, int m, const double A[n][k], const double B[k][m], double C[n][m])
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < m; j++)
            C[i][j] = 0.0;
        for (int p = 0; p < k; p++)
            for (int j = 0; j < m; j++)
                C[i][j] += A[i][p] * B[p][j];
    }
}

GPUFUSE void normalize_rows(int n, int m, double a[n][m])
{
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j < m; j++)
            s += fabs(a[i][j]);
        if (s > 0)
            for (int j = 0; j < m; j++)
                a[i][j] /= s;
    }
}
