/* test_gpu_call.c - on a GPU: the launcher interface as generated code uses
 * it, with device pointers, staged malloc memory (large, overlapping,
 * in-place), data-region mirrors, scratch (reserved up front or not), hazards
 * (with host and with device memory) and profiling.
 * Exits 77 without a GPU. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <gpufuse.h>
#include <gpufuse/launch.h>

#include "capture.h"

#include "gpu_kernels.h"

/* What gpufuse would generate for: void scale(float *out, const float *in,
 * float k, size_t n) { for (i < n) out[i] = k * in[i]; } */
static int seq_runs;

static void scale_seq(float *out, const float *in, float k, size_t n)
{
    seq_runs++;
    for (size_t i = 0; i < n; i++)
        out[i] = k * in[i];
}

static gf_path scale(float *out, const float *in, float k, size_t n, int alias)
{
    static gf_site site = {"scale", "scale.c", 12, -1};
    gf_call *c = gf_call_begin(&site, 2);
    gf_call_arg(c, 0, out, 0, (ptrdiff_t)(n * sizeof(float)), GF_ARG_WRITE, alias);
    gf_call_arg(c, 1, in, 0, (ptrdiff_t)(n * sizeof(float)), GF_ARG_READ, alias);
    gf_path p = gf_call_map(c);
    switch (p) {
    case GF_PATH_DEVICE:
        gf_call_check(c, gft_scale(gf_call_stream(c), gf_call_sm_count(c), (float *)gf_call_ptr(c, 0),
                                   (const float *)gf_call_ptr(c, 1), k, n),
                      "scale_k0");
        gf_call_end(c, 2 * n * sizeof(float), 0);
        break;
    case GF_PATH_HOST:
    case GF_PATH_SEQUENTIAL:
        gf_call_end(c, 0, 0);
        scale_seq(out, in, k, n);
        break;
    case GF_PATH_FAILED:
        gf_call_end(c, 0, 0);
        break;
    }
    return p;
}

static gf_path add(float *out, const float *a, const float *b, size_t n)
{
    static gf_site site = {"add", "add.c", 5, -1};
    gf_call *c = gf_call_begin(&site, 3);
    gf_call_arg(c, 0, out, 0, (ptrdiff_t)(n * sizeof(float)), GF_ARG_WRITE, 0);
    gf_call_arg(c, 1, a, 0, (ptrdiff_t)(n * sizeof(float)), GF_ARG_READ, 0);
    gf_call_arg(c, 2, b, 0, (ptrdiff_t)(n * sizeof(float)), GF_ARG_READ, 0);
    gf_path p = gf_call_map(c);
    if (p == GF_PATH_DEVICE) {
        gf_call_check(c, gft_add(gf_call_stream(c), gf_call_sm_count(c), (float *)gf_call_ptr(c, 0),
                                 (const float *)gf_call_ptr(c, 1), (const float *)gf_call_ptr(c, 2), n),
                      "add_k0");
        gf_call_end(c, 3 * n * sizeof(float), 0);
    } else {
        gf_call_end(c, 0, 0);
        for (size_t i = 0; i < n; i++)
            out[i] = a[i] + b[i];
    }
    return p;
}

static float *host_ramp(size_t n)
{
    float *v = malloc(n * sizeof *v);
    for (size_t i = 0; i < n; i++)
        v[i] = (float)(i % 1000);
    return v;
}

