/* graph.c - CUDA graphs of repeated launcher calls (runtime/graph.c) against
 * the C bodies: a 3-kernel region called hundreds of times while its
 * scalars, its pointers (other buffers, offsets that change the 16-byte
 * alignment and so the kernel variant) and its sizes change, on a stream of
 * the user's and on the default one; host arrays (staged outside the
 * graph) and data regions between replays; and a call that runs out of
 * device memory (GPUFUSE_POOL_LIMIT) between replays, which must run on
 * the host, be right and be reported; regions in one thread block at
 * sizes on both sides of GF_BLOCK_ELEMS.  Every result is compared with the
 * C body, elements outside the written range included.  The profile must show
 * replayed calls, or none with `graph_test off` (GPUFUSE_GRAPHS=0).  Needs
 * a GPU: exit 77 without one. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <gpufuse.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void chain3(int n, float a, float b, float *restrict y, float *restrict z);
void gf_chain3(int n, float a, float b, float *restrict y, float *restrict z);
void smooth3(int n, float a, const float *restrict x, float *restrict out);
void mixed3(int n, int m, float s, const float *x, float *u, float *v, double *w);
void gf_mixed3(int n, int m, float s, const float *x, float *u, float *v, double *w);
void gf_smooth3(int n, float a, const float *restrict x, float *restrict out);

#define CAP 12288                /* elements of every buffer (room for offsets) */
#define BIG (6 << 20)            /* smooth3 on this many host floats does not fit in LIMIT */
#define LIMIT "64M"

static int failures, reports;
static char last_msg[1024];

static void on_error(gf_status s, const char *msg, void *user)
{
    (void)s, (void)user;
    reports++;
    snprintf(last_msg, sizeof last_msg, "%s", msg);
}

static void check(const char *what, int ok)
{
    if (!ok || getenv("GRAPH_TEST_VERBOSE"))
        printf("  %-70s %s\n", what, ok ? "ok" : "FAILED");
    failures += !ok;
}

static int close_to(float g, float r) { return fabsf(g - r) <= 1e-5f * fmaxf(1.0f, fabsf(r)); }

/* got[0..n) against ref[0..n); the first difference printed */
static int same(const char *what, const float *got, const float *ref, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!close_to(got[i], ref[i]) && !(isnan(got[i]) && isnan(ref[i]))) {
            printf("  %s: element %zu is %.9g, the C body %.9g\n", what, i, got[i], ref[i]);
            return 0;
        }
    return 1;
}

static void fill(float *v, size_t n, int seed)
{
    for (size_t i = 0; i < n; i++)
        v[i] = (float)((i * 37 + (size_t)seed * 11) % 101) / 17.0f - 2.5f;
}

static void to_dev(float *d, const float *h, size_t n)
{
    if (gf_memcpy(d, h, n * sizeof *h, GF_HOST_TO_DEVICE) != GF_SUCCESS) {
        fprintf(stderr, "gf_memcpy: %s\n", gf_last_error());
        exit(1);
    }
}

static void to_host(float *h, const float *d, size_t n)
{
    if (gf_memcpy(h, d, n * sizeof *h, GF_DEVICE_TO_HOST) != GF_SUCCESS) {
        fprintf(stderr, "gf_memcpy: %s\n", gf_last_error());
        exit(1);
    }
}

/* The shapes of the sequence: runs of one size (replays), changes between. */
static int size_at(int i)
{
    /* at most 4096 (GF_BLOCK_ELEMS): the region in one block; more: its kernels */
    static const int sizes[] = {256, 256, 256, 256, 1000, 1000, 1000, 1000, 1000, 3, 3, 3, 3, 0, 0, 0, 0, 4000, 4000,
                                4000, 4000, 4096, 4096, 4097, 4097, 12000, 12000, 1025, 1025, 256, 256, 256, 256, 256,
                                256, 17, 17, 17, 17, 17};
    int k = (int)(sizeof sizes / sizeof *sizes);
    return sizes[(i / 3) % k];
}

/* chain3 on device buffers: nbuf pairs, offsets 0..3 floats, scalars that
 * change every few calls; every result against the C body. */
