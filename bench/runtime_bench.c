/* runtime_bench.c - micro-benchmarks of libgpufuse on a GPU:
 *  (a) gf_malloc+gf_free of 4 MiB, (b) cudaMalloc+cudaFree of 4 MiB,
 *  (c) 1 GiB host->device (and back) from plain malloc memory: staged
 *      gf_memcpy vs pinned cudaMemcpy vs pageable cudaMemcpy,
 *  (d) launcher overhead: gf_call_begin/arg/map/end around an empty kernel
 *      vs the raw launch.
 * Prints a table and one JSON line per measurement.  Exits 77 without GPU. */
#include <gpufuse.h>
#include <gpufuse/launch.h>

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

cudaError_t gf_bench_launch_empty(cudaStream_t s, float *out, const float *in, int n);

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

#define CHECK(x)                                                                    \
    do {                                                                            \
        int rc_ = (int)(x);                                                         \
        if (rc_) {                                                                  \
            fprintf(stderr, "%s:%d: %s failed (%d): %s\n", __FILE__, __LINE__, #x, rc_, \
                    gf_last_error());                                               \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

static void report(const char *name, double value, const char *unit, const char *note)
{
    printf("%-44s %12.3f %-6s %s\n", name, value, unit, note);
}

static char json[64][256];
static int njson;

static void add_json(const char *name, double value, const char *unit)
{
    snprintf(json[njson++], sizeof json[0], "{\"bench\": \"%s\", \"value\": %.4f, \"unit\": \"%s\"}",
             name, value, unit);
}

int main(int argc, char **argv)
{
    size_t big = (size_t)1 << 30;
    int iters = 100000;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) {
            big = (size_t)256 << 20;
            iters = 10000;
        }
    }
    gf_status s = gf_init();
    if (s == GF_ERROR_NO_DEVICE) {
        printf("runtime_bench: no GPU (%s); skipping\n", gf_last_error());
        return 77;
    }
    CHECK(s);
    gf_device_props props;
    CHECK(gf_device_properties(0, &props));
    printf("device: %s, %d SMs, peak %.0f GB/s\n", props.name, props.multiprocessors,
           props.peak_bandwidth_gbs);

    /* (a) pool alloc+free of 4 MiB */
    const size_t four = (size_t)4 << 20;
    void *p;
    for (int i = 0; i < 1000; i++) {
        CHECK(gf_malloc(&p, four));
        CHECK(gf_free(p));
    }
    enum { BATCH = 100 };
    int nb = iters / BATCH;
    double *v = malloc((size_t)nb * sizeof *v);
    for (int b = 0; b < nb; b++) {
        double t0 = now_ns();
        for (int i = 0; i < BATCH; i++) {
            gf_malloc(&p, four);
            gf_free(p);
        }
        v[b] = (now_ns() - t0) / BATCH;
    }
    double pool_ns = median(v, nb);
    report("gf_malloc+gf_free 4 MiB (median)", pool_ns, "ns", "");
    add_json("pool_alloc_free_4MiB", pool_ns, "ns");

    /* (b) cudaMalloc+cudaFree of 4 MiB */
    int nc = 200;
    double *vc = malloc((size_t)nc * sizeof *vc);
    for (int i = 0; i < nc; i++) {
        double t0 = now_ns();
        CHECK(cudaMalloc(&p, four));
        CHECK(cudaFree(p));
        vc[i] = now_ns() - t0;
    }
    double cuda_ns = median(vc, nc);
    report("cudaMalloc+cudaFree 4 MiB (median)", cuda_ns, "ns", "");
    add_json("cudaMalloc_free_4MiB", cuda_ns, "ns");

    /* (c) 1 GiB host->device */
    char *host = malloc(big), *back = malloc(big), *pinned, *dev;
    if (!host || !back) {
        fprintf(stderr, "out of host memory\n");
        return 1;
    }
    for (size_t i = 0; i < big; i += sizeof(int))
        *(int *)(host + i) = (int)(i * 2654435761u);
    memset(back, 0, big);
    CHECK(cudaHostAlloc((void **)&pinned, big, cudaHostAllocDefault));
    memcpy(pinned, host, big);
    CHECK(gf_malloc((void **)&dev, big));
    double gb = (double)big / 1e9;
    double best_staged = 0, best_pinned = 0, best_pageable = 0, best_d2h = 0, best_pageable_d2h = 0;
    for (int r = 0; r < 5; r++) {
        double t0 = now_ns();
        CHECK(gf_memcpy(dev, host, big, GF_HOST_TO_DEVICE));
        double t = (now_ns() - t0) * 1e-9;
        if (gb / t > best_staged)
            best_staged = gb / t;
        t0 = now_ns();
        CHECK(cudaMemcpy(dev, pinned, big, cudaMemcpyHostToDevice));
        t = (now_ns() - t0) * 1e-9;
        if (gb / t > best_pinned)
            best_pinned = gb / t;
        t0 = now_ns();
        CHECK(cudaMemcpy(dev, host, big, cudaMemcpyHostToDevice));
        t = (now_ns() - t0) * 1e-9;
        if (gb / t > best_pageable)
            best_pageable = gb / t;
        t0 = now_ns();
        CHECK(gf_memcpy(back, dev, big, GF_DEVICE_TO_HOST));
        t = (now_ns() - t0) * 1e-9;
        if (gb / t > best_d2h)
            best_d2h = gb / t;
        t0 = now_ns();
        CHECK(cudaMemcpy(back, dev, big, cudaMemcpyDeviceToHost));
        t = (now_ns() - t0) * 1e-9;
        if (gb / t > best_pageable_d2h)
            best_pageable_d2h = gb / t;
    }
    CHECK(gf_memcpy(dev, host, big, GF_HOST_TO_DEVICE));
    memset(back, 0, big);
    CHECK(gf_memcpy(back, dev, big, GF_DEVICE_TO_HOST));
    int same = memcmp(host, back, big) == 0;
    char note[64];
    snprintf(note, sizeof note, "%zu MiB, best of 5", big >> 20);
    report("H2D staged gf_memcpy from malloc", best_staged, "GB/s", note);
    report("H2D cudaMemcpy from pinned", best_pinned, "GB/s", note);
    report("H2D cudaMemcpy from malloc (pageable)", best_pageable, "GB/s", note);
    report("D2H staged gf_memcpy to malloc", best_d2h, "GB/s", note);
    report("D2H cudaMemcpy to malloc (pageable)", best_pageable_d2h, "GB/s", note);
    report("staged round trip data check", same, "ok", same ? "identical" : "MISMATCH");
    add_json("h2d_staged_GBs", best_staged, "GB/s");
    add_json("h2d_pinned_GBs", best_pinned, "GB/s");
    add_json("h2d_pageable_GBs", best_pageable, "GB/s");
    add_json("d2h_staged_GBs", best_d2h, "GB/s");
    add_json("d2h_pageable_GBs", best_pageable_d2h, "GB/s");
    CHECK(gf_free(dev));
    CHECK(cudaFreeHost(pinned));
    free(host);
    free(back);

    /* (d) launcher overhead around an empty kernel, device pointers */
    float *a, *b;
    CHECK(gf_malloc((void **)&a, 1 << 20));
    CHECK(gf_malloc((void **)&b, 1 << 20));
    int n = (1 << 20) / (int)sizeof(float);
    static gf_site site = {"bench_empty", "runtime_bench.c", __LINE__, -1};
    int nl = 20000;
    double raw = 1e30, wrapped = 1e30;
    for (int r = 0; r < 5; r++) {
        CHECK(cudaDeviceSynchronize());
        double t0 = now_ns();
        for (int i = 0; i < nl; i++)
            gf_bench_launch_empty(0, a, b, n);
        CHECK(cudaDeviceSynchronize());
        double t = (now_ns() - t0) / nl;
        if (t < raw)
            raw = t;
        t0 = now_ns();
        for (int i = 0; i < nl; i++) {
            gf_call *c = gf_call_begin(&site, 2);
            gf_call_arg(c, 0, a, 0, (ptrdiff_t)(n * sizeof(float)), GF_ARG_WRITE, 0);
            gf_call_arg(c, 1, b, 0, (ptrdiff_t)(n * sizeof(float)), GF_ARG_READ, 0);
            if (gf_call_map(c) == GF_PATH_DEVICE) {
                gf_call_check(c, gf_bench_launch_empty(gf_call_stream(c), (float *)gf_call_ptr(c, 0),
                                                       (const float *)gf_call_ptr(c, 1), n),
                              "bench_empty_k0");
            }
            gf_call_end(c, 0, 0);
        }
        CHECK(cudaDeviceSynchronize());
        t = (now_ns() - t0) / nl;
        if (t < wrapped)
            wrapped = t;
    }
    report("raw empty kernel launch", raw / 1e3, "us", "per launch, back to back");
    report("launcher-wrapped empty kernel", wrapped / 1e3, "us", "gf_call_begin..end, 2 args");
    report("launcher overhead", (wrapped - raw) / 1e3, "us", "");
    add_json("launch_raw_us", raw / 1e3, "us");
    add_json("launch_wrapped_us", wrapped / 1e3, "us");
    add_json("launch_overhead_us", (wrapped - raw) / 1e3, "us");
    CHECK(gf_free(a));
    CHECK(gf_free(b));

    for (int i = 0; i < njson; i++)
        printf("%s\n", json[i]);
    free(v);
    free(vc);
    return same ? 0 : 1;
}
