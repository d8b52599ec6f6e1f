/* test_fallback.c - how the runtime tells the CPU fallback apart from an
 * error, per GPUFUSE_DEVICE (the mode is the first argument; meson sets
 * the environment):
 *   notice   unset, no GPU: the first fallback prints one note on stderr
 *            with the reason, later ones nothing (77 with a GPU)
 *   quiet    the same with GPUFUSE_QUIET=1: no note
 *   chosen   GPUFUSE_DEVICE=cpu: no note (the user asked for the CPU)
 *   require  GPUFUSE_DEVICE=gpu and no GPU: gf_init, gf_malloc, streams
 *            fail with GF_ERROR_NO_DEVICE, a launcher reports it through
 *            the error handler and runs nothing (77 with a GPU)
 *   bogus    GPUFUSE_DEVICE=fast: GF_ERROR_INVALID_VALUE the same way */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <gpufuse.h>
#include <gpufuse/launch.h>

#include "capture.h"

static gf_site site = {"scale", "scale.c", 4, -1};
static char mode[16];

/* Runs one launcher call with stderr captured; returns what it printed. */
static char *call_captured(gf_path *path)
{
    char tmpl[] = "/tmp/gf_fallback_XXXXXX";
    int fd = mkstemp(tmpl);
    assert_true(fd >= 0);
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    float x[4] = {0};
    gf_call *c = gf_call_begin(&site, 1);
    gf_call_arg(c, 0, x, 0, sizeof x, GF_ARG_READ | GF_ARG_WRITE, 0);
    *path = gf_call_map(c);
    gf_call_end(c, 0, 0);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    FILE *f = fdopen(fd, "r");
    rewind(f);
    char *text = calloc(1, 4096);
    size_t n = fread(text, 1, 4095, f);
    text[n] = '\0';
    fclose(f);
    unlink(tmpl);
    return text;
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p++)
        n++;
    return n;
}

static void test_note_once(void **state)
{
    (void)state;
    gf_path p;
    char *first = call_captured(&p), *second = call_captured(&p);
    assert_int_equal(p, GF_PATH_HOST);
    if (!strcmp(mode, "notice")) {
        assert_int_equal(count(first, "gpufuse: note: no usable GPU ("), 1);
        assert_non_null(strstr(first, "gpufuse functions run on the CPU"));
        assert_non_null(strstr(first, "GPUFUSE_QUIET=1"));
    } else {
        assert_string_equal(first, ""); /* quiet, or the CPU was asked for */
    }
    assert_string_equal(second, "");
    free(first);
    free(second);
}

static void test_config_error(void **state)
{
    (void)state;
    gf_status want = !strcmp(mode, "require") ? GF_ERROR_NO_DEVICE : GF_ERROR_INVALID_VALUE;
    const char *why = !strcmp(mode, "require") ? "GPUFUSE_DEVICE=gpu requires a GPU" : "GPUFUSE_DEVICE=fast: expected";
    assert_int_equal(gf_init(), want);
    assert_non_null(strstr(gf_last_error(), why));
    void *p = NULL;
    assert_int_equal(gf_malloc(&p, 64), want);
    gf_stream s;
    assert_int_equal(gf_stream_create(&s), want);
    gf_set_error_handler(capture, NULL);
    gf_path path;
    char *err = call_captured(&path);
    gf_set_error_handler(NULL, NULL);
    assert_int_equal(path, GF_PATH_FAILED); /* nothing runs */
    assert_int_equal(handler_calls, 1);
    assert_int_equal(handler_status, want);
    assert_non_null(strstr(handler_msg, why));
    assert_non_null(strstr(handler_msg, "(in scale at scale.c:4)"));
    assert_null(strstr(err, "note:"));
    free(err);
}

int main(int argc, char **argv)
{
    snprintf(mode, sizeof mode, "%s", argc > 1 ? argv[1] : "");
    int n = 0;
    int gpu = cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
    if (gpu && (!strcmp(mode, "notice") || !strcmp(mode, "quiet") || !strcmp(mode, "require"))) {
        printf("a GPU is present: nothing falls back\n");
        return 77;
    }
    const struct CMUnitTest note[] = {cmocka_unit_test(test_note_once)};
    const struct CMUnitTest error[] = {cmocka_unit_test(test_config_error)};
    if (!strcmp(mode, "require") || !strcmp(mode, "bogus"))
        return cmocka_run_group_tests_name("fallback_error", error, NULL, NULL);
    return cmocka_run_group_tests_name("fallback_note", note, NULL, NULL);
}
