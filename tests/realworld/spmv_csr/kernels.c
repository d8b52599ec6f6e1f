/* spmv_csr: sparse matrix-vector products, CSR and ELLPACK, a transposed
 * product (scatter), a Jacobi sweep */
#include <gpufuse.h>
#include "kernels.h"

GPUFUSE void spmv_csr(int rows, const int *row_ptr, const int *col_idx, const double *val, const double *x, double *y)
{
    for (int r = 0; r < rows; r++) {
        double sum = 0.0;
        for (int k = row_ptr[r]; k < row_ptr[r + 1]; k++)
            sum += val[k] * x[col_idx[k]];
        y[r] = sum;
    }
}

GPUFUSE void spmv_ell(int rows, int width, const int *col, const float *val, const float *x, float *y)
{
    for (int r = 0; r < rows; r++) {
        float sum = 0.0f;
        for (int k = 0; k < width; k++) {
            int c = col[r * width + k];
            if (c >= 0)
                sum += val[r * width + k] * x[c];
        }
        y[r] = sum;
    }
}

GPUFUSE void spmv_transpose(int rows, int cols, const int *row_ptr, const int *col_idx, const double *val,
                            const double *x, double *y)
{
    for (int c = 0; c < cols; c++)
        y[c] = 0.0;
    for (int r = 0; r < rows; r++)
        for (int k = row_ptr[r]; k < row_ptr[r + 1]; k++)
            y[col_idx[k]] += val[k] * x[r];
}

GPUFUSE void jacobi_sweep(int rows, const int *row_ptr, const int *col_idx, const double *val, const double *diag,
                          const double *b, const double *x, double *xnew)
{
    for (int r = 0; r < rows; r++) {
        double s = b[r];
        for (int k = row_ptr[r]; k < row_ptr[r + 1]; k++)
            if (col_idx[k] != r)
                s -= val[k] * x[col_idx[k]];
        xnew[r] = s / diag[r];
    }
}
