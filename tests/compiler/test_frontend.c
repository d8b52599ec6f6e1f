/* parse_unit on bad inputs; reduction recognition, parallel marking,
 * deps_fusable and args_plan extents on small files. */
#include <float.h>
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

/* float _Complex / double _Complex: the types and their sizes, clang's
 * implicit conversions to and from complex kept as casts, I as gf_imagf,
 * a complex sum and product recognised as reductions (docs/types.md). */
static void complex_types(void **state)
{
    (void)state;
    Unit *u = parse_text("cx.c", "#include <gpufuse.h>\n#include <complex.h>\n"
                                 "GPUFUSE double _Complex f(int n, const float _Complex *restrict a, double *restrict r)\n{\n"
                                 "    double _Complex s = 0, p = 1;\n"
                                 "    for (int i = 0; i < n; i++) {\n"
                                 "        s += a[i] * I;\n"
                                 "        p *= a[i];\n"
                                 "        r[i] = a[i];\n"
                                 "    }\n"
                                 "    return s + p;\n}\n");
    Region *r = analyse(u);
    assert_non_null(r);
    assert_true(r->uses_complex);
    assert_int_equal(r->ret->kind, TY_CD);
    assert_int_equal(type_size(r->ret), 16);
    Var *a = vec_at(&r->params, 1);
    assert_int_equal(type_elem(a->ty)->kind, TY_CF);
    assert_int_equal(type_size(type_elem(a->ty)), 8);
    assert_true(type_is_arith(type_elem(a->ty)) && !type_is_float(type_elem(a->ty)));
    Stmt *l = nth_loop(r, 0);
    assert_true(l->parallel && l->reduction);
    Stmt *s0 = vec_at(&l->body->list, 0), *s1 = vec_at(&l->body->list, 1), *s2 = vec_at(&l->body->list, 2);
    assert_int_equal(s0->red, RED_ADD);
    assert_int_equal(s1->red, RED_MUL);
    /* s += (double _Complex)(a[i] * gf_imagf(1.0f)) */
    assert_int_equal(s0->rhs->kind, E_CAST);
    assert_int_equal(s0->rhs->ty->kind, TY_CD);
    Expr *m = s0->rhs->kids[0];
    assert_int_equal(m->kind, E_BINARY);
    assert_int_equal(m->kids[1]->kind, E_CALL);
    assert_string_equal(m->kids[1]->text, "gf_imagf");
    /* r[i] = (float)a[i]: the real part (clang's float -> double stays implicit) */
    assert_int_equal(s2->rhs->kind, E_CAST);
    assert_int_equal(s2->rhs->ty->kind, TY_FLOAT);
    assert_int_equal(s2->rhs->kids[0]->ty->kind, TY_CF);
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
    /* the second nest is empty when m <= 1: then the first bounds it (a ?:
     * printed for embedding in the launcher's arithmetic: parenthesised) */
    assert_string_equal(ext_text(r, y->ext_hi[0]),
                        "((long long)n >= 3 && (long long)m <= 1 ? (long long)n - 2 : (long long)n - 1)");
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

/* ---- operators and constants from the AST ----------------------------------
 * Every operator, written plainly and through macros of every kind, must
 * reach the IR as itself (clang_compat.c). */

typedef struct Want {
    StmtKind kind;               /* S_ASSIGN */
    Op assign;                   /* the statement's operator */
    Op op;                       /* the rhs's operator (OP_NONE: not checked) */
    ExprKind rhs;                /* the rhs's kind */
} Want;

/* The region's assignments in order (bodies of loops included). */
static void assigns(Stmt *s, Vec *out, Arena *a)
{
    if (!s)
        return;
    if (s->kind == S_ASSIGN)
        vec_push(a, out, s);
    if (s->kind == S_BLOCK)
        for (int i = 0; i < s->list.len; i++)
            assigns(vec_at(&s->list, i), out, a);
    if (s->kind == S_FOR || s->kind == S_WHILE)
        assigns(s->body, out, a);
    if (s->kind == S_IF) {
        assigns(s->then, out, a);
        assigns(s->els, out, a);
    }
}

static void check_assigns(Unit *u, const Want *want, int n)
{
    assert_non_null(u);
    assert_int_equal(u->rejected.len, 0);
    assert_int_equal(u->regions.len, 1);
    Region *r = vec_at(&u->regions, 0);
    Vec got = {0};
    assigns(r->body, &got, u->arena);
    assert_int_equal(got.len, n);
    for (int i = 0; i < n; i++) {
        Stmt *s = vec_at(&got, i);
        if (s->op != want[i].assign || s->rhs->kind != want[i].rhs || (want[i].op && s->rhs->op != want[i].op))
            fail_msg("statement %d (line %d): %s %s, rhs %s %s; want %s, rhs %s %s", i, s->loc.line,
                     stmt_kind_names[s->kind], op_spelling(s->op), expr_kind_names[s->rhs->kind],
                     op_spelling(s->rhs->op), op_spelling(want[i].assign), expr_kind_names[want[i].rhs],
                     op_spelling(want[i].op));
    }
}

static void binary_operators_through_macros(void **state)
{
    (void)state;
    Buf b = {0}, body = {0};
    Want want[OP_COUNT * 6];
    int n = 0, k = 0;
    buf_printf(&b, "#include <gpufuse.h>\n");
    for (Op op = OP_MUL; op <= OP_LOR; op++) {
        const char *o = op_spelling(op);
        buf_printf(&b, "#define F%d(x, y) ((x) %s (y))\n#define E%d a %s b\n#define N%d(x) F%d(x, b)\n"
                       "#define O%d %s\n", op, o, op, o, op, op, op, o);
        buf_printf(&body, "    y[%d] = a %s b;\n    y[%d] = F%d(a, b);\n    y[%d] = E%d;\n    y[%d] = N%d(a);\n"
                          "    y[%d] = A_ %s b;\n    y[%d] = a O%d b;\n",
                   k, o, k + 1, op, k + 2, op, k + 3, op, k + 4, o, k + 5, op);
        for (int f = 0; f < 6; f++)
            want[n++] = (Want){S_ASSIGN, OP_ASSIGN, op, E_BINARY};
        k += 6;
    }
    buf_printf(&b, "#define A_ a\nGPUFUSE void f(int a, int b, int *restrict y)\n{\n%s}\n", body.data);
    Unit *u = parse_text("binops.c", b.data);
    check_assigns(u, want, n);
    unit_free(u);
    buf_free(&b);
    buf_free(&body);
}

static void assignment_operators_through_macros(void **state)
{
    (void)state;
    Buf b = {0}, body = {0};
    Want want[OP_COUNT * 3 + 8];
    int n = 0, k = 0;
    buf_printf(&b, "#include <gpufuse.h>\n#define INC(t) (t)++\n#define DEC(t) --t\n");
    for (Op op = OP_MUL_ASSIGN; op <= OP_BOR_ASSIGN; op++) {
        const char *o = op_spelling(op);
        buf_printf(&b, "#define C%d(t, v) t %s v\n#define O%d %s\n", op, o, op, o);
        buf_printf(&body, "    y[%d] %s a;\n    C%d(y[%d], a);\n    y[%d] O%d a;\n", k, o, op, k + 1, k + 2, op);
        for (int f = 0; f < 3; f++)
            want[n++] = (Want){S_ASSIGN, op, OP_NONE, E_VAR};
        k += 3;
    }
    static const char *const incdec[] = {"y[0]++", "++y[0]", "y[0]--", "--y[0]", "INC(y[1])", "DEC(y[1])"};
    static const Op incop[] = {OP_ADD_ASSIGN, OP_ADD_ASSIGN, OP_SUB_ASSIGN, OP_SUB_ASSIGN, OP_ADD_ASSIGN,
                               OP_SUB_ASSIGN};
    for (int i = 0; i < 6; i++) {
        buf_printf(&body, "    %s;\n", incdec[i]);
        want[n++] = (Want){S_ASSIGN, incop[i], OP_NONE, E_INT};
    }
    buf_printf(&b, "GPUFUSE void f(int a, int *restrict y)\n{\n%s}\n", body.data);
    Unit *u = parse_text("assignops.c", b.data);
    check_assigns(u, want, n);
    unit_free(u);
    buf_free(&b);
    buf_free(&body);
}

static void unary_operators_through_macros(void **state)
{
    (void)state;
    static const struct { const char *src; Op op; } cases[] = {
        {"-a", OP_NEG}, {"+a", OP_PLUS}, {"!a", OP_NOT}, {"~a", OP_BNOT},
        {"NEG(a)", OP_NEG}, {"NOT(a)", OP_NOT}, {"BNOT(a)", OP_BNOT}, {"- A_", OP_NEG}, {"UMINUS a", OP_NEG},
        {"NEG(NOT(a))", OP_NEG}, {"-(a)", OP_NEG}, {"-NEGC", OP_NEG},
    };
    int n = (int)(sizeof cases / sizeof *cases);
    Buf b = {0};
    buf_printf(&b, "#include <gpufuse.h>\n#define NEG(x) (-(x))\n#define NOT(x) !(x)\n#define BNOT(x) (~x)\n"
                   "#define A_ a\n#define UMINUS -\n#define NEGC -7\n"
                   "GPUFUSE void f(int a, int *restrict y)\n{\n");
    Want want[32];
    for (int i = 0; i < n; i++) {
        buf_printf(&b, "    y[%d] = %s;\n", i, cases[i].src);
        want[i] = (Want){S_ASSIGN, OP_ASSIGN, cases[i].op, E_UNARY};
    }
    buf_printf(&b, "}\n");
    Unit *u = parse_text("unops.c", b.data);
    check_assigns(u, want, n);
    unit_free(u);
    buf_free(&b);
}

/* The region's n-th assignment's rhs. */
static Expr *nth_rhs(Unit *u, int n)
{
    Region *r = vec_at(&u->regions, 0);
    Vec got = {0};
    assigns(r->body, &got, u->arena);
    assert_true(n < got.len);
    return ((Stmt *)vec_at(&got, n))->rhs;
}

static void system_header_macros(void **state)
{
    (void)state;
    Unit *u = parse_text("sysmacros.c", "#include <gpufuse.h>\n#include <math.h>\n#include <limits.h>\n"
                                        "#include <float.h>\n#include <sys/param.h>\n"
                                        "GPUFUSE void f(int a, int b, float x, float *restrict g, int *restrict y)\n{\n"
                                        "    g[0] = M_PI * x;\n"
                                        "    y[0] = INT_MIN;\n"
                                        "    y[1] = MIN(a, b);\n"
                                        "    y[2] = MAX(a, b);\n"
                                        "    y[3] = isnan(x) || !isfinite(x);\n"
                                        "    g[1] = x < INFINITY ? FLT_MAX : -HUGE_VALF;\n"
                                        "    y[4] = isinf(x);\n}\n");
    assert_non_null(u);
    assert_int_equal(u->regions.len, 1);
    Expr *e = nth_rhs(u, 0);
    assert_int_equal(e->kind, E_BINARY);
    assert_int_equal(e->op, OP_MUL);
    assert_int_equal(e->kids[0]->kind, E_FLOAT);
    assert_true(strtod(e->kids[0]->text, NULL) == 3.14159265358979323846);
    e = nth_rhs(u, 1);                           /* (-2147483647 - 1) */
    assert_int_equal(e->op, OP_SUB);
    assert_int_equal(e->kids[0]->kind, E_UNARY);
    assert_int_equal(e->kids[0]->op, OP_NEG);
    assert_string_equal(e->kids[0]->kids[0]->text, "2147483647");
    e = nth_rhs(u, 2);
    assert_int_equal(e->kind, E_COND);
    assert_int_equal(e->kids[0]->op, OP_LT);
    e = nth_rhs(u, 3);
    assert_int_equal(e->kids[0]->op, OP_GT);
    e = nth_rhs(u, 4);
    assert_int_equal(e->op, OP_LOR);
    assert_string_equal(e->kids[0]->text, "isnan");
    assert_int_equal(e->kids[1]->op, OP_NOT);
    assert_string_equal(e->kids[1]->kids[0]->text, "isfinite");
    e = nth_rhs(u, 5);
    assert_int_equal(e->kind, E_COND);
    assert_int_equal(e->kids[0]->op, OP_LT);
    assert_true(strtof(e->kids[1]->text, NULL) == FLT_MAX);
    assert_int_equal(e->kids[2]->op, OP_NEG);
    e = nth_rhs(u, 6);                           /* glibc: __builtin_isinf_sign */
    assert_true(e->kind == E_CALL || e->kind == E_COND);
    unit_free(u);
}

static void constants_from_the_ast(void **state)
{
    (void)state;
    Unit *u = parse_text("consts.c", "#include <gpufuse.h>\n#define N 512\n#define M 100\n#define PAD 2\n"
                                     "#define _PB_N N\n#define NEGC (-3)\nenum { E_NEG = -5, E_BIG = 1 << 20 };\n"
                                     "GPUFUSE void f(int n, double A[N + PAD][M + PAD], unsigned long *restrict u,\n"
                                     "               int *restrict y)\n{\n"
                                     "    for (int i = 0; i < _PB_N; i++)\n"
                                     "        A[i][M + 1] = 0.5;\n"
                                     "    y[0] = E_NEG;\n"
                                     "    y[1] = NEGC;\n"
                                     "    y[2] = E_BIG;\n"
                                     "    u[0] = 10ul + 0x10;\n"
                                     "    u[1] = sizeof(double[N + 1]);\n}\n");
    assert_non_null(u);
    assert_int_equal(u->regions.len, 1);
    Region *r = vec_at(&u->regions, 0);
    Var *a = param(r, "A");
    assert_int_equal(a->ndims, 2);
    assert_int_equal(a->dims[1]->kind, E_INT);   /* the inner size, folded from M + PAD */
    assert_string_equal(a->dims[1]->text, "102");
    Stmt *l = nth_loop(r, 0);
    assert_string_equal(l->ub->text, "512");
    assert_int_equal(nth_rhs(u, 1)->kind, E_INT);
    assert_string_equal(nth_rhs(u, 1)->text, "-5");
    assert_int_equal(nth_rhs(u, 2)->op, OP_NEG);
    assert_string_equal(nth_rhs(u, 3)->text, "1048576");
    assert_int_equal(nth_rhs(u, 4)->op, OP_ADD);
    assert_string_equal(nth_rhs(u, 4)->kids[1]->text, "0x10");
    assert_string_equal(nth_rhs(u, 5)->text, "4104ul");
    unit_free(u);
}

/* ---- the front end's limits ----------------------------------------------------
 * No fixed array truncates anything; the limits that remain are checked
 * with "too many ... (limit is N)" at the construct. */

/* Parses src and returns its diagnostics (static buffer). */
static const char *diagnostics_of(const char *name, const char *src)
{
    static char out[1 << 16];
    static const char *args[] = {"-I" TEST_INCLUDE_DIR};
    ParseOptions po = {args, 1, GFC_RESOURCE_DIR};
    FILE *f = tmpfile();
    assert_non_null(f);
    gfc_diag.out = f;
    Unit *u = parse_unit(tmp_file(name, src, strlen(src)), &po);
    gfc_diag.out = NULL;
    assert_non_null(u);
    assert_int_equal(u->rejected.len, 1);
    unit_free(u);
    rewind(f);
    size_t n = fread(out, 1, sizeof out - 1, f);
    out[n] = '\0';
    fclose(f);
    return out;
}

static void deep_expression_limit(void **state)
{
    (void)state;
    Buf b = {0};
    buf_printf(&b, "#include <gpufuse.h>\nGPUFUSE void f(int n, float *restrict y)\n{\n"
                   "    for (int i = 0; i < n; i++)\n        y[i] = y[i]");
    for (int i = 0; i < 4001; i++)
        buf_puts(&b, " + 1.0f");
    buf_puts(&b, ";\n}\n");
    const char *d = diagnostics_of("deepexpr.c", b.data);
    assert_non_null(strstr(d, "deepexpr.c:5:"));
    assert_non_null(strstr(d, "too many nested expressions"));
    assert_non_null(strstr(d, "(limit is 4000)"));
    buf_free(&b);
}

static void deep_statement_limit(void **state)
{
    (void)state;
    Buf b = {0};
    buf_printf(&b, "#include <gpufuse.h>\nGPUFUSE void f(int n, float *restrict y)\n{\n"
                   "    for (int i = 0; i < n; i++)\n");
    for (int i = 0; i < 1001; i++)
        buf_puts(&b, "        if (y[i] > 0.0f)\n");
    buf_puts(&b, "            y[i] = 0.0f;\n}\n");
    const char *d = diagnostics_of("deepstmt.c", b.data);
    assert_non_null(strstr(d, "too many nested statements (limit is 1000)"));
    buf_free(&b);
}

/* Many children of one node: nothing is dropped (the front end's arrays
 * were once 64 long). */
static void wide_nodes(void **state)
{
    (void)state;
    Buf b = {0};
    buf_printf(&b, "#include <gpufuse.h>\nGPUFUSE float f(int n");
    for (int i = 0; i < 70; i++)
        buf_printf(&b, ", float p%d", i);
    buf_printf(&b, ", float *restrict y)\n{\n    float s = 0.0f;\n    for (int i = 0; i < n; i++) {\n"
                   "        switch (i %% 150) {\n");
    for (int i = 0; i < 140; i++)
        buf_printf(&b, "        case %d: y[i] = p%d; break;\n", i, i % 70);
    buf_printf(&b, "        }\n");
    for (int i = 0; i < 100; i++)
        buf_printf(&b, "        s += p%d;\n", i % 70);
    buf_printf(&b, "    }\n    return s;\n}\n");
    Unit *u = parse_text("wide.c", b.data);
    assert_non_null(u);
    assert_int_equal(u->regions.len, 1);
    Region *r = vec_at(&u->regions, 0);
    assert_int_equal(r->params.len, 72);
    Vec got = {0};
    assigns(r->body, &got, u->arena);
    assert_int_equal(got.len, 140 + 100);
    Stmt *last = vec_at(&got, 139);
    assert_string_equal(last->rhs->var->name, "p69");
    unit_free(u);
    buf_free(&b);
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
        cmocka_unit_test(complex_types),
        cmocka_unit_test(not_a_reduction),
        cmocka_unit_test(fusable_nests),
        cmocka_unit_test(extents),
        cmocka_unit_test(write_only_and_alias),
        cmocka_unit_test(gather_extent_from_declared_size),
        cmocka_unit_test(binary_operators_through_macros),
        cmocka_unit_test(assignment_operators_through_macros),
        cmocka_unit_test(unary_operators_through_macros),
        cmocka_unit_test(system_header_macros),
        cmocka_unit_test(constants_from_the_ast),
        cmocka_unit_test(deep_expression_limit),
        cmocka_unit_test(deep_statement_limit),
        cmocka_unit_test(wide_nodes),
    };
    return cmocka_run_group_tests_name("frontend", tests, NULL, NULL);
}
