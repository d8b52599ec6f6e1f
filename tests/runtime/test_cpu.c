/* test_cpu.c - libgpufuse without a GPU (run with GPUFUSE_DEVICE=cpu, so it
 * behaves the same on the GPU machine): gf_init reports NO_DEVICE, launchers
 * take the host path, overlapping written arguments take the sequential
 * path, gf_malloc, copies, streams and events work on host memory, and the
 * profile times every call, host bodies included. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include <gpufuse.h>
#include <gpufuse/launch.h>

#include "capture.h"

static gf_site site = {"blend", "blend.c", 3, -1};

static void test_init_reports_no_device(void **state)
{
    (void)state;
    assert_int_equal(gf_init(), GF_ERROR_NO_DEVICE);
    assert_int_equal(gf_init(), GF_ERROR_NO_DEVICE); /* idempotent */
    assert_non_null(strstr(gf_last_error(), "CPU fallback"));
    assert_non_null(strstr(gf_error_string(GF_ERROR_NO_DEVICE), "GF_ERROR_NO_DEVICE"));
    assert_int_equal(gf_have_device(), 0);
    int n = 5, d = 5;
    assert_int_equal(gf_device_count(&n), GF_SUCCESS);
    assert_int_equal(n, 0);
    assert_int_equal(gf_device_current(&d), GF_ERROR_NO_DEVICE);
    assert_int_equal(gf_device_select(0), GF_ERROR_NO_DEVICE);
    gf_device_props p;
    assert_int_equal(gf_device_properties(0, &p), GF_ERROR_NO_DEVICE);
}

static void test_launcher_takes_host_path(void **state)
{
    (void)state;
    float x[64], y[64], out[64];
    gf_call *c = gf_call_begin(&site, 3);
    assert_non_null(c);
    gf_call_arg(c, 0, x, 0, sizeof x, GF_ARG_READ, 0);
    gf_call_arg(c, 1, y, 0, sizeof y, GF_ARG_READ, 0);
    gf_call_arg(c, 2, out, 0, sizeof out, GF_ARG_WRITE, 0);
    assert_int_equal(gf_call_map(c), GF_PATH_HOST);
    gf_call_end(c, 0, 0);
    /* the call object is per thread and reused */
    assert_ptr_equal(gf_call_begin(&site, 1), c);
    gf_call_end(c, 0, 0);
}

static void test_in_place_with_alias_class_is_host(void **state)
{
    (void)state;
    float x[64];
    gf_call *c = gf_call_begin(&site, 2);
    gf_call_arg(c, 0, x, 0, sizeof x, GF_ARG_READ, 1);
    gf_call_arg(c, 1, x, 0, sizeof x, GF_ARG_WRITE, 1);
    assert_int_equal(gf_call_map(c), GF_PATH_HOST);
    gf_call_end(c, 0, 0);
}

static void test_overlapping_written_args_are_sequential(void **state)
{
    (void)state;
    float x[64];
    gf_call *c = gf_call_begin(&site, 2);
    gf_call_arg(c, 0, x, 0, 63 * sizeof(float), GF_ARG_READ, 1);
    gf_call_arg(c, 1, x + 1, 0, 63 * sizeof(float), GF_ARG_WRITE, 1);
    assert_int_equal(gf_call_map(c), GF_PATH_SEQUENTIAL);
    gf_call_end(c, 0, 0);
    /* many arguments (beyond the inline capacity) */
    enum { N = 40 };
    float v[N][4];
    c = gf_call_begin(&site, N);
    for (int i = 0; i < N; i++)
        gf_call_arg(c, i, v[i], 0, sizeof v[i], i ? GF_ARG_READ : GF_ARG_WRITE, 0);
    assert_int_equal(gf_call_map(c), GF_PATH_HOST);
    gf_call_end(c, 0, 0);
    c = gf_call_begin(&site, N);
    for (int i = 0; i < N; i++)
        gf_call_arg(c, i, v[i], 0, sizeof v[i], GF_ARG_READ, 0);
    gf_call_arg(c, N - 1, v[0], 0, sizeof v[0], GF_ARG_WRITE, 0);
    assert_int_equal(gf_call_map(c), GF_PATH_SEQUENTIAL);
    gf_call_end(c, 0, 0);
}

/* Code written for the GPU runs unchanged: gf_malloc gives host memory,
 * copies are memcpy, streams and events are handles, events time the host. */
