#include "rw.h"

#define N 40
void heat3d(int tsteps, double A[N][N][N], double B[N][N][N]);
double total_heat(const double A[N][N][N]);

int main(void)
{
    rw_seed(25);
    double (*A)[N][N] = rw_alloc(N, sizeof *A), (*B)[N][N] = rw_alloc(N, sizeof *B);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            for (int k = 0; k < N; k++)
                A[i][j][k] = B[i][j][k] = (double)(i + j + (N - k)) * 10 / N;
    heat3d(10, A, B);
    rw_out_d("heat3d.A", &A[0][0][0], N * N * N, RW_F64_TOL);
    rw_out_d("heat3d.B", &B[0][0][0], N * N * N, RW_F64_TOL);
    rw_out_scalar("total_heat.return", total_heat((const double (*)[N][N])A), 1e-12, 1e-9);
    return 0;
}
