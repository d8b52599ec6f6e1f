/* parse_unit on bad inputs; reduction recognition, parallel marking,
 * deps_fusable and args_plan extents on small files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "helpers.h"

static void missing_file(void **state)
{
    (void)state;
    ParseOptions po = {NULL, 0, GFC_RESOURCE_DIR};
    FILE *devnull = fopen("/dev/null", "w");
    gfc_diag.out = devnull;
    Unit *u = parse_unit("/nonexistent/dir/none.c", &po);
    gfc_diag.out = NULL;
    fclose(devnull);
    assert_null(u);
}

static void empty_file(void **state)
{
    (void)state;
    /* not fatal: a warning and a unit without regions */
    Unit *u = parse_text("empty.c", "");
    assert_non_null(u);
    assert_int_equal(u->regions.len, 0);
    assert_int_equal(u->rejected.len, 0);
    unit_free(u);
}

static void binary_garbage(void **state)
{
    (void)state;
    unsigned char junk[4096];
    unsigned x = 12345;
    for (size_t i = 0; i < sizeof junk; i++) {
        x = x * 1103515245u + 12345u;
        junk[i] = (unsigned char)(x >> 16);
    }
    junk[100] = 0;               /* an embedded NUL too */
    static const char *args[] = {"-I" TEST_INCLUDE_DIR};
    ParseOptions po = {args, 1, GFC_RESOURCE_DIR};
    FILE *devnull = fopen("/dev/null", "w");
    gfc_diag.out = devnull;
    Unit *u = parse_unit(tmp_file("junk.c", junk, sizeof junk), &po);
    gfc_diag.out = NULL;
    fclose(devnull);
    assert_null(u);
}

static void syntax_error(void **state)
{
    (void)state;
    Unit *u = parse_text("syntax.c", "#include <gpufuse.h>\nGPUFUSE void f(int n, float *x)\n{\n"
                                     "    for (int i = 0; i < n; i++\n        x[i] = 0;\n}\n");
    assert_null(u);
    u = parse_text("missing_header.c", "#include <no_such_header_anywhere.h>\nint x;\n");
    assert_null(u);
}

static void parallel_and_sequential(void **state)
{
    (void)state;
    Unit *u = parse_text("par.c", "#include <gpufuse.h>\n"
                                  "GPUFUSE void f(int n, int m, float a[n][m])\n{\n"
                                  "    for (int i = 0; i < n; i++)\n"
                                  "        for (int j = 1; j < m; j++)\n"
                                  "            a[i][j] = a[i][j - 1] + 1.0f;\n}\n");
    Region *r = analyse(u);
    assert_non_null(r);
    Stmt *li = nth_loop(r, 0), *lj = nth_loop(r, 1);
    assert_non_null(li);
    assert_non_null(lj);
    assert_true(li->parallel);
    assert_false(li->reduction);
    assert_false(lj->parallel);
    assert_int_equal(lj->step, 1);
    assert_string_equal(lj->iv->name, "j");
    unit_free(u);
}

static void reductions(void **state)
{
    (void)state;
    Unit *u = parse_text("red.c", "#include <gpufuse.h>\n#include <math.h>\n"
                                  "GPUFUSE float f(int n, const float *restrict x)\n{\n"
                                  "    float s = 0.0f, m = -INFINITY, p = 1.0f;\n"
                                  "    int b = 0;\n"
                                  "    for (int i = 0; i < n; i++) {\n"
                                  "        s += x[i];\n"
                                  "        m = m > x[i] ? m : x[i];\n"
                                  "        p = x[i] * p;\n"
                                  "        b |= (int)x[i];\n"
                                  "    }\n"
                                  "    return s + m + p + (float)b;\n}\n");
    Region *r = analyse(u);
    assert_non_null(r);
    Stmt *l = nth_loop(r, 0);
    assert_true(l->parallel);
    assert_true(l->reduction);
    RedOp want[] = {RED_ADD, RED_MAX, RED_MUL, RED_BOR};
    const char *acc[] = {"s", "m", "p", "b"};
    assert_int_equal(l->body->list.len, 4);
    for (int i = 0; i < 4; i++) {
        Stmt *s = vec_at(&l->body->list, i);
        assert_int_equal(s->red, want[i]);
        assert_string_equal(s->red_var->name, acc[i]);
    }
    unit_free(u);
}

static void not_a_reduction(void **state)
{
    (void)state;
    /* s = s * 0.5f + x[i] reads s twice in a non-reduction shape: running value */
    Unit *u = parse_text("nored.c", "#include <gpufuse.h>\n"
                                    "GPUFUSE float f(int n, const float *restrict x)\n{\n"
                                    "    float s = 0.0f;\n"
                                    "    for (int i = 0; i < n; i++)\n"
                                    "        s = s * 0.5f + x[i];\n"
                                    "    return s;\n}\n");
    assert_non_null(u);
    assert_int_equal(u->regions.len, 1);
    Region *r = vec_at(&u->regions, 0);
    FILE *devnull = fopen("/dev/null", "w");
    gfc_diag.out = devnull;
    int before = gfc_diag.warnings;
    assert_false(deps_analyze(u, r));
    assert_int_equal(gfc_diag.warnings, before + 1);
    gfc_diag.out = NULL;
    fclose(devnull);
    Stmt *l = nth_loop(r, 0);
    assert_false(l->parallel);
    Stmt *s = l->body;
    assert_int_equal(s->kind, S_ASSIGN);
    assert_int_equal(s->red, RED_NONE);
    unit_free(u);
}

