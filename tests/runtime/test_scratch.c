/* test_scratch.c - a launcher call's scratch (scratch.c) on the mock pool
 * backend: pieces carved from one block at 256-byte alignment, exactly sized
 * blocks when the pool is bypassed, all-or-nothing under the pool limit and
 * when the backend runs out, size overflow, more pieces than fit inline. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "mock_backend.h"

#define MiB ((size_t)1 << 20)
#define S1 ((void *)0x100)

typedef struct fixture {
    mock m;
    gf_pool *p;
    gf_scratch s;
} fixture;

static int setup_cfg(void **state, size_t capacity, size_t limit, int bypass)
{
    fixture *f = calloc(1, sizeof *f);
    f->p = mock_pool(&f->m, capacity, limit, bypass);
    gf_scratch_reset(&f->s);
    *state = f;
    return f->p ? 0 : -1;
}

static int setup(void **state) { return setup_cfg(state, 0, 0, 0); }
static int setup_limit(void **state) { return setup_cfg(state, 0, 4 * MiB, 0); }
static int setup_bypass(void **state) { return setup_cfg(state, 0, 0, 1); }
/* bypassed, and the backend holds 1 MiB */
static int setup_bypass_small(void **state) { return setup_cfg(state, MiB, 0, 1); }

static int teardown(void **state)
{
    fixture *f = *state;
    gf_scratch_fini(&f->s);
    gf_pool_destroy(f->p);
    assert_int_equal(f->m.in_use, 0); /* every segment went back */
    free(f);
    return 0;
}

static gf_pool_stats stats(fixture *f)
{
    gf_pool_stats s;
    gf_pool_stats_read(f->p, &s);
    return s;
}

static void add(fixture *f, size_t bytes) { assert_int_equal(gf_scratch_add(&f->s, bytes), GF_SUCCESS); }

static void assert_none_allocated(fixture *f)
{
    for (int k = 0; k < f->s.n; k++)
        assert_null(gf_scratch_ptr(&f->s, k));
    assert_int_equal(stats(f).current_bytes, 0);
}

/* A reduction's pieces: result, partials, ticket - and a 0-byte temporary. */
static void test_carved_from_one_block(void **state)
{
    fixture *f = *state;
    add(f, sizeof(double));
    add(f, sizeof(double) * 8192);
    add(f, sizeof(unsigned));
    add(f, 0);
    size_t total;
    assert_int_equal(gf_scratch_total(&f->s, &total), GF_SUCCESS);
    assert_int_equal(total, 256 + 65536 + 256 + 256);
    assert_int_equal(gf_scratch_alloc(&f->s, f->p, S1), GF_SUCCESS);
    assert_int_equal(stats(f).allocs, 1); /* one pool allocation for all four */
    char *base = gf_scratch_ptr(&f->s, 0);
    assert_non_null(base);
    assert_ptr_equal(gf_scratch_ptr(&f->s, 1), base + 256);
    assert_ptr_equal(gf_scratch_ptr(&f->s, 2), base + 256 + 65536);
    assert_ptr_equal(gf_scratch_ptr(&f->s, 3), base + 256 + 65536 + 256);
    for (int k = 0; k < 4; k++)
        assert_int_equal((uintptr_t)gf_scratch_ptr(&f->s, k) % GF_SCRATCH_ALIGN, 0);
    assert_true(gf_pool_block_size(f->p, base) >= total);
    /* the pieces are really the pool's memory (the mock's is host memory) */
    memset(base, 0xab, total);
    assert_null(gf_scratch_ptr(&f->s, 4));
    assert_null(gf_scratch_ptr(&f->s, -1));
    gf_scratch_release(&f->s, f->p);
    assert_none_allocated(f);
    assert_int_equal(stats(f).frees, 1);
}

static void test_no_pieces(void **state)
{
    fixture *f = *state;
    assert_int_equal(gf_scratch_alloc(&f->s, f->p, S1), GF_SUCCESS);
    assert_int_equal(stats(f).allocs, 0);
    gf_scratch_release(&f->s, f->p);
    assert_int_equal(stats(f).frees, 0);
}

/* Over GPUFUSE_POOL_LIMIT: the status of the pool, nothing allocated, and a
 * call that fits afterwards still works. */
