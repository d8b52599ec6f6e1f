/* test_region.c - data-region bookkeeping (region.c) with host-memory ops:
 * enter/exit reference counts, sub-ranges, partial overlaps, copy-in and
 * copy-out, updates, lookups. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rt.h"

typedef struct ops_log {
    int allocs, frees, to_dev, to_host;
    size_t last_bytes;
} ops_log;

static gf_status h_alloc(void *ctx, void **dev, size_t bytes)
{
    ((ops_log *)ctx)->allocs++;
    *dev = calloc(1, bytes);
    return *dev ? GF_SUCCESS : GF_ERROR_OUT_OF_MEMORY;
}

static void h_free(void *ctx, void *dev)
{
    ((ops_log *)ctx)->frees++;
    free(dev);
}

static gf_status h_to_dev(void *ctx, void *dev, const void *host, size_t n)
{
    ((ops_log *)ctx)->to_dev++;
    ((ops_log *)ctx)->last_bytes = n;
    memcpy(dev, host, n);
    return GF_SUCCESS;
}

static gf_status h_to_host(void *ctx, void *host, const void *dev, size_t n)
{
    ((ops_log *)ctx)->to_host++;
    ((ops_log *)ctx)->last_bytes = n;
    memcpy(host, dev, n);
    return GF_SUCCESS;
}

typedef struct fx {
    ops_log log;
    gf_region_ops ops;
    gf_region_table t;
    char buf[4096];
} fx;

static int setup(void **state)
{
    fx *f = calloc(1, sizeof *f);
    f->ops = (gf_region_ops){&f->log, h_alloc, h_free, h_to_dev, h_to_host};
    for (int i = 0; i < 4096; i++)
        f->buf[i] = (char)i;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fx *f = *state;
    gf_regions_clear(&f->t, &f->ops);
    assert_int_equal(f->log.allocs, f->log.frees);
    free(f);
    return 0;
}

static void test_enter_exit_copies(void **state)
{
    fx *f = *state;
    assert_int_equal(gf_regions_enter(&f->t, &f->ops, f->buf, 1024, GF_COPYIN | GF_COPYOUT), GF_SUCCESS);
    assert_int_equal(f->log.to_dev, 1);
    gf_region *r = gf_regions_find(&f->t, f->buf + 10, 20, NULL);
    assert_non_null(r);
    assert_memory_equal(r->dev, f->buf, 1024);
    r->dev[5] = 99; /* "the kernel" writes the mirror */
    assert_int_equal(gf_regions_exit(&f->t, &f->ops, f->buf), GF_SUCCESS);
    assert_int_equal(f->log.to_host, 1);
    assert_int_equal(f->buf[5], 99);
    assert_int_equal(f->t.n, 0);
}

static void test_create_does_not_copy(void **state)
{
    fx *f = *state;
    assert_int_equal(gf_regions_enter(&f->t, &f->ops, f->buf, 1024, GF_CREATE), GF_SUCCESS);
    assert_int_equal(f->log.to_dev, 0);
    assert_int_equal(gf_regions_exit(&f->t, &f->ops, f->buf), GF_SUCCESS);
    assert_int_equal(f->log.to_host, 0);
    assert_int_equal(f->log.frees, 1);
}

static void test_refcount_and_subrange(void **state)
{
    fx *f = *state;
    assert_int_equal(gf_regions_enter(&f->t, &f->ops, f->buf, 2048, GF_COPYIN), GF_SUCCESS);
    /* the same range and a sub-range are present: counted, not copied */
    assert_int_equal(gf_regions_enter(&f->t, &f->ops, f->buf, 2048, GF_COPYIN), GF_SUCCESS);
    assert_int_equal(gf_regions_enter(&f->t, &f->ops, f->buf + 100, 200, GF_COPYOUT), GF_SUCCESS);
    assert_int_equal(f->log.allocs, 1);
    assert_int_equal(f->log.to_dev, 1);
    assert_int_equal(f->t.v[0].refs, 3);
    assert_int_equal(gf_regions_exit(&f->t, &f->ops, f->buf + 100), GF_SUCCESS);
    assert_int_equal(gf_regions_exit(&f->t, &f->ops, f->buf), GF_SUCCESS);
    assert_int_equal(f->log.frees, 0);
    assert_int_equal(f->log.to_host, 0);
    /* the last exit copies out (a COPYOUT entry was made) and frees */
    assert_int_equal(gf_regions_exit(&f->t, &f->ops, f->buf), GF_SUCCESS);
    assert_int_equal(f->log.to_host, 1);
    assert_int_equal(f->log.last_bytes, 2048);
    assert_int_equal(f->log.frees, 1);
    assert_int_equal(gf_regions_exit(&f->t, &f->ops, f->buf), GF_ERROR_NOT_MAPPED);
}

