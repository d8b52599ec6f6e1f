/* test_verify.c - verify mode's comparison and messages (verify_cmp.c):
 * when two results agree (floating point within ulps or a relative
 * tolerance, NaN only with NaN, integers exactly), the tolerances from the
 * environment, indices printed per dimension, and the report's text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <float.h>
#include <math.h>

#include "rt.h"

static gf_vtol tol;

static int setup(void **state)
{
    (void)state;
    gf_vtol_default(&tol);
    return 0;
}

static int fl(float g, float r, int cls) { return gf_vclose(GF_VK_FLOAT, 4, &g, &r, &tol, cls); }
static int db(double g, double r, int cls) { return gf_vclose(GF_VK_FLOAT, 8, &g, &r, &tol, cls); }

static float ulps_up(float x, int n)
{
    while (n--)
        x = nextafterf(x, INFINITY);
    return x;
}

static void test_float_tolerance(void **state)
{
    (void)state;
    assert_true(fl(1.0f, 1.0f, GF_VTOL_ELEMENT));
    assert_true(fl(1.00005f, 1.0f, GF_VTOL_ELEMENT));          /* 5e-5 relative */
    assert_false(fl(100.02f, 100.0f, GF_VTOL_ELEMENT));        /* 2e-4 relative */
    assert_true(fl(100.02f, 100.0f, GF_VTOL_REDUCED));         /* a sum in another order: 1e-3 */
    assert_false(fl(100.2f, 100.0f, GF_VTOL_REDUCED));
    assert_true(fl(2e-6f, 1e-6f, GF_VTOL_ELEMENT));            /* below 1 the tolerance is absolute */
    assert_false(fl(3e-4f, 1e-4f, GF_VTOL_ELEMENT));
    assert_true(fl(0.0f, -0.0f, GF_VTOL_ELEMENT));
    assert_true(db(1.0 + 5e-7, 1.0, GF_VTOL_ELEMENT));
    assert_false(db(1.0 + 5e-6, 1.0, GF_VTOL_ELEMENT));
    assert_false(db(1.0 + 5e-6, 1.0, GF_VTOL_REDUCED));
}

static void test_nan_and_inf(void **state)
{
    (void)state;
    assert_true(fl(NAN, NAN, GF_VTOL_ELEMENT));
    assert_true(fl(-NAN, NAN, GF_VTOL_ELEMENT));
    assert_false(fl(NAN, 0.0f, GF_VTOL_ELEMENT));
    assert_false(fl(1.0f, NAN, GF_VTOL_REDUCED));
    assert_true(fl(INFINITY, INFINITY, GF_VTOL_ELEMENT));
    assert_false(fl(INFINITY, -INFINITY, GF_VTOL_REDUCED));
    assert_false(fl(INFINITY, FLT_MAX, GF_VTOL_REDUCED));      /* 1 ulp apart, but not a number */
    assert_false(db(-INFINITY, -DBL_MAX, GF_VTOL_REDUCED));
}

static void test_ulps_alone(void **state)
{
    (void)state;
    tol.rtol[0][0] = tol.rtol[0][1] = 0; /* only the ulp distance */
    assert_true(fl(ulps_up(1000.0f, 4), 1000.0f, GF_VTOL_ELEMENT));
    assert_false(fl(ulps_up(1000.0f, 5), 1000.0f, GF_VTOL_ELEMENT));
    /* across zero: -1 ulp to +1 ulp is 2 ulps */
    assert_true(fl(ulps_up(0.0f, 1), -ulps_up(0.0f, 1), GF_VTOL_ELEMENT));
    double d = 1.0;
    for (int i = 0; i < 4; i++)
        d = nextafter(d, 2.0);
    assert_true(db(d, 1.0, GF_VTOL_ELEMENT));
    assert_false(db(nextafter(d, 2.0), 1.0, GF_VTOL_ELEMENT));
    tol.ulp = 0;
    assert_false(fl(ulps_up(1.0f, 1), 1.0f, GF_VTOL_ELEMENT));
}

