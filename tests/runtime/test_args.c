/* test_args.c - launcher argument analysis (args.c): overlap hazards as
 * launch.h defines them, and grouping of staged ranges so overlapping
 * arguments share one device buffer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "rt.h"

enum { R = 1, W = 2, RW = 3 };

static gf_argdesc arg(const void *p, ptrdiff_t lo, ptrdiff_t hi, int mode, int alias)
{
    return (gf_argdesc){p, lo, hi, mode, alias};
}

static void test_disjoint_is_fine(void **state)
{
    (void)state;
    float x[100], y[100], z[100];
    gf_argdesc a[3] = {arg(x, 0, 400, R, 0), arg(y, 0, 400, R, 0), arg(z, 0, 400, W, 0)};
    assert_false(gf_args_hazard(a, 3));
}

static void test_read_only_overlap_is_fine(void **state)
{
    (void)state;
    float x[100];
    gf_argdesc a[2] = {arg(x, 0, 400, R, 0), arg(x + 10, 0, 200, R, 0)};
    assert_false(gf_args_hazard(a, 2));
}

static void test_written_overlap_is_a_hazard(void **state)
{
    (void)state;
    float x[100];
    gf_argdesc a[2] = {arg(x, 0, 400, R, 0), arg(x + 1, 0, 396, W, 0)};
    assert_true(gf_args_hazard(a, 2));
    /* same pointer but no alias class: still a hazard */
    gf_argdesc b[2] = {arg(x, 0, 400, R, 0), arg(x, 0, 400, W, 0)};
    assert_true(gf_args_hazard(b, 2));
}

static void test_alias_class_allows_identical_pointers(void **state)
{
    (void)state;
    float x[100];
    gf_argdesc a[2] = {arg(x, 0, 400, R, 1), arg(x, 0, 400, W, 1)};
    assert_false(gf_args_hazard(a, 2));
    /* same class, shifted pointer: subscripts no longer coincide */
    gf_argdesc b[2] = {arg(x, 0, 396, R, 1), arg(x + 1, 0, 396, W, 1)};
    assert_true(gf_args_hazard(b, 2));
    /* different classes */
    gf_argdesc c[2] = {arg(x, 0, 400, R, 1), arg(x, 0, 400, W, 2)};
    assert_true(gf_args_hazard(c, 2));
}

static void test_untouched_and_adjacent(void **state)
{
    (void)state;
    float x[100];
    /* lo == hi: untouched, never overlaps */
    gf_argdesc a[2] = {arg(x, 0, 0, W, 0), arg(x, 0, 400, W, 0)};
    assert_false(gf_args_hazard(a, 2));
    /* [0,200) and [200,400): adjacent, disjoint */
    gf_argdesc b[2] = {arg(x, 0, 200, W, 0), arg(x, 200, 400, W, 0)};
    assert_false(gf_args_hazard(b, 2));
    /* negative lo (p points into the middle) */
    gf_argdesc c[2] = {arg(x + 50, -200, 0, W, 0), arg(x, 0, 4, R, 0)};
    assert_true(gf_args_hazard(c, 2));
}

static void test_grouping_shares_buffers(void **state)
{
    (void)state;
    char buf[1000], other[100];
    gf_argdesc a[4] = {
        arg(buf, 0, 400, R, 1),       /* [0,400) */
        arg(other, 0, 100, W, 0),     /* separate */
        arg(buf, 0, 400, W, 1),       /* same as 0: one buffer */
        arg(buf + 300, 0, 300, R, 0), /* [300,600): overlaps, read-only */
    };
    int idx[4] = {0, 1, 2, 3}, group[4];
    gf_span spans[4];
    int n = gf_args_group(a, idx, 4, group, spans);
    int expect = (uintptr_t)other < (uintptr_t)buf ? 0 : 1;
    assert_int_equal(n, 2);
    assert_int_equal(group[0], group[2]);
    assert_int_equal(group[0], group[3]);
    assert_int_not_equal(group[0], group[1]);
    gf_span *s = &spans[group[0]];
    assert_ptr_equal(s->lo, buf);
    assert_ptr_equal(s->hi, buf + 600);
    assert_true(s->read);
    assert_ptr_equal(s->wlo, buf); /* only [0,400) is written back */
    assert_ptr_equal(s->whi, buf + 400);
    s = &spans[group[1]];
    assert_int_equal(group[1], expect);
    assert_false(s->read);
    assert_ptr_equal(s->wlo, other);
    assert_ptr_equal(s->whi, other + 100);
    /* the copies: [0,600) in, [0,400) and other's 100 back; buf's three
     * arguments (1100 bytes declared) are one copy each way */
    assert_int_equal(gf_args_copy_bytes(spans, n), 600 + 400 + 100);
}

static void test_grouping_chain(void **state)
{
    (void)state;
    char buf[1000];
    /* [0,100) [90,200) [190,300) chain into one; [500,600) apart */
    gf_argdesc a[4] = {arg(buf + 190, 0, 110, R, 0), arg(buf, 0, 100, R, 0),
                       arg(buf + 500, 0, 100, R, 0), arg(buf + 90, 0, 110, R, 0)};
    int idx[4] = {0, 1, 2, 3}, group[4];
    gf_span spans[4];
    assert_int_equal(gf_args_group(a, idx, 4, group, spans), 2);
    assert_int_equal(group[0], group[1]);
    assert_int_equal(group[0], group[3]);
    assert_ptr_equal(spans[group[0]].lo, buf);
    assert_ptr_equal(spans[group[0]].hi, buf + 300);
    assert_ptr_equal(spans[group[2]].lo, buf + 500);
    assert_ptr_equal(spans[group[0]].wlo, spans[group[0]].whi); /* nothing written */
    assert_int_equal(gf_args_copy_bytes(spans, 2), 300 + 100); /* read only: in, nothing back */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_disjoint_is_fine),
        cmocka_unit_test(test_read_only_overlap_is_fine),
        cmocka_unit_test(test_written_overlap_is_a_hazard),
        cmocka_unit_test(test_alias_class_allows_identical_pointers),
        cmocka_unit_test(test_untouched_and_adjacent),
        cmocka_unit_test(test_grouping_shares_buffers),
        cmocka_unit_test(test_grouping_chain),
    };
    return cmocka_run_group_tests_name("args", tests, NULL, NULL);
}
