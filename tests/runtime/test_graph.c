/* test_graph.c - when a launcher call becomes a CUDA graph (graph_plan.c)
 * on a mock backend that records what it was asked to do: identical-key
 * calls run directly twice, the third is captured, later ones replay;
 * another key starts over; changed parameters update the node in place and
 * unchanged ones do not; launches that leave the graph, fewer launches, and
 * graphs the backend refuses (build, launch, update) all end in direct
 * launches of exactly the call's kernels, in order, with their current
 * parameters; sites beyond the table evict; GPUFUSE_GRAPHS's values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rt.h"

#define MAXLOG 64

/* A direct run, as the mock saw it. */
typedef struct ran {
    const void *func;
    int p0;                      /* the first parameter (an int in these tests) */
} ran;

typedef struct mock {
    int builds, launches, updates, destroys, live;
    int fail_build, fail_launch, fail_update;
    int built_n;                 /* nodes of the last build */
    ran runs[MAXLOG];
    int nruns;
    int graph_p0[8];             /* the first parameter of each node of the live graph, as launched */
    gf_gnode *nodes;             /* the last build's nodes */
} mock;

static mock M;

static int m_build(void *ctx, gf_gnode *nodes, int n, void **exec)
{
    (void)ctx;
    M.builds++;
    if (M.fail_build)
        return -1;
    M.built_n = n;
    M.nodes = nodes;
    for (int i = 0; i < n; i++)
        nodes[i].handle = (void *)(uintptr_t)(i + 1);
    *exec = malloc(1);
    M.live++;
    return 0;
}

static int m_update(void *ctx, void *exec, gf_gnode *n)
{
    (void)ctx, (void)exec;
    M.updates++;
    assert_non_null(n->handle);
    return M.fail_update ? -1 : 0;
}

static int m_launch(void *ctx, void *exec, void *stream)
{
    (void)ctx, (void)exec, (void)stream;
    M.launches++;
    if (M.fail_launch)
        return -1;
    for (int i = 0; i < M.built_n && i < 8; i++)
        memcpy(&M.graph_p0[i], M.nodes[i].ptrs[0], sizeof(int));
    return 0;
}

static void m_run(void *ctx, const gf_gnode *n, void *stream)
{
    (void)ctx, (void)stream;
    assert_true(M.nruns < MAXLOG);
    M.runs[M.nruns].func = n->func;
    memcpy(&M.runs[M.nruns].p0, n->ptrs[0], sizeof(int));
    M.nruns++;
}

static void m_destroy(void *ctx, void *exec)
{
    (void)ctx;
    M.destroys++;
    M.live--;
    free(exec);
}

static const gf_graph_backend BE = {NULL, m_build, m_update, m_launch, m_run, m_destroy};

static char K1, K2, K3;          /* three kernels: their addresses */
static char SITE_A, SITE_B;

/* A launch of kernel f with parameters (int p0, double p1), grid g. */
static void launch(gf_gtable *t, const void *f, int p0, double p1, unsigned g)
{
    void *params[2] = {&p0, &p1};
    size_t size[2] = {sizeof p0, sizeof p1};
    gf_glaunch l = {f, "k", {g, 1, 1}, {256, 1, 1}, 0, 2, params, size};
    gf_gtab_kernel(t, &l);
}

/* One call of a three-kernel region on the table: its mode, its outcome. */
static int call3(gf_gtable *t, const void *site, uint64_t key, int p0, int *mode)
{
    *mode = gf_gtab_begin(t, site, key, NULL);
    if (*mode != GF_GRAPH_DIRECT) {
        launch(t, &K1, p0, 1.0, 4);
        launch(t, &K2, p0 + 1, 2.0, 4);
        launch(t, &K3, p0 + 2, 3.0, 1);
    }
    return gf_gtab_end(t);
}

static int setup(void **state)
{
    memset(&M, 0, sizeof M);
    gf_gtable *t = malloc(sizeof *t);
    gf_gtab_init(t, &BE);
    *state = t;
    return 0;
}

static int teardown(void **state)
{
    gf_gtab_clear(*state);
    assert_int_equal(M.live, 0); /* every graph destroyed */
    free(*state);
    return 0;
}

