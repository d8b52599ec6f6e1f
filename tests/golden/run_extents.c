// Extents found at run time (plan/inspect.c): a plain pointer whose elements
// isl cannot bound (the values of a sparse row, a gather through an index
// array, a stride known only at run time) gets its extent from a pass the
// launcher runs on the host before it stages anything: the function's loops
// with only the bounds, conditions, integer locals and subscripts that decide
// which elements are touched.  An array read to find another's extent is
// itself found by an earlier pass.
#include <gpufuse.h>

// CSR: 'col' and 'val' from 'row_ptr' (pass 1), 'x' from 'col' (pass 2)
GPUFUSE void csr(int rows, const int *row_ptr, const int *col, const float *val, const float *x, float *y)
{
    for (int r = 0; r < rows; r++) {
        float s = 0.0f;
        for (int k = row_ptr[r]; k < row_ptr[r + 1]; k++)
            s += val[k] * x[col[k]];
        y[r] = s;
    }
}
// DIFF-SIZE: row_ptr = rows + 1
// DIFF-INIT: row_ptr in [0, 40)
// DIFF-SIZE: col = 48
// DIFF-INIT: col in [0, 30)
// DIFF-SIZE: val = 48
// DIFF-SIZE: x = 32
// CHECK-LABEL: region csr
// REPORT-LABEL: region csr
// REPORT: extents found at run time, pass 1 {{.*}}: 'col', 'val'; it reads 'row_ptr'
// REPORT: extents found at run time, pass 2 {{.*}}: 'x'; it reads 'col', 'row_ptr'
// the subscripts of pass 1 are monotone in k: the pass runs k's first and
// last iterations only (InspectPass.ends), a loop over the rows
// CU-LABEL: static void gf_extents_csr_1(int rows, const int *row_ptr, long long *gf_rx)
// CU: if (row_ptr[r] < row_ptr[r + 1]) { /* line {{[0-9]+}}: 'k' at its first and last iterations */
// CU-NEXT: gf_n += (long long)(row_ptr[r + 1]) - (long long)(row_ptr[r]) - 2; /* the iterations not run */
// CU-NEXT: for (int gf_end = 0; gf_end < 2; gf_end++) {
// CU-NEXT: const int k = gf_end ? row_ptr[r + 1] - 1 : row_ptr[r];
// CU-NEXT: gf_seen(gf_mn, gf_mx, &gf_n, {{[01]}}, (long long)(k));
// CU-NEXT: gf_seen(gf_mn, gf_mx, &gf_n, {{[01]}}, (long long)(k));
// CU-NEXT: }
// pass 2 takes minima and maxima over the rows in OpenMP's threads
// CU-LABEL: static void gf_extents_csr_2(int rows, const int *row_ptr, const int *col, long long *gf_rx)
// CU: #pragma omp parallel for reduction(min : gf_mn[:3]) reduction(max : gf_mx[:3]) reduction(+ : gf_n) if ((long long)(rows) - (long long)(0) >= 4096)
// CU-NEXT: #endif
// CU-NEXT: for (int r = 0; r < rows; r++) {
// CU: gf_seen(gf_mn, gf_mx, &gf_n, 2, (long long)(col[k])); /* x, line {{[0-9]+}} */
// the launcher: a pass runs unless every array it finds is device memory
// used in place (gf_call_arg_bounds: a pool block, then the extent)
// CU-LABEL: static void gf_launch_csr(
// (unless the block holds another argument too: arrays carved out of one)
// CU: const int gf_pass1 = !(gf_call_arg_bounds(gf_c, col, &gf_blo_col, &gf_bhi_col) & gf_call_arg_bounds(gf_c, val, &gf_blo_val, &gf_bhi_val)) ||
// CU-NEXT: gf_inside(row_ptr, col, gf_blo_col, gf_bhi_col) ||
// CU: gf_inside(y, val, gf_blo_val, gf_bhi_val); /* 0: every one is device memory used in place, alone in its block */
// CU-NEXT: if (gf_pass1) {
// CU-NEXT: if (!gf_v_row_ptr)
// CU-NEXT: gf_v_row_ptr = (const int *)gf_call_host_view(gf_c, row_ptr, gf_lo_row_ptr, gf_hi_row_ptr);
// CU: gf_extents_csr_1(rows, gf_v_row_ptr, gf_rx);
// CU: if (!gf_pass1) {
// CU-NEXT: gf_lo_col = gf_blo_col;
// CU: gf_v_col = (const int *)gf_call_host_view(gf_c, col, gf_lo_col, gf_hi_col);
// CU: gf_extents_csr_2(rows, gf_v_row_ptr, gf_v_col, gf_rx);
// CU: gf_call_arg(gf_c, 3, x, gf_lo_x, gf_hi_x, GF_ARG_READ, 0);
// no trip count ahead (bounds read from an array): the accesses the passes
// counted weigh the CPU against the GPU and the copies
// CU: if (gf_have_device() && gf_rx[6] > 0) { /* the cost model: the accesses the passes saw */
// CU-NEXT: const double gf_work = (double)gf_rx[6];
// CU-NEXT: const gf_host_work gf_w = {1, gf_work, 0, 0};

