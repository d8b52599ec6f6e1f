/* forms.c - BLAS-shaped nests in the shapes scientific C code writes them
 * (PolyBench's kernels among them, written anew here), each one or more
 * cuBLAS calls (compiler/plan/libcall.c).  forms_check.c runs every launcher
 * against its C body; the number after each name is how many library calls
 * its launcher makes. */
#include <gpufuse.h>

/* 1: C = alpha A B + beta C, i-k-j order, the scaling in the same nest */
GPUFUSE void gemm_ikj(int ni, int nj, int nk, double alpha, double beta, double C[ni][nj], const double A[ni][nk],
                      const double B[nk][nj])
{
    for (int i = 0; i < ni; i++) {
        for (int j = 0; j < nj; j++)
            C[i][j] *= beta;
        for (int k = 0; k < nk; k++)
            for (int j = 0; j < nj; j++)
                C[i][j] += alpha * A[i][k] * B[k][j];
    }
}

/* 1: float, i-j-k with a scalar sum, alpha and beta in the store */
GPUFUSE void gemm_acc(int n, int m, int p, float alpha, float beta, const float A[n][p], const float B[p][m],
                      float C[n][m])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            float acc = 0.0f;
            for (int k = 0; k < p; k++)
                acc += A[i][k] * B[k][j];
            C[i][j] = beta * C[i][j] + alpha * acc;
        }
}

/* 1: float, k-i-j, the scaling a nest of its own before (folded into beta) */
GPUFUSE void gemm_kij(int n, int m, int p, float alpha, float beta, float C[n][m], const float A[n][p],
                      const float B[p][m])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            C[i][j] = beta * C[i][j];
    for (int k = 0; k < p; k++)
        for (int i = 0; i < n; i++)
            for (int j = 0; j < m; j++)
                C[i][j] += alpha * A[i][k] * B[k][j];
}

/* 1: flattened arrays, both operands transposed, j-i-k, C cleared first */
GPUFUSE void gemm_tt(int n, int m, int p, const double *At, const double *Bt, double *C)
{
    for (int j = 0; j < m; j++)
        for (int i = 0; i < n; i++) {
            C[i * m + j] = 0.0;
            for (int k = 0; k < p; k++)
                C[i * m + j] -= At[k * n + i] * Bt[j * p + k];
        }
}

/* 2: D = alpha A B C + beta D through tmp (a parameter) */
GPUFUSE void two_mm(int ni, int nj, int nk, int nl, double alpha, double beta, double tmp[ni][nj],
                    const double A[ni][nk], const double B[nk][nj], const double C[nj][nl], double D[ni][nl])
{
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++) {
            tmp[i][j] = 0.0;
            for (int k = 0; k < nk; k++)
                tmp[i][j] += alpha * A[i][k] * B[k][j];
        }
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nl; j++) {
            D[i][j] *= beta;
            for (int k = 0; k < nj; k++)
                D[i][j] += tmp[i][k] * C[k][j];
        }
}

/* 3: G = (A B)(C D), the two products in temporaries the launcher allocates */
GPUFUSE void three_mm(int ni, int nj, int nk, int nl, int nm, const float A[ni][nk], const float B[nk][nj],
                      const float C[nj][nm], const float D[nm][nl], float G[ni][nl])
{
    float E[ni][nj], F[nj][nl];
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++) {
            E[i][j] = 0.0f;
            for (int k = 0; k < nk; k++)
                E[i][j] += A[i][k] * B[k][j];
        }
    for (int i = 0; i < nj; i++)
        for (int j = 0; j < nl; j++) {
            F[i][j] = 0.0f;
            for (int k = 0; k < nm; k++)
                F[i][j] += C[i][k] * D[k][j];
        }
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nl; j++) {
            G[i][j] = 0.0f;
            for (int k = 0; k < nj; k++)
                G[i][j] += E[i][k] * F[k][j];
        }
}

/* 1: the lower triangle of C = alpha A A^T + beta C */
GPUFUSE void syrk(int n, int m, double alpha, double beta, double C[n][n], const double A[n][m])
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j <= i; j++)
            C[i][j] *= beta;
        for (int k = 0; k < m; k++)
            for (int j = 0; j <= i; j++)
                C[i][j] += alpha * A[i][k] * A[j][k];
    }
}

/* 1: float, the upper triangle of C = A^T A + C */
GPUFUSE void syrk_upper(int n, int m, float C[n][n], const float A[m][n])
{
    for (int i = 0; i < n; i++)
        for (int j = i; j < n; j++)
            for (int k = 0; k < m; k++)
                C[i][j] += A[k][i] * A[k][j];
}

/* 1: the lower triangle of C = alpha (A B^T + B A^T) + beta C */
GPUFUSE void syr2k(int n, int m, double alpha, double beta, double C[n][n], const double A[n][m],
                   const double B[n][m])
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j <= i; j++)
            C[i][j] *= beta;
        for (int k = 0; k < m; k++)
            for (int j = 0; j <= i; j++)
                C[i][j] += A[j][k] * alpha * B[i][k] + B[j][k] * alpha * A[i][k];
    }
}

/* 1: C = alpha S B + beta C, S symmetric from A's lower triangle */
GPUFUSE void symm(int m, int n, double alpha, double beta, double C[m][n], const double A[m][m],
                  const double B[m][n])
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double t = 0;
            for (int k = 0; k < i; k++) {
                C[k][j] += alpha * B[i][j] * A[i][k];
                t += B[k][j] * A[i][k];
            }
            C[i][j] = beta * C[i][j] + alpha * B[i][j] * A[i][i] + alpha * t;
        }
}

