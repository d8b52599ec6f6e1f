/* test_pool.c - the caching allocator's logic on a mock backend: rounding,
 * small/large pools, best fit, split and merge, stream ownership,
 * cross-stream event gating, OOM retry, limit, stats, trim, bypass,
 * threads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "mock_backend.h"

#define MiB ((size_t)1 << 20)
#define S1 ((void *)0x100)
#define S2 ((void *)0x200)

typedef struct fixture {
    mock m;
    gf_pool *p;
} fixture;

static int setup_cfg(void **state, size_t capacity, size_t limit, int bypass)
{
    fixture *f = calloc(1, sizeof *f);
    f->p = mock_pool(&f->m, capacity, limit, bypass);
    *state = f;
    return f->p ? 0 : -1;
}

static int setup(void **state) { return setup_cfg(state, 0, 0, 0); }

static int teardown(void **state)
{
    fixture *f = *state;
    gf_pool_destroy(f->p);
    assert_int_equal(f->m.in_use, 0); /* every segment went back */
    assert_int_equal(f->m.live_events, 0);
    free(f);
    return 0;
}

static gf_pool_stats stats(fixture *f)
{
    gf_pool_stats s;
    gf_pool_stats_read(f->p, &s);
    return s;
}

static void *alloc_ok(fixture *f, size_t n, void *stream)
{
    void *ptr = NULL;
    assert_int_equal(gf_pool_alloc(f->p, &ptr, n, stream), GF_SUCCESS);
    assert_non_null(ptr);
    return ptr;
}

static void test_rounding(void **state)
{
    fixture *f = *state;
    void *a = alloc_ok(f, 1, S1);
    assert_int_equal(gf_pool_block_size(f->p, a), 512);
    void *b = alloc_ok(f, 513, S1);
    assert_int_equal(gf_pool_block_size(f->p, b), 1024);
    void *c = alloc_ok(f, 512, S1);
    assert_int_equal(gf_pool_block_size(f->p, c), 512);
    assert_int_equal(stats(f).current_bytes, 2048);
    /* consecutive small blocks are carved from one segment, back to back */
    assert_ptr_equal((char *)a + 512, b);
    assert_ptr_equal((char *)b + 1024, c);
    gf_pool_free(f->p, a);
    gf_pool_free(f->p, b);
    gf_pool_free(f->p, c);
}

static void test_small_and_large_segments(void **state)
{
    fixture *f = *state;
    void *a = alloc_ok(f, MiB, S1); /* small: from a 2 MiB segment */
    assert_int_equal(stats(f).reserved_bytes, 2 * MiB);
    void *b = alloc_ok(f, MiB + 1, S1); /* large: 20 MiB segment for < 10 MiB */
    assert_int_equal(stats(f).reserved_bytes, 22 * MiB);
    assert_int_equal(gf_pool_block_size(f->p, b), MiB + 512);
    void *c = alloc_ok(f, 30 * MiB + 5, S1); /* >= 10 MiB: rounded to 2 MiB */
    assert_int_equal(stats(f).reserved_bytes, 22 * MiB + 32 * MiB);
    assert_int_equal(stats(f).backend_allocs, 3);
    /* a second 4 MiB request fits in the 20 MiB segment's remainder */
    void *d = alloc_ok(f, 4 * MiB, S1);
    assert_int_equal(stats(f).backend_allocs, 3);
    gf_pool_free(f->p, a);
    gf_pool_free(f->p, b);
    gf_pool_free(f->p, c);
    gf_pool_free(f->p, d);
    assert_int_equal(stats(f).current_bytes, 0);
    assert_int_equal(stats(f).cached_bytes, 54 * MiB);
}

