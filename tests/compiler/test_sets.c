/* analysis/sets.c: sets over [r, c, s] built from affine forms, with Var
 * parameters.  A parameter is its Var: a name that is an isl keyword, a
 * name isl or gpufuse prints ("gf_r", "o0"), non-ASCII, or the name of
 * another Var changes nothing.  isl failures give NULL and false. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gfc.h"

#include <string.h>

static Arena *A;
static GfSets *S;
static Type tint = {.kind = TY_INT};
/* the shapes' frame: placeholders named like isl text would name them */
static Var dr = {.name = "gf_r", .ty = &tint, .kind = V_IV}, dc = {.name = "gf_c", .ty = &tint, .kind = V_IV},
           ds = {.name = "gf_s", .ty = &tint, .kind = V_IV};
static SetFrame F = {{&dr, &dc, &ds}};

static int setup(void **state)
{
    (void)state;
    A = arena_new();
    S = sets_new();
    return S ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    sets_free(S);
    arena_free(A);
    return 0;
}

/* c + k1 * v1 + k2 * v2 (v NULL: no term) */
static Aff *aff(long long c, Var *v1, long long k1, Var *v2, long long k2)
{
    Aff *f = arena_alloc(A, sizeof *f);
    f->terms = arena_alloc(A, 2 * sizeof *f->terms);
    f->c = c;
    if (v1)
        f->terms[f->nterms++] = (AffTerm){v1, k1};
    if (v2)
        f->terms[f->nterms++] = (AffTerm){v2, k2};
    return f;
}

static Aff *num(long long c) { return aff(c, NULL, 0, NULL, 0); }

static Var *param(const char *name)
{
    Var *v = arena_alloc(A, sizeof *v);
    *v = (Var){.name = name, .cname = name, .ty = &tint, .kind = V_PARAM};
    return v;
}

/* { 0 <= r < m, 0 <= c < n, s = 0 } */
static GfSet *box(Var *m, Var *n)
{
    GfSet *b = sets_meet(S, sets_range(S, &F, num(0), SET_R, aff(0, m, 1, NULL, 0)),
                         sets_range(S, &F, num(0), SET_C, aff(0, n, 1, NULL, 0)));
    return sets_meet(S, b, sets_fix(S, &F, SET_S, num(0)));
}

/* { 0 <= c <= r < n, s = 0 } (upper: 0 <= r <= c < n) */
static GfSet *triangle(Var *n, bool upper)
{
    int lo = upper ? SET_R : SET_C, hi = upper ? SET_C : SET_R;
    GfSet *t = sets_meet(S, sets_range(S, &F, num(0), lo, aff(1, upper ? &dc : &dr, 1, NULL, 0)),
                         sets_below(S, &F, hi, aff(0, n, 1, NULL, 0)));
    return sets_meet(S, t, sets_fix(S, &F, SET_S, num(0)));
}

/* What libcall asks, with n a parameter of any name: all must hold. */
static void shapes_with(Var *n, Var *m)
{
    GfSet *rows = sets_range(S, &F, num(0), SET_R, aff(0, n, 1, NULL, 0));
    assert_non_null(rows);
    /* size_of: max(r) = n - 1 */
    assert_true(sets_subset(S, rows, sets_below(S, &F, SET_R, aff(0, n, 1, NULL, 0))));
    assert_false(sets_subset(S, rows, sets_below(S, &F, SET_R, aff(-1, n, 1, NULL, 0))));
    assert_true(sets_same_params(S, rows, sets_fix(S, &F, SET_R, aff(-1, n, 1, NULL, 0))));
    assert_false(sets_same_params(S, rows, sets_fix(S, &F, SET_R, aff(-2, n, 1, NULL, 0))));
    /* triangles: each in the square, both make it up, neither is it */
    GfSet *sq = box(n, n), *lo = triangle(n, false), *up = triangle(n, true);
    assert_true(sets_subset(S, lo, sq));
    assert_true(sets_subset(S, up, sq));
    assert_false(sets_equal(S, lo, sq));
    assert_false(sets_equal(S, lo, up));
    assert_true(sets_equal(S, sets_union(S, lo, up), sq));
    /* another parameter is another size */
    assert_false(sets_equal(S, box(n, n), box(n, m)));
    assert_true(sets_subset(S, sets_meet(S, box(n, m), sets_fix(S, &F, SET_C, aff(0, n, 1, m, -1))), box(n, m)));
    /* sum over 0 <= s < m of the square: its elements are the square when m >= 1 */
    GfSet *sum = sets_free_dim_meet(S, sq, SET_S, sets_range(S, &F, num(0), SET_S, aff(0, m, 1, NULL, 0)));
    GfSet *el = sets_zero_dim(S, sum, SET_S);
    assert_true(sets_subset(S, el, sq));
    assert_false(sets_subset(S, sq, el));
    /* the square where m >= 1: s >= 1 - m with s = 0 */
    assert_true(sets_equal(S, el, sets_meet(S, sq, sets_above(S, &F, SET_S, aff(1, m, -1, NULL, 0)))));
    assert_false(sets_equal(S, sum, sq));
    /* s < r, s <= r (SYMM's and TRMM's pieces) */
    GfSet *below = sets_free_dim_meet(S, sq, SET_S, sets_range(S, &F, num(0), SET_S, aff(0, &dr, 1, NULL, 0)));
    GfSet *upto = sets_free_dim_meet(S, sq, SET_S, sets_range(S, &F, num(0), SET_S, aff(1, &dr, 1, NULL, 0)));
    assert_true(sets_subset(S, below, upto));
    assert_false(sets_equal(S, below, upto));
}

