/* omp_staging_kernels.c - a function whose host arrays are big enough for
 * the staging copies to be split over threads (2 MiB and more): in
 * omp_staging.c its .gf.cu is compiled with OpenMP, so the copies go over
 * the program's OpenMP threads (gf_host_team). */
#include <gpufuse.h>

/* out is written only (copied back into pages never touched: populated
 * first), acc is read and written, x and y read. */
GPUFUSE void mix(int n, const float *x, const float *y, float *acc, float *out)
{
    for (int i = 0; i < n; i++) {
        out[i] = x[i] + 2.0f * y[i];
        acc[i] = acc[i] - y[i];
    }
}