static void test_best_fit(void **state)
{
    fixture *f = *state;
    /* holes of 16 KiB and 8 KiB separated by live spacers */
    void *h16 = alloc_ok(f, 16384, S1);
    void *s1 = alloc_ok(f, 512, S1);
    void *h8 = alloc_ok(f, 8192, S1);
    void *s2 = alloc_ok(f, 512, S1);
    gf_pool_free(f->p, h16);
    gf_pool_free(f->p, h8);
    /* 8 KiB fits both holes and the segment tail: best fit takes the 8 KiB hole */
    void *x = alloc_ok(f, 8000, S1);
    assert_ptr_equal(x, h8);
    /* 12 KiB: only the 16 KiB hole is close; it is split */
    void *y = alloc_ok(f, 12288, S1);
    assert_ptr_equal(y, h16);
    void *z = alloc_ok(f, 4096, S1); /* the 4 KiB remainder of the split */
    assert_ptr_equal(z, (char *)h16 + 12288);
    gf_pool_free(f->p, x);
    gf_pool_free(f->p, y);
    gf_pool_free(f->p, z);
    gf_pool_free(f->p, s1);
    gf_pool_free(f->p, s2);
}

static void test_split_and_merge(void **state)
{
    fixture *f = *state;
    void *a = alloc_ok(f, 1024, S1);
    void *b = alloc_ok(f, 1024, S1);
    void *c = alloc_ok(f, 1024, S1);
    void *d = alloc_ok(f, 1024, S1); /* keeps c's right neighbour busy */
    gf_pool_free(f->p, b);
    gf_pool_free(f->p, a); /* merges with b */
    gf_pool_free(f->p, c); /* merges with a+b */
    void *e = alloc_ok(f, 3072, S1);
    assert_ptr_equal(e, a); /* the three coalesced into one block */
    gf_pool_free(f->p, e);
    gf_pool_free(f->p, d);
    /* the whole segment is one free block again: trim returns it */
    assert_int_equal(stats(f).reserved_bytes, 2 * MiB);
    gf_pool_trim_cached(f->p);
    assert_int_equal(stats(f).reserved_bytes, 0);
    assert_int_equal(stats(f).backend_frees, 1);
    /* large pool: remainders above 1 MiB are split off, smaller ones not */
    void *l = alloc_ok(f, 19 * MiB, S1); /* 20 MiB segment, remainder 1 MiB: kept whole */
    assert_int_equal(gf_pool_block_size(f->p, l), 20 * MiB);
    gf_pool_free(f->p, l);
}

static void test_stream_ownership(void **state)
{
    fixture *f = *state;
    void *a = alloc_ok(f, 4096, S1);
    gf_pool_free(f->p, a);
    void *b = alloc_ok(f, 4096, S2);
    assert_ptr_not_equal(a, b); /* S1's cache is not S2's */
    assert_int_equal(stats(f).backend_allocs, 2);
    void *c = alloc_ok(f, 4096, S1);
    assert_ptr_equal(a, c); /* same stream: reused at once, no event */
    assert_int_equal(f->m.live_events, 0);
    gf_pool_free(f->p, b);
    gf_pool_free(f->p, c);
}

static void test_cross_stream_free_waits_for_event(void **state)
{
    fixture *f = *state;
    void *a = alloc_ok(f, 4096, S1);
    assert_int_equal(gf_pool_record_stream(f->p, a, S2), GF_SUCCESS);
    assert_int_equal(gf_pool_record_stream(f->p, a, S2), GF_SUCCESS); /* once per stream */
    gf_pool_free(f->p, a);
    assert_int_equal(f->m.live_events, 1);
    void *b = alloc_ok(f, 4096, S1);
    assert_ptr_not_equal(a, b); /* S2 may still be using a */
    gf_pool_free(f->p, b);
    mock_complete(&f->m, S2);
    void *c = alloc_ok(f, 4096, S1);
    /* now a is free again and merged with its neighbours; best fit at the
     * lowest address of equal size gives a back */
    assert_ptr_equal(c, a);
    assert_int_equal(f->m.live_events, 0);
    gf_pool_free(f->p, c);
}

static void test_pool_use_records_foreign_stream(void **state)
{
    fixture *f = *state;
    char *a = alloc_ok(f, 8192, S1);
    assert_true(gf_pool_use(f->p, a + 100, S1));
    assert_true(gf_pool_use(f->p, a + 4096, S2)); /* interior pointer, other stream */
    assert_false(gf_pool_use(f->p, (char *)&f, S1));
    gf_pool_free(f->p, a);
    assert_int_equal(f->m.live_events, 1);
    mock_complete(&f->m, NULL);
    gf_pool_trim_cached(f->p);
    assert_int_equal(stats(f).reserved_bytes, 0);
}

