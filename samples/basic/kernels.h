/* kernels.h - the sample's functions, and their gpufuse versions under the
 * gf_ prefix (gpufuse --prefix=gf_), so that one program can run both and
 * compare them.  A normal build needs no prefix: the launchers simply
 * replace the functions at link time. */
#ifndef SAMPLE_KERNELS_H
#define SAMPLE_KERNELS_H
#define BOTH(ret, name, ...) ret name(__VA_ARGS__); ret gf_##name(__VA_ARGS__);
BOTH(void, blend, int n, float a, const float *restrict x, const float *restrict y, float *restrict out)
BOTH(void, normalize_shift, int n, const float *restrict x, float shift, float *restrict out)
BOTH(double, dot, int n, const float *restrict x, const float *restrict y)
BOTH(void, softmax, int rows, int cols, const float x[rows][cols], float y[rows][cols])
BOTH(void, heat, int n, int steps, float u[n][n], float tmp[n][n])
BOTH(void, normalize_l1, int n, const float *restrict x, float *restrict y)
BOTH(void, histogram, int n, int nbins, const int *restrict bin, const float *restrict w, float hist[nbins],
     int count[nbins])
BOTH(void, bin_max, int n, int nbins, const int *restrict bin, const float *restrict w, float peak[nbins])
BOTH(void, first_above, int rows, int cols, float t, const float a[rows][cols], int first[rows])
BOTH(void, soft_threshold, int n, float t, const float *restrict x, float *restrict y)
BOTH(void, classify, int n, const int *restrict k, const float *restrict x, float *restrict y)
BOTH(void, column_sums, int rows, int cols, const float a[rows][cols], const float w[rows], float y[cols])
#undef BOTH
void prefix_sum(int n, const float *restrict x, float *restrict out);
#endif
