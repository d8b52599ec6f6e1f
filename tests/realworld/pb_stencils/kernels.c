/* pb_stencils: time-stepped stencils in the PolyBench style (our own code):
 * FDTD in 2-D, Jacobi 1-D, a Gauss-Seidel sweep (in place: sequential), ADI
 * with loops counting down */
#include <gpufuse.h>

#define TMAX 20
#define NX 100
#define NY 120
#define N 200
#define _PB_TMAX TMAX
#define _PB_NX NX
#define _PB_NY NY
#define _PB_N N

GPUFUSE void kernel_fdtd_2d(int tmax, int nx, int ny, double ex[NX][NY], double ey[NX][NY], double hz[NX][NY],
                            double _fict_[TMAX])
{
    int t, i, j;
    for (t = 0; t < _PB_TMAX; t++) {
        for (j = 0; j < _PB_NY; j++)
            ey[0][j] = _fict_[t];
        for (i = 1; i < _PB_NX; i++)
            for (j = 0; j < _PB_NY; j++)
                ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i - 1][j]);
        for (i = 0; i < _PB_NX; i++)
            for (j = 1; j < _PB_NY; j++)
                ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j - 1]);
        for (i = 0; i < _PB_NX - 1; i++)
            for (j = 0; j < _PB_NY - 1; j++)
                hz[i][j] = hz[i][j] - 0.7 * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
    }
}

GPUFUSE void kernel_jacobi_1d(int tsteps, int n, double A[N], double B[N])
{
    int t, i;
    for (t = 0; t < tsteps; t++) {
        for (i = 1; i < _PB_N - 1; i++)
            B[i] = 0.33333 * (A[i - 1] + A[i] + A[i + 1]);
        for (i = 1; i < _PB_N - 1; i++)
            A[i] = 0.33333 * (B[i - 1] + B[i] + B[i + 1]);
    }
}

GPUFUSE void kernel_seidel_1d(int tsteps, int n, double A[N])
{
    int t, i;
    for (t = 0; t <= tsteps - 1; t++)
        for (i = 1; i <= _PB_N - 2; i++)
            A[i] = (A[i - 1] + A[i] + A[i + 1]) / 3.0;
}

/* one ADI-like sweep: a forward pass and a backward pass per row, rows independent */
GPUFUSE void kernel_row_sweeps(int n, double u[N][N], double p[N][N], double q[N][N])
{
    int i, j;
    double a = -0.25, b = 1.5, c = -0.25;
    for (i = 1; i < _PB_N - 1; i++) {
        p[i][0] = 0.0;
        q[i][0] = 1.0;
        for (j = 1; j < _PB_N - 1; j++) {
            p[i][j] = -c / (a * p[i][j - 1] + b);
            q[i][j] = (u[j][i - 1] - a * q[i][j - 1]) / (a * p[i][j - 1] + b);
        }
        u[i][_PB_N - 1] = 1.0;
        for (j = _PB_N - 2; j >= 1; j--)
            u[i][j] = p[i][j] * u[i][j + 1] + q[i][j];
    }
}
