/* aff_of on hand-built Expr trees; expr_equal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gfc.h"

#include <string.h>

static Arena *A;
static Type tint = {.kind = TY_INT}, tfloat = {.kind = TY_FLOAT}, tptr = {.kind = TY_PTR};
static Var iv_i = {.name = "i", .cname = "i", .ty = &tint, .kind = V_IV};
static Var iv_j = {.name = "j", .cname = "j", .ty = &tint, .kind = V_IV};
static Var p_n = {.name = "n", .cname = "n", .ty = &tint, .kind = V_PARAM};
static Var p_a = {.name = "a", .cname = "a", .ty = &tfloat, .kind = V_PARAM};
static Var p_x = {.name = "x", .cname = "x", .ty = &tptr, .kind = V_PARAM, .is_array = true};
static Var l_t = {.name = "t", .cname = "t", .ty = &tint, .kind = V_LOCAL};

static Expr *num(const char *text)
{
    Expr *e = arena_alloc(A, sizeof *e);
    e->kind = E_INT;
    e->text = text;
    e->ty = &tint;
    return e;
}

static Expr *var(Var *v)
{
    Expr *e = arena_alloc(A, sizeof *e);
    e->kind = E_VAR;
    e->var = v;
    e->ty = v->ty;
    return e;
}

static Expr *bin(const char *op, Expr *x, Expr *y)
{
    Expr *e = arena_alloc(A, sizeof *e);
    e->kind = E_BINARY;
    e->op = op_binary_of(op);
    e->ty = &tint;
    e->nkids = 2;
    e->kids = arena_alloc(A, 2 * sizeof(Expr *));
    e->kids[0] = x;
    e->kids[1] = y;
    return e;
}

static Expr *un(const char *op, Expr *x)
{
    Expr *e = arena_alloc(A, sizeof *e);
    e->kind = E_UNARY;
    e->op = op_unary_of(op, false);
    e->ty = x->ty;
    e->nkids = 1;
    e->kids = arena_alloc(A, sizeof(Expr *));
    e->kids[0] = x;
    return e;
}

static Expr *cast(Type *t, Expr *x)
{
    Expr *e = un("", x);
    e->kind = E_CAST;
    e->ty = t;
    return e;
}

static int setup(void **state)
{
    (void)state;
    A = arena_new();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    arena_free(A);
    return 0;
}

static void constants_and_vars(void **state)
{
    (void)state;
    Aff *f = aff_of(A, num("42"));
    assert_non_null(f);
    assert_int_equal(f->c, 42);
    assert_int_equal(f->nterms, 0);
    f = aff_of(A, num("0x10u"));
    assert_non_null(f);
    assert_int_equal(f->c, 16);
    f = aff_of(A, num("7LL"));
    assert_int_equal(f->c, 7);
    f = aff_of(A, var(&iv_i));
    assert_int_equal(f->nterms, 1);
    assert_int_equal(aff_coef(f, &iv_i), 1);
    assert_true(aff_uses(f, &iv_i));
    assert_false(aff_uses(f, &iv_j));
    /* integer params are symbols; float params and locals are not affine */
    assert_non_null(aff_of(A, var(&p_n)));
    assert_null(aff_of(A, var(&p_a)));
    assert_null(aff_of(A, var(&l_t)));
    assert_null(aff_of(A, var(&p_x)));
    assert_null(aff_of(A, NULL));
}

static void linear_combinations(void **state)
{
    (void)state;
    /* 2*i + 3*j - n + 5 */
    Expr *e = bin("+", bin("-", bin("+", bin("*", num("2"), var(&iv_i)), bin("*", var(&iv_j), num("3"))), var(&p_n)),
                  num("5"));
    Aff *f = aff_of(A, e);
    assert_non_null(f);
    assert_int_equal(f->c, 5);
    assert_int_equal(aff_coef(f, &iv_i), 2);
    assert_int_equal(aff_coef(f, &iv_j), 3);
    assert_int_equal(aff_coef(f, &p_n), -1);
    /* i - i cancels to the constant 0 */
    f = aff_of(A, bin("-", var(&iv_i), var(&iv_i)));
    assert_int_equal(f->nterms, 0);
    assert_int_equal(f->c, 0);
    /* -(i + 1) and +i */
    f = aff_of(A, un("-", bin("+", var(&iv_i), num("1"))));
    assert_int_equal(f->c, -1);
    assert_int_equal(aff_coef(f, &iv_i), -1);
    f = aff_of(A, un("+", var(&iv_j)));
    assert_int_equal(f->nterms, 1);
    assert_int_equal(aff_coef(f, &iv_j), 1);
    /* integer casts are transparent, float casts are not */
    assert_non_null(aff_of(A, cast(&tint, var(&iv_i))));
    assert_null(aff_of(A, cast(&tfloat, var(&iv_i))));
}

static void not_affine(void **state)
{
    (void)state;
    assert_null(aff_of(A, bin("*", var(&iv_i), var(&iv_j))));      /* i*j */
    assert_null(aff_of(A, bin("*", var(&iv_i), var(&p_n))));       /* i*n: parametric coefficient */
    assert_null(aff_of(A, bin("/", var(&iv_i), num("2"))));        /* division */
    assert_null(aff_of(A, bin("%", var(&iv_i), num("2"))));        /* modulo */
    assert_null(aff_of(A, bin("<<", var(&iv_i), num("1"))));       /* shift */
    assert_null(aff_of(A, un("~", var(&iv_i))));
    Expr *fl = bin("+", var(&iv_i), num("1"));
    fl->ty = &tfloat;                                                /* a float-typed sum */
    assert_null(aff_of(A, fl));
}

static void structural_equality(void **state)
{
    (void)state;
    Expr *a = bin("+", var(&iv_i), num("1")), *b = bin("+", var(&iv_i), num("1"));
    Expr *c = bin("+", var(&iv_j), num("1")), *d = bin("-", var(&iv_i), num("1"));
    assert_true(expr_equal(a, b));
    assert_false(expr_equal(a, c));
    assert_false(expr_equal(a, d));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(constants_and_vars),
        cmocka_unit_test(linear_combinations),
        cmocka_unit_test(not_affine),
        cmocka_unit_test(structural_equality),
    };
    return cmocka_run_group_tests_name("affine", tests, setup, teardown);
}