static void test_device_api_works_on_the_host(void **state)
{
    (void)state;
    float *p = NULL;
    assert_int_equal(gf_malloc((void **)&p, 1024 * sizeof(float)), GF_SUCCESS);
    for (int i = 0; i < 1024; i++)
        p[i] = (float)i; /* host memory */
    gf_pool_stats st;
    assert_int_equal(gf_pool_stats_get(&st), GF_SUCCESS);
    assert_true(st.current_bytes >= 1024 * sizeof(float));
    float back[1024];
    assert_int_equal(gf_memcpy(back, p, sizeof back, GF_DEVICE_TO_HOST), GF_SUCCESS);
    assert_true(back[1023] == 1023.0f);
    assert_int_equal(gf_memcpy_async(p, back + 1, 4 * sizeof(float), GF_HOST_TO_DEVICE), GF_SUCCESS);
    assert_true(p[0] == 1.0f);
    assert_int_equal(gf_memcpy(p, back, 4, (gf_copy_kind)9), GF_ERROR_INVALID_VALUE);
    int x;
    assert_int_equal(gf_free(&x), GF_ERROR_INVALID_VALUE); /* not from gf_malloc */
    assert_int_equal(gf_free(p), GF_SUCCESS);
    assert_int_equal(gf_pool_trim(), GF_SUCCESS);

    gf_stream s = NULL;
    gf_event a = NULL, b = NULL;
    assert_int_equal(gf_stream_create(&s), GF_SUCCESS);
    assert_non_null(s);
    assert_int_equal(gf_stream_set(s), GF_SUCCESS);
    assert_ptr_equal(gf_stream_get(), s);
    assert_int_equal(gf_event_create(&a), GF_SUCCESS);
    assert_int_equal(gf_event_create(&b), GF_SUCCESS);
    float ms = -1;
    assert_int_equal(gf_event_elapsed_ms(a, b, &ms), GF_ERROR_INVALID_VALUE); /* never recorded */
    assert_int_equal(gf_event_record(a, s), GF_SUCCESS);
    struct timespec ten = {0, 10 * 1000 * 1000};
    nanosleep(&ten, NULL);
    assert_int_equal(gf_event_record(b, s), GF_SUCCESS);
    assert_int_equal(gf_stream_wait(s, b), GF_SUCCESS);
    assert_int_equal(gf_event_elapsed_ms(a, b, &ms), GF_SUCCESS);
    assert_true(ms >= 9.0f && ms < 5000.0f);
    assert_int_equal(gf_stream_sync(s), GF_SUCCESS);
    assert_int_equal(gf_event_destroy(a), GF_SUCCESS);
    assert_int_equal(gf_event_destroy(b), GF_SUCCESS);
    assert_int_equal(gf_stream_destroy(s), GF_SUCCESS);
    assert_null(gf_stream_get()); /* destroying the current stream resets it */
    assert_int_equal(gf_sync(), GF_SUCCESS);
    assert_int_equal(gf_stream_sync(NULL), GF_SUCCESS);
}

static void test_host_pool_works_without_gpu(void **state)
{
    (void)state;
    void *p = NULL;
    assert_int_equal(gf_host_malloc(&p, 100000), GF_SUCCESS);
    memset(p, 1, 100000);
    assert_int_equal(gf_host_free(p), GF_SUCCESS);
    void *q = NULL;
    assert_int_equal(gf_host_malloc(&q, 100000), GF_SUCCESS);
    assert_ptr_equal(p, q); /* cached */
    assert_int_equal(gf_host_free(q), GF_SUCCESS);
    int x;
    assert_int_equal(gf_host_free(&x), GF_ERROR_INVALID_VALUE);
}

static void test_data_regions_are_counted(void **state)
{
    (void)state;
    static float a[1000];
    assert_int_equal(gf_data_enter(a, sizeof a, GF_COPYIN | GF_COPYOUT), GF_SUCCESS);
    assert_int_equal(gf_data_enter(a + 10, 40, GF_COPYIN), GF_SUCCESS);
    assert_int_equal(gf_data_enter(a + 990, 400, GF_COPYIN), GF_ERROR_OVERLAP);
    assert_ptr_equal(gf_device_ptr(a + 5), a + 5); /* CPU mode: the host is the mirror */
    assert_int_equal(gf_update_device(a, 16), GF_SUCCESS);
    assert_int_equal(gf_update_host(a + 999, 4), GF_SUCCESS);
    assert_int_equal(gf_update_host(a + 999, 8), GF_ERROR_NOT_MAPPED);
    assert_int_equal(gf_data_exit(a + 10), GF_SUCCESS);
    assert_int_equal(gf_data_exit(a), GF_SUCCESS);
    assert_null(gf_device_ptr(a));
    assert_int_equal(gf_data_exit(a), GF_ERROR_NOT_MAPPED);
}

static void test_error_handler_hook(void **state)
{
    (void)state;
    gf_set_error_handler(capture, NULL);
    gf_call *c = gf_call_begin(&site, 0);
    gf_call_check(c, cudaErrorInvalidConfiguration, "blend_k0");
    gf_call_end(c, 0, 0);
    assert_int_equal(handler_calls, 1);
    assert_int_equal(handler_status, GF_ERROR_CUDA);
    /* names the kernel, the function and its source line */
    assert_non_null(strstr(handler_msg, "blend_k0"));
    assert_non_null(strstr(handler_msg, "(in blend at blend.c:3)"));
    assert_string_equal(gf_last_error(), handler_msg);
    gf_set_error_handler(NULL, NULL);
}

