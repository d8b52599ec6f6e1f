/* resched.c - nests with no parallel loop as written, run in the order
 * isl's scheduler finds (deps_reschedule; docs/architecture.md, "The isl
 * model").  Works on deps.c's model (model.h). */
#include "model.h"

#include <isl/ast_build.h>
#include <isl/ctx.h>
#include <isl/options.h>
#include <isl/schedule.h>
#include <isl/schedule_node.h>
#include <isl/val.h>
#include <stdlib.h>
#include <string.h>

/* ---- rescheduling ----------------------------------------------------------------
 * A nest in which some statement runs inside loops none of which is
 * parallel (lu's row-by-row elimination, a triangular solve, cholesky) may
 * run the same instances in another order that has parallel loops: isl's
 * scheduler (the Pluto-style one PPCG uses) looks for it, with every
 * dependence among the nest's statements as a constraint (those between
 * reduction updates too: the new order keeps C's order of each sum), and
 * isl's AST generator writes the loops.  The nest is replaced when in the
 * new order fewer statements lack a parallel loop around them; the C body
 * keeps the loops as written (Region.seq_body).  Only nests isl knows
 * exactly are tried: every statement an assignment to an array element,
 * every domain, condition and subscript exact, no break, no while loop, no
 * scalar written, the loop indices not read after the nest. */

/* isl operations the scheduler and the AST generator may spend on a nest */
#define RESCHEDULE_MAX_OPS 1000000UL

static Type rs_int = {.kind = TY_INT}, rs_llong = {.kind = TY_LLONG};

typedef struct Resched {
    Model *m;
    Arena *a;
    Stmt *nest;
    isl_union_map *deps;         /* every dependence among the nest's statements */
    Type *ivty;                  /* the new loops' index type */
    Var *ivs[64];                /* the new loops' indices, by depth */
    isl_id *ids[64];             /* their isl ids */
    int nids;
    Vec placed;                  /* PStmt*: placed once (its Stmt id taken over) */
    Vec par;                     /* Stmt*: the new loops isl's order makes parallel */
    int bad;                     /* statements inside loops, none parallel */
    int max_ser;                 /* the most sequential loops around a parallel one */
    bool fail;                   /* something isl wrote that the IR cannot hold */
} Resched;

/* Whether the loop isl is about to write (the innermost dimension of the
 * build's schedule) carries none of c->deps: the dependences between
 * instances the outer dimensions keep together have equal values here. */
static bool ast_dim_parallel(Resched *c, isl_ast_build *build)
{
    isl_union_map *sched = isl_ast_build_get_schedule(build);
    isl_space *sp = isl_ast_build_get_schedule_space(build);
    isl_size n = isl_space_dim(sp, isl_dim_set);
    isl_space_free(sp);
    isl_union_map *d = isl_union_map_apply_range(isl_union_map_copy(c->deps), isl_union_map_copy(sched));
    d = isl_union_map_apply_domain(d, sched);
    isl_bool empty = isl_union_map_is_empty(d);
    if (n < 1 || empty < 0) {
        isl_union_map_free(d);
        return false;
    }
    if (empty) {
        isl_union_map_free(d);
        return true;
    }
    isl_map *map = isl_map_from_union_map(d);
    for (int i = 0; i < n - 1; i++)
        map = isl_map_equate(map, isl_dim_in, i, isl_dim_out, i);
    isl_set *delta = isl_set_flatten(isl_map_deltas(map));
    isl_set *up = isl_set_lower_bound_si(isl_set_copy(delta), isl_dim_set, (unsigned)(n - 1), 1);
    isl_set *off = isl_set_union(up, isl_set_upper_bound_si(delta, isl_dim_set, (unsigned)(n - 1), -1));
    isl_bool none = isl_set_is_empty(off);
    isl_set_free(off);
    return none == isl_bool_true;
}

static isl_id *before_for(isl_ast_build *build, void *user)
{
    Resched *c = user;
    return isl_id_alloc(c->m->ctx, ast_dim_parallel(c, build) ? "parallel" : "serial", NULL);
}

static Stmt *rs_stmt(Resched *c, StmtKind k, Stmt *parent)
{
    Stmt *s = arena_alloc(c->a, sizeof *s);
    memset(s, 0, sizeof *s);
    s->kind = k;
    s->loc = c->nest->loc;
    s->end_line = c->nest->end_line;
    s->id = -1;
    s->parent = parent;
    return s;
}