static void test_oom_frees_cache_and_retries(void **state)
{
    fixture *f = *state;
    f->m.capacity = 5 * MiB;
    void *a = alloc_ok(f, 4096, S1); /* 2 MiB small segment */
    gf_pool_free(f->p, a);           /* cached */
    /* 3 MiB: a 20 MiB segment fails, an exact 4 MiB one too while the small
     * segment is cached; the pool frees its cache and succeeds */
    void *b = alloc_ok(f, 3 * MiB, S1);
    gf_pool_stats s = stats(f);
    assert_int_equal(s.oom_retries, 1);
    assert_int_equal(s.backend_frees, 1);
    assert_int_equal(s.reserved_bytes, 4 * MiB);
    /* nothing left to free: a real out-of-memory */
    void *c = NULL;
    assert_int_equal(gf_pool_alloc(f->p, &c, 4 * MiB, S1), GF_ERROR_OUT_OF_MEMORY);
    assert_null(c);
    assert_non_null(strstr(gf_last_error(), "out of memory"));
    gf_pool_free(f->p, b);
}

static void test_oom_waits_for_pending_frees(void **state)
{
    fixture *f = *state;
    f->m.capacity = 4 * MiB;
    void *a = alloc_ok(f, 4096, S1);
    gf_pool_record_stream(f->p, a, S2);
    gf_pool_free(f->p, a); /* pending on S2's event */
    /* needs the whole capacity: the pool must synchronise, then release */
    void *b = alloc_ok(f, 3 * MiB, S1);
    assert_true(f->m.syncs >= 1);
    assert_int_equal(f->m.live_events, 0);
    gf_pool_free(f->p, b);
}

static void test_limit(void **state)
{
    fixture *f = *state;
    void *a = NULL;
    assert_int_equal(gf_pool_alloc(f->p, &a, 12 * MiB, S1), GF_ERROR_LIMIT);
    assert_non_null(strstr(gf_last_error(), "GPUFUSE_POOL_LIMIT"));
    /* 4 MiB would take a 20 MiB segment; under the limit an exact one is used */
    a = alloc_ok(f, 4 * MiB, S1);
    assert_int_equal(stats(f).reserved_bytes, 4 * MiB);
    void *b = alloc_ok(f, 6 * MiB, S1);
    assert_int_equal(stats(f).reserved_bytes, 10 * MiB);
    void *c = NULL;
    assert_int_equal(gf_pool_alloc(f->p, &c, 512, S1), GF_ERROR_LIMIT);
    gf_pool_free(f->p, b);
    /* the cached 6 MiB segment is released to make room */
    c = alloc_ok(f, 512, S1);
    assert_int_equal(stats(f).reserved_bytes, 6 * MiB);
    gf_pool_free(f->p, a);
    gf_pool_free(f->p, c);
}

static int setup_limit(void **state) { return setup_cfg(state, 0, 10 * MiB, 0); }

static void test_stats_and_trim(void **state)
{
    fixture *f = *state;
    void *a = alloc_ok(f, 1000, S1);
    void *b = alloc_ok(f, 5 * MiB, S1);
    gf_pool_stats s = stats(f);
    assert_int_equal(s.current_bytes, 1024 + 5 * MiB);
    assert_int_equal(s.reserved_bytes, 2 * MiB + 20 * MiB);
    assert_int_equal(s.cached_bytes, s.reserved_bytes - s.current_bytes);
    assert_int_equal(s.allocs, 2);
    gf_pool_free(f->p, b);
    s = stats(f);
    assert_int_equal(s.current_bytes, 1024);
    assert_int_equal(s.peak_bytes, 1024 + 5 * MiB);
    assert_int_equal(s.frees, 1);
    gf_pool_trim_cached(f->p); /* the large segment goes; a's segment stays */
    s = stats(f);
    assert_int_equal(s.reserved_bytes, 2 * MiB);
    assert_int_equal(s.backend_frees, 1);
    gf_pool_free(f->p, a);
    gf_pool_trim_cached(f->p);
    assert_int_equal(stats(f).reserved_bytes, 0);
    assert_int_equal(f->m.in_use, 0);
}

