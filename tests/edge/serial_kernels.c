/* serial_kernels.c - marked functions with statements outside every
 * parallel loop (serial.c runs them on the GPU against their C bodies):
 * PolyBench-style scalar code (durbin, gramschmidt, lu: all scalars
 * declared at the top, as PolyBench does), a scalar set from an element
 * before a parallel loop, scalars computed between parallel loops, reductions
 * started from an element, a value derived from a reduction that is
 * overwritten afterwards, a running value across a time loop, an early
 * return on the host, a time loop where the GPU wins, and a function
 * without parameters. */
#include <gpufuse.h>
#include <math.h>

/* Levinson-Durbin (PolyBench durbin): alpha and beta carried from one k to
 * the next, sum reduced per k, y updated through z. */
GPUFUSE void durbin(int n, const double r[n], double y[n], double z[n])
{
    double alpha, beta, sum;
    y[0] = -r[0];
    beta = 1.0;
    alpha = -r[0];
    for (int k = 1; k < n; k++) {
        beta = (1 - alpha * alpha) * beta;
        sum = 0.0;
        for (int i = 0; i < k; i++)
            sum += r[k - i - 1] * y[i];
        alpha = -(r[k] + sum) / beta;
        for (int i = 0; i < k; i++)
            z[i] = y[i] + alpha * y[k - i - 1];
        for (int i = 0; i < k; i++)
            y[i] = z[i];
        y[k] = alpha;
    }
}

/* Modified Gram-Schmidt (PolyBench gramschmidt): nrm reduced per column. */
GPUFUSE void gramschmidt(int m, int n, double A[m][n], double R[n][n], double Q[m][n])
{
    double nrm;
    for (int k = 0; k < n; k++) {
        nrm = 0.0;
        for (int i = 0; i < m; i++)
            nrm += A[i][k] * A[i][k];
        R[k][k] = sqrt(nrm);
        for (int i = 0; i < m; i++)
            Q[i][k] = A[i][k] / R[k][k];
        for (int j = k + 1; j < n; j++) {
            R[k][j] = 0.0;
            for (int i = 0; i < m; i++)
                R[k][j] += Q[i][k] * A[i][j];
            for (int i = 0; i < m; i++)
                A[i][j] = A[i][j] - Q[i][k] * R[k][j];
        }
    }
}

/* LU decomposition in place (PolyBench lu): the first j loop is
 * sequential (a triangular solve), the second is parallel. */
GPUFUSE void lu(int n, double A[n][n])
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < i; j++) {
            for (int k = 0; k < j; k++)
                A[i][j] -= A[i][k] * A[k][j];
            A[i][j] /= A[j][j];
        }
        for (int j = i; j < n; j++)
            for (int k = 0; k < i; k++)
                A[i][j] -= A[i][k] * A[k][j];
    }
}

/* Cholesky in place (PolyBench cholesky): rescheduled column by column,
 * the square root of the diagonal is a one-thread statement before the map
 * that divides the column by it; the map's threads run it instead (a
 * launch fewer per column: lower_absorb), the last block stores it. */
GPUFUSE void cholesky(int n, double A[n][n])
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < i; j++) {
            for (int k = 0; k < j; k++)
                A[i][j] -= A[i][k] * A[j][k];
            A[i][j] /= A[j][j];
        }
        for (int k = 0; k < i; k++)
            A[i][i] -= A[i][k] * A[i][k];
        A[i][i] = sqrt(A[i][i]);
    }
}

/* Forward substitution (PolyBench trisolv): x[i] / L[i][i] by every thread
 * of the map that subtracts the new x[i] from the later rows. */
GPUFUSE void trisolv(int n, const double L[n][n], double x[n], const double b[n])
{
    for (int i = 0; i < n; i++) {
        x[i] = b[i];
        for (int j = 0; j < i; j++)
            x[i] -= L[i][j] * x[j];
        x[i] = x[i] / L[i][i];
    }
}

/* The same over a map whose threads walk rows (blocks spread over the
 * SMs); n = 1 leaves the map no row, the statement still runs. */
GPUFUSE void spread_rows(int n, int m, float p[n][m], float s[5], float r[5])
{
    for (int t = 0; t < 4; t++) {
        s[t] = r[t] * 0.5f + 1.0f;
        for (int i = 1; i < n; i++) {
            for (int j = 1; j < m; j++)
                p[i][j] = p[i][j - 1] * 0.5f + p[i][j] * 0.25f + s[t];
            if (i == 1)
                r[t + 1] = p[i][m - 1];
        }
    }
}