static void rs_push(Resched *c, Stmt *blk, Stmt *s)
{
    if (!s)
        return;
    s->parent = blk;
    vec_push(c->a, &blk->list, s);
}

/* The new index of depth k (one Var for the loops of a depth, as C code
 * reuses `j` for sibling loops). */
static Var *rs_iv(Resched *c, int k)
{
    if (c->ivs[k])
        return c->ivs[k];
    Region *r = c->m->r;
    Var *v = arena_alloc(c->a, sizeof *v);
    v->name = arena_printf(c->a, "c%d", k);
    v->cname = v->name;
    for (int i = 0, n = 1; i < r->vars.len; i++) {
        Var *o = vec_at(&r->vars, i);
        if (!strcmp(o->cname, v->cname)) {
            v->cname = arena_printf(c->a, "c%d_%d", k, n++);
            i = -1;
        }
    }
    v->ty = c->ivty;
    v->kind = V_IV;
    v->id = r->vars.len;
    v->loc = c->nest->loc;
    v->depth = k;
    vec_push(c->a, &r->vars, v);
    c->ivs[k] = v;
    return v;
}

/* The new index an AST identifier names, or NULL (Model.ast_iv). */
static Expr *rs_id(void *cx, isl_id *id)
{
    Resched *c = cx;
    for (int k = 0; k < c->nids; k++)
        if (id == c->ids[k]) {
            Expr *x = model_ext_node(c->m, E_VAR, OP_NONE, 0);
            x->var = rs_iv(c, k);
            x->ty = x->var->ty;
            x->loc = c->nest->loc;
            return x;
        }
    return NULL;
}

/* e + 1 or e - 1 (op OP_ADD, OP_SUB), a new node over e. */
static Expr *rs_one_off(Resched *c, Expr *e, Op op)
{
    Expr *one = model_ext_node(c->m, E_INT, OP_NONE, 0);
    one->text = "1";
    Expr *x = model_ext_node(c->m, E_BINARY, op, 2);
    x->kids[0] = e;
    x->kids[1] = one;
    return x;
}

typedef struct Subst {
    IrVisitor v;
    Arena *a;
    Var **from;
    Expr **to;
    int n;
} Subst;

static Expr *subst_expr(IrVisitor *v, Expr *e, Stmt *owner)
{
    (void)owner;
    Subst *c = (Subst *)v;
    if (e->kind == E_INDEX)
        e->aff = NULL;
    if (e->kind != E_VAR)
        return e;
    for (int k = 0; k < c->n; k++)
        if (e->var == c->from[k])
            return ir_copy_expr(c->a, c->to[k]);
    return e;
}

static Stmt *rs_node(Resched *c, isl_ast_node *n, Stmt *parent, int depth, bool par);

static Stmt *rs_block(Resched *c, isl_ast_node *n, Stmt *parent, int depth, bool par)
{
    Stmt *b = rs_stmt(c, S_BLOCK, parent);
    if (isl_ast_node_get_type(n) == isl_ast_node_block) {
        isl_ast_node_list *l = isl_ast_node_block_get_children(n);
        isl_size k = isl_ast_node_list_n_ast_node(l);
        for (int i = 0; i < k && !c->fail; i++) {
            isl_ast_node *x = isl_ast_node_list_get_ast_node(l, i);
            rs_push(c, b, rs_node(c, x, b, depth, par));
            isl_ast_node_free(x);
        }
        isl_ast_node_list_free(l);
    } else {
        rs_push(c, b, rs_node(c, n, b, depth, par));
    }
    return b;
}

