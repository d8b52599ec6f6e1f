/* pb_solvers: solvers with scalar code between and before the parallel
 * loops, in the PolyBench style (our own code): a Levinson-Durbin
 * recursion, a forward substitution, an LU factorisation, a modified
 * Gram-Schmidt, a Cholesky factorisation.  These are the shapes of issue 13:
 * scalars set from array elements outside any parallel loop. */
#include <gpufuse.h>
#include <math.h>

#define N 64
#define _PB_N N

GPUFUSE void kernel_durbin(int n, double r[N], double y[N])
{
    double z[N];
    double alpha, beta, sum;
    int i, k;
    y[0] = -r[0];
    beta = 1.0;
    alpha = -r[0];
    for (k = 1; k < _PB_N; k++) {
        beta = (1 - alpha * alpha) * beta;
        sum = 0.0;
        for (i = 0; i < k; i++)
            sum += r[k - i - 1] * y[i];
        alpha = -(r[k] + sum) / beta;
        for (i = 0; i < k; i++)
            z[i] = y[i] + alpha * y[k - i - 1];
        for (i = 0; i < k; i++)
            y[i] = z[i];
        y[k] = alpha;
    }
}

GPUFUSE void kernel_trisolv(int n, double L[N][N], double x[N], double b[N])
{
    int i, j;
    for (i = 0; i < _PB_N; i++) {
        x[i] = b[i];
        for (j = 0; j < i; j++)
            x[i] -= L[i][j] * x[j];
        x[i] = x[i] / L[i][i];
    }
}

GPUFUSE void kernel_lu(int n, double A[N][N])
{
    int i, j, k;
    for (i = 0; i < _PB_N; i++) {
        for (j = 0; j < i; j++) {
            for (k = 0; k < j; k++)
                A[i][j] -= A[i][k] * A[k][j];
            A[i][j] /= A[j][j];
        }
        for (j = i; j < _PB_N; j++)
            for (k = 0; k < i; k++)
                A[i][j] -= A[i][k] * A[k][j];
    }
}

GPUFUSE void kernel_gramschmidt(int m, int n, double A[N][N], double R[N][N], double Q[N][N])
{
    int i, j, k;
    double nrm;
    for (k = 0; k < n; k++) {
        nrm = 0.0;
        for (i = 0; i < m; i++)
            nrm += A[i][k] * A[i][k];
        R[k][k] = sqrt(nrm);
        for (i = 0; i < m; i++)
            Q[i][k] = A[i][k] / R[k][k];
        for (j = k + 1; j < n; j++) {
            R[k][j] = 0.0;
            for (i = 0; i < m; i++)
                R[k][j] += Q[i][k] * A[i][j];
            for (i = 0; i < m; i++)
                A[i][j] = A[i][j] - Q[i][k] * R[k][j];
        }
    }
}

/* a scalar from an element, then a parallel loop: the 8-line shape of issue 13 */
GPUFUSE void scale_by_first(int n, const float *r, float *y)
{
    float a = -r[0];
    for (int i = 0; i < n; i++)
        y[i] = a * r[i];
}

/* a short sequential sum between parallel loops */
GPUFUSE void prefix_then_scale(int n, const float *x, float *y)
{
    float s = 0.0f;
    for (int k = 0; k < 3; k++)
        s += x[k];
    for (int i = 0; i < n; i++)
        y[i] = x[i] * s;
}
