#include "rw.h"

void transpose(int n, int m, const float a[n][m], float t[m][n]);
void add_scaled(int n, int m, const float a[n][m], float s, const float b[n][m], float c[n][m]);
void ger(int n, int m, float alpha, const float x[n], const float y[m], float a[n][m]);
double trace(int n, const double a[n][n]);
double frobenius(int n, int m, const double a[n][m]);
void matmul_ikj(int n, int k, int m, const double A[n][k], const double B[k][m], double C[n][m]);
void normalize_rows(int n, int m, double a[n][m]);

int main(void)
{
    const int n = 200, m = 300, k = 150;
    rw_seed(55);
    float *a = rw_alloc(n * m, 4), *b = rw_alloc(n * m, 4), *t = rw_alloc(n * m, 4), *c = rw_alloc(n * m, 4);
    float *x = rw_alloc(n, 4), *y = rw_alloc(m, 4);
    double *A = rw_alloc(n * k, 8), *B = rw_alloc(k * m, 8), *C = rw_alloc(n * m, 8), *S = rw_alloc(n * n, 8);
    rw_fill_f(a, n * m, -1, 1);
    rw_fill_f(b, n * m, -1, 1);
    rw_fill_f(x, n, -1, 1);
    rw_fill_f(y, m, -1, 1);
    rw_fill_d(A, n * k, -1, 1);
    rw_fill_d(B, k * m, -1, 1);
    rw_fill_d(S, n * n, -1, 1);
    transpose(n, m, (const float (*)[m])a, (float (*)[n])t);
    rw_out_f("transpose.t", t, n * m, 0, 0);
    add_scaled(n, m, (const float (*)[m])a, 0.5f, (const float (*)[m])b, (float (*)[m])c);
    rw_out_f("add_scaled.c", c, n * m, 1e-6, 1e-7);
    ger(n, m, 0.25f, x, y, (float (*)[m])a);
    rw_out_f("ger.a", a, n * m, 1e-6, 1e-7);
    rw_out_scalar("trace.return", trace(n, (const double (*)[n])S), 1e-12, 1e-12);
    matmul_ikj(n, k, m, (const double (*)[k])A, (const double (*)[m])B, (double (*)[m])C);
    rw_out_d("matmul_ikj.C", C, n * m, 1e-11, 1e-12);
    rw_out_scalar("frobenius.return", frobenius(n, m, (const double (*)[m])C), 1e-12, 1e-12);
    normalize_rows(n, m, (double (*)[m])C);
    rw_out_d("normalize_rows.a", C, n * m, 1e-11, 1e-13);
    return 0;
}