static Stmt *rs_user(Resched *c, isl_ast_node *n, Stmt *parent, int depth, bool par)
{
    isl_ast_expr *call = isl_ast_node_user_get_expr(n);
    isl_ast_expr *f = call ? isl_ast_expr_op_get_arg(call, 0) : NULL;
    isl_id *id = f ? isl_ast_expr_get_id(f) : NULL;
    PStmt *ps = id ? isl_id_get_user(id) : NULL;
    isl_id_free(id);
    isl_ast_expr_free(f);
    isl_size nargs = call ? isl_ast_expr_op_get_n_arg(call) : -1;
    if (!ps || nargs != ps->nloops + 1 || ps->nloops > 64) {
        isl_ast_expr_free(call);
        c->fail = true;
        return NULL;
    }
    Var *from[64];
    Expr *to[64];
    for (int k = 0; k < ps->nloops && !c->fail; k++) {
        isl_ast_expr *x = isl_ast_expr_op_get_arg(call, k + 1);
        from[k] = ps->loops[k]->iv;
        to[k] = model_ast_expr(c->m, x);
        c->fail |= !to[k];
        isl_ast_expr_free(x);
    }
    isl_ast_expr_free(call);
    if (c->fail)
        return NULL;
    if (depth > 0 && !par)
        c->bad++;
    Stmt *s = ir_copy_stmt(c->a, ps->s, parent);
    Subst sb = {{.expr = subst_expr}, c->a, from, to, ps->nloops};
    ir_visit_stmt(&sb.v, s);
    s->depth = depth;
    /* the first copy takes the statement's number, the others new ones */
    bool again = false;
    for (int i = 0; i < c->placed.len; i++)
        again |= vec_at(&c->placed, i) == ps;
    if (!again)
        vec_push(c->a, &c->placed, ps);
    s->id = again ? -2 : ps->s->id;   /* -2: numbered when the nest is taken */
    return s;
}

static Stmt *rs_node(Resched *c, isl_ast_node *n, Stmt *parent, int depth, bool par)
{
    switch (isl_ast_node_get_type(n)) {
    case isl_ast_node_block:
        return rs_block(c, n, parent, depth, par);
    case isl_ast_node_user:
        return rs_user(c, n, parent, depth, par);
    case isl_ast_node_if: {
        Stmt *s = rs_stmt(c, S_IF, parent);
        isl_ast_expr *e = isl_ast_node_if_get_cond(n);
        s->cond = model_ast_expr(c->m, e);
        isl_ast_expr_free(e);
        c->fail |= !s->cond;
        isl_ast_node *t = isl_ast_node_if_get_then_node(n);
        s->then = rs_block(c, t, s, depth, par);
        isl_ast_node_free(t);
        if (isl_ast_node_if_has_else_node(n) == isl_bool_true) {
            isl_ast_node *x = isl_ast_node_if_get_else_node(n);
            s->els = rs_block(c, x, s, depth, par);
            isl_ast_node_free(x);
        }
        return s;
    }
    case isl_ast_node_for: {
        if (depth >= c->nids) {
            c->fail = true;
            return NULL;
        }
        Stmt *s = rs_stmt(c, S_FOR, parent);
        s->depth = depth;
        s->iv = rs_iv(c, depth);
        isl_id *an = isl_ast_node_get_annotation(n);
        bool p = an && !strcmp(isl_id_get_name(an), "parallel");
        isl_id_free(an);
        isl_ast_expr *init = isl_ast_node_for_get_init(n);
        s->lb = model_ast_expr(c->m, init);
        isl_ast_expr_free(init);
        s->step = 1;
        if (isl_ast_node_for_is_degenerate(n) == isl_bool_true) {
            /* one iteration: [init, init + 1) */
            s->ub = s->lb ? rs_one_off(c, ir_copy_expr(c->a, s->lb), OP_ADD) : NULL;
            p = false;
        } else {
            isl_ast_expr *cond = isl_ast_node_for_get_cond(n), *inc = isl_ast_node_for_get_inc(n);
            isl_val *st = isl_ast_expr_get_type(inc) == isl_ast_expr_int ? isl_ast_expr_int_get_val(inc) : NULL;
            if (!st || isl_val_is_pos(st) != isl_bool_true || isl_val_cmp_si(st, 1L << 30) > 0)
                c->fail = true;
            else
                s->step = isl_val_get_num_si(st);
            isl_val_free(st);
            enum isl_ast_expr_op_type t = isl_ast_expr_get_type(cond) == isl_ast_expr_op ?
                                          isl_ast_expr_op_get_type(cond) : isl_ast_expr_op_error;
            isl_ast_expr *lhs = t == isl_ast_expr_op_le || t == isl_ast_expr_op_lt ? isl_ast_expr_op_get_arg(cond, 0) : NULL;
            isl_id *lid = lhs && isl_ast_expr_get_type(lhs) == isl_ast_expr_id ? isl_ast_expr_get_id(lhs) : NULL;
            if (!lid || lid != c->ids[depth]) {
                c->fail = true;
            } else {
                isl_ast_expr *rhs = isl_ast_expr_op_get_arg(cond, 1);
                Expr *u = model_ast_expr(c->m, rhs);
                isl_ast_expr_free(rhs);
                if (u && t == isl_ast_expr_op_le)
                    u = rs_one_off(c, u, OP_ADD);
                s->ub = u;
            }
            isl_id_free(lid);
            isl_ast_expr_free(lhs);
            isl_ast_expr_free(cond);
            isl_ast_expr_free(inc);
        }
        c->fail |= !s->lb || !s->ub;
        if (p)
            vec_push(c->a, &c->par, s);
        if (p && !par) {
            /* the sequential loops around this first parallel one: each
             * of their iterations is a launch (at most one such loop) */
            int ser = 0;
            for (Stmt *x = parent; x; x = x->parent)
                ser += x->kind == S_FOR;
            if (ser > c->max_ser)
                c->max_ser = ser;
        }
        isl_ast_node *b = isl_ast_node_for_get_body(n);
        s->body = rs_block(c, b, s, depth + 1, par || p);
        isl_ast_node_free(b);
        return s;
    }
    default:
        c->fail = true;
        return NULL;
    }
}

