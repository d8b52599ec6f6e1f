#ifndef SPMV_H
#define SPMV_H
typedef struct {
    int rows, cols, nnz;
    const int *row_ptr;
    const int *col_idx;
    const double *val;
} csr_t;
void spmv_csr(int rows, const int *row_ptr, const int *col_idx, const double *val, const double *x, double *y);
void spmv_ell(int rows, int width, const int *col, const float *val, const float *x, float *y);
void spmv_transpose(int rows, int cols, const int *row_ptr, const int *col_idx, const double *val,
                    const double *x, double *y);
void jacobi_sweep(int rows, const int *row_ptr, const int *col_idx, const double *val, const double *diag,
                  const double *b, const double *x, double *xnew);
#endif
