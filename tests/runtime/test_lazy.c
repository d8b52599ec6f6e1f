/* test_lazy.c - gf_lazy (runtime/lazy.c), the once-made resource behind the
 * staging ring, which the warm-up thread (gf_stage_prepare) and a first
 * copy (transfer.c acquire) may reach for at the same time.  A fake maker
 * fills a "ring" slowly, one field at a time, so that a half-made ring is
 * visible to whoever does not wait for it:
 *   - the warm-up first, a copy during its making: the copy waits, sees the
 *     whole ring, holds it; one making;
 *   - a copy first, the warm-up during it: the warm-up waits, one making;
 *   - a making that fails: both see the failure (the driver's path), and
 *     nobody makes it again;
 *   - eight threads at once: one making, each sees a whole ring.
 * CUDA-free: runs everywhere. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "rt.h"

enum { NBUF = 4 };

typedef struct fake_ring {
    gf_lazy made;
    int fail;                /* the maker fails */
    int makings;             /* times the maker ran */
    int bufs[NBUF];          /* 1 each once made */
    pthread_mutex_t count_mu;
} fake_ring;

static void sleep_ms(int ms)
{
    struct timespec t = {0, ms * 1000000L};
    nanosleep(&t, NULL);
}

static int make(void *arg)
{
    fake_ring *r = arg;
    pthread_mutex_lock(&r->count_mu);
    r->makings++;
    pthread_mutex_unlock(&r->count_mu);
    for (int i = 0; i < NBUF; i++) {
        sleep_ms(10); /* cudaHostAlloc and cudaEventCreate take their time */
        r->bufs[i] = !r->fail;
    }
    return !r->fail;
}

static void init(fake_ring *r, int fail)
{
    memset(r, 0, sizeof *r);
    r->made = (gf_lazy)GF_LAZY_INIT;
    r->fail = fail;
    pthread_mutex_init(&r->count_mu, NULL);
}

static int whole(const fake_ring *r)
{
    int n = 0;
    for (int i = 0; i < NBUF; i++)
        n += r->bufs[i];
    return n == NBUF;
}

/* The warm-up: prepares the ring and lets go of it. */
static void *warm(void *arg)
{
    fake_ring *r = arg;
    return (void *)(intptr_t)gf_lazy_prepare(&r->made, make, r);
}

/* A copy: takes the ring, checks it is whole while holding it. */
typedef struct copy_result {
    fake_ring *r;
    int got, whole, held;
} copy_result;

static void *copy(void *arg)
{
    copy_result *c = arg;
    c->got = gf_lazy_acquire(&c->r->made, make, c->r);
    if (c->got) {
        c->whole = whole(c->r);
        c->held = pthread_mutex_trylock(&c->r->made.mu) != 0; /* still locked: the copy's */
        sleep_ms(5);
        gf_lazy_release(&c->r->made);
    }
    return NULL;
}

static void test_warmup_first(void **state)
{
    (void)state;
    fake_ring r;
    init(&r, 0);
    pthread_t w;
    assert_int_equal(pthread_create(&w, NULL, warm, &r), 0);
    sleep_ms(15); /* the maker is between buffers */
    copy_result c = {.r = &r};
    copy(&c);
    void *ok;
    pthread_join(w, &ok);
    assert_int_equal((int)(intptr_t)ok, 1);
    assert_int_equal(c.got, 1);
    assert_int_equal(c.whole, 1);
    assert_int_equal(c.held, 1);
    assert_int_equal(r.makings, 1);
    assert_int_equal(gf_lazy_state(&r.made), GF_LAZY_READY);
}

static void test_copy_first(void **state)
{
    (void)state;
    fake_ring r;
    init(&r, 0);
    copy_result c = {.r = &r};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, copy, &c), 0);
    sleep_ms(15);
    assert_int_equal(gf_lazy_prepare(&r.made, make, &r), 1); /* waits for the copy's ring */
    assert_true(whole(&r));
    pthread_join(t, NULL);
    assert_int_equal(c.got, 1);
    assert_int_equal(c.whole, 1);
    assert_int_equal(r.makings, 1);
}

static void test_failure_not_retried(void **state)
{
    (void)state;
    fake_ring r;
    init(&r, 1);
    pthread_t w;
    assert_int_equal(pthread_create(&w, NULL, warm, &r), 0);
    sleep_ms(15);
    copy_result c = {.r = &r};
    copy(&c);
    void *ok;
    pthread_join(w, &ok);
    assert_int_equal((int)(intptr_t)ok, 0);
    assert_int_equal(c.got, 0); /* the driver's path */
    assert_int_equal(gf_lazy_acquire(&r.made, make, &r), 0);
    assert_int_equal(r.makings, 1);
    assert_int_equal(gf_lazy_state(&r.made), GF_LAZY_FAILED);
    assert_int_equal(pthread_mutex_trylock(&r.made.mu), 0); /* nobody holds it */
    pthread_mutex_unlock(&r.made.mu);
}

static void test_many(void **state)
{
    (void)state;
    enum { T = 8 };
    fake_ring r;
    init(&r, 0);
    pthread_t t[T];
    copy_result c[T];
    for (int i = 0; i < T; i++) {
        c[i] = (copy_result){.r = &r};
        assert_int_equal(pthread_create(&t[i], NULL, i % 2 ? warm : copy, i % 2 ? (void *)&r : (void *)&c[i]), 0);
    }
    for (int i = 0; i < T; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < T; i += 2) {
        assert_int_equal(c[i].got, 1);
        assert_int_equal(c[i].whole, 1);
    }
    assert_int_equal(r.makings, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_warmup_first),
        cmocka_unit_test(test_copy_first),
        cmocka_unit_test(test_failure_not_retried),
        cmocka_unit_test(test_many),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