static bool rs_is_par(Resched *c, const Stmt *l)
{
    for (int i = 0; i < c->par.len; i++)
        if (vec_at(&c->par, i) == l)
            return true;
    return false;
}

static bool names_var(const Expr *e, const void *v)
{
    return e->kind == E_VAR && e->var == v;
}

/* e with v replaced by x (a copy). */
static Expr *rs_at(Resched *c, const Expr *e, Var *v, const Expr *x)
{
    Expr *to = (Expr *)x;
    Var *from = v;
    Subst sb = {{.expr = subst_expr}, c->a, &from, &to, 1};
    return ir_visit_expr(&sb.v, ir_copy_expr(c->a, e), NULL);
}

/* A parallel loop f whose body is one parallel loop g with bounds affine
 * in f's index (a triangle: lu's `c2 < c1`): g runs over the bounding box
 * of its ranges, [min of its lower bounds at f's first and last index, max
 * of its upper bounds there), its body guarded by its own bounds, so the
 * two loops are a rectangle the plan maps to a 2-D grid.  The guarded
 * instances are the same, in the same order. */
static void rs_box_all(Resched *c, Stmt *s);
static void rs_inner_pick(Stmt *f, Stmt *g);

/* A bound of e over f's range [lo, hi] (hi = f's last index): the least
 * (low) or greatest value, or one beyond it, so that every value e takes
 * lies inside.  Affine parts take their extreme at an end (by the sign of
 * f's coefficient); min, max, floor division and C division by a positive
 * constant and sums are monotone in each operand, so the extremes of the
 * operands bound them; a difference or a negation swaps low and high.
 * NULL when e has another form. */
static Expr *rs_extreme(Resched *c, const Expr *e, Var *v, const Expr *lo, const Expr *hi, bool low)
{
    if (!e)
        return NULL;
    if (!ir_expr_any(e, names_var, v))
        return ir_copy_expr(c->a, e);
    Aff *f = aff_of(c->a, (Expr *)e);
    if (f) {
        long long k = aff_coef(f, v);
        return rs_at(c, e, v, (k >= 0) == low ? lo : hi);
    }
    /* each kid: its extreme in the same direction (+1), the other (-1), or
     * itself (0: a positive constant divisor or factor) */
    int dir[2] = {0, 0};
    bool pos_const = e->nkids == 2 && expr_pos_const(e->kids[1]) > 0;
    switch (e->kind) {
    case E_CAST:
        if (!type_is_integer(e->ty))
            return NULL;
        dir[0] = 1;
        break;
    case E_UNARY:
        if (e->op != OP_NEG && e->op != OP_PLUS)
            return NULL;
        dir[0] = e->op == OP_NEG ? -1 : 1;
        break;
    case E_BINARY:
        if (e->op == OP_ADD || e->op == OP_SUB)
            dir[0] = 1, dir[1] = e->op == OP_SUB ? -1 : 1;
        else if ((e->op == OP_DIV || e->op == OP_MUL) && pos_const)
            dir[0] = 1;
        else
            return NULL;
        break;
    case E_CALL:
        if (e->nkids == 2 && (!strcmp(e->text, "gf_min") || !strcmp(e->text, "gf_max")))
            dir[0] = dir[1] = 1;
        else if (e->nkids == 2 && !strcmp(e->text, "gf_floord") && pos_const)
            dir[0] = 1;
        else
            return NULL;
        break;
    default:
        return NULL;
    }
    Expr *r = ir_copy_expr(c->a, e);
    for (int i = 0; i < e->nkids && i < 2; i++) {
        if (dir[i])
            r->kids[i] = rs_extreme(c, e->kids[i], v, lo, hi, dir[i] > 0 ? low : !low);
        if (!r->kids[i])
            return NULL;
    }
    return r;
}