static void test_sequence(void **state)
{
    gf_gtable *t = *state;
    int mode;
    assert_int_equal(call3(t, &SITE_A, 7, 10, &mode), GF_GRAPH_DIRECT);
    assert_int_equal(mode, GF_GRAPH_DIRECT);
    assert_int_equal(call3(t, &SITE_A, 7, 10, &mode), GF_GRAPH_DIRECT);
    assert_int_equal(mode, GF_GRAPH_DIRECT);
    assert_int_equal(call3(t, &SITE_A, 7, 10, &mode), GF_GRAPH_CAPTURE);
    assert_int_equal(mode, GF_GRAPH_CAPTURE);
    assert_int_equal(M.builds, 1);
    assert_int_equal(M.built_n, 3);
    assert_int_equal(M.launches, 1);
    for (int i = 0; i < 5; i++) {
        assert_int_equal(call3(t, &SITE_A, 7, 10, &mode), GF_GRAPH_REPLAY);
        assert_int_equal(mode, GF_GRAPH_REPLAY);
    }
    assert_int_equal(M.builds, 1);
    assert_int_equal(M.launches, 6);
    assert_int_equal(M.updates, 0); /* nothing changed */
    assert_int_equal(M.nruns, 0);
}

static void test_other_key_starts_over(void **state)
{
    gf_gtable *t = *state;
    int mode;
    for (int i = 0; i < 3; i++)
        call3(t, &SITE_A, 7, 10, &mode);
    assert_int_equal(mode, GF_GRAPH_CAPTURE);
    assert_int_equal(call3(t, &SITE_A, 8, 10, &mode), GF_GRAPH_DIRECT);
    assert_int_equal(call3(t, &SITE_A, 7, 10, &mode), GF_GRAPH_REPLAY); /* the graph of 7 is kept */
    assert_int_equal(call3(t, &SITE_A, 8, 10, &mode), GF_GRAPH_DIRECT);
    assert_int_equal(call3(t, &SITE_A, 8, 10, &mode), GF_GRAPH_DIRECT);
    assert_int_equal(call3(t, &SITE_A, 8, 10, &mode), GF_GRAPH_CAPTURE); /* replaces it */
    assert_int_equal(M.destroys, 1);
    assert_int_equal(call3(t, &SITE_A, 7, 10, &mode), GF_GRAPH_DIRECT);
    /* another site has its own count */
    assert_int_equal(call3(t, &SITE_B, 8, 10, &mode), GF_GRAPH_DIRECT);
    assert_int_equal(call3(t, &SITE_A, 8, 10, &mode), GF_GRAPH_REPLAY);
}

static void test_params_updated(void **state)
{
    gf_gtable *t = *state;
    int mode;
    for (int i = 0; i < 3; i++)
        call3(t, &SITE_A, 7, 10, &mode);
    assert_int_equal(call3(t, &SITE_A, 7, 20, &mode), GF_GRAPH_REPLAY);
    assert_int_equal(M.updates, 3); /* each node's first parameter changed */
    assert_int_equal(M.graph_p0[0], 20);
    assert_int_equal(M.graph_p0[1], 21);
    assert_int_equal(M.graph_p0[2], 22);
    assert_int_equal(call3(t, &SITE_A, 7, 20, &mode), GF_GRAPH_REPLAY);
    assert_int_equal(M.updates, 3); /* unchanged: no update */
    /* only the second node changes */
    gf_gtab_begin(t, &SITE_A, 7, NULL);
    launch(t, &K1, 20, 1.0, 4);
    launch(t, &K2, 99, 2.0, 4);
    launch(t, &K3, 22, 3.0, 1);
    assert_int_equal(gf_gtab_end(t), GF_GRAPH_REPLAY);
    assert_int_equal(M.updates, 4);
    assert_int_equal(M.graph_p0[1], 99);
    assert_int_equal(M.nruns, 0);
}

/* A replayed call whose second launch has another grid: the first runs
 * directly with its new parameters, then the second; the third is the
 * launcher's own (gf_graph_on is 0 now). */
static void test_diverge(void **state)
{
    gf_gtable *t = *state;
    int mode;
    for (int i = 0; i < 4; i++)
        call3(t, &SITE_A, 7, 10, &mode);
    assert_int_equal(mode, GF_GRAPH_REPLAY);
    assert_int_equal(gf_gtab_begin(t, &SITE_A, 7, NULL), GF_GRAPH_REPLAY);
    launch(t, &K1, 30, 1.0, 4);
    launch(t, &K2, 31, 2.0, 5);
    assert_int_equal(t->mode, GF_GRAPH_DIRECT);
    assert_int_equal(M.nruns, 2);
    assert_ptr_equal(M.runs[0].func, &K1);
    assert_int_equal(M.runs[0].p0, 30);
    assert_ptr_equal(M.runs[1].func, &K2);
    assert_int_equal(M.runs[1].p0, 31);
    launch(t, &K3, 32, 3.0, 1); /* not recorded: the launcher launches it */
    assert_int_equal(M.nruns, 2);
    assert_int_equal(gf_gtab_end(t), GF_GRAPH_DIRECT);
    assert_int_equal(M.launches, 2); /* the capture and one replay */
    assert_int_equal(M.live, 0);     /* dropped */
    /* a wholly different kernel first (the diverged call counts as the first of a run) */
    for (int i = 0; i < 2; i++)
        call3(t, &SITE_A, 7, 10, &mode);
    assert_int_equal(mode, GF_GRAPH_CAPTURE);
    gf_gtab_begin(t, &SITE_A, 7, NULL);
    launch(t, &K3, 40, 1.0, 4);
    assert_int_equal(M.nruns, 3);
    assert_ptr_equal(M.runs[2].func, &K3);
    gf_gtab_end(t);
}