static void test_device_pointers(void **state)
{
    (void)state;
    size_t n = 1 << 20;
    float *h = host_ramp(n), *d_in, *d_out;
    assert_int_equal(gf_malloc((void **)&d_in, n * sizeof(float)), GF_SUCCESS);
    assert_int_equal(gf_malloc((void **)&d_out, n * sizeof(float)), GF_SUCCESS);
    assert_int_equal(gf_memcpy(d_in, h, n * sizeof(float), GF_HOST_TO_DEVICE), GF_SUCCESS);
    assert_int_equal(scale(d_out, d_in, 2.0f, n, 0), GF_PATH_DEVICE);
    float *back = malloc(n * sizeof *back);
    assert_int_equal(gf_memcpy(back, d_out, n * sizeof(float), GF_DEVICE_TO_HOST), GF_SUCCESS);
    for (size_t i = 0; i < n; i += 997)
        assert_true(back[i] == 2.0f * h[i]);
    /* cudaMalloc'd memory is used as is, too */
    float *raw;
    assert_int_equal(cudaMalloc((void **)&raw, n * sizeof(float)), cudaSuccess);
    assert_int_equal(scale(raw, d_in, 3.0f, n, 0), GF_PATH_DEVICE);
    assert_int_equal(cudaMemcpy(back, raw, n * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
    assert_true(back[999] == 3.0f * 999);
    cudaFree(raw);
    gf_free(d_in);
    gf_free(d_out);
    free(h);
    free(back);
}

static void test_staged_host_pointers(void **state)
{
    (void)state;
    size_t n = (size_t)64 << 20; /* 256 MiB per array: several staging chunks */
    float *in = host_ramp(n), *out = malloc(n * sizeof *out);
    memset(out, 0, n * sizeof *out);
    gf_pool_stats before;
    gf_pool_stats_get(&before);
    assert_int_equal(scale(out, in, 0.5f, n, 0), GF_PATH_DEVICE);
    for (size_t i = 0; i < n; i += 4099)
        assert_true(out[i] == 0.5f * in[i]);
    assert_true(out[n - 1] == 0.5f * in[n - 1]);
    gf_pool_stats after;
    gf_pool_stats_get(&after);
    assert_int_equal(after.current_bytes, before.current_bytes); /* staging released */
    free(in);
    free(out);
}

static void test_in_place_shares_one_buffer(void **state)
{
    (void)state;
    size_t n = 1 << 22;
    float *x = host_ramp(n);
    seq_runs = 0;
    /* out == in with an alias class: allowed, staged once, written back once */
    assert_int_equal(scale(x, x, 2.0f, n, 1), GF_PATH_DEVICE);
    assert_int_equal(seq_runs, 0);
    for (size_t i = 0; i < n; i += 1001)
        assert_true(x[i] == 2.0f * (float)(i % 1000));
    /* a + a: read-only duplicates share a buffer */
    float *o = malloc(n * sizeof *o);
    assert_int_equal(add(o, x, x, n), GF_PATH_DEVICE);
    assert_true(o[12345] == 2.0f * x[12345]);
    /* overlapping read-only windows of one array */
    assert_int_equal(add(o, x, x + 1, n - 1), GF_PATH_DEVICE);
    assert_true(o[500] == x[500] + x[501]);
    free(x);
    free(o);
}

static void test_hazard_runs_sequential(void **state)
{
    (void)state;
    size_t n = 1000;
    float *x = host_ramp(n + 1);
    seq_runs = 0;
    /* out = x+1, in = x: shifted overlap, the sequential body must run */
    assert_int_equal(scale(x + 1, x, 1.0f, n, 1), GF_PATH_SEQUENTIAL);
    assert_int_equal(seq_runs, 1);
    for (size_t i = 0; i <= n; i++)
        assert_true(x[i] == 0.0f); /* the sequential recurrence copies x[0] forward */
    free(x);
}

static void test_mirrors(void **state)
{
    (void)state;
    size_t n = 1 << 20;
    float *a = host_ramp(n), *b = malloc(n * sizeof *b);
    assert_int_equal(gf_data_enter(a, n * sizeof *a, GF_COPYIN), GF_SUCCESS);
    assert_int_equal(gf_data_enter(b, n * sizeof *b, GF_CREATE | GF_COPYOUT), GF_SUCCESS);
    memset(b, 0, n * sizeof *b);
    assert_int_equal(scale(b, a, 4.0f, n, 0), GF_PATH_DEVICE);
    assert_true(b[77] == 0.0f); /* result stays in the mirror */
    assert_int_equal(scale(b, b, 0.5f, n, 1), GF_PATH_DEVICE); /* in place on the mirror */
    assert_int_equal(gf_update_host(b, 100 * sizeof *b), GF_SUCCESS);
    assert_true(b[77] == 2.0f * 77);
    assert_true(b[200] == 0.0f);
    /* a hazard on mirrored memory: host copy refreshed, body runs on the
     * host, its writes reach the mirror before the next region operation */
    seq_runs = 0;
    assert_int_equal(scale(b + 1, b, 1.0f, 10, 1), GF_PATH_SEQUENTIAL);
    assert_int_equal(seq_runs, 1);
    assert_int_equal(gf_data_exit(a), GF_SUCCESS);
    assert_int_equal(gf_data_exit(b), GF_SUCCESS);
    for (size_t i = 0; i <= 10; i++)
        assert_true(b[i] == 0.0f); /* b[0] == 0 copied forward */
    assert_true(b[11] == 2.0f * 11);
    assert_true(b[n - 1] == 2.0f * (float)((n - 1) % 1000));
    free(a);
    free(b);
}

static void test_scratch_and_profile(void **state)
{
    (void)state;
    static gf_site site = {"fill_add", "fill.c", 9, -1};
    size_t n = 1 << 20;
    float *out = malloc(n * sizeof *out), *in = host_ramp(n);
    assert_int_equal(gf_profile_enable(1), GF_SUCCESS);
    for (int r = 0; r < 3; r++) {
        gf_call *c = gf_call_begin(&site, 2);
        gf_call_arg(c, 0, out, 0, (ptrdiff_t)(n * sizeof(float)), GF_ARG_WRITE, 0);
        gf_call_arg(c, 1, in, 0, (ptrdiff_t)(n * sizeof(float)), GF_ARG_READ, 0);
        assert_int_equal(gf_call_map(c), GF_PATH_DEVICE);
        float *tmp = gf_call_scratch(c, n * sizeof(float));
        assert_non_null(tmp);
        gf_call_check(c, gft_fill(gf_call_stream(c), gf_call_sm_count(c), tmp, 1.5f, n), "fill_k0");
        gf_call_check(c, gft_add(gf_call_stream(c), gf_call_sm_count(c), (float *)gf_call_ptr(c, 0),
                                 (const float *)gf_call_ptr(c, 1), tmp, n),
                      "fill_k1");
        gf_call_end(c, 4 * n * sizeof(float), 0);
    }
    assert_true(out[3] == in[3] + 1.5f);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    gf_profile_print(f);
    fclose(f);
    printf("%s", buf);
    assert_non_null(strstr(buf, "fill_add"));
    assert_non_null(strstr(buf, "fill.c:9"));
    free(buf);
    gf_profile_enable(0);
    free(out);
    free(in);
}

static void test_launch_failure_is_reported(void **state)
{
    (void)state;
    static gf_site site = {"broken", "broken.c", 42, -1};
    gf_set_error_handler(capture, NULL);
    gf_call *c = gf_call_begin(&site, 0);
    assert_int_equal(gf_call_map(c), GF_PATH_DEVICE);
    gf_call_check(c, cudaErrorInvalidConfiguration, "broken_k0");
    gf_call_end(c, 0, 0);
    assert_int_equal(handler_calls, 1);
    assert_non_null(strstr(handler_msg, "broken_k0"));
    assert_non_null(strstr(handler_msg, "(in broken at broken.c:42)"));
    gf_set_error_handler(NULL, NULL);
}

/* Pieces declared before gf_call_map: allocated by it, 256-byte aligned,
 * distinct, usable by kernels, gone after gf_call_end. */
static void test_reserved_scratch(void **state)
{
    (void)state;
    static gf_site site = {"reserve", "reserve.c", 3, -1};
    size_t n = 1 << 16;
    float *out = malloc(n * sizeof *out), *in = host_ramp(n);
    gf_pool_stats before, after;
    gf_pool_stats_get(&before);
    gf_call *c = gf_call_begin(&site, 2);
    gf_call_arg(c, 0, out, 0, (ptrdiff_t)(n * sizeof(float)), GF_ARG_WRITE, 0);
    gf_call_arg(c, 1, in, 0, (ptrdiff_t)(n * sizeof(float)), GF_ARG_READ, 0);
    gf_call_reserve(c, sizeof(double));
    gf_call_reserve(c, n * sizeof(float));
    gf_call_reserve(c, 0);
    assert_int_equal(gf_call_map(c), GF_PATH_DEVICE);
    char *p0 = gf_call_reserved(c, 0), *p1 = gf_call_reserved(c, 1), *p2 = gf_call_reserved(c, 2);
    assert_non_null(p0);
    assert_non_null(p1);
    assert_non_null(p2);
    assert_null(gf_call_reserved(c, 3));
    assert_int_equal((uintptr_t)p0 % 256, 0);
    assert_int_equal((uintptr_t)p1 % 256, 0);
    assert_true(p1 >= p0 + sizeof(double) && p2 >= p1 + n * sizeof(float));
    gf_call_check(c, gft_fill(gf_call_stream(c), gf_call_sm_count(c), (float *)p1, 0.25f, n), "fill_k0");
    gf_call_check(c, gft_add(gf_call_stream(c), gf_call_sm_count(c), (float *)gf_call_ptr(c, 0),
                             (const float *)gf_call_ptr(c, 1), (const float *)p1, n),
                  "add_k1");
    gf_call_end(c, 0, 0);
    gf_pool_stats_get(&after);
    for (size_t i = 0; i < n; i++)
        assert_true(out[i] == in[i] + 0.25f);
    assert_int_equal(after.current_bytes, before.current_bytes); /* staging and scratch released */
    free(out);
    free(in);
}

/* A hazard with device memory: no host body may run on it, so nothing runs. */
static void test_hazard_on_device_memory_does_nothing(void **state)
{
    (void)state;
    size_t n = 1000;
    void *d = NULL;
    assert_int_equal(gf_malloc(&d, (n + 1) * sizeof(float)), GF_SUCCESS);
    float *x = d;
    handler_calls = 0;
    seq_runs = 0;
    gf_set_error_handler(capture, NULL);
    assert_int_equal(scale(x + 1, x, 1.0f, n, 1), GF_PATH_FAILED);
    gf_set_error_handler(NULL, NULL);
    assert_int_equal(seq_runs, 0);
    assert_int_equal(handler_calls, 1);
    assert_non_null(strstr(handler_msg, "device memory"));
    assert_non_null(strstr(handler_msg, "(in scale at scale.c:12)"));
    assert_int_equal(gf_free(d), GF_SUCCESS);
}

int main(void)
{
    if (gf_init() == GF_ERROR_NO_DEVICE) {
        printf("no GPU (%s): skipped\n", gf_last_error());
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_device_pointers),
        cmocka_unit_test(test_staged_host_pointers),
        cmocka_unit_test(test_in_place_shares_one_buffer),
        cmocka_unit_test(test_hazard_runs_sequential),
        cmocka_unit_test(test_mirrors),
        cmocka_unit_test(test_scratch_and_profile),
        cmocka_unit_test(test_launch_failure_is_reported),
        cmocka_unit_test(test_reserved_scratch),
        cmocka_unit_test(test_hazard_on_device_memory_does_nothing),
    };
    return cmocka_run_group_tests_name("gpu_call", tests, NULL, NULL);
}
