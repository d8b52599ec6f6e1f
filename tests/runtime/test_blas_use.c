/* test_blas_use.c - gf_blas_use (runtime/blas.c): whether a launcher's
 * library calls go to cuBLAS or its own kernel runs, under GPUFUSE_BLAS as
 * this process got it (meson runs it unset, "auto", "0" and "1"):
 *   - 0: never cuBLAS, whatever the estimate;
 *   - 1: always cuBLAS;
 *   - unset or auto (ski rental): the kernel while the estimates of what the
 *     kernels cost beyond cuBLAS add up to less than cuBLAS's first use
 *     (50 ms), then cuBLAS from the call that reaches it on; a
 *     matrix-vector form (estimate 0) never pays; an unknown estimate
 *     (negative, NaN) asks for cuBLAS without paying; one call alone never
 *     counts for more than the first use.
 * CUDA-free: gf_blas_use reads no device state until cuBLAS is loaded. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <gpufuse/launch.h>

enum { AUTO, OFF, ON };

static int mode(void)
{
    const char *e = getenv("GPUFUSE_BLAS");
    return !e || !strcmp(e, "auto") ? AUTO : !strcmp(e, "0") ? OFF : ON;
}

static void rent(void **state)
{
    (void)state;
    int m = mode();
    if (m != AUTO) {
        for (int i = 0; i < 8; i++) {
            assert_int_equal(gf_blas_use(NULL, 1e7), m == ON);
            assert_int_equal(gf_blas_use(NULL, -1.0), m == ON);
            assert_int_equal(gf_blas_use(NULL, 0.0), m == ON);
        }
        return;
    }
    /* unknown estimates ask for cuBLAS and pay nothing */
    assert_int_equal(gf_blas_use(NULL, -1.0), 1);
    assert_int_equal(gf_blas_use(NULL, NAN), 1);
    /* matrix-vector forms never pay */
    for (int i = 0; i < 1000; i++)
        assert_int_equal(gf_blas_use(NULL, 0.0), 0);
    /* 4 calls of 12 ms: 48 ms, the kernel each time */
    for (int i = 0; i < 4; i++)
        assert_int_equal(gf_blas_use(NULL, 12e6), 0);
    /* a 1.9 ms call stays below 50 ms, the next 0.2 ms reaches it */
    assert_int_equal(gf_blas_use(NULL, 1.9e6), 0);
    assert_int_equal(gf_blas_use(NULL, 0.2e6), 1);
    /* from then on cuBLAS, whatever the estimate */
    assert_int_equal(gf_blas_use(NULL, 0.0), 1);
    assert_int_equal(gf_blas_use(NULL, 1e3), 1);
}

/* A first call whose kernel alone would cost more than cuBLAS's first use
 * goes to cuBLAS at once (the estimate is capped, not lost). */
static void big_first(void **state)
{
    (void)state;
    assert_int_equal(gf_blas_use(NULL, 1e12), mode() != OFF);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest rent_tests[] = {cmocka_unit_test(rent)};
    const struct CMUnitTest big_tests[] = {cmocka_unit_test(big_first)};
    /* each group needs a fresh process: the rent is the process's */
    if (argc > 1 && !strcmp(argv[1], "big"))
        return cmocka_run_group_tests(big_tests, NULL, NULL);
    return cmocka_run_group_tests(rent_tests, NULL, NULL);
}
