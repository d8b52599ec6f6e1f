/* stencil_jacobi2d: Jacobi iterations on a fixed grid with #define sizes and
 * an IDX macro; boundary conditions; a residual norm */
#include <gpufuse.h>
#include <math.h>

#define N 512
#define IDX(i, j) ((i) * (N) + (j))

GPUFUSE void jacobi(int iters, double *u, double *tmp, const double *f, double h2)
{
    for (int it = 0; it < iters; it++) {
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                tmp[IDX(i, j)] = 0.25 * (u[IDX(i - 1, j)] + u[IDX(i + 1, j)] + u[IDX(i, j - 1)] +
                                         u[IDX(i, j + 1)] - h2 * f[IDX(i, j)]);
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                u[IDX(i, j)] = tmp[IDX(i, j)];
    }
}

GPUFUSE double residual(const double *u, const double *f, double h2)
{
    double r2 = 0.0;
    for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N - 1; j++) {
            double r = u[IDX(i - 1, j)] + u[IDX(i + 1, j)] + u[IDX(i, j - 1)] + u[IDX(i, j + 1)] -
                       4.0 * u[IDX(i, j)] - h2 * f[IDX(i, j)];
            r2 += r * r;
        }
    return sqrt(r2);
}

GPUFUSE void set_boundary(double *u, double value)
{
    for (int k = 0; k < N; k++) {
        u[IDX(0, k)] = value;
        u[IDX(N - 1, k)] = value;
        u[IDX(k, 0)] = value;
        u[IDX(k, N - 1)] = value;
    }
}
