/* test_fftcb.c - FFT callbacks without a GPU (runtime/fft.c): NVRTC, loaded
 * with dlopen, compiles callback sources to LTO-IR (what
 * cufftXtSetJITCallback takes), a broken source fails with NVRTC's log, and
 * every callback source that gpufuse embedded in the .gf.cu files given as
 * arguments (tests/golden/fft_callbacks.c, tests/edge/fft_callbacks.c)
 * compiles to LTO-IR and defines its load/store symbols with C++ linkage
 * (cuFFT 12.0 of CUDA 13 looks the name up as a C++ function: an extern "C"
 * callback fails planning with CUFFT_INTERNAL_ERROR, tests/runtime/
 * fft_lto_probe.cu).  gf_call_fft_cb itself needs
 * a GPU: tests/edge/fft_callbacks.c. */
#include "rt.h"

#include <gpufuse.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static const char *const *files;
static int nfiles;

static const char ok_src[] =
    "struct info { float *w; int n; };\n"
    "__device__ float2 t_load(void *d, unsigned long long off, void *ci, void *sh)\n"
    "{ const struct info *p = (const struct info *)ci; float2 v = ((float2 *)d)[off];\n"
    "  return {v.x * p->w[off % p->n], v.y * p->w[off % p->n]}; }\n"
    "__device__ void t_store(void *d, unsigned long long off, float2 e, void *ci, void *sh)\n"
    "{ ((float *)ci)[off] = e.x * e.x + e.y * e.y; }\n";

static void test_compile(void **state)
{
    (void)state;
    char why[256] = "";
    size_t n = 0;
    char *ir = gf_fft_cb_compile(ok_src, 90, GF_FFTCB_PART_LOAD | GF_FFTCB_PART_STORE, &n, why, sizeof why);
    assert_non_null(ir);
    assert_true(n > 0);
    free(ir);
}

static void test_compile_error(void **state)
{
    (void)state;
    char why[256] = "";
    size_t n = 0;
    char *ir = gf_fft_cb_compile("__device__ float2 bad(void *d) { return undeclared; }\n", 90, 0, &n,
                                 why, sizeof why);
    assert_null(ir);
    assert_non_null(strstr(why, "NVRTC could not compile the callbacks"));
    assert_non_null(strstr(why, "undeclared"));
}

static void test_stats(void **state)
{
    (void)state;
    gf_fft_cb_stats s;
    assert_int_equal(gf_fft_callback_stats(NULL), GF_ERROR_INVALID_VALUE);
    assert_int_equal(gf_fft_callback_stats(&s), GF_SUCCESS);
    assert_int_equal(s.folded, 0);
}

/* The C string literal after `_src[] =` (adjacent "..." lines), unescaped. */
static char *next_source(const char **p, char *sym, size_t nsym)
{
    const char *at = strstr(*p, "_src[] =\n");
    if (!at)
        return NULL;
    const char *name = at;
    while (name > *p && name[-1] != ' ')
        name--;
    snprintf(sym, nsym, "%.*s", (int)(at - name), name);
    char *out = malloc(strlen(at) + 1), *o = out;
    const char *q = at + 9;
    while (*q == ' ') {
        while (*q == ' ')
            q++;
        if (*q++ != '"')
            break;
        for (; *q && *q != '"'; q++) {
            if (*q == '\\') {
                q++;
                *o++ = *q == 'n' ? '\n' : *q;
            } else {
                *o++ = *q;
            }
        }
        q++;                     /* the closing quote */
        while (*q == '\n')
            q++;
    }
    *o = 0;
    *p = q;
    return out;
}

static void test_generated(void **state)
{
    (void)state;
    int total = 0;
    for (int f = 0; f < nfiles; f++) {
        FILE *in = fopen(files[f], "rb");
        assert_non_null(in);
        fseek(in, 0, SEEK_END);
        long len = ftell(in);
        rewind(in);
        char *text = calloc((size_t)len + 1, 1);
        assert_int_equal(fread(text, 1, (size_t)len, in), (size_t)len);
        fclose(in);
        const char *p = text;
        char tag[128], *src;
        while ((src = next_source(&p, tag, sizeof tag))) {
            char why[256] = "", want[320];
            size_t n = 0;
            /* the descriptor's symbols are C++-linkage definitions of the
             * source: cuFFT mangles the name it is given, so extern "C"
             * callbacks are never found (CUFFT_INTERNAL_ERROR at planning) */
            int has[2] = {0, 0};
            snprintf(want, sizeof want, "\n__device__ float2 %s_load(", tag);
            has[0] |= strstr(src, want) != NULL;
            snprintf(want, sizeof want, "\n__device__ double2 %s_load(", tag);
            has[0] |= strstr(src, want) != NULL;
            snprintf(want, sizeof want, "\n__device__ void %s_store(", tag);
            has[1] |= strstr(src, want) != NULL;
            assert_true(has[0] || has[1]);
            if (strstr(src, "extern \"C\""))
                fail_msg("%s: %s: an extern \"C\" callback (cuFFT cannot find it)\n%s", files[f], tag, src);
            /* one LTO-IR module per callback (runtime/fft.c cb_find): each
             * guarded, each compiling alone */
            for (int side = 0; side < 2; side++) {
                if (!has[side])
                    continue;
                assert_non_null(strstr(src, side ? "#ifdef GF_FFTCB_STORE\n" : "#ifdef GF_FFTCB_LOAD\n"));
                char *ir = gf_fft_cb_compile(src, 90, side ? GF_FFTCB_PART_STORE : GF_FFTCB_PART_LOAD, &n, why,
                                             sizeof why);
                if (!ir)
                    fail_msg("%s: %s (%s): %s\n%s", files[f], tag, side ? "store" : "load", why, src);
                assert_true(n > 1000);
                free(ir);
            }
            printf("%s: %s: %zu bytes of LTO-IR\n", files[f], tag, n);
            total++;
            free(src);
        }
        free(text);
    }
    if (nfiles)
        assert_true(total >= nfiles);
}

int main(int argc, char **argv)
{
    files = (const char *const *)argv + 1;
    nfiles = argc - 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compile),
        cmocka_unit_test(test_compile_error),
        cmocka_unit_test(test_stats),
        cmocka_unit_test(test_generated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