/* A parallel loop f whose body is one parallel loop g with bounds that
 * depend on f's index (a triangle: lu's `c2 < c1`; a skewed band:
 * seidel's wavefront): g runs over the bounding box of its ranges (its
 * bounds' extremes over f's range, rs_extreme), its body guarded by its
 * own bounds, so the two loops are a rectangle the plan maps to a 2-D
 * grid.  The guarded instances are the same, in the same order. */
static void rs_box(Resched *c, Stmt *f)
{
    if (!f || f->kind != S_FOR)
        return;
    Stmt *g = f->body && f->body->kind == S_BLOCK && f->body->list.len == 1 ? vec_at(&f->body->list, 0) : NULL;
    Expr *lo = NULL, *hi = NULL;
    if (g && g->kind == S_FOR && rs_is_par(c, f) && rs_is_par(c, g) && f->step == 1 && g->step == 1 &&
        (ir_expr_any(g->lb, names_var, f->iv) || ir_expr_any(g->ub, names_var, f->iv))) {
        Expr *last = rs_one_off(c, ir_copy_expr(c->a, f->ub), OP_SUB);
        lo = rs_extreme(c, g->lb, f->iv, f->lb, last, true);
        hi = rs_extreme(c, g->ub, f->iv, f->lb, last, false);
    }
    if (lo && hi) {
        /* the guard: the bounds the box moved */
        Expr *iv = model_ext_node(c->m, E_VAR, OP_NONE, 0);
        iv->var = g->iv;
        iv->ty = g->iv->ty;
        Expr *both = NULL;
        if (!expr_equal(lo, g->lb)) {
            both = model_ext_node(c->m, E_BINARY, OP_GE, 2);
            both->kids[0] = ir_copy_expr(c->a, iv);
            both->kids[1] = g->lb;
            both->ty = &rs_int;
        }
        if (!expr_equal(hi, g->ub)) {
            Expr *lt = model_ext_node(c->m, E_BINARY, OP_LT, 2);
            lt->kids[0] = ir_copy_expr(c->a, iv);
            lt->kids[1] = g->ub;
            lt->ty = &rs_int;
            if (both) {
                Expr *x = model_ext_node(c->m, E_BINARY, OP_LAND, 2);
                x->kids[0] = both;
                x->kids[1] = lt;
                x->ty = &rs_int;
                lt = x;
            }
            both = lt;
        }
        if (both) {
            Stmt *guard = rs_stmt(c, S_IF, g);
            guard->cond = both;
            guard->then = g->body;
            g->body->parent = guard;
            Stmt *nb = rs_stmt(c, S_BLOCK, g);
            rs_push(c, nb, guard);
            g->body = nb;
        }
        g->lb = lo;
        g->ub = hi;
        rs_inner_pick(f, g);
    }
    rs_box_all(c, f->body);   /* the loops below */
}

typedef struct RowUse {
    IrVisitor v;
    const Var *a, *b;
    int na, nb;                  /* accesses with a (b) in a subscript other than the last */
} RowUse;

static Expr *row_use_expr(IrVisitor *v, Expr *e, Stmt *owner)
{
    (void)owner;
    RowUse *c = (RowUse *)v;
    if (e->kind != E_INDEX || e->nkids < 2)
        return e;
    bool ua = false, ub = false;
    for (int k = 0; k + 1 < e->nkids; k++) {
        ua |= ir_expr_any(e->kids[k], names_var, c->a);
        ub |= ir_expr_any(e->kids[k], names_var, c->b);
    }
    c->na += ua;
    c->nb += ub;
    return e;
}