static void test_limit_all_or_nothing(void **state)
{
    fixture *f = *state;
    add(f, 1024);
    add(f, 8 * MiB);
    add(f, 4);
    assert_int_equal(gf_scratch_alloc(&f->s, f->p, S1), GF_ERROR_LIMIT);
    assert_none_allocated(f);
    assert_non_null(strstr(gf_last_error(), "bytes of scratch (3 pieces)"));
    gf_scratch_release(&f->s, f->p); /* harmless after a failure */
    assert_int_equal(stats(f).frees, 0);
    gf_scratch_reset(&f->s);
    add(f, 1024);
    add(f, 2 * MiB);
    assert_int_equal(gf_scratch_alloc(&f->s, f->p, S1), GF_SUCCESS);
    assert_non_null(gf_scratch_ptr(&f->s, 1));
    gf_scratch_release(&f->s, f->p);
}

/* Bypassed (compute-sanitizer runs): one exactly sized block per piece, so
 * that an overrun of one piece is not hidden inside the next. */
static void test_bypass_exact_blocks(void **state)
{
    fixture *f = *state;
    add(f, 8);
    add(f, 100000);
    add(f, 0);
    assert_int_equal(gf_scratch_alloc(&f->s, f->p, S1), GF_SUCCESS);
    assert_int_equal(f->m.allocs, 3);
    assert_int_equal(gf_pool_block_size(f->p, gf_scratch_ptr(&f->s, 0)), 8);
    assert_int_equal(gf_pool_block_size(f->p, gf_scratch_ptr(&f->s, 1)), 100000);
    assert_int_equal(gf_pool_block_size(f->p, gf_scratch_ptr(&f->s, 2)), 1);
    gf_scratch_release(&f->s, f->p);
    assert_int_equal(f->m.frees, 3);
    assert_int_equal(f->m.in_use, 0);
}

/* Bypassed, the third piece does not fit: the first two go back. */
static void test_bypass_failure_releases_earlier_pieces(void **state)
{
    fixture *f = *state;
    add(f, 256 * 1024);
    add(f, 256 * 1024);
    add(f, 768 * 1024);
    add(f, 16);
    assert_int_equal(gf_scratch_alloc(&f->s, f->p, S1), GF_ERROR_OUT_OF_MEMORY);
    assert_none_allocated(f);
    assert_int_equal(f->m.in_use, 0);
    assert_int_equal(f->m.allocs, 2);
}

/* Sizes from run-time extents can be absurd (a negative count cast to
 * size_t): refused before the pool is asked, nothing allocated. */
static void test_overflow(void **state)
{
    fixture *f = *state;
    size_t total;
    add(f, SIZE_MAX);
    assert_int_equal(gf_scratch_total(&f->s, &total), GF_ERROR_OUT_OF_MEMORY);
    assert_int_equal(gf_scratch_alloc(&f->s, f->p, S1), GF_ERROR_OUT_OF_MEMORY);
    assert_none_allocated(f);
    gf_scratch_reset(&f->s);
    add(f, SIZE_MAX / 4);
    add(f, SIZE_MAX / 4);
    add(f, SIZE_MAX / 4);
    assert_int_equal(gf_scratch_total(&f->s, &total), GF_ERROR_OUT_OF_MEMORY);
    assert_int_equal(gf_scratch_alloc(&f->s, f->p, S1), GF_ERROR_OUT_OF_MEMORY);
    assert_int_equal(f->m.allocs, 0);
}

/* More pieces than the inline arrays hold: heap arrays, kept across resets. */
static void test_many_pieces(void **state)
{
    fixture *f = *state;
    enum { N = 3 * GF_SCRATCH_INLINE + 5 };
    for (int round = 0; round < 2; round++) {
        gf_scratch_reset(&f->s);
        for (int k = 0; k < N; k++)
            add(f, (size_t)k * 100);
        assert_int_equal(f->s.n, N);
        assert_int_equal(gf_scratch_alloc(&f->s, f->p, S1), GF_SUCCESS);
        for (int k = 1; k < N; k++) {
            char *a = gf_scratch_ptr(&f->s, k - 1), *b = gf_scratch_ptr(&f->s, k);
            size_t want = (size_t)(k - 1) * 100;
            assert_true(b >= a + (want ? want : 1)); /* pieces do not overlap */
        }
        gf_scratch_release(&f->s, f->p);
        assert_int_equal(stats(f).current_bytes, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_carved_from_one_block, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_pieces, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limit_all_or_nothing, setup_limit, teardown),
        cmocka_unit_test_setup_teardown(test_bypass_exact_blocks, setup_bypass, teardown),
        cmocka_unit_test_setup_teardown(test_bypass_failure_releases_earlier_pieces, setup_bypass_small,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_overflow, setup, teardown),
        cmocka_unit_test_setup_teardown(test_many_pieces, setup, teardown),
    };
    return cmocka_run_group_tests_name("scratch", tests, NULL, NULL);
}