static void device_sequence(const char *label, int calls, gf_stream s)
{
    enum { NB = 3 };
    float *dy[NB], *dz[NB];
    float *hy = malloc(CAP * sizeof *hy), *hz = malloc(CAP * sizeof *hz);
    float *ry = malloc(CAP * sizeof *ry), *rz = malloc(CAP * sizeof *rz);
    float *gy = malloc(CAP * sizeof *gy), *gz = malloc(CAP * sizeof *gz);
    for (int k = 0; k < NB; k++)
        if (gf_malloc((void **)&dy[k], CAP * sizeof(float)) || gf_malloc((void **)&dz[k], CAP * sizeof(float))) {
            fprintf(stderr, "gf_malloc: %s\n", gf_last_error());
            exit(1);
        }
    gf_stream_set(s);
    int bad = 0;
    for (int i = 0; i < calls && !bad; i++) {
        int n = size_at(i), k = (i / 7) % NB, off = (i / 11) % 4 == 3 ? 1 : 0;
        float a = 1.0f + (float)((i / 5) % 3) * 0.25f, b = (float)(i % 4) - 1.5f;
        fill(hy, CAP, i);
        fill(hz, CAP, i + 5);
        memcpy(ry, hy, CAP * sizeof *hy);
        memcpy(rz, hz, CAP * sizeof *hz);
        to_dev(dy[k], hy, CAP);
        to_dev(dz[k], hz, CAP);
        gf_chain3(n, a, b, dy[k] + off, dz[k] + off);
        chain3(n, a, b, ry + off, rz + off);
        to_host(gy, dy[k], CAP);
        to_host(gz, dz[k], CAP);
        char what[160];
        snprintf(what, sizeof what, "%s: call %d (n %d, buffer %d, offset %d) y", label, i, n, k, off);
        bad |= !same(what, gy, ry, CAP);
        snprintf(what, sizeof what, "%s: call %d (n %d, buffer %d, offset %d) z", label, i, n, k, off);
        bad |= !same(what, gz, rz, CAP);
    }
    char what[160];
    snprintf(what, sizeof what, "%s: %d calls of chain3 match the C body", label, calls);
    check(what, !bad);
    gf_stream_set(NULL);
    for (int k = 0; k < NB; k++)
        gf_free(dy[k]), gf_free(dz[k]);
    free(hy), free(hz), free(ry), free(rz), free(gy), free(gz);
}

/* smooth3 (a temporary in the call's scratch) on host arrays, staged, and
 * in a data region; in between, one call too big for the device memory
 * left: it runs on the host, is right, and is reported naming smooth3. */
static void host_and_regions(void)
{
    float *x = malloc(BIG * sizeof *x), *out = malloc(BIG * sizeof *out), *ref = malloc(BIG * sizeof *ref);
    if (!x || !out || !ref) {
        fprintf(stderr, "out of host memory\n");
        exit(1);
    }
    fill(x, BIG, 3);
    int bad = 0;
    for (int i = 0; i < 40 && !bad; i++) {
        int n = i < 20 ? 256 : 300;
        float a = 0.5f + (float)(i % 3);
        fill(out, CAP, i);
        memcpy(ref, out, CAP * sizeof *out);
        gf_smooth3(n, a, x + i % 2, out);
        smooth3(n, a, x + i % 2, ref);
        bad |= !same("smooth3 on host arrays", out, ref, CAP);
        if (i == 25) { /* out of device memory between replays */
            int before = reports;
            gf_smooth3(BIG, a, x, out);
            smooth3(BIG, a, x, ref);
            check("smooth3 too big for the device runs on the host and is right", same("big", out, ref, BIG));
            check("... and is reported", reports == before + 1 && strstr(last_msg, "smooth3") != NULL);
        }
    }
    check("smooth3 on host arrays, 40 calls, match the C body", !bad);
    /* a data region: the mirrors' addresses are the graph's parameters */
    fill(out, CAP, 9);
    memcpy(ref, out, CAP * sizeof *out);
    if (gf_data_enter(x, CAP * sizeof *x, GF_COPYIN) || gf_data_enter(out, CAP * sizeof *out, GF_COPYIN | GF_COPYOUT)) {
        fprintf(stderr, "gf_data_enter: %s\n", gf_last_error());
        exit(1);
    }
    for (int i = 0; i < 30; i++) {
        gf_smooth3(512, 1.25f, x, out);
        smooth3(512, 1.25f, x, ref);
    }
    gf_data_exit(out);
    gf_data_exit(x);
    check("smooth3 in data regions, 30 calls, match the C body", same("region", out, ref, CAP));
    free(x), free(out), free(ref);
}

/* mixed3 (maps of other lengths and steps, a serial kernel between them)
 * on device buffers at sizes on both sides of GF_BLOCK_ELEMS, each shape
 * called four times (direct launches, the graph built, then replayed). */