static void test_invalid(void **state)
{
    fixture *f = *state;
    void *a = NULL;
    assert_int_equal(gf_pool_alloc(f->p, &a, 0, S1), GF_ERROR_INVALID_VALUE);
    assert_int_equal(gf_pool_alloc(f->p, NULL, 16, S1), GF_ERROR_INVALID_VALUE);
    int x;
    assert_int_equal(gf_pool_free(f->p, &x), GF_ERROR_INVALID_VALUE);
    assert_int_equal(gf_pool_free(f->p, NULL), GF_SUCCESS);
    a = alloc_ok(f, 100, S1);
    assert_int_equal(gf_pool_free(f->p, a), GF_SUCCESS);
    assert_int_equal(gf_pool_free(f->p, a), GF_ERROR_INVALID_VALUE); /* double free */
    assert_int_equal(gf_pool_alloc(f->p, &a, SIZE_MAX - 10, S1), GF_ERROR_OUT_OF_MEMORY);
}

static void test_retire_stream(void **state)
{
    fixture *f = *state;
    void *a = alloc_ok(f, 4096, S2);
    void *b = alloc_ok(f, 4096, S2);
    gf_pool_free(f->p, a);
    gf_pool_retire_stream(f->p, S2, NULL);
    void *c = alloc_ok(f, 4096, NULL); /* S2's cached block now belongs to NULL */
    assert_ptr_equal(c, a);
    assert_int_equal(stats(f).backend_allocs, 1);
    gf_pool_free(f->p, b);
    gf_pool_free(f->p, c);
}

/* A block used on a stream that is then retired (gf_stream_destroy) records
 * no event on it at its free: the stream no longer exists. */
static void test_retire_used_stream(void **state)
{
    fixture *f = *state;
    void *a = alloc_ok(f, 4096, S1);
    assert_int_equal(gf_pool_record_stream(f->p, a, S2), GF_SUCCESS);
    gf_pool_retire_stream(f->p, S2, NULL);
    assert_int_equal(gf_pool_free(f->p, a), GF_SUCCESS);
    for (mock_event *e = f->m.events; e; e = e->next)
        assert_false(e->recorded && e->stream == S2);
    /* with no other stream's work pending, the block is reused at once */
    void *b = alloc_ok(f, 4096, S1);
    assert_ptr_equal(b, a);
    gf_pool_free(f->p, b);
}

static void test_bypass(void **state)
{
    fixture *f = *state;
    void *a = alloc_ok(f, 1000, S1);
    assert_int_equal(f->m.in_use, 1000); /* exact size: sanitizers see overruns */
    void *b = alloc_ok(f, 3 * MiB, S1);
    assert_true(gf_pool_contains(f->p, (char *)b + 10));
    assert_int_equal(stats(f).current_bytes, 1000 + 3 * MiB);
    gf_pool_free(f->p, a);
    gf_pool_free(f->p, b);
    assert_int_equal(f->m.in_use, 0); /* nothing cached */
    assert_int_equal(f->m.frees, 2);
}

static int setup_bypass(void **state) { return setup_cfg(state, 0, 0, 1); }

typedef struct hammer {
    gf_pool *p;
    int id;
    int errors;
} hammer;

static void *hammer_main(void *arg)
{
    hammer *h = arg;
    enum { LIVE = 32 };
    unsigned char *live[LIVE] = {0};
    size_t size[LIVE] = {0};
    uint32_t r = 12345u + (uint32_t)h->id * 7919u;
    void *stream = (h->id & 1) ? S1 : S2;
    for (int it = 0; it < 20000; it++) {
        r = r * 1103515245u + 12345u;
        int k = (int)((r >> 8) % LIVE);
        if (live[k]) {
            if (live[k][0] != (unsigned char)h->id || live[k][size[k] - 1] != (unsigned char)h->id)
                h->errors++;
            if (gf_pool_free(h->p, live[k]) != GF_SUCCESS)
                h->errors++;
            live[k] = NULL;
        } else {
            size_t n = (r >> 4) % 7 == 0 ? ((r >> 12) % (3 * MiB)) + 1 : ((r >> 12) % 20000) + 1;
            void *q;
            if (gf_pool_alloc(h->p, &q, n, stream) != GF_SUCCESS) {
                h->errors++;
                continue;
            }
            live[k] = q;
            size[k] = n;
            memset(q, h->id, n); /* overlapping blocks would corrupt a neighbour */
        }
    }
    for (int k = 0; k < LIVE; k++)
        if (live[k])
            gf_pool_free(h->p, live[k]);
    return NULL;
}

