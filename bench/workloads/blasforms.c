/* blasforms.c - BLAS-shaped loop nests as scientific C code writes them
 * (the shapes of PolyBench's linear-algebra kernels, written anew here), for
 * bench/libs/bench_forms.c: gpufuse turns each into cuBLAS calls, and the
 * benchmark times them beside the same calls made directly.
 *
 * The file is compiled twice: -DBF_REAL=double (launchers gfd_<name>) and
 * -DBF_REAL=float (gfs_<name>), through gpufuse's --prefix.  Arrays are
 * row-major; every matrix's row length is its declared one. */
#include <gpufuse.h>

#ifndef BF_REAL
#define BF_REAL double
#endif
typedef BF_REAL real;

/* C = alpha A B + beta C: each row of C scaled, then A's row times B's rows */
GPUFUSE void bf_gemm(int ni, int nj, int nk, real alpha, real beta, real C[ni][nj], const real A[ni][nk],
                     const real B[nk][nj])
{
    for (int i = 0; i < ni; i++) {
        for (int j = 0; j < nj; j++)
            C[i][j] = beta * C[i][j];
        for (int k = 0; k < nk; k++) {
            real a = alpha * A[i][k];
            for (int j = 0; j < nj; j++)
                C[i][j] += a * B[k][j];
        }
    }
}

/* D = alpha A B C + beta D, through T = alpha A B */
GPUFUSE void bf_2mm(int ni, int nj, int nk, int nl, real alpha, real beta, real T[ni][nj], const real A[ni][nk],
                    const real B[nk][nj], const real C[nj][nl], real D[ni][nl])
{
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++) {
            real s = 0;
            for (int k = 0; k < nk; k++)
                s += alpha * A[i][k] * B[k][j];
            T[i][j] = s;
        }
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nl; j++) {
            D[i][j] = D[i][j] * beta;
            for (int k = 0; k < nj; k++)
                D[i][j] += T[i][k] * C[k][j];
        }
}

/* lower triangle of C = alpha A A^T + beta C, A n x m */
GPUFUSE void bf_syrk(int n, int m, real alpha, real beta, real C[n][n], const real A[n][m])
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j <= i; j++)
            C[i][j] = beta * C[i][j];
        for (int k = 0; k < m; k++)
            for (int j = 0; j <= i; j++)
                C[i][j] += alpha * A[i][k] * A[j][k];
    }
}

/* lower triangle of C = alpha (A B^T + B A^T) + beta C */
GPUFUSE void bf_syr2k(int n, int m, real alpha, real beta, real C[n][n], const real A[n][m], const real B[n][m])
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j <= i; j++)
            C[i][j] = beta * C[i][j];
        for (int k = 0; k < m; k++)
            for (int j = 0; j <= i; j++)
                C[i][j] += alpha * B[i][k] * A[j][k] + alpha * A[i][k] * B[j][k];
    }
}

/* C = alpha S B + beta C, S symmetric m x m stored in A's lower triangle */
GPUFUSE void bf_symm(int m, int n, real alpha, real beta, real C[m][n], const real A[m][m], const real B[m][n])
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            real acc = 0;
            for (int k = 0; k < i; k++) {
                C[k][j] += alpha * B[i][j] * A[i][k];
                acc += A[i][k] * B[k][j];
            }
            C[i][j] = beta * C[i][j] + alpha * A[i][i] * B[i][j] + alpha * acc;
        }
}

/* B = alpha L^T B in place, L unit lower triangular in A (m x m) */
GPUFUSE void bf_trmm(int m, int n, real alpha, const real A[m][m], real B[m][n])
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            for (int k = i + 1; k < m; k++)
                B[i][j] += A[k][i] * B[k][j];
            B[i][j] = alpha * B[i][j];
        }
}

/* y = A^T (A x), t = A x on the way (A m x n) */
GPUFUSE void bf_atax(int m, int n, const real A[m][n], const real x[n], real y[n], real t[m])
{
    for (int j = 0; j < n; j++)
        y[j] = 0;
    for (int i = 0; i < m; i++) {
        t[i] = 0;
        for (int j = 0; j < n; j++)
            t[i] += A[i][j] * x[j];
        for (int j = 0; j < n; j++)
            y[j] += A[i][j] * t[i];
    }
}

/* x1 += A y1 and x2 += A^T y2 */
GPUFUSE void bf_mvt(int n, real x1[n], real x2[n], const real y1[n], const real y2[n], const real A[n][n])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            x1[i] += A[i][j] * y1[j];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            x2[i] += A[j][i] * y2[j];
}

/* y = alpha A x + beta B x, t = A x */
GPUFUSE void bf_gesummv(int n, real alpha, real beta, const real A[n][n], const real B[n][n], real t[n],
                        const real x[n], real y[n])
{
    for (int i = 0; i < n; i++) {
        real s = 0, u = 0;
        for (int j = 0; j < n; j++) {
            s += A[i][j] * x[j];
            u += B[i][j] * x[j];
        }
        t[i] = s;
        y[i] = alpha * s + beta * u;
    }
}

/* gemver's first step: A += u1 v1^T + u2 v2^T (two rank-1 updates) */
GPUFUSE void bf_ger2(int n, real A[n][n], const real u1[n], const real v1[n], const real u2[n], const real v2[n])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            A[i][j] = A[i][j] + u1[i] * v1[j] + u2[i] * v2[j];
}