// ELLPACK: a column below 0 marks padding; the local and the guard decide
GPUFUSE void ell(int rows, int width, const int *ecol, const float *eval, const float *ex, float *ey)
{
    for (int r = 0; r < rows; r++) {
        float s = 0.0f;
        for (int k = 0; k < width; k++) {
            int c = ecol[r * width + k];
            if (c >= 0)
                s += eval[r * width + k] * ex[c];
        }
        ey[r] = s;
    }
}
// DIFF-SIZE: ecol = rows * width
// DIFF-INIT: ecol in [-8, 30)
// DIFF-SIZE: eval = rows * width
// DIFF-SIZE: ex = 32
// CU-LABEL: static void gf_extents_ell_1(int rows, int width, const int *ecol, long long *gf_rx)
// CU: int c = ecol[r * width + k];
// CU-NEXT: if (c >= 0) {
// CU-NEXT: gf_seen(gf_mn, gf_mx, &gf_n, 0, (long long)(c)); /* ex, line {{[0-9]+}} */

// a stride known only at run time (BLAS's incx)
GPUFUSE void scal_inc(int n, int inc, float a, float *xs)
{
    for (int i = 0; i < n; i++)
        xs[i * inc] *= a;
}
// DIFF-SIZE: xs = n * inc + 1
// REPORT-LABEL: region scal_inc
// REPORT: extents found at run time, pass 1 {{.*}}: 'xs'
// CU-LABEL: static void gf_extents_scal_inc_1(int n, int inc, float a, long long *gf_rx)
// CU: gf_seen(gf_mn, gf_mx, &gf_n, 0, (long long)(i * inc)); /* xs, line {{[0-9]+}} */

// a lookup guarded by && and ?: : the pass records only what C evaluates
GPUFUSE void lookup(int n, int m, const int *li, const float *tab, float *lo)
{
    for (int i = 0; i < n; i++)
        lo[i] = (li[i] >= 0 && li[i] < m) ? tab[li[i]] : 0.0f;
}
// DIFF-INIT: li in [-10, 40)
// DIFF-SIZE: tab = m
// CU-LABEL: static void gf_extents_lookup_1(int n, int m, const int *li, long long *gf_rx)
// CU: if (li[i] >= 0 && li[i] < m) {
// CU-NEXT: gf_seen(gf_mn, gf_mx, &gf_n, 0, (long long)(li[i])); /* tab, line {{[0-9]+}} */

// a row maximum with a run-time leading dimension: the condition reads the
// elements whose extent is found, and the branch reads the same one again
GPUFUSE void row_max(int rows, int ncol, int lda, const float *am, float *mx)
{
    for (int r = 0; r < rows; r++) {
        float m = am[r * lda];
        for (int j = 1; j < ncol; j++)
            if (am[r * lda + j] > m)
                m = am[r * lda + j];
        mx[r] = m;
    }
}
// DIFF-SIZE: am = rows * lda + ncol
// CU-LABEL: static void gf_extents_row_max_1(int rows, int ncol, int lda, long long *gf_rx)
// CU: gf_seen(gf_mn, gf_mx, &gf_n, 0, (long long)(r * lda)); /* am, line {{[0-9]+}} */
// CU: if (1 < ncol) { /* line {{[0-9]+}}: 'j' at its first and last iterations */
// CU: const int j = gf_end ? ncol - 1 : 1;
// CU-NEXT: gf_seen(gf_mn, gf_mx, &gf_n, 0, (long long)(r * lda + j)); /* am, line {{[0-9]+}} */

// a scatter: the written array's extent from the bins
GPUFUSE void scatter_add(int n, const int *bins, const float *w, float *hist)
{
    for (int i = 0; i < n; i++)
        hist[bins[i]] += w[i];
}
// DIFF-INIT: bins in [0, 16)
// DIFF-SIZE: hist = 16
// CU-LABEL: static void gf_extents_scatter_add_1(int n, const int *bins, long long *gf_rx)
// CU: gf_seen(gf_mn, gf_mx, &gf_n, 0, (long long)(bins[i])); /* hist, line {{[0-9]+}} */
// CU-LABEL: static void gf_launch_scatter_add(
// CU: gf_call_arg(gf_c, 2, hist, gf_lo_hist, gf_hi_hist, GF_ARG_READ | GF_ARG_WRITE, 0);

// a neighbour list that ends at the first negative entry: the break's flag
// is computed by the pass too
GPUFUSE void neighbours(int n, int w, const int *nb, const int *vals, int *sum)
{
    for (int i = 0; i < n; i++) {
        int acc = 0;
        for (int k = 0; k < w; k++) {
            int c = nb[i * w + k];
            if (c < 0)
                break;
            acc += vals[c];
        }
        sum[i] = acc;
    }
}
// DIFF-SIZE: nb = n * w
// DIFF-INIT: nb in [-3, 40)
// DIFF-SIZE: vals = 40
// CU-LABEL: static void gf_extents_neighbours_1(int n, int w, const int *nb, long long *gf_rx)
// CU: int gf_brk = 0;
// CU-NEXT: for (int k = 0; k < w && !gf_brk; k++) {
// CU-NEXT: int c = nb[i * w + k];
// CU-NEXT: if (c < 0) {
// CU-NEXT: gf_brk = 1;
// CU: if (!gf_brk) {
// CU-NEXT: gf_seen(gf_mn, gf_mx, &gf_n, 0, (long long)(c)); /* vals, line {{[0-9]+}} */

// a subscript that is a product of the index with itself
GPUFUSE void squares(int n, const float *restrict sq, float *restrict out)
{
    for (int i = 0; i < n; i++)
        out[i] = sq[i * i];
}
// DIFF-SIZE: sq = n * n
// (i * i is not monotone in i over every range: the whole loop)
// CU-LABEL: static void gf_extents_squares_1(int n, long long *gf_rx)
// CU: for (int i = 0; i < n; i++) {
// CU-NEXT: gf_seen(gf_mn, gf_mx, &gf_n, 0, (long long)(i * i)); /* sq, line {{[0-9]+}} */
