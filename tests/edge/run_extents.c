/* run_extents.c - extents found at run time (plan/inspect.c) on the GPU,
 * each launcher against its C body, with the index arrays in host memory,
 * in device memory (gf_malloc: the launcher's pass reads a copy,
 * gf_call_host_view), in data regions whose host copies are stale, and
 * with every array in device memory (no pass: the pool's blocks).  The gathered
 * vector sits in the middle of a larger buffer whose other elements are
 * huge, so a staged range that misses an element read gives a wrong sum,
 * and one that takes more than C touches is not needed to pass.  The seed
 * is printed.  Needs a GPU: exit 77 without one. */
#define _POSIX_C_SOURCE 200809L
#include <gpufuse.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "devcopy.h"

void csr(int rows, const int *row_ptr, const int *col, const double *val, const double *x, double *y);
void gf_csr(int rows, const int *row_ptr, const int *col, const double *val, const double *x, double *y);
void scatter_add(int n, const int *bins, const float *w, float *hist);
void gf_scatter_add(int n, const int *bins, const float *w, float *hist);

static int failures;

static void check_d(const char *what, const double *got, const double *want, int n)
{
    for (int i = 0; i < n; i++)
        if (fabs(got[i] - want[i]) > 1e-9 * (1 + fabs(want[i]))) {
            printf("FAIL %s: [%d] %.17g != %.17g\n", what, i, got[i], want[i]);
            failures++;
            return;
        }
    printf("ok   %s\n", what);
}

static void check_f(const char *what, const float *got, const float *want, int n)
{
    for (int i = 0; i < n; i++)
        if (fabsf(got[i] - want[i]) > 1e-4f * (1 + fabsf(want[i]))) {
            printf("FAIL %s: [%d] %g != %g\n", what, i, (double)got[i], (double)want[i]);
            failures++;
            return;
        }
    printf("ok   %s\n", what);
}

/* mode 0: host arrays; 1: the indices in device memory; 2: everything in
 * device memory (no pass runs: gf_call_arg_bounds); 3: the indices in data
 * regions whose host copies are older than their mirrors; 4: x, val and y
 * carved out of one device block (its bounds would overlap y: the passes run) */
