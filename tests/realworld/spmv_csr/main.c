#include "rw.h"
#include "kernels.h"

int main(void)
{
    const int rows = 3000, cols = 2500, per_row_max = 12, width = 12;
    rw_seed(21);
    int *row_ptr = rw_alloc(rows + 1, sizeof(int));
    int *col_idx = rw_alloc((size_t)rows * per_row_max, sizeof(int));
    double *val = rw_alloc((size_t)rows * per_row_max, sizeof(double));
    int *ecol = rw_alloc((size_t)rows * width, sizeof(int));
    float *eval = rw_alloc((size_t)rows * width, sizeof(float));
    row_ptr[0] = 0;
    for (int r = 0; r < rows; r++) {
        int cnt = rw_int(0, per_row_max), k = row_ptr[r];
        for (int q = 0; q < cnt; q++) {
            col_idx[k + q] = (q == 0 && r < cols) ? r : rw_int(0, cols - 1);
            val[k + q] = rw_uniform(-1, 1);
        }
        row_ptr[r + 1] = k + cnt;
        for (int q = 0; q < width; q++) {
            ecol[r * width + q] = q < cnt ? col_idx[k + q] : -1;
            eval[r * width + q] = q < cnt ? (float)val[k + q] : 0.0f;
        }
    }
    double *x = rw_alloc(rows > cols ? rows : cols, sizeof(double)), *y = rw_alloc(rows, sizeof(double));
    double *yt = rw_alloc(cols, sizeof(double)), *diag = rw_alloc(rows, sizeof(double));
    double *b = rw_alloc(rows, sizeof(double)), *xn = rw_alloc(rows, sizeof(double));
    float *xf = rw_alloc(cols, sizeof(float)), *yf = rw_alloc(rows, sizeof(float));
    rw_fill_d(x, rows > cols ? rows : cols, -1, 1);
    for (int c = 0; c < cols; c++)
        xf[c] = (float)x[c];
    rw_fill_d(diag, rows, 4, 8);
    rw_fill_d(b, rows, -1, 1);
    spmv_csr(rows, row_ptr, col_idx, val, x, y);
    rw_out_d("spmv_csr.y", y, rows, 1e-12, 1e-12);
    spmv_ell(rows, width, ecol, eval, xf, yf);
    rw_out_f("spmv_ell.y", yf, rows, 1e-5, 1e-5);
    spmv_transpose(rows, cols, row_ptr, col_idx, val, x, yt);
    rw_out_d("spmv_transpose.y", yt, cols, 1e-10, 1e-10);
    jacobi_sweep(rows, row_ptr, col_idx, val, diag, b, x, xn);
    rw_out_d("jacobi_sweep.xnew", xn, rows, 1e-12, 1e-12);
    return 0;
}
