/* The IR's one traversal (IrVisitor, ir.c): every slot a statement owns is
 * visited (break flags, array sizes, conditions, subscripts), in the
 * documented order; skip, up, mutators; the helpers built on it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "helpers.h"

/* A for loop and a while loop that break, a VLA sized by a parameter,
 * conditions (the IR as gpufuse --emit=ir shows it:
 *   S0: decl float t[m]
 *   for i in [0, n)
 *     S1: decl float s = x[i];  S4: decl int gf_brk = 0
 *     for j in [0, m) until gf_brk
 *       if (x[j] > s) S2: gf_brk = 1
 *       if (!gf_brk) S3: y[((i * m) + j)] = x[j]
 *     S5: decl int w = 0;  S9: decl int gf_brk_1 = 0
 *     S8: while (w < m) until gf_brk_1 ...
 *     S10: z[i] = (w + t[0])) */
static const char *src = "#include <gpufuse.h>\n"
                         "GPUFUSE void f(int n, int m, const float x[n + m], float y[n * m], float z[n])\n{\n"
                         "    float t[m];\n"
                         "    for (int i = 0; i < n; i++) {\n"
                         "        float s = x[i];\n"
                         "        for (int j = 0; j < m; j++) {\n"
                         "            if (x[j] > s)\n"
                         "                break;\n"
                         "            y[i * m + j] = x[j];\n"
                         "        }\n"
                         "        int w = 0;\n"
                         "        while (w < m) {\n"
                         "            if (x[w] < s)\n"
                         "                break;\n"
                         "            w++;\n"
                         "        }\n"
                         "        z[i] = w + t[0];\n"
                         "    }\n"
                         "}\n";

static Region *region(void)
{
    Unit *u = parse_text("walk.c", src);
    assert_non_null(u);
    assert_int_equal(u->regions.len, 1);
    return vec_at(&u->regions, 0);
}

static Var *local(Region *r, const char *name)
{
    for (int i = 0; i < r->vars.len; i++) {
        Var *v = vec_at(&r->vars, i);
        if (!strcmp(v->name, name))
            return v;
    }
    return NULL;
}

static bool is_ref(const Expr *e, const void *v)
{
    return (e->kind == E_VAR || e->kind == E_INDEX) && e->var == v;
}

static IrFind first_kind(const Stmt *s, const void *kind)
{
    return s->kind == *(const StmtKind *)kind ? IR_FOUND : IR_NEXT;
}

static Stmt *first(Stmt *s, StmtKind k)
{
    return ir_stmt_find(s, first_kind, &k);
}

/* The break flags and the array's size are slots of their statements. */
static void own_slots(void **state)
{
    (void)state;
    Region *r = region();
    Stmt *li = nth_loop(r, 0), *lj = nth_loop(r, 1), *wl = first(r->body, S_WHILE);
    assert_non_null(lj);
    assert_non_null(lj->brk);
    assert_non_null(wl);
    assert_non_null(wl->brk);
    assert_true(ir_own_any(lj, is_ref, lj->brk->var));
    assert_true(ir_own_any(wl, is_ref, wl->brk->var));
    assert_false(ir_own_any(li, is_ref, lj->brk->var));   /* in the body, not the head */
    assert_true(ir_stmt_any(li, is_ref, lj->brk->var));
    /* float t[m]: the declaration reads m through the array's size */
    Var *t = local(r, "t");
    assert_non_null(t);
    assert_true(t->is_array);
    assert_true(ir_own_any(t->decl, is_ref, param(r, "m")));
    assert_false(ir_own_any(t->decl, is_ref, t));
    unit_free(r->unit);
}

typedef struct Log {
    IrVisitor v;
    char text[4096];
    int len;
} Log;

static void say(Log *l, const char *s)
{
    l->len += snprintf(l->text + l->len, sizeof l->text - (size_t)l->len, "%s ", s);
}

static bool log_stmt(IrVisitor *v, Stmt *s)
{
    say((Log *)v, stmt_kind_names[s->kind]);
    return true;
}

static void log_after(IrVisitor *v, Stmt *s)
{
    (void)s;
    say((Log *)v, "/");
}

static Expr *log_expr(IrVisitor *v, Expr *e, Stmt *owner)
{
    (void)owner;
    say((Log *)v, e->kind == E_VAR || e->kind == E_INDEX ? e->var->name : expr_kind_names[e->kind]);
    return e;
}