static void mixed_sizes(void)
{
    static const int nm[][2] = {{1, 1}, {5, 3}, {300, 77}, {77, 300}, {1024, 1025}, {4096, 4096}, {4096, 4097},
                                {4097, 64}, {100, 9000}, {12000, 12000}};
    float *x, *u, *v, *hx = malloc(CAP * sizeof *hx), *hu = malloc(CAP * sizeof *hu), *hv = malloc(CAP * sizeof *hv);
    float *gu = malloc(CAP * sizeof *gu), *gv = malloc(CAP * sizeof *gv);
    double *w, *hw = malloc(CAP * sizeof *hw), *gw = malloc(CAP * sizeof *gw);
    if (gf_malloc((void **)&x, CAP * sizeof *x) || gf_malloc((void **)&u, CAP * sizeof *u) ||
        gf_malloc((void **)&v, CAP * sizeof *v) || gf_malloc((void **)&w, CAP * sizeof *w)) {
        fprintf(stderr, "gf_malloc: %s\n", gf_last_error());
        exit(1);
    }
    int bad = 0;
    for (size_t t = 0; t < sizeof nm / sizeof *nm && !bad; t++) {
        for (int rep = 0; rep < 4 && !bad; rep++) {
            int n = nm[t][0], m = nm[t][1];
            float s = 0.75f + 0.5f * (float)rep;
            fill(hx, CAP, (int)t);
            fill(hu, CAP, rep + 1);
            fill(hv, CAP, rep + 2);
            for (int i = 0; i < CAP; i++)
                hw[i] = -1.0 - i;
            to_dev(x, hx, CAP);
            to_dev(u, hu, CAP);
            to_dev(v, hv, CAP);
            if (gf_memcpy(w, hw, CAP * sizeof *hw, GF_HOST_TO_DEVICE) != GF_SUCCESS) {
                fprintf(stderr, "gf_memcpy: %s\n", gf_last_error());
                exit(1);
            }
            gf_mixed3(n, m, s, x, u, v, w);
            mixed3(n, m, s, hx, hu, hv, hw);
            to_host(gu, u, CAP);
            to_host(gv, v, CAP);
            if (gf_memcpy(gw, w, CAP * sizeof *gw, GF_DEVICE_TO_HOST) != GF_SUCCESS) {
                fprintf(stderr, "gf_memcpy: %s\n", gf_last_error());
                exit(1);
            }
            char what[120];
            snprintf(what, sizeof what, "mixed3 n %d m %d call %d: u", n, m, rep);
            bad |= !same(what, gu, hu, CAP);
            snprintf(what, sizeof what, "mixed3 n %d m %d call %d: v", n, m, rep);
            bad |= !same(what, gv, hv, CAP);
            for (int i = 0; i < CAP && !bad; i++)
                if (fabs(gw[i] - hw[i]) > 1e-5 * fmax(1.0, fabs(hw[i]))) {
                    printf("  mixed3 n %d m %d call %d: w element %d is %.17g, the C body %.17g\n", n, m, rep, i, gw[i],
                           hw[i]);
                    bad = 1;
                }
        }
    }
    check("mixed3 on both sides of GF_BLOCK_ELEMS matches the C body", !bad);
    gf_free(x), gf_free(u), gf_free(v), gf_free(w);
    free(hx), free(hu), free(hv), free(hw), free(gu), free(gv), free(gw);
}

/* The "replayed" column of chain3's line in the profile (-1: no such column). */
static long replayed(const char *fn)
{
    FILE *f = tmpfile();
    if (!f)
        return -2;
    gf_profile_print(f);
    rewind(f);
    char line[1024];
    long r = -1;
    int cols = 0;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "function", 8))
            cols = strstr(line, "replayed") != NULL;
        if (cols && !strncmp(line, fn, strlen(fn)) && line[strlen(fn)] == ' ') {
            /* ... captured replayed  source: the replayed count is the last number */
            char *src = strrchr(line, ' ');
            *src = 0;
            char *p = strrchr(line, ' ');
            while (p && p > line && p[1] == 0) {
                *p = 0;
                p = strrchr(line, ' ');
            }
            r = p ? strtol(p + 1, NULL, 10) : -1;
        }
    }
    fclose(f);
    return r;
}

int main(int argc, char **argv)
{
    int off = argc > 1 && !strcmp(argv[1], "off");
    setenv("GPUFUSE_POOL_LIMIT", LIMIT, 1);
    setenv("GPUFUSE_COST_MODEL", "0", 1); /* smooth3's serial kernels: the GPU at every size */
    if (off)
        setenv("GPUFUSE_GRAPHS", "0", 1);
    if (gf_init() != GF_SUCCESS || !gf_have_device()) {
        fprintf(stderr, "graph_test: no GPU (%s)\n", gf_last_error());
        return 77;
    }
    gf_set_error_handler(on_error, NULL);
    gf_profile_enable(1);
    device_sequence("default stream", 600, NULL);
    gf_stream s;
    if (gf_stream_create(&s) != GF_SUCCESS) {
        fprintf(stderr, "gf_stream_create: %s\n", gf_last_error());
        return 1;
    }
    device_sequence("user stream", 600, s);
    host_and_regions();
    mixed_sizes();
    gf_stream_destroy(s);
    long r = replayed("chain3"), r2 = replayed("smooth3"), r3 = replayed("mixed3");
    printf("  replayed calls: chain3 %ld, smooth3 %ld, mixed3 %ld\n", r, r2, r3);
    if (off) {
        check("GPUFUSE_GRAPHS=0: no call replayed", r == -1 && r2 == -1 && r3 == -1);
    } else {
        check("chain3 calls replayed", r > 300);
        check("smooth3 calls replayed", r2 > 30);
        check("mixed3 calls replayed", r3 >= 10);
    }
    check("no error reported but the one out of memory", reports == 1);
    gf_profile_print(NULL);
    printf("%s\n", failures ? "FAILED" : "all ok");
    return failures ? 1 : 0;
}