static void test_partial_overlap_is_an_error(void **state)
{
    fx *f = *state;
    assert_int_equal(gf_regions_enter(&f->t, &f->ops, f->buf + 1000, 1000, GF_COPYIN), GF_SUCCESS);
    /* straddles the start, straddles the end, covers it entirely */
    assert_int_equal(gf_regions_enter(&f->t, &f->ops, f->buf + 500, 1000, 0), GF_ERROR_OVERLAP);
    assert_int_equal(gf_regions_enter(&f->t, &f->ops, f->buf + 1500, 1000, 0), GF_ERROR_OVERLAP);
    assert_int_equal(gf_regions_enter(&f->t, &f->ops, f->buf, 3000, 0), GF_ERROR_OVERLAP);
    assert_non_null(strstr(gf_last_error(), "partly overlaps"));
    /* touching but disjoint neighbours are fine */
    assert_int_equal(gf_regions_enter(&f->t, &f->ops, f->buf, 1000, 0), GF_SUCCESS);
    assert_int_equal(gf_regions_enter(&f->t, &f->ops, f->buf + 2000, 1000, 0), GF_SUCCESS);
    assert_int_equal(f->t.n, 3);
    /* sorted by address */
    assert_ptr_equal(f->t.v[0].host, f->buf);
    assert_ptr_equal(f->t.v[1].host, f->buf + 1000);
    assert_ptr_equal(f->t.v[2].host, f->buf + 2000);
    int partial;
    assert_null(gf_regions_find(&f->t, f->buf + 900, 200, &partial));
    assert_int_equal(partial, 1);
    assert_null(gf_regions_find(&f->t, f->buf + 3000, 10, &partial));
    assert_int_equal(partial, 0);
    assert_ptr_equal(gf_regions_find(&f->t, f->buf + 1999, 1, &partial), &f->t.v[1]);
}

static void test_update(void **state)
{
    fx *f = *state;
    assert_int_equal(gf_regions_enter(&f->t, &f->ops, f->buf, 1024, GF_COPYIN), GF_SUCCESS);
    f->buf[300] = 42;
    assert_int_equal(gf_regions_update(&f->t, &f->ops, f->buf + 256, 64, 1), GF_SUCCESS);
    gf_region *r = gf_regions_find(&f->t, f->buf, 1, NULL);
    assert_int_equal(r->dev[300], 42);
    assert_int_equal(f->log.last_bytes, 64);
    r->dev[10] = 7;
    assert_int_equal(gf_regions_update(&f->t, &f->ops, f->buf, 16, 0), GF_SUCCESS);
    assert_int_equal(f->buf[10], 7);
    assert_int_equal(gf_regions_update(&f->t, &f->ops, f->buf + 1000, 100, 0), GF_ERROR_NOT_MAPPED);
    assert_int_equal(gf_regions_update(&f->t, &f->ops, f->buf, 0, 0), GF_ERROR_INVALID_VALUE);
    assert_int_equal(gf_regions_exit(&f->t, &f->ops, f->buf), GF_SUCCESS);
}

static void test_invalid(void **state)
{
    fx *f = *state;
    assert_int_equal(gf_regions_enter(&f->t, &f->ops, NULL, 10, 0), GF_ERROR_INVALID_VALUE);
    assert_int_equal(gf_regions_enter(&f->t, &f->ops, f->buf, 0, 0), GF_ERROR_INVALID_VALUE);
    assert_int_equal(gf_regions_enter(&f->t, &f->ops, f->buf, 10, 64), GF_ERROR_INVALID_VALUE);
    assert_int_equal(gf_regions_exit(&f->t, &f->ops, f->buf), GF_ERROR_NOT_MAPPED);
}

static void test_many_regions(void **state)
{
    fx *f = *state;
    /* entered out of order; the table stays sorted and searchable */
    for (int i = 0; i < 64; i++) {
        int k = (i * 37) % 64;
        assert_int_equal(gf_regions_enter(&f->t, &f->ops, f->buf + k * 64, 64, 0), GF_SUCCESS);
    }
    for (int k = 0; k < 64; k++) {
        gf_region *r = gf_regions_find(&f->t, f->buf + k * 64 + 63, 1, NULL);
        assert_non_null(r);
        assert_ptr_equal(r->host, f->buf + k * 64);
    }
    for (int k = 0; k < 64; k += 2)
        assert_int_equal(gf_regions_exit(&f->t, &f->ops, f->buf + k * 64), GF_SUCCESS);
    assert_int_equal(f->t.n, 32);
    assert_null(gf_regions_find(&f->t, f->buf, 1, NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_enter_exit_copies, setup, teardown),
        cmocka_unit_test_setup_teardown(test_create_does_not_copy, setup, teardown),
        cmocka_unit_test_setup_teardown(test_refcount_and_subrange, setup, teardown),
        cmocka_unit_test_setup_teardown(test_partial_overlap_is_an_error, setup, teardown),
        cmocka_unit_test_setup_teardown(test_update, setup, teardown),
        cmocka_unit_test_setup_teardown(test_invalid, setup, teardown),
        cmocka_unit_test_setup_teardown(test_many_regions, setup, teardown),
    };
    return cmocka_run_group_tests_name("region", tests, NULL, NULL);
}
