/* The polyhedral model (deps.c), built through isl's API: user names that
 * once met gpufuse's own names in isl's text, an isl failure forced by an
 * operation limit (never read as "independent"), and extents as IR
 * expressions evaluated against the elements the loops touch. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "helpers.h"

/* Parses one region and builds its model (no check). */
static Region *model_of(Unit *u)
{
    assert_non_null(u);
    assert_int_equal(u->regions.len, 1);
    Region *r = vec_at(&u->regions, 0);
    deps_model(u, r);
    return r;
}

/* deps_check with its diagnostics in buf. */
static bool check_into(Region *r, char *buf, size_t len)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    gfc_diag.out = f;
    bool ok = deps_check(r);
    gfc_diag.out = NULL;
    rewind(f);
    size_t n = fread(buf, 1, len - 1, f);
    buf[n] = '\0';
    fclose(f);
    return ok;
}

static void names_of_the_model(void **state)
{
    (void)state;
    /* each loop index, array and parameter named like what gpufuse once
     * printed for itself: o0 (access outputs), t0/s0 (time), S0/S1
     * (statements), i0, and isl keywords */
    static const char *const names[][2] = {{"o0", "y"}, {"t0", "s0"}, {"s0", "t0"}, {"i0", "S0"},
                                           {"S1", "S0"}, {"exists", "min"}, {"mod", "floor"}};
    for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
        char src[1024];
        snprintf(src, sizeof src,
                 "#include <gpufuse.h>\n"
                 "GPUFUSE void f(int n, float *%s, float *x)\n{\n"
                 "    for (int %s = 1; %s < n; %s++)\n"
                 "        %s[%s] = %s[%s - 1] + x[%s];\n"
                 "    for (int %s = 0; %s < n; %s++)\n"
                 "        x[%s + 1] = 0;\n}\n",
                 names[k][1], names[k][0], names[k][0], names[k][0], names[k][1], names[k][0], names[k][1],
                 names[k][0], names[k][0], names[k][0], names[k][0], names[k][0], names[k][0]);
        Unit *u = parse_text("names.c", src);
        Region *r = model_of(u);
        assert_false(nth_loop(r, 0)->parallel);   /* the recurrence */
        assert_true(nth_loop(r, 1)->parallel);
        /* the second nest overwrites what the first reads at another index */
        assert_false(deps_fusable(r, nth_loop(r, 0), nth_loop(r, 1), 1));
        unit_free(u);
    }
}

/* 40 nested conditions (the model once kept 32 in a fixed array): every
 * one is in the domain, and the statement inside still counts. */
static void deep_conditions(void **state)
{
    (void)state;
    for (int rec = 0; rec < 2; rec++) {
        char body[4096], tmp[4200];
        strcpy(body, rec ? "y[i] = y[i - 1] + x[i];" : "y[i] = x[i] * 2.0f;");
        for (int k = 0; k < 40; k++) {
            snprintf(tmp, sizeof tmp, "if (i != %d) { %s }", k + 100, body);
            assert_true(strlen(tmp) < sizeof body);
            strcpy(body, tmp);
        }
        char src[8192];
        snprintf(src, sizeof src, "#include <gpufuse.h>\n"
                                  "GPUFUSE void f(int n, float *restrict y, const float *restrict x)\n{\n"
                                  "    for (int i = 1; i < n; i++) { %s }\n}\n", body);
        Unit *u = parse_text("deep.c", src);
        Region *r = model_of(u);
        assert_int_equal(nth_loop(r, 0)->parallel, !rec);
        Expr **lo, **hi;
        assert_true(deps_extent(u, r, param(r, "x"), &lo, &hi));
        unit_free(u);
    }
}

static const char *const saxpy = "#include <gpufuse.h>\n"
                                 "GPUFUSE void f(int n, float a, const float *restrict x, float *restrict y)\n{\n"
                                 "    for (int i = 0; i < n; i++)\n"
                                 "        y[i] = a * x[i];\n"
                                 "    for (int i = 0; i < n; i++)\n"
                                 "        y[i] += x[i];\n}\n";