static void test_threads(void **state)
{
    fixture *f = *state;
    enum { N = 8 };
    pthread_t t[N];
    hammer h[N];
    for (int i = 0; i < N; i++) {
        h[i] = (hammer){f->p, i + 1, 0};
        pthread_create(&t[i], NULL, hammer_main, &h[i]);
    }
    for (int i = 0; i < N; i++) {
        pthread_join(t[i], NULL);
        assert_int_equal(h[i].errors, 0);
    }
    gf_pool_stats s = stats(f);
    assert_int_equal(s.current_bytes, 0);
    assert_int_equal(s.allocs, s.frees);
    gf_pool_trim_cached(f->p);
    assert_int_equal(stats(f).reserved_bytes, 0); /* everything coalesced */
}

static void test_parse_size(void **state)
{
    (void)state;
    size_t v;
    assert_int_equal(gf_parse_size("4096", &v), 0);
    assert_int_equal(v, 4096);
    assert_int_equal(gf_parse_size("2K", &v), 0);
    assert_int_equal(v, 2048);
    assert_int_equal(gf_parse_size("512M", &v), 0);
    assert_int_equal(v, 512 * MiB);
    assert_int_equal(gf_parse_size("3G", &v), 0);
    assert_int_equal(v, (size_t)3 << 30);
    assert_int_equal(gf_parse_size("1GiB", &v), 0);
    assert_int_equal(v, (size_t)1 << 30);
    assert_int_equal(gf_parse_size("16mb", &v), 0);
    assert_int_equal(v, 16 * MiB);
    assert_int_equal(gf_parse_size("", &v), -1);
    assert_int_equal(gf_parse_size("abc", &v), -1);
    assert_int_equal(gf_parse_size("12X", &v), -1);
    assert_int_equal(gf_parse_size("-1", &v), -1);
}

static void test_config_from_env(void **state)
{
    (void)state;
    gf_pool_config cfg;
    gf_pool_default_config(&cfg);
    setenv("GPUFUSE_POOL", "off", 1);
    setenv("GPUFUSE_POOL_LIMIT", "1G", 1);
    assert_int_equal(gf_pool_config_from_env(&cfg), GF_SUCCESS);
    assert_int_equal(cfg.bypass, 1);
    assert_int_equal(cfg.limit, (size_t)1 << 30);
    setenv("GPUFUSE_POOL_LIMIT", "lots", 1);
    assert_int_equal(gf_pool_config_from_env(&cfg), GF_ERROR_INVALID_VALUE);
    unsetenv("GPUFUSE_POOL");
    unsetenv("GPUFUSE_POOL_LIMIT");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_rounding, setup, teardown),
        cmocka_unit_test_setup_teardown(test_small_and_large_segments, setup, teardown),
        cmocka_unit_test_setup_teardown(test_best_fit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_split_and_merge, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stream_ownership, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cross_stream_free_waits_for_event, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pool_use_records_foreign_stream, setup, teardown),
        cmocka_unit_test_setup_teardown(test_oom_frees_cache_and_retries, setup, teardown),
        cmocka_unit_test_setup_teardown(test_oom_waits_for_pending_frees, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limit, setup_limit, teardown),
        cmocka_unit_test_setup_teardown(test_stats_and_trim, setup, teardown),
        cmocka_unit_test_setup_teardown(test_invalid, setup, teardown),
        cmocka_unit_test_setup_teardown(test_retire_stream, setup, teardown),
        cmocka_unit_test_setup_teardown(test_retire_used_stream, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bypass, setup_bypass, teardown),
        cmocka_unit_test_setup_teardown(test_threads, setup, teardown),
        cmocka_unit_test(test_parse_size),
        cmocka_unit_test(test_config_from_env),
    };
    return cmocka_run_group_tests_name("pool", tests, NULL, NULL);
}