/* After rs_box: f and g one rectangle, both parallel, so no dependence
 * joins two of its points and either order is right.  The plan maps the
 * inner loop to consecutive threads: it should be the one that moves along
 * rows (the last subscript) rather than across them.  Seidel's wavefront
 * `A[c2][c0 - 2 * c1 - c2]` has the row index inner as isl writes it;
 * swapped, neighbouring threads read neighbouring columns. */
static void rs_inner_pick(Stmt *f, Stmt *g)
{
    RowUse u = {{.expr = row_use_expr}, f->iv, g->iv, 0, 0};
    ir_visit_stmt(&u.v, g->body);
    if (u.nb <= u.na)
        return;
    Var *iv = f->iv;
    Expr *lb = f->lb, *ub = f->ub;
    f->iv = g->iv;
    f->lb = g->lb;
    f->ub = g->ub;
    g->iv = iv;
    g->lb = lb;
    g->ub = ub;
}

static void rs_box_all(Resched *c, Stmt *s)
{
    if (!s)
        return;
    if (s->kind == S_FOR) {
        rs_box(c, s);
        return;
    }
    if (s->kind == S_BLOCK)
        for (int i = 0; i < s->list.len; i++)
            rs_box_all(c, vec_at(&s->list, i));
    if (s->kind == S_IF) {
        rs_box_all(c, s->then);
        rs_box_all(c, s->els);
    }
}

/* Statements under the nest that run inside loops none of which is
 * parallel, in the order as written; -1 when the nest is not one isl
 * knows exactly (see above). */
static int nest_bad(Model *m, Stmt *nest, Type **ivty)
{
    int bad = 0;
    *ivty = NULL;
    for (int i = 0; i < m->ps.len; i++) {
        PStmt *ps = vec_at(&m->ps, i);
        if (!model_under(ps, nest))
            continue;
        Stmt *s = ps->s;
        if (s->kind != S_ASSIGN || s->lhs->kind != E_INDEX || s->atomic || !ps->exact_domain || !ps->exact_cond)
            return -1;
        for (int j = 0; j < ps->acc.len; j++)
            if (!((Access *)vec_at(&ps->acc, j))->exact)
                return -1;
        bool par = false;
        for (int k = 0; k < ps->nloops; k++) {
            Stmt *l = ps->loops[k];
            if (l->brk || !type_is_integer(l->iv->ty))
                return -1;
            par |= l->parallel;
            /* isl's indices may be negative (skewed): a signed type at least
             * as wide as every index as written */
            TypeKind k = l->iv->ty->kind;
            bool sgn = k == TY_INT || k == TY_LONG || k == TY_LLONG;
            Type *t = sgn && type_size(l->iv->ty) >= 4 ? l->iv->ty : &rs_llong;
            if (!*ivty || type_size(t) > type_size(*ivty))
                *ivty = t;
        }
        bad += !par;
    }
    return bad;
}

typedef struct NestCx {
    IrVisitor v;
    Stmt *nest;
    bool other;                  /* something but loops, ifs, blocks and assignments */
} NestCx;

static bool nest_kinds(IrVisitor *v, Stmt *s)
{
    NestCx *c = (NestCx *)v;
    if (s->kind != S_FOR && s->kind != S_IF && s->kind != S_BLOCK && s->kind != S_ASSIGN)
        c->other = true;
    return !c->other;
}

typedef struct IvUse {
    IrVisitor v;
    Stmt *nest;
    const Vec *ivs;              /* Var*: the nest's loop indices */
    bool used;
} IvUse;

static Expr *iv_use_expr(IrVisitor *v, Expr *e, Stmt *owner)
{
    IvUse *c = (IvUse *)v;
    bool iv = false;
    for (int k = 0; e->kind == E_VAR && k < c->ivs->len && !iv; k++)
        iv = vec_at(c->ivs, k) == e->var;
    if (!iv)
        return e;
    /* fine inside the nest and inside another loop over the same index */
    for (const IrFrame *f = v->up; f; f = f->up)
        if (f->s == c->nest || (f->s->kind == S_FOR && f->s->iv == e->var))
            return e;
    if (owner == c->nest || (owner->kind == S_FOR && owner->iv == e->var))
        return e;
    c->used = true;
    return e;
}

