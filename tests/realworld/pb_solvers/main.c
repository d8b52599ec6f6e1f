#include "rw.h"

#define N 64
void kernel_durbin(int n, double r[N], double y[N]);
void kernel_trisolv(int n, double L[N][N], double x[N], double b[N]);
void kernel_lu(int n, double A[N][N]);
void kernel_gramschmidt(int m, int n, double A[N][N], double R[N][N], double Q[N][N]);
void scale_by_first(int n, const float *r, float *y);
void prefix_then_scale(int n, const float *x, float *y);

static double r[N], y[N], L[N][N], x[N], b[N], A[N][N], R[N][N], Q[N][N];

int main(void)
{
    rw_seed(44);
    for (int i = 0; i < N; i++)
        r[i] = (double)(N + 1 - i) / (N * 200.0);
    kernel_durbin(N, r, y);
    rw_out_d("kernel_durbin.y", y, N, 1e-9, 1e-12);
    for (int i = 0; i < N; i++) {
        b[i] = i * 0.25;
        for (int j = 0; j <= i; j++)
            L[i][j] = (double)(i + N - j + 1) * 2 / N;
    }
    kernel_trisolv(N, L, x, b);
    rw_out_d("kernel_trisolv.x", x, N, 1e-9, 1e-12);
    /* diagonally dominant: LU without pivoting is stable */
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            A[i][j] = (i == j) ? N + rw_uniform(0, 1) : rw_uniform(-1, 1);
    kernel_lu(N, A);
    rw_out_d("kernel_lu.A", &A[0][0], N * N, 1e-9, 1e-12);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            A[i][j] = (i == j) ? 2 + rw_uniform(0, 1) : rw_uniform(-0.5, 0.5);
    kernel_gramschmidt(N, N, A, R, Q);
    rw_out_d("kernel_gramschmidt.R", &R[0][0], N * N, 1e-9, 1e-12);
    rw_out_d("kernel_gramschmidt.Q", &Q[0][0], N * N, 1e-9, 1e-12);
    const int n = 1000;
    float *rf = rw_alloc(n, 4), *yf = rw_alloc(n, 4);
    rw_fill_f(rf, n, 0.5, 1.5);
    scale_by_first(n, rf, yf);
    rw_out_f("scale_by_first.y", yf, n, 1e-6, 0);
    prefix_then_scale(n, rf, yf);
    rw_out_f("prefix_then_scale.y", yf, n, 1e-6, 0);
    return 0;
}