static void run_csr(int rows, int mode)
{
    int nnz_max = rows * 9 + 1, pad = 1000, ncols = rows + 7;
    int *row_ptr = malloc(sizeof(int) * (size_t)(rows + 1)), *col = malloc(sizeof(int) * (size_t)nnz_max);
    double *val = malloc(sizeof(double) * (size_t)nnz_max), *buf = malloc(sizeof(double) * (size_t)(ncols + 2 * pad));
    double *y = malloc(sizeof(double) * (size_t)rows), *ref = malloc(sizeof(double) * (size_t)rows);
    for (int i = 0; i < ncols + 2 * pad; i++)
        buf[i] = 1e30;                 /* outside what the rows gather */
    double *x = buf + pad;
    int lo = 3, hi = ncols - 5;        /* the columns the rows use: [lo, hi] */
    for (int c = lo; c <= hi; c++)
        x[c] = (double)rand() / RAND_MAX - 0.5;
    row_ptr[0] = 0;
    for (int r = 0; r < rows; r++) {
        int cnt = rand() % 9;
        for (int q = 0; q < cnt; q++) {
            col[row_ptr[r] + q] = q == 0 && r == 0 ? lo : q == 1 && r == rows - 1 ? hi : lo + rand() % (hi - lo + 1);
            val[row_ptr[r] + q] = (double)rand() / RAND_MAX;
        }
        row_ptr[r + 1] = row_ptr[r] + cnt;
    }
    csr(rows, row_ptr, col, val, x, ref);
    const int *drp = row_ptr, *dcol = col;
    const double *dval = val, *dx = x;
    double *dy = y, *dbuf = NULL;
    int *stale_rp = NULL, *stale_col = NULL;
    if (mode == 3) {
        /* data regions whose mirrors hold the indices and whose host copies
         * are older (zeros): the pass must read what the mirrors hold */
        stale_rp = calloc((size_t)(rows + 1), sizeof(int));
        stale_col = calloc((size_t)nnz_max, sizeof(int));
        gf_data_enter(stale_rp, sizeof(int) * (size_t)(rows + 1), GF_COPYIN);
        gf_data_enter(stale_col, sizeof(int) * (size_t)nnz_max, GF_COPYIN);
        gf_memcpy(gf_device_ptr(stale_rp), row_ptr, sizeof(int) * (size_t)(rows + 1), GF_HOST_TO_DEVICE);
        gf_memcpy(gf_device_ptr(stale_col), col, sizeof(int) * (size_t)nnz_max, GF_HOST_TO_DEVICE);
        drp = stale_rp;
        dcol = stale_col;
    } else if (mode >= 1) {
        drp = to_dev(row_ptr, sizeof(int) * (size_t)(rows + 1));
        dcol = to_dev(col, sizeof(int) * (size_t)nnz_max);
    }
    if (mode == 2) {
        dval = to_dev(val, sizeof(double) * (size_t)nnz_max);
        dbuf = to_dev(buf, sizeof(double) * (size_t)(ncols + 2 * pad));
        dx = dbuf + pad;
        dy = to_dev(y, sizeof(double) * (size_t)rows);
    }
    double *dall = NULL;
    if (mode == 4) {
        /* x, val and y carved out of one gf_malloc block: its bounds would
         * overlap y, so the passes find the exact extents */
        size_t nb = (size_t)(ncols + 2 * pad) + (size_t)nnz_max + (size_t)rows;
        if (gf_malloc((void **)&dall, sizeof(double) * nb) != GF_SUCCESS) {
            printf("gf_malloc: %s\n", gf_last_error());
            exit(1);
        }
        gf_memcpy(dall, buf, sizeof(double) * (size_t)(ncols + 2 * pad), GF_HOST_TO_DEVICE);
        gf_memcpy(dall + ncols + 2 * pad, val, sizeof(double) * (size_t)nnz_max, GF_HOST_TO_DEVICE);
        dx = dall + pad;
        dval = dall + ncols + 2 * pad;
        dy = dall + ncols + 2 * pad + nnz_max;
        drp = to_dev(row_ptr, sizeof(int) * (size_t)(rows + 1));
        dcol = to_dev(col, sizeof(int) * (size_t)nnz_max);
    }
    gf_csr(rows, drp, dcol, dval, dx, dy);
    if (mode == 4) {
        gf_memcpy(y, dy, sizeof(double) * (size_t)rows, GF_DEVICE_TO_HOST);
        gf_free(dall);
        gf_free((void *)drp);
        gf_free((void *)dcol);
    }
    if (mode == 2) {
        from_dev(y, dy, sizeof(double) * (size_t)rows);
        gf_free((void *)dval);
        gf_free(dbuf);
    }
    if (mode == 4) {
        /* freed above */
    } else if (mode == 3) {
        gf_data_exit(stale_rp);
        gf_data_exit(stale_col);
        free(stale_rp), free(stale_col);
    } else if (mode >= 1) {
        gf_free((void *)drp);
        gf_free((void *)dcol);
    }
    char what[96];
    snprintf(what, sizeof what, "csr rows=%d, %s", rows,
             mode == 0   ? "host arrays"
             : mode == 1 ? "indices in device memory"
             : mode == 2 ? "device memory (no pass: the blocks)"
             : mode == 3 ? "indices in data regions, host copies older"
                         : "x, val and y in one device block (the passes run)");
    check_d(what, y, ref, rows);
    free(row_ptr), free(col), free(val), free(buf), free(y), free(ref);
}

static void run_scatter(int n, int mode)
{
    int nb = 64;
    int *bins = malloc(sizeof(int) * (size_t)n);
    float *w = malloc(sizeof(float) * (size_t)n), *hist = malloc(sizeof(float) * (size_t)nb),
          *ref = malloc(sizeof(float) * (size_t)nb);
    for (int i = 0; i < n; i++) {
        bins[i] = rand() % (nb + 8) - 8;   /* below 0: skipped */
        w[i] = (float)(rand() % 16);
    }
    for (int b = 0; b < nb; b++)
        hist[b] = ref[b] = (float)b;
    scatter_add(n, bins, w, ref);
    const int *dbins = mode >= 1 ? to_dev(bins, sizeof(int) * (size_t)n) : bins;
    gf_scatter_add(n, dbins, w, hist);
    if (mode >= 1)
        gf_free((void *)dbins);
    char what[96];
    snprintf(what, sizeof what, "scatter_add n=%d, %s", n, mode ? "bins in device memory" : "host arrays");
    check_f(what, hist, ref, nb);
    free(bins), free(w), free(hist), free(ref);
}

int main(void)
{
    if (gf_init() != GF_SUCCESS || !gf_have_device()) {
        printf("no GPU (%s): skipped\n", gf_last_error());
        return 77;
    }
    unsigned seed = (unsigned)time(NULL);
    if (getenv("SEED"))
        seed = (unsigned)atoi(getenv("SEED"));
    printf("seed %u\n", seed);
    srand(seed);
    for (int mode = 0; mode < 5; mode++) {
        run_csr(1, mode);
        run_csr(37, mode);
        run_csr(20000, mode);
    }
    for (int mode = 0; mode < 2; mode++) {
        run_scatter(1, mode);
        run_scatter(100000, mode);
    }
    return failures ? 1 : 0;
}