static void fusable_nests(void **state)
{
    (void)state;
    Unit *u = parse_text("fuse.c", "#include <gpufuse.h>\n"
                                   "GPUFUSE void f(int n, const float *restrict x, float *restrict t,\n"
                                   "               float *restrict y, float *restrict z)\n{\n"
                                   "    for (int i = 0; i < n; i++)\n"
                                   "        t[i] = x[i] * 2.0f;\n"
                                   "    for (int i = 0; i < n; i++)\n"
                                   "        y[i] = t[i] + 1.0f;\n"
                                   "    for (int i = 1; i < n - 1; i++)\n"
                                   "        z[i] = t[i - 1] + t[i + 1];\n}\n");
    Region *r = analyse(u);
    assert_non_null(r);
    Stmt *a = nth_loop(r, 0), *b = nth_loop(r, 1), *c = nth_loop(r, 2);
    assert_true(deps_fusable(r, a, b, 1));      /* same-index producer/consumer */
    assert_false(deps_fusable(r, a, c, 1));     /* stencil read crosses iterations */
    assert_true(deps_fusable(r, b, c, 1));      /* independent */
    unit_free(u);
}

/* An extent (an IR expression) as C text. */
static const char *ext_text(Region *r, const Expr *e)
{
    EmitCtx cx = {.r = r};
    Buf b = {0};
    emit_expr(&b, &cx, e);
    char *s = arena_strdup(r->unit->arena, b.data);
    buf_free(&b);
    return s;
}

static void extents(void **state)
{
    (void)state;
    Unit *u = parse_text("ext.c", "#include <gpufuse.h>\n"
                                  "GPUFUSE void f(int n, int m, const float *restrict x, float *restrict y,\n"
                                  "               const float c[n][m], float *restrict unused)\n{\n"
                                  "    for (int i = 2; i < n; i++)\n"
                                  "        y[i - 1] = x[2 * i] + x[2 * i + 1];\n"
                                  "    for (int i = 1; i < n; i++)\n"
                                  "        for (int j = 0; j < m - 1; j++)\n"
                                  "            y[i] += c[i][j + 1];\n}\n");
    Region *r = analyse(u);
    assert_non_null(r);
    assert_true(args_plan(u, r));
    Var *x = param(r, "x"), *y = param(r, "y"), *c = param(r, "c"), *un = param(r, "unused");
    assert_non_null(x->ext_lo);
    assert_string_equal(ext_text(r, x->ext_lo[0]), "4");
    assert_string_equal(ext_text(r, x->ext_hi[0]), "2 * (long long)n - 1");
    assert_string_equal(ext_text(r, y->ext_lo[0]), "1");
    /* the second nest is empty when m <= 1: then the first bounds it */
    assert_string_equal(ext_text(r, y->ext_hi[0]),
                        "(long long)n >= 3 && (long long)m <= 1 ? (long long)n - 2 : (long long)n - 1");
    assert_false(y->write_only);                /* read by += */
    assert_string_equal(ext_text(r, c->ext_lo[0]), "1");
    assert_string_equal(ext_text(r, c->ext_hi[0]), "(long long)n - 1");
    assert_string_equal(ext_text(r, c->ext_lo[1]), "1");
    assert_string_equal(ext_text(r, c->ext_hi[1]), "(long long)m - 1");
    assert_false(c->ext_whole);
    assert_null(un->ext_lo);                    /* untouched: nothing staged */
    unit_free(u);
}

static void write_only_and_alias(void **state)
{
    (void)state;
    Unit *u = parse_text("wo.c", "#include <gpufuse.h>\n"
                                 "GPUFUSE void f(int n, const float *a, float *b, float *restrict c)\n{\n"
                                 "    for (int i = 0; i < n; i++) {\n"
                                 "        b[i] = a[i] * 2.0f;\n"
                                 "        c[i] = a[i];\n"
                                 "    }\n}\n");
    Region *r = analyse(u);
    assert_non_null(r);
    assert_true(args_plan(u, r));
    Var *a = param(r, "a"), *b = param(r, "b"), *c = param(r, "c");
    assert_true(b->write_only);
    assert_true(c->write_only);
    assert_false(a->write_only);
    /* a and b are accessed at the same subscript: they may be one pointer */
    assert_int_not_equal(a->alias_class, 0);
    assert_int_equal(a->alias_class, b->alias_class);
    assert_int_equal(c->alias_class, 0);        /* restrict */
    unit_free(u);
}

static void gather_extent_from_declared_size(void **state)
{
    (void)state;
    Unit *u = parse_text("gat.c", "#include <gpufuse.h>\n"
                                  "GPUFUSE void f(int n, const int *restrict idx, const float t[64], float *restrict o)\n{\n"
                                  "    for (int i = 0; i < n; i++)\n"
                                  "        o[i] = t[idx[i]];\n}\n");
    Region *r = analyse(u);
    assert_non_null(r);
    assert_true(args_plan(u, r));
    assert_true(param(r, "t")->ext_whole);
    assert_false(param(r, "idx")->ext_whole);
    unit_free(u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(missing_file),
        cmocka_unit_test(empty_file),
        cmocka_unit_test(binary_garbage),
        cmocka_unit_test(syntax_error),
        cmocka_unit_test(parallel_and_sequential),
        cmocka_unit_test(reductions),
        cmocka_unit_test(not_a_reduction),
        cmocka_unit_test(fusable_nests),
        cmocka_unit_test(extents),
        cmocka_unit_test(write_only_and_alias),
        cmocka_unit_test(gather_extent_from_declared_size),
    };
    return cmocka_run_group_tests_name("frontend", tests, NULL, NULL);
}