static void test_integers_exact(void **state)
{
    (void)state;
    int a = 7, b = 8;
    long long c = 1LL << 40, d = (1LL << 40) + 1;
    assert_false(gf_vclose(GF_VK_INT, 4, &a, &b, &tol, GF_VTOL_REDUCED));
    assert_true(gf_vclose(GF_VK_INT, 4, &a, &a, &tol, GF_VTOL_ELEMENT));
    assert_false(gf_vclose(GF_VK_UINT, 8, &c, &d, &tol, GF_VTOL_REDUCED));
    unsigned char t1 = 1, t2 = 2, f = 0;
    assert_true(gf_vclose(GF_VK_BOOL, 1, &t1, &t2, &tol, GF_VTOL_ELEMENT)); /* both true */
    assert_false(gf_vclose(GF_VK_BOOL, 1, &t1, &f, &tol, GF_VTOL_ELEMENT));
}

static void test_tolerance_from_env(void **state)
{
    (void)state;
    gf_vtol t;
    setenv("GPUFUSE_VERIFY_RTOL", "0.5", 1);
    setenv("GPUFUSE_VERIFY_ULP", "0", 1);
    assert_int_equal(gf_vtol_from_env(&t), 0);
    assert_true(t.rtol[0][0] == 0.5 && t.rtol[1][1] == 0.5 && t.ulp == 0);
    setenv("GPUFUSE_VERIFY_RTOL", "tight", 1);
    assert_int_equal(gf_vtol_from_env(&t), -1);
    assert_non_null(strstr(gf_last_error(), "GPUFUSE_VERIFY_RTOL=tight"));
    setenv("GPUFUSE_VERIFY_RTOL", "2", 1);
    assert_int_equal(gf_vtol_from_env(&t), -1);
    unsetenv("GPUFUSE_VERIFY_RTOL");
    setenv("GPUFUSE_VERIFY_ULP", "-3", 1);
    assert_int_equal(gf_vtol_from_env(&t), -1);
    unsetenv("GPUFUSE_VERIFY_ULP");
    assert_int_equal(gf_vtol_from_env(&t), 0);
    assert_true(t.rtol[0][0] == 1e-4 && t.rtol[0][1] == 1e-6 && t.rtol[1][0] == 1e-3 && t.ulp == 4);
}

static void test_indices(void **state)
{
    (void)state;
    char buf[128];
    const long long d2[] = {12}, d3[] = {4, 5}, bad[] = {0};
    gf_vindex(buf, sizeof buf, 41, 1, d2);
    assert_string_equal(buf, "[3][5]");
    gf_vindex(buf, sizeof buf, 1 * 20 + 2 * 5 + 3, 2, d3);
    assert_string_equal(buf, "[1][2][3]");
    gf_vindex(buf, sizeof buf, 7, 0, NULL);
    assert_string_equal(buf, "[7]");
    gf_vindex(buf, sizeof buf, 7, 1, bad); /* an empty dimension: the flat index */
    assert_string_equal(buf, "[7]");
}

static void test_array_report(void **state)
{
    (void)state;
    /* rows 1..3 of a [4][12] array (the touched box starts at element 12) */
    float got[36], ref[36];
    for (int i = 0; i < 36; i++)
        got[i] = ref[i] = 7.5f;
    got[2 * 12 + 5] = 8.0f;  /* y[3][5] */
    got[2 * 12 + 7] = 9.0f;  /* y[3][7] */
    got[5] = 7.5f + 1e-5f;   /* within the tolerance */
    const gf_vfield f[] = {{"", 0, sizeof(float), GF_VK_FLOAT}};
    const long long dims[] = {12};
    gf_vdiff d;
    assert_int_equal(gf_vcompare((char *)got, (char *)ref, sizeof got, sizeof(float), f, 1, &tol, GF_VTOL_ELEMENT, &d), 2);
    assert_int_equal(d.elem, 29);
    gf_varray a = {"y", sizeof(float), sizeof got, f, 1, GF_VTOL_ELEMENT, 1, dims, 12};
    char msg[512];
    gf_vdescribe(msg, sizeof msg, &a, (char *)got, (char *)ref, &d, &tol);
    assert_string_equal(msg, "'y' differs from the C body in 2 of 36 elements; first at y[3][5]: 8 (launcher), "
                             "7.5 (C body); tolerance 0.0001 relative or 4 ulp");
}

