/* run_extents_kernels.c - functions whose array extents the launcher finds
 * before the call (plan/inspect.c): plain pointers, CSR rows and gathers. */
#include <gpufuse.h>

GPUFUSE void csr(int rows, const int *row_ptr, const int *col, const double *val, const double *x, double *y)
{
    for (int r = 0; r < rows; r++) {
        double s = 0.0;
        for (int k = row_ptr[r]; k < row_ptr[r + 1]; k++)
            s += val[k] * x[col[k]];
        y[r] = s;
    }
}

GPUFUSE void scatter_add(int n, const int *bins, const float *w, float *hist)
{
    for (int i = 0; i < n; i++)
        if (bins[i] >= 0)
            hist[bins[i]] += w[i];
}