/* A scalar set from an element before the parallel loop that reads it. */
GPUFUSE void neg_scale(int n, const float *r, float *y)
{
    float a;
    a = -r[0];
    for (int i = 0; i < n; i++)
        y[i] = a * r[i];
}

/* Scalars between parallel loops: an element, a small reduction, a value
 * computed from the first loop's output, read by the next loops. */
GPUFUSE float between(int n, const float x[n], float y[n], float w[n])
{
    float a = -x[1];
    float s = 0;
    for (int k = 0; k < 3; k++)
        s += x[k];
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + s;
    float t = y[n / 2] * 0.5f + a;
    float u = t * t;
    for (int i = 0; i < n; i++)
        w[i] = y[i] - t + u;
    return t + w[0];
}

/* Reductions that start from an element, not from the operator's identity. */
GPUFUSE float hi_of(int n, const float *v)
{
    float hi = v[0];
    for (int i = 1; i < n; i++)
        hi = v[i] > hi ? v[i] : hi;
    return hi;
}

GPUFUSE double sum_from(int n, const double *v, double *out)
{
    double s = v[n - 1] * 2.0;
    for (int i = 0; i < n; i++)
        s += v[i];
    out[0] = s;
    return s;
}

/* A value derived from a reduction result, then the result overwritten by
 * a second reduction: the derived value keeps the first one. */
GPUFUSE float derived(int n, const float *x, float *y)
{
    float s = 0.0f;
    for (int i = 0; i < n; i++)
        s += x[i];
    float m = s / (float)n;
    s = 0.0f;
    for (int i = 0; i < n; i++)
        s += x[i] * x[i];
    for (int i = 0; i < n; i++)
        y[i] = x[i] - m;
    return s;
}

/* A running value carried across a time loop, never reset. */
/* A value derived from each step's reduction inside the time loop: a
 * serial kernel of its own computes it on the device (fuse.c,
 * plan_scalar_run), so no step waits for the sum to come back. */
GPUFUSE void normalise_steps(int steps, int n, float x[n])
{
    for (int t = 0; t < steps; t++) {
        float s = 0.0f;
        for (int i = 0; i < n; i++)
            s += x[i] * x[i];
        float inv = 1.0f / sqrtf(s + 1.0f);
        for (int i = 0; i < n; i++)
            x[i] = x[i] * inv + 0.01f;
    }
}

GPUFUSE float running(int steps, int n, const float x[n], float y[n])
{
    float acc = x[0];
    for (int t = 0; t < steps; t++) {
        for (int i = 0; i < n; i++)
            acc += x[i] * 0.001f;
        for (int i = 0; i < n; i++)
            y[i] = x[i] * acc + (float)t;
        acc = acc * 0.5f + y[t % n];
    }
    return acc;
}

/* An early return on the host, before the kernels. */
GPUFUSE void guarded(int n, const float *x, float *y)
{
    if (n <= 1)
        return;
    y[0] = x[0] + x[1];
    for (int i = 1; i < n; i++)
        y[i] = x[i] * 2.0f;
}

/* A return that may happen before the only write of y: y is copied in
 * (it keeps its values when the function returns early). */
GPUFUSE void early(int n, int flag, const float x[n], float y[n])
{
    if (flag)
        return;
    for (int i = 0; i < n; i++)
        y[i] = x[i];
}

/* A time loop around a map: enough work per launch for the GPU to win. */
GPUFUSE void smooth(int steps, int n, float *a, float *b)
{
    for (int t = 0; t < steps; t++) {
        for (int i = 1; i < n - 1; i++)
            b[i] = (a[i - 1] + a[i] + a[i + 1]) * (1.0f / 3.0f);
        for (int i = 1; i < n - 1; i++)
            a[i] = b[i];
    }
}

/* Five inputs and an output of doubles, one addition each: 48 bytes copied
 * per statement instance when the arrays are on the host, more than the CPU
 * takes to run it (gf_call_weigh): host arrays run on the CPU, device arrays
 * on the GPU. */
GPUFUSE void wide_sum(int n, const double *a, const double *b, const double *c, const double *d, const double *e,
                      double *out)
{
    for (int i = 0; i < n; i++)
        out[i] = a[i] + b[i] + c[i] + d[i] + e[i];
}

/* No parameters at all. */
GPUFUSE int triangle(void)
{
    int s = 0;
    for (int i = 0; i < 100; i++)
        s += i;
    return s;
}