static void test_fewer_and_more_launches(void **state)
{
    gf_gtable *t = *state;
    int mode;
    for (int i = 0; i < 3; i++)
        call3(t, &SITE_A, 7, 10, &mode);
    gf_gtab_begin(t, &SITE_A, 7, NULL);
    launch(t, &K1, 50, 1.0, 4);
    launch(t, &K2, 51, 2.0, 4);
    assert_int_equal(gf_gtab_end(t), GF_GRAPH_DIRECT);
    assert_int_equal(M.nruns, 2);
    assert_int_equal(M.runs[0].p0, 50);
    assert_int_equal(M.runs[1].p0, 51);
    assert_int_equal(M.launches, 1);
    for (int i = 0; i < 2; i++)
        call3(t, &SITE_A, 7, 10, &mode);
    assert_int_equal(mode, GF_GRAPH_CAPTURE);
    gf_gtab_begin(t, &SITE_A, 7, NULL);
    launch(t, &K1, 60, 1.0, 4);
    launch(t, &K2, 61, 2.0, 4);
    launch(t, &K3, 62, 3.0, 1);
    launch(t, &K3, 63, 3.0, 1); /* one more than the graph */
    assert_int_equal(M.nruns, 6);
    assert_int_equal(M.runs[2].p0, 60);
    assert_int_equal(M.runs[5].p0, 63);
    assert_int_equal(gf_gtab_end(t), GF_GRAPH_DIRECT);
}

static void test_no_launches(void **state)
{
    gf_gtable *t = *state;
    for (int i = 0; i < 4; i++) {
        int mode = gf_gtab_begin(t, &SITE_A, 7, NULL);
        (void)mode;
        assert_int_equal(gf_gtab_end(t), GF_GRAPH_DIRECT);
    }
    assert_int_equal(M.builds, 0);
}

static void test_build_fails(void **state)
{
    gf_gtable *t = *state;
    int mode;
    M.fail_build = 1;
    int captures = 0;
    for (int i = 0; i < 40; i++) {
        int before = M.nruns;
        assert_int_equal(call3(t, &SITE_A, 7, i, &mode), GF_GRAPH_DIRECT);
        if (mode == GF_GRAPH_CAPTURE) {
            captures++;
            assert_int_equal(M.nruns, before + 3); /* the call's kernels ran directly */
            assert_int_equal(M.runs[before].p0, i);
            assert_ptr_equal(M.runs[before + 2].func, &K3);
        }
    }
    assert_int_equal(captures, GF_GRAPH_MAX_FAILURES); /* then the site is left alone */
    assert_int_equal(M.builds, GF_GRAPH_MAX_FAILURES);
}

static void test_launch_fails(void **state)
{
    gf_gtable *t = *state;
    int mode;
    M.fail_launch = 1;
    assert_int_equal(call3(t, &SITE_A, 7, 1, &mode), GF_GRAPH_DIRECT);
    assert_int_equal(call3(t, &SITE_A, 7, 2, &mode), GF_GRAPH_DIRECT);
    assert_int_equal(call3(t, &SITE_A, 7, 3, &mode), GF_GRAPH_DIRECT);
    assert_int_equal(mode, GF_GRAPH_CAPTURE);
    assert_int_equal(M.nruns, 3);
    assert_int_equal(M.runs[0].p0, 3);
    assert_int_equal(M.live, 0);
    /* a replay whose launch fails */
    M.fail_launch = 0;
    for (int i = 0; i < 2; i++)
        call3(t, &SITE_A, 7, 4, &mode);
    assert_int_equal(mode, GF_GRAPH_CAPTURE);
    M.fail_launch = 1;
    assert_int_equal(call3(t, &SITE_A, 7, 5, &mode), GF_GRAPH_DIRECT);
    assert_int_equal(mode, GF_GRAPH_REPLAY);
    assert_int_equal(M.nruns, 6);
    assert_int_equal(M.runs[3].p0, 5); /* the new parameters */
    assert_int_equal(M.runs[5].p0, 7);
}

static void test_update_fails(void **state)
{
    gf_gtable *t = *state;
    int mode;
    for (int i = 0; i < 3; i++)
        call3(t, &SITE_A, 7, 10, &mode);
    M.fail_update = 1;
    gf_gtab_begin(t, &SITE_A, 7, NULL);
    launch(t, &K1, 70, 1.0, 4); /* the update fails: K1 runs with 70 */
    assert_int_equal(M.nruns, 1);
    assert_int_equal(M.runs[0].p0, 70);
    assert_int_equal(t->mode, GF_GRAPH_DIRECT);
    assert_int_equal(gf_gtab_end(t), GF_GRAPH_DIRECT);
    assert_int_equal(M.launches, 1);
}