/* Whether one of the nest's indices is read outside it (C reads its value
 * after the loops; the new order leaves it unset): one walk of the body. */
static bool ivs_used_outside(Region *r, Stmt *nest, const Vec *ivs)
{
    IvUse c = {{.expr = iv_use_expr}, nest, ivs, false};
    ir_visit_stmt(&c.v, r->body);
    return c.used;
}

typedef struct IvList {
    IrVisitor v;
    Arena *a;
    Vec ivs;
} IvList;

static bool iv_list_at(IrVisitor *v, Stmt *s)
{
    IvList *c = (IvList *)v;
    if (s->kind == S_FOR) {
        bool seen = false;
        for (int i = 0; i < c->ivs.len; i++)
            seen |= vec_at(&c->ivs, i) == s->iv;
        if (!seen)
            vec_push(c->a, &c->ivs, s->iv);
    }
    return true;
}

/* Every dependence among the statements under nest, those between
 * reduction updates included. */
static isl_union_map *nest_deps(Model *m, Stmt *nest)
{
    isl_space *sp = isl_union_set_get_space(m->domain);
    isl_union_map *w = isl_union_map_empty(isl_space_copy(sp)), *rd = isl_union_map_empty(sp);
    for (int i = 0; i < m->ps.len; i++) {
        PStmt *ps = vec_at(&m->ps, i);
        if (!model_under(ps, nest))
            continue;
        for (int j = 0; j < ps->acc.len; j++) {
            Access *ac = vec_at(&ps->acc, j);
            isl_union_map *x = isl_union_map_from_map(isl_map_intersect_domain(isl_map_copy(ac->map),
                                                                               isl_set_copy(ps->dom)));
            if (ac->write)
                w = isl_union_map_union(w, x);
            else
                rd = isl_union_map_union(rd, x);
        }
    }
    isl_union_map *before = isl_union_map_lex_lt_union_map(isl_union_map_copy(m->sched), isl_union_map_copy(m->sched));
    isl_union_map *d = model_deps_between(m, w, rd, w, rd, before);
    isl_union_map_free(before);
    isl_union_map_free(w);
    isl_union_map_free(rd);
    return d;
}

