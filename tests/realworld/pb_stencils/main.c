#include "rw.h"

#define TMAX 20
#define NX 100
#define NY 120
#define N 200
void kernel_fdtd_2d(int tmax, int nx, int ny, double ex[NX][NY], double ey[NX][NY], double hz[NX][NY],
                    double _fict_[TMAX]);
void kernel_jacobi_1d(int tsteps, int n, double A[N], double B[N]);
void kernel_seidel_1d(int tsteps, int n, double A[N]);
void kernel_row_sweeps(int n, double u[N][N], double p[N][N], double q[N][N]);

static double ex[NX][NY], ey[NX][NY], hz[NX][NY], fict[TMAX], A[N], B[N], u[N][N], p[N][N], q[N][N];

int main(void)
{
    for (int t = 0; t < TMAX; t++)
        fict[t] = t;
    for (int i = 0; i < NX; i++)
        for (int j = 0; j < NY; j++) {
            ex[i][j] = (double)(i * (j + 1)) / NX;
            ey[i][j] = (double)(i * (j + 2)) / NY;
            hz[i][j] = (double)(i * (j + 3)) / NX;
        }
    kernel_fdtd_2d(TMAX, NX, NY, ex, ey, hz, fict);
    rw_out_d("kernel_fdtd_2d.ex", &ex[0][0], NX * NY, 1e-9, 1e-9);
    rw_out_d("kernel_fdtd_2d.ey", &ey[0][0], NX * NY, 1e-9, 1e-9);
    rw_out_d("kernel_fdtd_2d.hz", &hz[0][0], NX * NY, 1e-9, 1e-9);
    for (int i = 0; i < N; i++)
        A[i] = B[i] = ((double)i + 2) / N;
    kernel_jacobi_1d(50, N, A, B);
    rw_out_d("kernel_jacobi_1d.A", A, N, 1e-12, 1e-12);
    rw_out_d("kernel_jacobi_1d.B", B, N, 1e-12, 1e-12);
    kernel_seidel_1d(10, N, A);
    rw_out_d("kernel_seidel_1d.A", A, N, 1e-12, 1e-12);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            u[i][j] = (double)(i + N - j) / N;
    kernel_row_sweeps(N, u, p, q);
    rw_out_d("kernel_row_sweeps.u", &u[0][0], N * N, 1e-10, 1e-12);
    rw_out_d("kernel_row_sweeps.p", &p[0][0], N * N, 1e-10, 1e-12);
    rw_out_d("kernel_row_sweeps.q", &q[0][0], N * N, 1e-10, 1e-12);
    return 0;
}