/* 1: B = alpha L^T B in place, L unit lower triangular in A */
GPUFUSE void trmm(int m, int n, double alpha, const double A[m][m], double B[m][n])
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            for (int k = i + 1; k < m; k++)
                B[i][j] += A[k][i] * B[k][j];
            B[i][j] = alpha * B[i][j];
        }
}

/* 1: float, C = alpha B S + beta C, S symmetric from A's upper triangle (the
 * right-side, upper form of PolyBench's symm; without cuBLAS the launcher runs
 * gf_symm_tiled's right and upper branches) */
GPUFUSE void symm_right(int m, int n, float alpha, float beta, float C[m][n], const float A[n][n], const float B[m][n])
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            float t = 0;
            for (int k = 0; k < j; k++) {
                C[i][k] += alpha * B[i][j] * A[k][j];
                t += B[i][k] * A[k][j];
            }
            C[i][j] = beta * C[i][j] + alpha * B[i][j] * A[j][j] + alpha * t;
        }
}

/* 1: float, C = B L with L lower triangular in A (its diagonal read) */
GPUFUSE void trmm_right(int m, int n, const float A[n][n], const float B[m][n], float C[m][n])
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            float s = 0.0f;
            for (int k = j; k < n; k++)
                s += B[i][k] * A[k][j];
            C[i][j] = s;
        }
}

/* 2: y = A^T (A x), tmp = A x on the way */
GPUFUSE void atax(int m, int n, const double A[m][n], const double x[n], double y[n], double tmp[m])
{
    for (int i = 0; i < n; i++)
        y[i] = 0;
    for (int i = 0; i < m; i++) {
        tmp[i] = 0.0;
        for (int j = 0; j < n; j++)
            tmp[i] = tmp[i] + A[i][j] * x[j];
        for (int j = 0; j < n; j++)
            y[j] = y[j] + A[i][j] * tmp[i];
    }
}

/* 2: s = A^T r and q = A p in one pass over A's rows; C89 declarations */
GPUFUSE void bicg(int m, int n, const double A[n][m], double s[m], double q[n], const double p[m], const double r[n])
{
    int i, j;
    for (i = 0; i < m; i++)
        s[i] = 0;
    for (i = 0; i < n; i++) {
        q[i] = 0.0;
        for (j = 0; j < m; j++) {
            s[j] = s[j] + r[i] * A[i][j];
            q[i] = q[i] + A[i][j] * p[j];
        }
    }
}

/* 2: x1 += A y1, x2 += A^T y2 */
GPUFUSE void mvt(int n, double x1[n], double x2[n], const double y_1[n], const double y_2[n], const double A[n][n])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            x1[i] = x1[i] + A[i][j] * y_1[j];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            x2[i] = x2[i] + A[j][i] * y_2[j];
}

/* 3: y = alpha A x + beta B x, tmp = A x: two GEMVs and tmp added to y */
GPUFUSE void gesummv(int n, double alpha, double beta, const double A[n][n], const double B[n][n], double tmp[n],
                     const double x[n], double y[n])
{
    for (int i = 0; i < n; i++) {
        tmp[i] = 0.0;
        y[i] = 0.0;
        for (int j = 0; j < n; j++) {
            tmp[i] = A[i][j] * x[j] + tmp[i];
            y[i] = B[i][j] * x[j] + y[i];
        }
        y[i] = alpha * tmp[i] + beta * y[i];
    }
}

/* 2: float, scalar sums: y = alpha A x + beta B x */
GPUFUSE void gesummv_acc(int n, float alpha, float beta, const float A[n][n], const float B[n][n], const float x[n],
                         float y[n])
{
    for (int i = 0; i < n; i++) {
        float s = 0.0f, t = 0.0f;
        for (int j = 0; j < n; j++) {
            s += A[i][j] * x[j];
            t += B[i][j] * x[j];
        }
        y[i] = alpha * s + beta * t;
    }
}

/* 3: scalar sums, one of them also stored: t = A x, y = alpha A x + beta B x
 * as GEMV, GEMV, then y += alpha t (a GEAM: A is not read twice) */
GPUFUSE void gesummv_stored(int n, double alpha, double beta, const double A[n][n], const double B[n][n],
                            double t[n], const double x[n], double y[n])
{
    for (int i = 0; i < n; i++) {
        double s = 0, u = 0;
        for (int j = 0; j < n; j++) {
            s += A[i][j] * x[j];
            u += B[i][j] * x[j];
        }
        t[i] = s;
        y[i] = alpha * s + beta * u;
    }
}

/* 4 (and one kernel): A += u1 v1^T + u2 v2^T; x += beta A^T y; x += z; w += alpha A x */
GPUFUSE void gemver(int n, double alpha, double beta, double A[n][n], const double u1[n], const double v1[n],
                    const double u2[n], const double v2[n], double w[n], double x[n], const double y[n],
                    const double z[n])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            A[i][j] = A[i][j] + u1[i] * v1[j] + u2[i] * v2[j];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            x[i] = x[i] + beta * A[j][i] * y[j];
    for (int i = 0; i < n; i++)
        x[i] = x[i] + z[i];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            w[i] = w[i] + alpha * A[i][j] * x[j];
}

/* 1: float, a rank-1 update scaled and subtracted */
GPUFUSE void ger_sub(int n, int m, float alpha, float A[n][m], const float u[n], const float v[m])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            A[i][j] -= alpha * u[i] * v[j];
}

/* 0: kernels, with the reason in --report: a product reading the array it
 * writes at other elements, a condition, an offset subscript */
GPUFUSE void not_blas(int n, double C[n][n], const double A[n][n], double y[n], const double x[n])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++)
                C[i][j] += A[i][k] * C[k][j];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (x[j] > 0)
                y[i] += A[i][j] * x[j];
    for (int i = 0; i < n - 1; i++)
        for (int j = 0; j < n; j++)
            y[i] += A[i + 1][j] * x[j];
}