static void test_many_sites(void **state)
{
    gf_gtable *t = *state;
    static char sites[3 * GF_GRAPH_SITES];
    int mode;
    for (int r = 0; r < 4; r++)
        for (int s = 0; s < 3 * GF_GRAPH_SITES; s++)
            call3(t, &sites[s], 1, 0, &mode);
    assert_true(M.live <= GF_GRAPH_SITES);
    assert_int_equal(M.live + M.destroys, M.builds);
}

/* A recording for another key rewrites the nodes: the old graph is dropped
 * when it starts (a recording cut short, out of host memory, would else
 * leave it replayable with the new key's nodes). */
static void test_recapture_drops_old(void **state)
{
    gf_gtable *t = *state;
    int mode;
    for (int i = 0; i < 3; i++)
        call3(t, &SITE_A, 7, 10, &mode);
    assert_int_equal(M.live, 1);
    call3(t, &SITE_A, 8, 10, &mode);
    call3(t, &SITE_A, 8, 10, &mode);
    M.fail_build = 1;
    assert_int_equal(gf_gtab_begin(t, &SITE_A, 8, NULL), GF_GRAPH_CAPTURE);
    assert_int_equal(M.live, 0); /* dropped when the recording starts */
    launch(t, &K1, 20, 1.0, 4);
    assert_int_equal(gf_gtab_end(t), GF_GRAPH_DIRECT);
    assert_int_equal(M.nruns, 1);
    M.fail_build = 0;
    assert_int_equal(call3(t, &SITE_A, 7, 10, &mode), GF_GRAPH_DIRECT); /* not a replay of rewritten nodes */
}

static void test_params_kept_apart(void **state)
{
    gf_gtable *t = *state;
    int mode;
    for (int i = 0; i < 3; i++)
        call3(t, &SITE_A, 7, 10, &mode);
    /* the double parameter alone changes */
    gf_gtab_begin(t, &SITE_A, 7, NULL);
    launch(t, &K1, 10, 1.5, 4);
    launch(t, &K2, 11, 2.0, 4);
    launch(t, &K3, 12, 3.0, 1);
    assert_int_equal(gf_gtab_end(t), GF_GRAPH_REPLAY);
    assert_int_equal(M.updates, 1);
    double d;
    memcpy(&d, M.nodes[0].ptrs[1], sizeof d);
    assert_true(d == 1.5);
    assert_true((uintptr_t)M.nodes[0].ptrs[1] % 8 == 0);
}

/* gf_env_on (error.c): GPUFUSE_GRAPHS, _PREWARM, _STAGING, _HUGEPAGES */
static void test_env(void **state)
{
    (void)state;
    assert_int_equal(gf_env_on(NULL), 1);
    assert_int_equal(gf_env_on("1"), 1);
    assert_int_equal(gf_env_on(""), 1);
    assert_int_equal(gf_env_on("0"), 0);
    assert_int_equal(gf_env_on("off"), 0);
    assert_int_equal(gf_env_on("OFF"), 0);
    assert_int_equal(gf_env_on("no"), 0);
    assert_int_equal(gf_env_on("false"), 0);
    assert_int_equal(gf_env_on("False"), 0);
    assert_int_equal(gf_env_on("00"), 1); /* only the words above turn a switch off */
    assert_int_equal(gf_env_on("offline"), 1);
}

static void test_mix(void **state)
{
    (void)state;
    assert_true(gf_gmix(0, 1) != gf_gmix(0, 2));
    assert_true(gf_gmix(gf_gmix(0, 1), 2) != gf_gmix(gf_gmix(0, 2), 1));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_sequence, setup, teardown),
        cmocka_unit_test_setup_teardown(test_other_key_starts_over, setup, teardown),
        cmocka_unit_test_setup_teardown(test_params_updated, setup, teardown),
        cmocka_unit_test_setup_teardown(test_diverge, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fewer_and_more_launches, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_launches, setup, teardown),
        cmocka_unit_test_setup_teardown(test_build_fails, setup, teardown),
        cmocka_unit_test_setup_teardown(test_launch_fails, setup, teardown),
        cmocka_unit_test_setup_teardown(test_update_fails, setup, teardown),
        cmocka_unit_test_setup_teardown(test_many_sites, setup, teardown),
        cmocka_unit_test_setup_teardown(test_recapture_drops_old, setup, teardown),
        cmocka_unit_test_setup_teardown(test_params_kept_apart, setup, teardown),
        cmocka_unit_test(test_env),
        cmocka_unit_test(test_mix),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