static void isl_failure_is_not_parallel(void **state)
{
    (void)state;
    /* without a limit: two parallel nests that fuse */
    Unit *u = parse_text("fail.c", saxpy);
    Region *r = analyse(u);
    assert_non_null(r);
    assert_true(nth_loop(r, 0)->parallel);
    assert_true(deps_fusable(r, nth_loop(r, 0), nth_loop(r, 1), 1));
    Expr **lo, **hi;
    assert_true(deps_extent(u, r, param(r, "x"), &lo, &hi));
    unit_free(u);
    /* isl stops after its first operations: every answer is the worst */
    deps_isl_max_operations = 1;
    u = parse_text("fail.c", saxpy);
    r = model_of(u);
    deps_isl_max_operations = 0;
    assert_false(nth_loop(r, 0)->parallel);
    assert_false(nth_loop(r, 1)->parallel);
    assert_false(deps_fusable(r, nth_loop(r, 0), nth_loop(r, 1), 1));
    assert_false(deps_extent(u, r, param(r, "x"), &lo, &hi));
    assert_false(deps_parallel_without(r, nth_loop(r, 0), NULL, 0));
    assert_non_null(deps_private_flow(r, param(r, "y"), nth_loop(r, 0)));
    char diag[4096];
    assert_false(check_into(r, diag, sizeof diag));
    assert_non_null(strstr(diag, "fail.c:2:"));
    assert_non_null(strstr(diag, "the dependence analysis failed (isl: "));
    assert_non_null(strstr(diag, "'f' keeps its CPU body [-Wgpufuse-dependence]"));
    unit_free(u);
}

/* ---- extents, evaluated ---------------------------------------------------------- */

typedef struct Env {
    const Var *var[2];
    long long val[2];
} Env;

static long long floord(long long n, long long d)
{
    return n >= 0 ? n / d : -((-n + d - 1) / d);
}

static long long eval(const Expr *e, const Env *env)
{
    switch (e->kind) {
    case E_INT: return strtoll(e->text, NULL, 10);
    case E_VAR:
        for (int i = 0; i < 2; i++)
            if (env->var[i] == e->var)
                return env->val[i];
        fail_msg("unknown variable %s", e->var->name);
        return 0;
    case E_CAST: return eval(e->kids[0], env);
    case E_UNARY:
        assert_int_equal(e->op, OP_NEG);
        return -eval(e->kids[0], env);
    case E_COND: return eval(e->kids[0], env) ? eval(e->kids[1], env) : eval(e->kids[2], env);
    case E_CALL: {
        long long x = eval(e->kids[0], env), y = eval(e->kids[1], env);
        if (!strcmp(e->text, "gf_floord"))
            return floord(x, y);
        if (!strcmp(e->text, "gf_min"))
            return x < y ? x : y;
        assert_string_equal(e->text, "gf_max");
        return x > y ? x : y;
    }
    case E_BINARY: {
        long long x = eval(e->kids[0], env), y = eval(e->kids[1], env);
        switch (e->op) {
        case OP_ADD: return x + y;
        case OP_SUB: return x - y;
        case OP_MUL: return x * y;
        case OP_DIV: return x / y;
        case OP_MOD: return x % y;
        case OP_LAND: return x && y;
        case OP_LOR: return x || y;
        case OP_EQ: return x == y;
        case OP_LE: return x <= y;
        case OP_LT: return x < y;
        case OP_GE: return x >= y;
        case OP_GT: return x > y;
        default: fail_msg("operator %s in an extent", op_spelling(e->op));
        }
        return 0;
    }
    default: fail_msg("expression kind %s in an extent", expr_kind_names[e->kind]);
    }
    return 0;
}

/* Each case is written once: as the region's source (W = WSRC) and as the
 * loops that record the elements touched (W = WREC). */