static Expr *log_expr_after(IrVisitor *v, Expr *e, Stmt *owner)
{
    (void)owner;
    if (e->kind == E_INDEX)
        say((Log *)v, "]");
    return e;
}

static IrFind array_store(const Stmt *s, const void *arg)
{
    (void)arg;
    return s->kind == S_ASSIGN && s->lhs->kind == E_INDEX ? IR_FOUND : IR_NEXT;
}

/* Pre-order statements, slots before children, expressions before and
 * after their operands. */
static void order(void **state)
{
    (void)state;
    Region *r = region();
    Log l = {.v = {.stmt = log_stmt, .stmt_after = log_after, .expr = log_expr, .expr_after = log_expr_after}};
    ir_visit_stmt(&l.v, ir_stmt_find(r->body, array_store, NULL));
    assert_string_equal(l.text, "S_ASSIGN y E_BINARY E_BINARY i m j ] x j ] / ");
    /* a loop: its bounds, its break flag, then the body */
    l.len = 0;
    ir_visit_stmt(&l.v, nth_loop(r, 1));
    assert_true(!strncmp(l.text, "S_FOR E_INT m gf_brk S_BLOCK S_IF E_BINARY x j ] s S_ASSIGN gf_brk E_INT / / ",
                         strlen("S_FOR E_INT m gf_brk S_BLOCK S_IF E_BINARY x j ] s S_ASSIGN gf_brk E_INT / / ")));
    /* a while loop: its break flag, then its condition */
    l.len = 0;
    ir_visit_stmt(&l.v, first(r->body, S_WHILE));
    assert_true(!strncmp(l.text, "S_WHILE gf_brk E_BINARY w m S_BLOCK ", strlen("S_WHILE gf_brk E_BINARY w m S_BLOCK ")));
    /* a declared array: its size, then its initialiser */
    l.len = 0;
    ir_visit_stmt(&l.v, local(r, "t")->decl);
    assert_string_equal(l.text, "S_DECL m / ");
    unit_free(r->unit);
}

static bool skip_own(IrVisitor *v, Stmt *s)
{
    log_stmt(v, s);
    v->skip = s->kind == S_FOR;
    return true;
}

static Expr *skip_kids(IrVisitor *v, Expr *e, Stmt *owner)
{
    log_expr(v, e, owner);
    v->skip = e->kind == E_INDEX;
    return e;
}

/* skip: a statement's own expressions (its children still walked), an
 * expression's operands (expr_after still called). */
static void skipping(void **state)
{
    (void)state;
    Region *r = region();
    Stmt *li = nth_loop(r, 0);
    Log l = {.v = {.stmt = skip_own, .expr = skip_kids, .expr_after = log_expr_after}};
    ir_visit_stmt(&l.v, li);
    assert_true(!strncmp(l.text, "S_FOR S_BLOCK S_DECL x ] S_DECL E_INT S_FOR S_BLOCK ",
                         strlen("S_FOR S_BLOCK S_DECL x ] S_DECL E_INT S_FOR S_BLOCK ")));
    assert_non_null(strstr(l.text, "S_ASSIGN y ] x ] "));   /* no subscripts */
    assert_non_null(strstr(l.text, "S_ASSIGN z ] E_BINARY w t ] "));
    assert_null(strstr(l.text, " n "));                      /* the loops' bounds */
    unit_free(r->unit);
}

typedef struct Around {
    IrVisitor v;
    const Stmt *target;
    StmtKind kinds[16];
    int n;
} Around;

static bool around_at(IrVisitor *v, Stmt *s)
{
    Around *a = (Around *)v;
    if (s == a->target)
        for (const IrFrame *f = v->up; f && a->n < 16; f = f->up)
            a->kinds[a->n++] = f->s->kind;
    return true;
}