static void shapes(void **state)
{
    (void)state;
    shapes_with(param("n"), param("m"));
}

/* Names that isl's text, isl's own output or gpufuse's old text used. */
static void names_are_vars(void **state)
{
    (void)state;
    static const char *const names[] = {
        "and", "or", "not", "exists", "min", "max", "mod", "floord", "ceild", "infty", "NaN", "true", "false",
        "gf_r", "gf_c", "gf_s", "gf_v0", "o0", "i0", "S0", "e0", "\xc3\xa9", "\xe2\x88\x91x", "n", "[", "}", "->",
        ":", "a b", ""};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        Var *n = param(names[i]), *m = param(names[i]);
        shapes_with(n, m);
        /* two Vars of one name are two parameters */
        assert_false(sets_equal(S, sets_range(S, &F, num(0), SET_R, aff(0, n, 1, NULL, 0)),
                                sets_range(S, &F, num(0), SET_R, aff(0, m, 1, NULL, 0))));
        /* a parameter named like a dimension is not it: r = gf_r is not r = r */
        assert_false(sets_equal(S, sets_fix(S, &F, SET_R, aff(0, n, 1, NULL, 0)),
                                sets_fix(S, &F, SET_R, aff(0, &dr, 1, NULL, 0))));
    }
}

/* libcall's domains: loop indices in the frame are dimensions, an index of
 * a loop outside it a parameter. */
static void loop_frames(void **state)
{
    (void)state;
    Var i = {.name = "i", .ty = &tint, .kind = V_IV}, j = {.name = "j", .ty = &tint, .kind = V_IV};
    Var t = {.name = "t", .ty = &tint, .kind = V_IV};
    Var *n = param("n");
    SetFrame f = {{&i, &j, NULL}};
    /* for (i = 0; i < n; i++) for (j = 0; j <= i; j++), s = 0 */
    GfSet *d = sets_meet(S, sets_range(S, &f, num(0), SET_R, aff(0, n, 1, NULL, 0)),
                         sets_range(S, &f, num(0), SET_C, aff(1, &i, 1, NULL, 0)));
    d = sets_meet(S, d, sets_fix(S, &f, SET_S, num(0)));
    assert_true(sets_equal(S, d, triangle(n, false)));
    /* for (i = t; i < n; i++): t is a parameter */
    GfSet *e = sets_meet(S, sets_range(S, &f, aff(0, &t, 1, NULL, 0), SET_R, aff(0, n, 1, NULL, 0)),
                         sets_range(S, &f, num(0), SET_C, aff(1, &i, 1, NULL, 0)));
    e = sets_meet(S, e, sets_fix(S, &f, SET_S, num(0)));
    assert_true(sets_subset(S, e, triangle(n, false)));
    assert_false(sets_subset(S, triangle(n, false), e));
    /* with t = 0 (s = t, s = 0) it is the triangle */
    assert_true(sets_equal(S, sets_meet(S, e, sets_fix(S, &f, SET_S, aff(0, &t, 1, NULL, 0))),
                           sets_meet(S, d, sets_fix(S, &f, SET_S, aff(0, &t, 1, NULL, 0)))));
    /* a Var twice in one form counts twice: r < 2n - n */
    assert_true(sets_equal(S, sets_below(S, &f, SET_R, aff(0, n, 2, n, -1)),
                           sets_below(S, &f, SET_R, aff(0, n, 1, NULL, 0))));
    assert_true(sets_equal(S, sets_universe(S), sets_universe(S)));
}

/* A NULL argument, or an isl failure, gives NULL and false from then on. */
static void failures(void **state)
{
    (void)state;
    Var *n = param("n");
    GfSet *b = box(n, n);
    assert_true(sets_equal(S, b, b));
    assert_null(sets_below(S, &F, SET_R, NULL));
    assert_false(sets_equal(S, b, b));
    assert_false(sets_subset(S, b, b));
    assert_null(sets_universe(S));
    sets_free(S);

    /* isl runs out of operations: the answer is false, never "equal" */
    S = sets_new();
    GfSet *sq = box(n, n), *lo = triangle(n, false), *up = triangle(n, true);
    assert_true(sets_equal(S, sets_union(S, lo, up), sq));
    sets_max_operations(S, 1);
    assert_false(sets_equal(S, sets_union(S, lo, up), sq));
    assert_false(sets_same_params(S, sq, sq));
    assert_null(sets_meet(S, sq, sq));
    sets_free(S);

    /* without a GfSets */
    assert_null(sets_universe(NULL));
    assert_false(sets_equal(NULL, NULL, NULL));
    sets_free(NULL);
    S = sets_new();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shapes),
        cmocka_unit_test(names_are_vars),
        cmocka_unit_test(loop_frames),
        cmocka_unit_test(failures),
    };
    return cmocka_run_group_tests_name("sets", tests, setup, teardown);
}