#define WSRC(yi, xi) y[yi] = x[xi];
#define WREC(yi, xi) touch(&t, (yi), (xi));
#define STR(...) #__VA_ARGS__
#define XSTR(...) STR(__VA_ARGS__)
#define CASE0(W) for (int i = 0; i < n; i += 3) W(i, i) for (int j = 1; j < m; j++) W(j + 2, j)
#define CASE1(W) for (int i = 0; i < n; i += 3) if (i >= m) W(i, i)
#define CASE2(W) for (int i = m; i < n; i += 3) W(i, i - m)
#define CASE3(W) for (int i = 0; i < n; i += 3) if (i >= m - 5) W(i, n - 1 - i)
#define CASE4(W) for (int i = 0; i < n; i++) for (int j = 0; j < 4; j += 3) if (3 * i + j >= m) W(3 * i + j, i)
#define CASE5(W) for (int i = 0; i < n; i++) for (int j = i; j < m; j += 2) W(j - i, 2 * j + 1)

typedef struct Touched {
    long long lo[2], hi[2];
    bool any;
} Touched;

static void touch(Touched *t, long long yi, long long xi)
{
    long long v[2] = {yi, xi};
    for (int k = 0; k < 2; k++) {
        t->lo[k] = !t->any || v[k] < t->lo[k] ? v[k] : t->lo[k];
        t->hi[k] = !t->any || v[k] > t->hi[k] ? v[k] : t->hi[k];
    }
    t->any = true;
}

static Touched run_case(int c, int n, int m)
{
    Touched t = {{0, 0}, {0, 0}, false};
    switch (c) {
    case 0: CASE0(WREC) break;
    case 1: CASE1(WREC) break;
    case 2: CASE2(WREC) break;
    case 3: CASE3(WREC) break;
    case 4: CASE4(WREC) break;
    default: CASE5(WREC) break;
    }
    return t;
}

static void extents_are_expressions(void **state)
{
    (void)state;
    static const char *const body[] = {XSTR(CASE0(WSRC)), XSTR(CASE1(WSRC)), XSTR(CASE2(WSRC)),
                                       XSTR(CASE3(WSRC)), XSTR(CASE4(WSRC)), XSTR(CASE5(WSRC))};
    for (int c = 0; c < 6; c++) {
        char src[1024];
        snprintf(src, sizeof src, "#include <gpufuse.h>\n"
                                  "GPUFUSE void f(int n, int m, const float *restrict x, float *restrict y)\n{\n"
                                  "    %s\n}\n", body[c]);
        Unit *u = parse_text("ext.c", src);
        Region *r = model_of(u);
        Var *arr[2] = {param(r, "y"), param(r, "x")};
        Expr **lo[2], **hi[2];
        for (int k = 0; k < 2; k++) {
            assert_true(deps_extent(u, r, arr[k], &lo[k], &hi[k]));
            assert_non_null(lo[k]);
        }
        int checked = 0;
        for (int n = -3; n <= 14; n++)
            for (int m = -3; m <= 14; m++) {
                Touched t = run_case(c, n, m);
                Env env = {{param(r, "n"), param(r, "m")}, {n, m}};
                for (int k = 0; k < 2 && t.any; k++) {
                    if (eval(lo[k][0], &env) != t.lo[k] || eval(hi[k][0], &env) != t.hi[k])
                        fail_msg("case %d, n = %d, m = %d, %s: [%lld, %lld], not [%lld, %lld]", c, n, m, arr[k]->name,
                                 eval(lo[k][0], &env), eval(hi[k][0], &env), t.lo[k], t.hi[k]);
                    checked++;
                }
            }
        assert_true(checked > 100);
        unit_free(u);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names_of_the_model),
        cmocka_unit_test(deep_conditions),
        cmocka_unit_test(isl_failure_is_not_parallel),
        cmocka_unit_test(extents_are_expressions),
    };
    return cmocka_run_group_tests_name("model", tests, NULL, NULL);
}