static void test_error_strings(void **state)
{
    (void)state;
    for (int s = GF_SUCCESS; s <= GF_ERROR_INTERNAL; s++)
        assert_non_null(gf_error_string((gf_status)s));
    assert_non_null(strstr(gf_error_string((gf_status)999), "unknown"));
}

/* The profile row of `fn`: calls, then by path GPU, CPU plan, C body; wall ms. */
static void profile_row(const char *fn, unsigned long long *calls, unsigned long long path[3], double *wall)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(gf_profile_print(f), GF_SUCCESS);
    fclose(f);
    char *row = strstr(buf, fn);
    assert_non_null(row);
    char gm[32], us[32], gb[32], pk[32];
    double in, out;
    assert_int_equal(sscanf(row + strlen(fn), "%llu %llu %llu %llu %31s %31s %31s %31s %lf %lf %lf", calls, &path[0],
                            &path[1], &path[2], gm, us, gb, pk, wall, &in, &out), 11);
    assert_string_equal(gm, "-"); /* no GPU time on the CPU */
    assert_true(in == 0 && out == 0); /* nothing staged */
    free(buf);
}

static void test_profile_counts_host_calls(void **state)
{
    (void)state;
    static gf_site psite = {"scale", "scale.c", 7, -1};
    assert_int_equal(gf_profile_enable(1), GF_SUCCESS);
    assert_int_equal(gf_profile_reset(), GF_SUCCESS);
    for (int i = 0; i < 3; i++) {
        gf_call *c = gf_call_begin(&psite, 0);
        assert_int_equal(gf_call_map(c), GF_PATH_HOST);
        gf_call_end(c, 0, 0);
    }
    float x[8];
    gf_call *c = gf_call_begin(&psite, 2); /* a hazard: the C body */
    gf_call_arg(c, 0, x, 0, sizeof x, GF_ARG_WRITE, 0);
    gf_call_arg(c, 1, x, 4, sizeof x, GF_ARG_READ, 0);
    assert_int_equal(gf_call_map(c), GF_PATH_SEQUENTIAL);
    gf_call_end(c, 0, 0);
    assert_true(psite.profile_slot >= 0);
    unsigned long long calls, path[3];
    double wall;
    profile_row("scale", &calls, path, &wall);
    assert_true(calls == 4 && path[0] == 0 && path[1] == 3 && path[2] == 1);
    gf_profile_enable(0);
}

/* An entry point times the whole call: the host body runs after
 * gf_call_end, and its 30 ms must show. */
static void test_profile_times_host_bodies(void **state)
{
    (void)state;
    static gf_site esite = {"slow_body", "slow.c", 3, -1}, lsite = {"slow_body", "slow.c", 3, -1};
    assert_int_equal(gf_profile_enable(1), GF_SUCCESS);
    for (int i = 0; i < 2; i++) {
        gf_entry *e = gf_entry_begin(&esite, 0);
        assert_non_null(e); /* profiling: timed */
        assert_int_equal(gf_entry_snapshot(e), 0); /* not checked */
        gf_call *c = gf_call_begin(&lsite, 0);
        assert_int_equal(gf_call_map(c), GF_PATH_HOST);
        gf_call_end(c, 0, 0);
        struct timespec t = {0, 15 * 1000 * 1000}; /* the host body */
        nanosleep(&t, NULL);
        gf_entry_end(e);
    }
    unsigned long long calls, path[3];
    double wall;
    profile_row("slow_body", &calls, path, &wall);
    assert_true(calls == 2 && path[1] == 2); /* one row for entry and launcher */
    assert_true(wall >= 29.0);
    gf_profile_enable(0);
    assert_null(gf_entry_begin(&esite, 0)); /* neither profiling nor verifying: nothing to do */
}

int main(int argc, char **argv)
{
    /* --detect: no GPUFUSE_DEVICE; on a machine with a GPU there is nothing
     * to test (the CPU fallback is taken only without one) */
    if (argc > 1 && !strcmp(argv[1], "--detect")) {
        int n = 0;
        if (cudaGetDeviceCount(&n) == cudaSuccess && n > 0) {
            printf("a GPU is present: CPU-detection test skipped\n");
            return 77;
        }
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_init_reports_no_device),
        cmocka_unit_test(test_launcher_takes_host_path),
        cmocka_unit_test(test_in_place_with_alias_class_is_host),
        cmocka_unit_test(test_overlapping_written_args_are_sequential),
        cmocka_unit_test(test_device_api_works_on_the_host),
        cmocka_unit_test(test_host_pool_works_without_gpu),
        cmocka_unit_test(test_data_regions_are_counted),
        cmocka_unit_test(test_error_handler_hook),
        cmocka_unit_test(test_error_strings),
        cmocka_unit_test(test_profile_counts_host_calls),
        cmocka_unit_test(test_profile_times_host_bodies),
    };
    return cmocka_run_group_tests_name("cpu_mode", tests, NULL, NULL);
}