struct pt {
    float x, y;
    int tag;
};

static void test_struct_report(void **state)
{
    (void)state;
    struct pt got[10], ref[10];
    memset(got, 0, sizeof got);
    memset(ref, 0, sizeof ref);
    for (int i = 0; i < 10; i++)
        got[i] = ref[i] = (struct pt){(float)i, 0.5f, i};
    got[6].tag = 62;
    got[8].x = 8.5f;
    const gf_vfield f[] = {{".x", offsetof(struct pt, x), sizeof(float), GF_VK_FLOAT},
                           {".y", offsetof(struct pt, y), sizeof(float), GF_VK_FLOAT},
                           {".tag", offsetof(struct pt, tag), sizeof(int), GF_VK_INT}};
    gf_vdiff d;
    assert_int_equal(gf_vcompare((char *)got, (char *)ref, sizeof got, sizeof(struct pt), f, 3, &tol, GF_VTOL_ELEMENT,
                                 &d), 2);
    gf_varray a = {"p", sizeof(struct pt), sizeof got, f, 3, GF_VTOL_ELEMENT, 0, NULL, 0};
    char msg[512];
    gf_vdescribe(msg, sizeof msg, &a, (char *)got, (char *)ref, &d, &tol);
    assert_string_equal(msg, "'p' differs from the C body in 2 of 10 elements; first at p[6].tag: 62 (launcher), "
                             "6 (C body); compared exactly");
    /* without a field list: whole elements as bytes */
    assert_int_equal(gf_vcompare((char *)got, (char *)ref, sizeof got, sizeof(struct pt), NULL, 0, &tol,
                                 GF_VTOL_ELEMENT, &d), 2);
    a.fields = NULL;
    a.nfields = 0;
    gf_vdescribe(msg, sizeof msg, &a, (char *)got, (char *)ref, &d, &tol);
    assert_non_null(strstr(msg, "first at p[6]: 0x"));
}

static void test_return_report(void **state)
{
    (void)state;
    long long g = 7701, r = 7700;
    char msg[256];
    assert_false(gf_vclose(GF_VK_INT, 8, &g, &r, &tol, GF_VTOL_REDUCED));
    gf_vdescribe_return(msg, sizeof msg, GF_VK_INT, 8, &g, &r, &tol, GF_VTOL_REDUCED);
    assert_string_equal(msg, "the return value differs from the C body: 7701 (launcher), 7700 (C body); compared exactly");
    double x = 1.5, y = 1.25;
    gf_vdescribe_return(msg, sizeof msg, GF_VK_FLOAT, 8, &x, &y, &tol, GF_VTOL_REDUCED);
    assert_string_equal(msg, "the return value differs from the C body: 1.5 (launcher), 1.25 (C body); tolerance "
                             "1e-06 relative or 4 ulp");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_float_tolerance, setup),
        cmocka_unit_test_setup(test_nan_and_inf, setup),
        cmocka_unit_test_setup(test_ulps_alone, setup),
        cmocka_unit_test_setup(test_integers_exact, setup),
        cmocka_unit_test_setup(test_tolerance_from_env, setup),
        cmocka_unit_test_setup(test_indices, setup),
        cmocka_unit_test_setup(test_array_report, setup),
        cmocka_unit_test_setup(test_struct_report, setup),
        cmocka_unit_test_setup(test_return_report, setup),
    };
    return cmocka_run_group_tests_name("verify", tests, NULL, NULL);
}