/* The nest in isl's order, or NULL (kept as written). */
static Stmt *reschedule_nest(Model *m, Stmt *nest, int old_bad, Type *ivty)
{
    Region *r = m->r;
    isl_union_set *dom = isl_union_set_empty(isl_space_copy(m->params));
    for (int i = 0; i < m->ps.len; i++) {
        PStmt *ps = vec_at(&m->ps, i);
        if (model_under(ps, nest))
            dom = isl_union_set_add_set(dom, isl_set_copy(ps->dom));
    }
    Resched c = {.m = m, .a = m->a, .nest = nest, .ivty = ivty};
    int nvars = r->vars.len;     /* the new indices go again if the order is not taken */
    c.deps = nest_deps(m, nest);
    isl_schedule_constraints *sc = isl_schedule_constraints_on_domain(isl_union_set_copy(dom));
    sc = isl_schedule_constraints_set_validity(sc, isl_union_map_copy(c.deps));
    sc = isl_schedule_constraints_set_proximity(sc, isl_union_map_copy(c.deps));
    sc = isl_schedule_constraints_set_coincidence(sc, isl_union_map_copy(c.deps));
    /* the scheduler and the AST generator get a budget of their own (a
     * nest isl cannot order in it stays as written); the model's count
     * and limit come back after */
    unsigned long max_ops = isl_ctx_get_max_operations(m->ctx);
    isl_ctx_reset_operations(m->ctx);
    isl_ctx_set_max_operations(m->ctx, RESCHEDULE_MAX_OPS);
    isl_options_set_schedule_outer_coincidence(m->ctx, 1);
    /* each strongly connected component a band of its own: lu's division
     * and its updates in kernels of their own, a 2-D grid each (the plan
     * fuses again what may run together) */
    isl_options_set_schedule_serialize_sccs(m->ctx, 1);
    isl_schedule *sched = isl_schedule_constraints_compute_schedule(sc);
    isl_union_set_free(dom);
    Stmt *out = NULL;
    if (sched) {
        isl_ast_build *b = isl_ast_build_from_context(isl_set_universe(isl_space_copy(m->params)));
        c.nids = 3 * m->maxdepth + 2 < 64 ? 3 * m->maxdepth + 2 : 64;
        isl_id_list *names = isl_id_list_alloc(m->ctx, c.nids);
        for (int k = 0; k < c.nids; k++) {
            c.ids[k] = isl_id_alloc(m->ctx, arena_printf(m->a, "c%d", k), &c);
            names = isl_id_list_add(names, isl_id_copy(c.ids[k]));
        }
        b = isl_ast_build_set_iterators(b, names);
        b = isl_ast_build_set_before_each_for(b, before_for, &c);
        isl_ast_node *tree = isl_ast_build_node_from_schedule(b, sched);
        isl_ast_build_free(b);
        if (tree) {
            m->ast_iv = rs_id;
            m->ast_iv_cx = &c;
            Stmt *blk = rs_block(&c, tree, r->body, 0, false);
            m->ast_iv = NULL;
            m->ast_iv_cx = NULL;
            if (!c.fail && c.bad < old_bad && c.max_ser <= 1) {
                rs_box_all(&c, blk);
                out = blk;
            }
            isl_ast_node_free(tree);
        }
        for (int k = 0; k < c.nids; k++)
            isl_id_free(c.ids[k]);
    }
    isl_union_map_free(c.deps);
    /* a failure here only means the nest stays as written */
    isl_ctx_reset_operations(m->ctx);
    isl_ctx_set_max_operations(m->ctx, max_ops);
    isl_ctx_reset_error(m->ctx);
    if (!out)
        r->vars.len = nvars;
    if (out) {
        vec_push(m->a, &r->notes, arena_printf(m->a, "line %d: the nest runs in the order isl's scheduler found: %d of "
                                                     "its statements had no parallel loop around them as written, %d now", nest->loc.line, old_bad, c.bad));
    }
    return out;
}

typedef struct Renumber {
    IrVisitor v;
    Region *r;
    Arena *a;
} Renumber;

static bool renumber_at(IrVisitor *v, Stmt *s)
{
    Renumber *c = (Renumber *)v;
    if (s->id == -2) {
        s->id = c->r->nstmts++;
        vec_push(c->a, &c->r->stmts, s);
    } else if (s->id >= 0 && s->id < c->r->stmts.len) {
        c->r->stmts.data[s->id] = s;
    }
    return true;
}

bool deps_reschedule(Region *r)
{
    Model *m = &((DepPriv *)r->deps->priv)->m;
    if (m->failed)
        return false;
    bool any = false;
    Stmt *body = r->body;
    for (int i = 0; i < body->list.len; i++) {
        Stmt *t = vec_at(&body->list, i);
        if (t->kind != S_FOR)
            continue;
        Type *ivty;
        int bad = nest_bad(m, t, &ivty);
        if (bad <= 0 || !ivty)
            continue;
        NestCx nk = {{.stmt = nest_kinds}, t, false};
        ir_visit_stmt(&nk.v, t);
        if (nk.other)
            continue;
        IvList il = {{.stmt = iv_list_at}, m->a, {0}};
        ir_visit_stmt(&il.v, t);
        if (ivs_used_outside(r, t, &il.ivs))
            continue;
        Stmt *blk = reschedule_nest(m, t, bad, ivty);
        if (!blk)
            continue;
        if (!any)
            ir_seq_snapshot(r, m->a);
        any = true;
        /* the new statements replace the nest in the body's list */
        Vec nl = {0};
        for (int j = 0; j < body->list.len; j++) {
            if (j != i) {
                vec_push(m->a, &nl, vec_at(&body->list, j));
                continue;
            }
            for (int k = 0; k < blk->list.len; k++) {
                Stmt *x = vec_at(&blk->list, k);
                x->parent = body;
                vec_push(m->a, &nl, x);
            }
        }
        i += blk->list.len - 1;
        body->list = nl;
        Renumber rn = {{.stmt = renumber_at}, r, m->a};
        for (int k = 0; k < blk->list.len; k++)
            ir_visit_stmt(&rn.v, vec_at(&blk->list, k));
    }
    return any;
}
