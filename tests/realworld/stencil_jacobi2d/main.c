#include "rw.h"

void jacobi(int iters, double *u, double *tmp, const double *f, double h2);
double residual(const double *u, const double *f, double h2);
void set_boundary(double *u, double value);

int main(void)
{
    const int n = 512;
    rw_seed(24);
    double *u = rw_alloc(n * n, 8), *tmp = rw_alloc(n * n, 8), *f = rw_alloc(n * n, 8);
    rw_fill_d(f, n * n, -1, 1);
    set_boundary(u, 1.0);
    rw_out_d("set_boundary.u", u, n * n, 0, 0);
    double h2 = 1.0 / ((n - 1) * (n - 1));
    jacobi(20, u, tmp, f, h2);
    rw_out_d("jacobi.u", u, n * n, RW_F64_TOL);
    rw_out_scalar("residual.return", residual(u, f, h2), 1e-9, 1e-12);
    return 0;
}