/* up: the enclosing statements of the walk, innermost first. */
static void frames(void **state)
{
    (void)state;
    Region *r = region();
    Stmt *lj = nth_loop(r, 1);
    Around a = {{.stmt = around_at}, lj, {0}, 0};
    ir_visit_stmt(&a.v, r->body);
    assert_int_equal(a.n, 3);
    assert_int_equal(a.kinds[0], S_BLOCK);   /* i's body */
    assert_int_equal(a.kinds[1], S_FOR);
    assert_int_equal(a.kinds[2], S_BLOCK);   /* the function's body */
    /* a walk from the loop itself starts with no frame */
    a.n = 0;
    ir_visit_stmt(&a.v, lj);
    assert_int_equal(a.n, 0);
    unit_free(r->unit);
}

typedef struct Swap {
    IrVisitor v;
    const Var *from;
    Var *to;
    int n;
} Swap;

static Expr *swap_var(IrVisitor *v, Expr *e, Stmt *owner)
{
    (void)owner;
    Swap *s = (Swap *)v;
    if (is_ref(e, s->from)) {
        e->var = s->to;
        s->n++;
    }
    return e;
}

/* ir_copy_stmt copies every slot (the break flag too): renaming in the
 * copy leaves the original alone. */
static void copies(void **state)
{
    (void)state;
    Region *r = region();
    Stmt *li = nth_loop(r, 0), *lj = nth_loop(r, 1);
    Stmt *c = ir_copy_stmt(r->unit->arena, li, li->parent);
    Stmt *cj = nth_loop_rec(c, &(int){1});
    assert_non_null(cj);
    assert_ptr_not_equal(cj->brk, lj->brk);
    assert_true(expr_equal(cj->brk, lj->brk));
    assert_ptr_equal(cj->parent->parent, c);
    Var other = *lj->brk->var;
    Swap s = {{.expr = swap_var}, lj->brk->var, &other, 0};
    ir_visit_stmt(&s.v, c);
    assert_int_equal(s.n, 3);    /* the head, the assignment at the break, the guard */
    assert_ptr_equal(lj->brk->var, s.from);
    assert_true(ir_stmt_any(li, is_ref, s.from));
    assert_false(ir_stmt_any(c, is_ref, s.from));
    unit_free(r->unit);
}

typedef struct Bump {
    IrVisitor v;
    Arena *a;
} Bump;

/* After its operands: every integer literal 0 becomes 1 (a post-order mutator). */
static Expr *bump(IrVisitor *v, Expr *e, Stmt *owner)
{
    (void)owner;
    if (e->kind != E_INT || strcmp(e->text, "0"))
        return e;
    Expr *x = ir_copy_expr(((Bump *)v)->a, e);
    x->text = "1";
    return x;
}

static bool is_zero_lit(const Expr *e, const void *arg)
{
    (void)arg;
    return e->kind == E_INT && !strcmp(e->text, "0");
}

static void mutators(void **state)
{
    (void)state;
    Region *r = region();
    Stmt *li = nth_loop(r, 0);
    assert_true(ir_stmt_any(li, is_zero_lit, NULL));
    Bump b = {{.expr_after = bump}, r->unit->arena};
    ir_visit_stmt(&b.v, li);
    assert_false(ir_stmt_any(li, is_zero_lit, NULL));   /* bounds, subscripts t[0], values */
    unit_free(r->unit);
}

static IrFind no_loops(const Stmt *s, const void *arg)
{
    (void)arg;
    if (s->kind == S_FOR)
        return IR_SKIP;
    return s->kind == S_DECL ? IR_FOUND : IR_NEXT;
}

/* ir_stmt_find prunes; ir_take_decl removes a declaration. */
static void find_and_take(void **state)
{
    (void)state;
    Region *r = region();
    Stmt *d = ir_stmt_find(r->body, no_loops, NULL);
    assert_non_null(d);
    assert_string_equal(d->var->name, "t");
    d = ir_stmt_find(nth_loop(r, 0)->body, no_loops, NULL);
    assert_string_equal(d->var->name, "s");
    Var *t = local(r, "t");
    Stmt *decl = t->decl;
    assert_ptr_equal(ir_take_decl(r->body, t), decl);
    assert_null(ir_take_decl(r->body, t));
    assert_null(ir_stmt_find(r->body, no_loops, NULL));   /* no other declaration outside the loop */
    unit_free(r->unit);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(own_slots),  cmocka_unit_test(order),    cmocka_unit_test(skipping),
        cmocka_unit_test(frames),     cmocka_unit_test(copies),   cmocka_unit_test(mutators),
        cmocka_unit_test(find_and_take),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
