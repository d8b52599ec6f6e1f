/* launch_overhead.c - the cost of one call of a generated launcher on a tiny
 * problem (device pointers, 256 floats: the launch is all there is), against
 * a raw launch of an empty kernel; the SPEC's "per-call overhead, tiny add".
 * Prints one JSON line per measurement.  Exits 77 without a GPU. */
#define _POSIX_C_SOURCE 199309L
#include "../samples/basic/kernels.h"

#include <gpufuse.h>
#include <stdio.h>
#include <time.h>

void gf_overhead_empty_launch(int n);   /* launch_overhead_kernel.cu */
void gf_overhead_sync(void);

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

int main(void)
{
    if (gf_init() != GF_SUCCESS || !gf_have_device()) {
        fprintf(stderr, "launch_overhead: no GPU (%s)\n", gf_last_error());
        return 77;
    }
    const int n = 256, calls = 20000;
    float *x, *y, *out;
    if (gf_malloc((void **)&x, n * sizeof(float)) || gf_malloc((void **)&y, n * sizeof(float)) ||
        gf_malloc((void **)&out, n * sizeof(float))) {
        fprintf(stderr, "launch_overhead: %s\n", gf_last_error());
        return 1;
    }
    for (int i = 0; i < 1000; i++)    /* warm up: module load, first launches */
        gf_blend(n, 2.0f, x, y, out);
    gf_sync();
    double t0 = now_us();
    for (int i = 0; i < calls; i++)
        gf_blend(n, 2.0f, x, y, out);
    gf_sync();
    double t1 = now_us();
    for (int i = 0; i < 1000; i++)
        gf_overhead_empty_launch(n);
    gf_overhead_sync();
    double t2 = now_us();
    for (int i = 0; i < calls; i++)
        gf_overhead_empty_launch(n);
    gf_overhead_sync();
    double t3 = now_us();
    printf("{\"workload\": \"tiny_add_launcher\", \"impl\": \"gpufuse\", \"us_per_call\": %.3f}\n", (t1 - t0) / calls);
    printf("{\"workload\": \"empty_kernel_launch\", \"impl\": \"cuda\", \"us_per_call\": %.3f}\n", (t3 - t2) / calls);
    gf_free(x);
    gf_free(y);
    gf_free(out);
    return 0;
}
