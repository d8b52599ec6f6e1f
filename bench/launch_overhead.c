/* launch_overhead.c - the cost of one call of a generated launcher on a tiny
 * problem (device pointers, 256 floats: the launch is all there is), against
 * a raw launch of an empty kernel; the SPEC's "per-call overhead, tiny add".
 * Then issue 18's measurement: a 3-kernel region (chain3,
 * launch_overhead_region.c) on 256 elements called 100000 times with the
 * same shapes, which replays a CUDA graph (unless GPUFUSE_GRAPHS=0), against
 * its three kernels launched by hand in the same process, one by one and
 * as a graph captured once.  Prints one JSON line per measurement.  Exits
 * 77 without a GPU. */
#define _POSIX_C_SOURCE 199309L
#include "../samples/basic/kernels.h"

#include <gpufuse.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

void gf_overhead_empty_launch(int n);   /* launch_overhead_kernel.cu */
void gf_overhead_sync(void);
void gf_overhead_chain3_launch(int n, float a, float b, float *y, float *z);
int gf_overhead_chain3_graph(int n, float a, float b, float *y, float *z, int calls);
void gf_chain3(int n, float a, float b, float *restrict y, float *restrict z); /* launch_overhead_region.c */

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/* chain3 through its launcher and by hand, `calls` times each after a warm-up. */
static int chain3_lines(int n, int calls)
{
    float *y, *z;
    if (gf_malloc((void **)&y, n * sizeof(float)) || gf_malloc((void **)&z, n * sizeof(float))) {
        fprintf(stderr, "launch_overhead: %s\n", gf_last_error());
        return 1;
    }
    float *h = calloc((size_t)n, sizeof *h);
    if (!h || gf_memcpy(y, h, n * sizeof *h, GF_HOST_TO_DEVICE) || gf_memcpy(z, h, n * sizeof *h, GF_HOST_TO_DEVICE)) {
        fprintf(stderr, "launch_overhead: cannot initialise the buffers\n");
        return 1;
    }
    free(h);
    for (int i = 0; i < 1000; i++)    /* warm up: the first calls run directly, then the graph is built */
        gf_chain3(n, 1.0f, 0.0f, y, z);
    gf_sync();
    double t0 = now_us();
    for (int i = 0; i < calls; i++)
        gf_chain3(n, 1.0f, 0.0f, y, z);
    gf_sync();
    double t1 = now_us();
    for (int i = 0; i < 1000; i++)
        gf_overhead_chain3_launch(n, 1.0f, 0.0f, y, z);
    gf_overhead_sync();
    double t2 = now_us();
    for (int i = 0; i < calls; i++)
        gf_overhead_chain3_launch(n, 1.0f, 0.0f, y, z);
    gf_overhead_sync();
    double t3 = now_us();
    int graph_ok = gf_overhead_chain3_graph(n, 1.0f, 0.0f, y, z, 1000) == 0;
    double t4 = now_us();
    graph_ok = graph_ok && gf_overhead_chain3_graph(n, 1.0f, 0.0f, y, z, calls) == 0;
    double t5 = now_us();
    const char *g = getenv("GPUFUSE_GRAPHS");
    printf("{\"workload\": \"chain3_256_launcher\", \"impl\": \"gpufuse\", \"graphs\": \"%s\", \"calls\": %d, "
           "\"us_per_call\": %.3f}\n", g && *g ? g : "default", calls, (t1 - t0) / calls);
    printf("{\"workload\": \"chain3_256_raw_launches\", \"impl\": \"cuda\", \"calls\": %d, \"us_per_call\": %.3f}\n",
           calls, (t3 - t2) / calls);
    if (graph_ok)
        printf("{\"workload\": \"chain3_256_raw_graph\", \"impl\": \"cuda\", \"calls\": %d, \"us_per_call\": %.3f}\n",
               calls, (t5 - t4) / calls);
    gf_free(y);
    gf_free(z);
    return 0;
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
    return chain3_lines(256, 100000);
}
