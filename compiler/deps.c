/* deps.c - the polyhedral model of a region, handed to isl: iteration
 * domains, access relations and the original schedule; from them the
 * memory dependences, which decide which loops are parallel, which are
 * reductions, which nests may fuse, and how much of each array a call
 * touches (the launcher's staging extents). */
#include "gfc.h"

#include <isl/aff.h>
#include <isl/ast.h>
#include <isl/ast_build.h>
#include <isl/ctx.h>
#include <isl/flow.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/union_map.h>
#include <isl/union_set.h>
#include <isl/space.h>
#include <isl/options.h>
#include <stdlib.h>
#include <string.h>

static isl_ctx *ctx;

/* One access of a polyhedral statement. */
typedef struct Access {
    Var *var;
    char *map;                   /* "{ S3[i, j] -> x[o0, o1] : o0 = i and o1 = j }" body */
    bool write, red;             /* red: a reduction statement's own accumulator */
    bool exact;                  /* every subscript affine */
} Access;

typedef struct PStmt {
    Stmt *s;
    Stmt *loops[16];
    int nloops;
    char *name;                  /* "S3" */
    char *iters;                 /* "i, j" */
    char *cons;                  /* domain constraints */
    bool exact_domain;
    bool exact_cond;             /* every enclosing condition is in cons exactly */
    int ord;
    Vec acc;                     /* Access* */
} PStmt;

typedef struct Model {
    Unit *u;
    Region *r;
    Arena *a;
    char *params;                /* "[n, m]" */
    Vec ps;                      /* PStmt* */
    Stmt *loops[16];
    int nloops;
    char *conds[32];
    int nconds;
    int inexact;                 /* enclosing conditions isl sees only in part */
    Expr *cexprs[64];            /* conditions and bounds around: their reads */
    int ncexprs;                 /* belong to every statement inside */
    int ord;
    int maxdepth;
    isl_union_set *domain;
    isl_union_map *sched;        /* statement instance -> time */
    isl_union_map *deps;         /* all memory dependences, reductions excluded */
    isl_union_map *deps_t;       /* the same in time space */
    isl_union_map *reads, *writes;
    bool redo;                   /* a flattened array turned out not to split */
    const char **not_atomic;     /* by Var.id: why its colliding updates are not atomic */
} Model;

typedef struct DepPriv {
    Model m;
} DepPriv;

static const char *isl_name(Model *m, Var *v)
{
    return aff_var_name(m->a, v);
}

/* ---- building the model ---------------------------------------------------- */

static char *cond_constraint(Model *m, Expr *c, bool negate)
{
    if (!c || c->kind != E_BINARY)
        return NULL;
    Op op = c->op;
    if (op == OP_LAND && !negate) {
        char *x = cond_constraint(m, c->kids[0], false), *y = cond_constraint(m, c->kids[1], false);
        if (x && y)
            return arena_printf(m->a, "%s and %s", x, y);
        return x ? x : y;        /* dropping a conjunct over-approximates */
    }
    static const struct { Op op; const char *isl[2]; } ops[] = {
        {OP_LT, {"<", ">="}}, {OP_LE, {"<=", ">"}}, {OP_GT, {">", "<="}}, {OP_GE, {">=", "<"}}, {OP_EQ, {"=", NULL}}};
    for (int i = 0; i < 5; i++) {
        if (op != ops[i].op)
            continue;
        const char *iop = ops[i].isl[negate];
        if (!iop)
            return NULL;
        Aff *x = aff_of(m->a, c->kids[0]), *y = aff_of(m->a, c->kids[1]);
        if (!x || !y)
            return NULL;
        return arena_printf(m->a, "%s %s %s", aff_isl(m->a, x), iop, aff_isl(m->a, y));
    }
    return NULL;
}

/* Whether cond_constraint(c, negate) is c itself, not a weaker condition. */
static bool cond_exact(Model *m, Expr *c, bool negate)
{
    if (!c || c->kind != E_BINARY)
        return false;
    Op op = c->op;
    if (op == OP_LAND)
        return !negate && cond_exact(m, c->kids[0], false) && cond_exact(m, c->kids[1], false);
    if (op != OP_LT && op != OP_LE && op != OP_GT && op != OP_GE && (op != OP_EQ || negate))
        return false;
    return aff_of(m->a, c->kids[0]) && aff_of(m->a, c->kids[1]);
}

static void add_access(Model *m, PStmt *ps, Expr *e, bool write, bool red);

/* ---- flattened subscripts ---------------------------------------------------
 * a[i*m + j] is not affine (i*m multiplies a loop index by a parameter), but
 * it is the 2-D access a[i][j] of rows of length m when 0 <= j < m.  Every
 * access of the array must split with the same m (Var.delin); isl checks the
 * range of the inner part on each statement's domain. */

static Aff *aff_zero(Arena *a)
{
    Expr zero = {.kind = E_INT, .text = "0"};
    return aff_of(a, &zero);
}

bool deps_split_flat(Arena *a, Expr *e, Var **P, Aff **outer, Aff **inner)
{
    Aff *f = aff_of(a, e);
    if (f) {
        *outer = NULL;
        *inner = f;
        return true;
    }
    if (e->kind == E_BINARY && (e->op == OP_ADD || e->op == OP_SUB)) {
        Aff *o1 = NULL, *i1 = NULL, *o2 = NULL, *i2 = NULL;
        if (!deps_split_flat(a, e->kids[0], P, &o1, &i1) || !deps_split_flat(a, e->kids[1], P, &o2, &i2))
            return false;
        long long s = e->op == OP_SUB ? -1 : 1;
        *outer = o1 || o2 ? aff_add(a, o1 ? o1 : aff_zero(a), o2 ? o2 : aff_zero(a), s) : NULL;
        *inner = aff_add(a, i1, i2, s);
        return true;
    }
    if (e->kind == E_BINARY && e->op == OP_MUL) {
        for (int side = 0; side < 2; side++) {
            Expr *p = e->kids[side], *x = e->kids[1 - side];
            while (p->kind == E_CAST)
                p = p->kids[0];
            if (p->kind != E_VAR || p->var->kind != V_PARAM || !type_is_integer(p->var->ty))
                continue;
            Aff *xo = aff_of(a, x);
            if (!xo || (*P && *P != p->var))
                continue;
            *P = p->var;
            *outer = xo;
            *inner = aff_zero(a);
            return true;
        }
        return false;
    }
    if (e->kind == E_CAST && type_is_integer(e->ty))
        return deps_split_flat(a, e->kids[0], P, outer, inner);
    return false;
}

/* Decides, before the model is built, which 1-D arrays are used only through
 * flattened subscripts of one row length. */
static void delin_expr(Model *m, Expr *e)
{
    if (!e)
        return;
    for (int i = 0; i < e->nkids; i++)
        delin_expr(m, e->kids[i]);
    if (e->kind != E_INDEX || e->nkids != 1 || e->var->delin_bad)
        return;
    Var *v = e->var;
    if (aff_of(m->a, e->kids[0])) {
        if (v->delin)
            v->delin_bad = true;   /* mixed with plain 1-D subscripts */
        v->delin_plain = true;
        return;
    }
    Var *P = NULL;
    Aff *o = NULL, *in = NULL;
    if (!deps_split_flat(m->a, e->kids[0], &P, &o, &in) || !P || !o || v->delin_plain || (v->delin && v->delin != P)) {
        v->delin_bad = true;
        return;
    }
    v->delin = P;
}

static void delin_stmt(Model *m, Stmt *s)
{
    if (!s)
        return;
    switch (s->kind) {
    case S_BLOCK:
        for (int i = 0; i < s->list.len; i++)
            delin_stmt(m, vec_at(&s->list, i));
        return;
    case S_FOR:
        delin_expr(m, s->lb);
        delin_expr(m, s->ub);
        delin_stmt(m, s->body);
        return;
    case S_WHILE:
        delin_expr(m, s->cond);
        delin_stmt(m, s->body);
        return;
    case S_IF:
        delin_expr(m, s->cond);
        delin_stmt(m, s->then);
        delin_stmt(m, s->els);
        return;
    case S_DECL:
    case S_RETURN: delin_expr(m, s->rhs); return;
    case S_ASSIGN:
        delin_expr(m, s->lhs);
        delin_expr(m, s->rhs);
        return;
    case S_FREE:
    case S_LIB: return;
    }
}

/* Reads in e, except of `skip` (a reduction's own accumulator). */
static void collect_reads_but(Model *m, PStmt *ps, Expr *e, const Var *skip)
{
    if (!e)
        return;
    if (e->kind == E_INDEX) {
        add_access(m, ps, e, false, false);
        for (int i = 0; i < e->nkids; i++)
            collect_reads_but(m, ps, e->kids[i], skip);
        return;
    }
    if (e->kind == E_VAR && e->var->kind == V_LOCAL) {
        if (e->var != skip)
            add_access(m, ps, e, false, false);
        return;
    }
    for (int i = 0; i < e->nkids; i++)
        collect_reads_but(m, ps, e->kids[i], skip);
}

static void collect_reads(Model *m, PStmt *ps, Expr *e)
{
    collect_reads_but(m, ps, e, NULL);
}

/* Reads in e, except of the element `elem` itself (an atomic min/max
 * update's own element: its subscripts are still read). */
static void collect_reads_elem(Model *m, PStmt *ps, Expr *e, const Expr *elem)
{
    if (!e)
        return;
    if (expr_equal(e, elem)) {
        for (int i = 0; i < e->nkids; i++)
            collect_reads(m, ps, e->kids[i]);
        return;
    }
    if (e->kind == E_INDEX || e->kind == E_VAR) {
        collect_reads(m, ps, e);
        return;
    }
    for (int i = 0; i < e->nkids; i++)
        collect_reads_elem(m, ps, e->kids[i], elem);
}

/* An array private to each iteration (Var.is_private) is expanded over the
 * loops around its declaration, like a scalar local: "i, j, " */
static char *private_prefix(Model *m, PStmt *ps, Var *v)
{
    char *p = arena_strdup(m->a, "");
    for (int i = 0; v->is_private && i < v->depth && i < ps->nloops; i++)
        p = arena_printf(m->a, "%s%s, ", p, isl_name(m, ps->loops[i]->iv));
    return p;
}

static void add_access(Model *m, PStmt *ps, Expr *e, bool write, bool red)
{
    if (e->kind == E_FIELD)
        e = e->kids[0];
    Access *ac = arena_alloc(m->a, sizeof *ac);
    ac->write = write;
    ac->red = red;
    ac->exact = true;
    Var *v = e->var;
    ac->var = v;
    char *out = arena_strdup(m->a, ""), *cons = arena_strdup(m->a, "");
    if (e->kind == E_VAR) {
        /* a scalar local: expanded over the loops enclosing its declaration */
        for (int i = 0; i < v->depth && i < ps->nloops; i++)
            out = arena_printf(m->a, "%s%s%s", out, i ? ", " : "", isl_name(m, ps->loops[i]->iv));
    } else {
        if (!e->aff) {
            e->aff = arena_alloc(m->a, sizeof(Aff *) * (size_t)e->nkids);
            for (int i = 0; i < e->nkids; i++)
                e->aff[i] = aff_of(m->a, e->kids[i]);
        }
        Var *P = NULL;
        Aff *o = NULL, *in = NULL;
        if (v->delin && !v->delin_bad && deps_split_flat(m->a, e->kids[0], &P, &o, &in) && P == v->delin && o) {
            /* a[outer*P + inner]: the 2-D access a[outer][inner], valid when
             * 0 <= inner < P on this statement's domain */
            const char *pn = isl_name(m, P);
            char *bad = arena_printf(m->a, "%s -> { %s[%s] : %s%s(%s < 0 or %s >= %s) }", m->params, ps->name, ps->iters,
                                     ps->cons, *ps->cons ? " and " : "", aff_isl(m->a, in), aff_isl(m->a, in), pn);
            isl_set *s = isl_set_read_from_str(ctx, bad);
            bool empty = s && isl_set_is_empty(s) == isl_bool_true;
            isl_set_free(s);
            if (!empty) {
                v->delin_bad = true;
                m->redo = true;
            }
            out = arena_strdup(m->a, "o0, o1");
            cons = arena_printf(m->a, "o0 = %s and o1 = %s", aff_isl(m->a, o), aff_isl(m->a, in));
        } else if (v->delin && !v->delin_bad) {
            v->delin_bad = true;
            m->redo = true;
        } else {
            for (int i = 0; i < e->nkids; i++) {
                out = arena_printf(m->a, "%s%so%d", out, i ? ", " : "", i);
                if (e->aff[i])
                    cons = arena_printf(m->a, "%s%so%d = %s", cons, *cons ? " and " : "", i, aff_isl(m->a, e->aff[i]));
                else
                    ac->exact = false;
            }
        }
    }
    ac->map = arena_printf(m->a, "%s -> { %s[%s] -> %s[%s%s]%s%s }", m->params, ps->name, ps->iters,
                           isl_name(m, v), e->kind == E_VAR ? "" : private_prefix(m, ps, v), out,
                           *cons ? " : " : "", cons);
    vec_push(m->a, &ps->acc, ac);
}

/* Any element of array v (a library call's argument). */
static void add_whole(Model *m, PStmt *ps, Var *v, bool write)
{
    Access *ac = arena_alloc(m->a, sizeof *ac);
    ac->write = write;
    ac->var = v;
    ac->exact = false;
    int rank = v->delin && !v->delin_bad ? 2 : v->ndims > 0 ? v->ndims : 1;
    char *out = arena_strdup(m->a, "");
    for (int i = 0; i < rank; i++)
        out = arena_printf(m->a, "%s%so%d", out, i ? ", " : "", i);
    ac->map = arena_printf(m->a, "%s -> { %s[%s] -> %s[%s%s] }", m->params, ps->name, ps->iters, isl_name(m, v),
                           private_prefix(m, ps, v), out);
    vec_push(m->a, &ps->acc, ac);
}

static PStmt *new_pstmt(Model *m, Stmt *s)
{
    PStmt *ps = arena_alloc(m->a, sizeof *ps);
    ps->s = s;
    ps->nloops = m->nloops;
    memcpy(ps->loops, m->loops, sizeof(Stmt *) * (size_t)m->nloops);
    ps->name = arena_printf(m->a, "S%d", s->id);
    ps->iters = arena_strdup(m->a, "");
    ps->cons = arena_strdup(m->a, "");
    ps->exact_domain = true;
    ps->exact_cond = m->inexact == 0;
    ps->ord = m->ord++;
    for (int i = 0; i < m->nloops; i++) {
        Stmt *l = m->loops[i];
        const char *iv = isl_name(m, l->iv);
        ps->iters = arena_printf(m->a, "%s%s%s", ps->iters, i ? ", " : "", iv);
        Aff *lb = aff_of(m->a, l->lb), *ub = aff_of(m->a, l->ub);
        if (lb)
            ps->cons = arena_printf(m->a, "%s%s%s <= %s", ps->cons, *ps->cons ? " and " : "", aff_isl(m->a, lb), iv);
        if (ub)
            ps->cons = arena_printf(m->a, "%s%s%s < %s", ps->cons, *ps->cons ? " and " : "", iv, aff_isl(m->a, ub));
        if (lb && l->step > 1)
            ps->cons = arena_printf(m->a, "%s and (%s - (%s)) mod %lld = 0", ps->cons, iv, aff_isl(m->a, lb), l->step);
        if (!lb || !ub)
            ps->exact_domain = false;
    }
    for (int i = 0; i < m->nconds; i++) {
        if (m->conds[i])
            ps->cons = arena_printf(m->a, "%s%s%s", ps->cons, *ps->cons ? " and " : "", m->conds[i]);
    }
    if (m->nloops > m->maxdepth)
        m->maxdepth = m->nloops;
    vec_push(m->a, &m->ps, ps);
    /* what the enclosing conditions and loop bounds read, this statement
     * reads too (it cannot run without evaluating them) */
    for (int i = 0; i < m->ncexprs; i++)
        collect_reads(m, ps, m->cexprs[i]);
    return ps;
}

/* Recognises `v op= e`, `v = v op e`, `v = fmaxf(v, e)`, `v = v > e ? v : e`
 * (and mirrored forms) with e not reading v. */
static bool reads_var(const Expr *e, const Var *v)
{
    if (!e)
        return false;
    if ((e->kind == E_VAR || e->kind == E_INDEX) && e->var == v)
        return true;
    for (int i = 0; i < e->nkids; i++)
        if (reads_var(e->kids[i], v))
            return true;
    return false;
}

static bool is_v(const Expr *e, const Var *v)
{
    while (e && e->kind == E_CAST)
        e = e->kids[0];
    return e && e->kind == E_VAR && e->var == v;
}

/* The reduction a compound assignment performs (-= adds the negation). */
static RedOp compound_red(Op op)
{
    switch (op) {
    case OP_ADD_ASSIGN:
    case OP_SUB_ASSIGN: return RED_ADD;
    case OP_MUL_ASSIGN: return RED_MUL;
    case OP_BAND_ASSIGN: return RED_BAND;
    case OP_BOR_ASSIGN: return RED_BOR;
    case OP_BXOR_ASSIGN: return RED_BXOR;
    default: return RED_NONE;
    }
}

static RedOp reduction_of(Stmt *s)
{
    if (s->kind != S_ASSIGN || s->lhs->kind != E_VAR)
        return RED_NONE;
    Var *v = s->lhs->var;
    if (v->kind != V_LOCAL)
        return RED_NONE;
    RedOp cr = compound_red(s->op);
    if (cr)
        return reads_var(s->rhs, v) ? RED_NONE : cr;
    if (s->op != OP_ASSIGN)
        return RED_NONE;
    Expr *e = s->rhs;
    while (e->kind == E_CAST)
        e = e->kids[0];
    if (e->kind == E_BINARY) {
        static const struct { Op op; RedOp r; bool commutes; } bin[] = {
            {OP_ADD, RED_ADD, true}, {OP_SUB, RED_ADD, false}, {OP_MUL, RED_MUL, true}, {OP_LAND, RED_AND, true},
            {OP_LOR, RED_OR, true}, {OP_BAND, RED_BAND, true}, {OP_BOR, RED_BOR, true}, {OP_BXOR, RED_BXOR, true}};
        for (size_t i = 0; i < sizeof bin / sizeof *bin; i++) {
            if (e->op != bin[i].op)
                continue;
            if (is_v(e->kids[0], v) && !reads_var(e->kids[1], v))
                return bin[i].r;
            if (bin[i].commutes && is_v(e->kids[1], v) && !reads_var(e->kids[0], v))
                return bin[i].r;
        }
        return RED_NONE;
    }
    if (e->kind == E_CALL && e->nkids == 2) {
        RedOp r = RED_NONE;
        if (!strcmp(e->text, "fmaxf") || !strcmp(e->text, "fmax"))
            r = RED_MAX;
        if (!strcmp(e->text, "fminf") || !strcmp(e->text, "fmin"))
            r = RED_MIN;
        if (r && ((is_v(e->kids[0], v) && !reads_var(e->kids[1], v)) ||
                  (is_v(e->kids[1], v) && !reads_var(e->kids[0], v))))
            return r;
        return RED_NONE;
    }
    if (e->kind == E_COND && e->kids[0]->kind == E_BINARY) {
        /* v = v > x ? v : x  (and <, >=, <=, either operand order) */
        Expr *c = e->kids[0];
        bool gt = c->op == OP_GT || c->op == OP_GE, lt = c->op == OP_LT || c->op == OP_LE;
        if (!gt && !lt)
            return RED_NONE;
        Expr *x = NULL;
        bool is_max = false;
        if (is_v(c->kids[0], v) && expr_equal(c->kids[0], e->kids[1]) && expr_equal(c->kids[1], e->kids[2]))
            x = c->kids[1], is_max = gt;
        else if (is_v(c->kids[0], v) && expr_equal(c->kids[0], e->kids[2]) && expr_equal(c->kids[1], e->kids[1]))
            x = c->kids[1], is_max = !gt;
        else if (is_v(c->kids[1], v) && expr_equal(c->kids[1], e->kids[1]) && expr_equal(c->kids[0], e->kids[2]))
            x = c->kids[0], is_max = !gt;
        else if (is_v(c->kids[1], v) && expr_equal(c->kids[1], e->kids[2]) && expr_equal(c->kids[0], e->kids[1]))
            x = c->kids[0], is_max = gt;
        if (!x || reads_var(x, v))
            return RED_NONE;
        return is_max ? RED_MAX : RED_MIN;
    }
    return RED_NONE;
}

/* ---- atomic updates -----------------------------------------------------------
 * hist[bin[i]] += w[i]: two iterations may update the same element, but the
 * updates commute, so the loop is parallel once each update is atomic.  An
 * update qualifies when its subscript is not affine (an affine one is an
 * exact dependence), nothing but the update's own element reads the array,
 * the element type has atomics, and it is one of
 *   a[s] op= e  with op one of += -= *= &= |= ^= (and ++, --);
 *   a[s] = fmaxf(a[s], e), fminf, fmax, fmin, and the ?: forms
 *   a[s] = e > a[s] ? e : a[s] (ir_minmax_update), computed in the
 *   element's own type.
 * The tagged accesses are not ordered among themselves (like a reduction's);
 * deps_analyze then checks that nothing else in the nest touches the array. */

static void why_not_atomic(Model *m, Var *v, const char *why)
{
    if (!m->not_atomic[v->id])
        m->not_atomic[v->id] = why;
}

static bool atomic_type(const Type *t, RedOp op)
{
    switch (t->kind) {
    case TY_INT: case TY_UINT: case TY_LONG: case TY_ULONG: case TY_LLONG: case TY_ULLONG: return true;
    case TY_FLOAT: case TY_DOUBLE: return op == RED_ADD || op == RED_MUL || op == RED_MIN || op == RED_MAX;
    default: return false;
    }
}

static const char *atomic_op_name(RedOp r)
{
    switch (r) {
    case RED_ADD: return "addition";
    case RED_MUL: return "multiplication";
    case RED_MIN: return "min";
    case RED_MAX: return "max";
    default: return "bitwise updates";
    }
}

static RedOp atomic_of(Model *m, Stmt *s)
{
    if (s->kind != S_ASSIGN || s->lhs->kind != E_INDEX || !m->nloops)
        return RED_NONE;
    Expr *l = s->lhs;
    Var *v = l->var;
    bool affine = true;
    for (int i = 0; i < l->nkids; i++)
        if (!aff_of(m->a, l->kids[i]))
            affine = false;
    Var *P = NULL;
    Aff *o = NULL, *in = NULL;
    if (affine || (v->delin && !v->delin_bad && deps_split_flat(m->a, l->kids[0], &P, &o, &in) && P == v->delin && o))
        return RED_NONE;         /* exact: isl knows which elements collide */
    RedOp r = compound_red(s->op);
    Expr *val = s->rhs;          /* the value combined with the element */
    if (!r && s->op == OP_ASSIGN)
        r = ir_minmax_update(s, &val, NULL);
    if (!r) {
        if (s->op != OP_ASSIGN)
            why_not_atomic(m, v, arena_printf(m->a, "'%s' has no atomic form (+=, -=, *=, &=, |=, ^= and min/max "
                                              "have)", op_spelling(s->op)));
        return RED_NONE;         /* a plain store: a scatter */
    }
    bool self = reads_var(val, v);
    for (int i = 0; i < l->nkids; i++)
        self = self || reads_var(l->kids[i], v);
    Type *t = type_elem(v->ty);
    const Expr *op = s->rhs;
    while (op->kind == E_CAST)
        op = op->kids[0];
    if (self)
        why_not_atomic(m, v, arena_printf(m->a, "the update reads '%s' itself", v->name));
    else if (!atomic_type(t, r))
        why_not_atomic(m, v, arena_printf(m->a, "atomic %s on '%s' elements is not supported (int, unsigned, long, "
                                          "long long and their unsigned forms%s)", atomic_op_name(r),
                                          type_c_name(t), atomic_type(&(Type){.kind = TY_FLOAT}, r) ?
                                          ", float and double" : ""));
    else if ((r == RED_MIN || r == RED_MAX) && (!op->ty || op->ty->kind != t->kind))
        why_not_atomic(m, v, arena_printf(m->a, "the %s is computed in '%s', not in the element type '%s' (use "
                                          "%s)", atomic_op_name(r), op->ty ? type_c_name(op->ty) : "another type",
                                          type_c_name(t), t->kind == TY_FLOAT ? "fmaxf/fminf" :
                                          t->kind == TY_DOUBLE ? "fmax/fmin" : "'?:' on integers"));
    else if (type_is_integer(t) && (r == RED_ADD || r == RED_MUL) && s->rhs->ty && type_is_float(s->rhs->ty))
        why_not_atomic(m, v, arena_printf(m->a, "an integer element updated by a floating-point value rounds the %s, "
                                          "not the value", r == RED_ADD ? "sum" : "product"));
    else
        return r;
    return RED_NONE;
}

/* The operator of an atomic update as the user wrote it. */
static const char *atomic_op_text(const Stmt *s)
{
    return s->atomic == RED_MIN ? "min" : s->atomic == RED_MAX ? "max" : op_spelling(s->op);
}

/* Demotes an atomic update to a plain one (its accesses become ordered). */
static void drop_atomic(Model *m, PStmt *ps, const char *why)
{
    why_not_atomic(m, ps->s->lhs->var, why);
    ps->s->atomic = RED_NONE;
    for (int k = 0; k < ps->acc.len; k++)
        ((Access *)vec_at(&ps->acc, k))->red = false;
}

/* Atomic updates of one array must all use the same operator: the tagged
 * accesses are unordered whatever the operator.  Any other access of the
 * array keeps its dependences on the updates (so a read in the same loop
 * body serialises that loop, while a nest after them, even inside the same
 * time loop, is simply a later kernel); such an access in the same
 * top-level nest is remembered as the reason should the nest be refused. */
static void check_atomics(Model *m)
{
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = 0; i < m->ps.len; i++) {
            PStmt *ps = vec_at(&m->ps, i);
            if (ps->s->kind != S_ASSIGN || !ps->s->atomic)
                continue;
            Var *v = ps->s->lhs->var;
            const char *why = NULL;
            for (int j = 0; j < m->ps.len && !why; j++) {
                PStmt *q = vec_at(&m->ps, j);
                bool same_nest = q->nloops && q->loops[0] == ps->loops[0];
                for (int k = 0; k < q->acc.len && !why; k++) {
                    Access *ac = vec_at(&q->acc, k);
                    if (ac->var != v)
                        continue;
                    if (ac->red && q->s->atomic != ps->s->atomic)
                        why = arena_printf(m->a, "it is updated with different operators ('%s' on line %d, '%s' "
                                           "on line %d)", atomic_op_text(ps->s), ps->s->loc.line, atomic_op_text(q->s),
                                           q->s->loc.line);
                    else if (!ac->red && same_nest)
                        why_not_atomic(m, v, arena_printf(m->a, "line %d %s '%s' too, in the same loop nest",
                                                          q->s->loc.line, ac->write ? "writes" : "reads", v->name));
                }
            }
            if (why) {
                drop_atomic(m, ps, why);
                changed = true;
            }
        }
    }
}

static void build(Model *m, Stmt *s)
{
    if (!s)
        return;
    switch (s->kind) {
    case S_BLOCK:
        for (int i = 0; i < s->list.len; i++)
            build(m, vec_at(&s->list, i));
        return;
    case S_FOR: {
        int save_c = m->ncexprs;
        s->depth = m->nloops;
        if (m->nloops == 16)
            return;
        /* the loop's ordinal goes in the time vector before its index */
        s->ord = m->ord++;
        if (m->ncexprs + 3 <= 64) {
            m->cexprs[m->ncexprs++] = s->lb;
            m->cexprs[m->ncexprs++] = s->ub;
            /* a loop that breaks tests its flag before each iteration */
            if (s->brk)
                m->cexprs[m->ncexprs++] = s->brk;
        }
        m->loops[m->nloops++] = s;
        if (m->nloops > m->maxdepth)   /* a loop with no statement still has a time dimension */
            m->maxdepth = m->nloops;
        /* a loop that breaks may stop before its bound: what its body
         * writes is only possibly written (isl sees the whole range) */
        m->inexact += s->brk != NULL;
        build(m, s->body);
        m->inexact -= s->brk != NULL;
        m->nloops--;
        m->ncexprs = save_c;
        return;
    }
    case S_IF: {
        int save = m->nconds, save_c = m->ncexprs;
        if (m->ncexprs < 64)
            m->cexprs[m->ncexprs++] = s->cond;
        m->conds[m->nconds++] = cond_constraint(m, s->cond, false);
        int in = m->inexact;
        m->inexact = in + !cond_exact(m, s->cond, false);
        build(m, s->then);
        m->conds[save] = cond_constraint(m, s->cond, true);
        m->inexact = in + !cond_exact(m, s->cond, true);
        build(m, s->els);
        m->inexact = in;
        m->nconds = save;
        m->ncexprs = save_c;
        return;
    }
    case S_WHILE: {
        /* the whole while loop is one statement: its accesses are may-accesses */
        PStmt *ps = new_pstmt(m, s);
        collect_reads(m, ps, s->cond);
        collect_reads(m, ps, s->brk);
        Stmt *stack[64];
        int n = 0;
        stack[n++] = s->body;
        while (n) {
            Stmt *t = stack[--n];
            if (!t)
                continue;
            switch (t->kind) {
            case S_BLOCK:
                for (int i = 0; i < t->list.len && n < 63; i++)
                    stack[n++] = vec_at(&t->list, i);
                break;
            case S_IF: collect_reads(m, ps, t->cond); stack[n++] = t->then; if (n < 63) stack[n++] = t->els; break;
            case S_WHILE: collect_reads(m, ps, t->cond); collect_reads(m, ps, t->brk); stack[n++] = t->body; break;
            case S_FOR:
                collect_reads(m, ps, t->lb);
                collect_reads(m, ps, t->ub);
                collect_reads(m, ps, t->brk);
                stack[n++] = t->body;
                break;
            case S_DECL:
                collect_reads(m, ps, t->rhs);
                if (t->rhs && !t->var->is_array) {
                    Expr *ve = arena_alloc(m->a, sizeof *ve);
                    ve->kind = E_VAR;
                    ve->var = t->var;
                    add_access(m, ps, ve, true, false);
                }
                break;
            case S_ASSIGN:
                collect_reads(m, ps, t->rhs);
                if (t->op != OP_ASSIGN)
                    collect_reads(m, ps, t->lhs);
                else if (t->lhs->kind != E_VAR)
                    for (int i = 0; i < (t->lhs->kind == E_FIELD ? t->lhs->kids[0] : t->lhs)->nkids; i++)
                        collect_reads(m, ps, (t->lhs->kind == E_FIELD ? t->lhs->kids[0] : t->lhs)->kids[i]);
                add_access(m, ps, t->lhs, true, false);
                break;
            default: break;
            }
        }
        return;
    }
    case S_DECL: {
        if (s->var->is_array)
            return;
        PStmt *ps = new_pstmt(m, s);
        collect_reads(m, ps, s->rhs);
        if (s->rhs) {
            Expr *ve = arena_alloc(m->a, sizeof *ve);
            ve->kind = E_VAR;
            ve->var = s->var;
            add_access(m, ps, ve, true, false);
        }
        return;
    }
    case S_ASSIGN: {
        PStmt *ps = new_pstmt(m, s);
        s->red = reduction_of(s);
        s->red_var = s->red ? s->lhs->var : NULL;
        s->atomic = atomic_of(m, s);
        if (s->atomic && s->op == OP_ASSIGN)
            collect_reads_elem(m, ps, s->rhs, s->lhs);   /* min/max: the element is the tagged read */
        else
            collect_reads_but(m, ps, s->rhs, s->red_var);
        Expr *lhs = s->lhs->kind == E_FIELD ? s->lhs->kids[0] : s->lhs;
        if (lhs->kind == E_INDEX)
            for (int i = 0; i < lhs->nkids; i++)
                collect_reads(m, ps, lhs->kids[i]);
        if (s->red || s->atomic) {
            /* the accumulator's own read and write are tagged: reductions
             * among themselves are reassociated, not ordered (atomic
             * updates likewise) */
            add_access(m, ps, s->lhs, false, true);
            add_access(m, ps, s->lhs, true, true);
            /* reads of the accumulator inside rhs cannot occur (checked) */
        } else {
            if (s->op != OP_ASSIGN)
                add_access(m, ps, s->lhs, false, false);
            add_access(m, ps, s->lhs, true, false);
        }
        /* a condition isl cannot express is dropped from the domain: the
         * statement may run on more instances than it does, which over-
         * approximates its accesses (safe for dependences and for staging
         * extents; write_only() already refuses conditional writes) */
        return;
    }
    case S_RETURN: {
        PStmt *ps = new_pstmt(m, s);
        collect_reads(m, ps, s->rhs);
        return;
    }
    case S_FREE:
        return;
    case S_LIB: {
        /* a library call touches its arrays anywhere */
        PStmt *ps = new_pstmt(m, s);
        const char *roles = lib_builtin_roles(s->rhs->text);
        for (int i = 0; i < s->rhs->nkids; i++) {
            Expr *a = s->rhs->kids[i];
            if (LIB_SCALAR_ROLE(roles[i]) || a->kind != E_VAR) {
                collect_reads(m, ps, a);
                continue;
            }
            add_whole(m, ps, a->var, false);
            if (roles[i] == 'W')
                add_whole(m, ps, a->var, true);
        }
        return;
    }
    }
}

static int loop_ord(const Stmt *l)
{
    return l->ord;
}

/* ---- isl computations -------------------------------------------------------- */

static isl_union_map *umap(Model *m, const char *s)
{
    isl_union_map *u = isl_union_map_read_from_str(ctx, s);
    if (!u) {
        diag_at(DIAG_ERROR, m->r->loc, NULL, "internal: isl rejected '%s'", s);
        gfc_panic(__FILE__, __LINE__, "isl parse");
    }
    return u;
}

/* D(X, Y): dependences from accesses X (earlier) to Y (later). */
static isl_union_map *deps_between(Model *m, isl_union_map *wx, isl_union_map *rx, isl_union_map *wy,
                                   isl_union_map *ry, isl_union_map *before)
{
    (void)m;
    isl_union_map *raw = isl_union_map_apply_range(isl_union_map_copy(wx), isl_union_map_reverse(isl_union_map_copy(ry)));
    isl_union_map *war = isl_union_map_apply_range(isl_union_map_copy(rx), isl_union_map_reverse(isl_union_map_copy(wy)));
    isl_union_map *waw = isl_union_map_apply_range(isl_union_map_copy(wx), isl_union_map_reverse(isl_union_map_copy(wy)));
    isl_union_map *d = isl_union_map_union(isl_union_map_union(raw, war), waw);
    return isl_union_map_intersect(d, isl_union_map_copy(before));
}

typedef struct AccSets {
    isl_union_map *w, *r;        /* normal */
    isl_union_map *wr, *rr;      /* reduction accumulators */
} AccSets;

static bool skipped(const Var *v, Var *const *skip, int nskip)
{
    for (int i = 0; i < nskip; i++)
        if (skip[i] == v)
            return true;
    return false;
}

/* The accesses of `only` (NULL: all), but those of the arrays in skip. */
static AccSets access_sets(Model *m, const Var *only, Var *const *skip, int nskip)
{
    AccSets s;
    isl_space *sp = isl_union_set_get_space(m->domain);
    s.w = isl_union_map_empty(isl_space_copy(sp));
    s.r = isl_union_map_empty(isl_space_copy(sp));
    s.wr = isl_union_map_empty(isl_space_copy(sp));
    s.rr = isl_union_map_empty(sp);
    for (int i = 0; i < m->ps.len; i++) {
        PStmt *ps = vec_at(&m->ps, i);
        for (int j = 0; j < ps->acc.len; j++) {
            Access *ac = vec_at(&ps->acc, j);
            if ((only && ac->var != only) || skipped(ac->var, skip, nskip))
                continue;
            isl_union_map *a = isl_union_map_intersect_domain(umap(m, ac->map), isl_union_set_copy(m->domain));
            isl_union_map **dst = ac->red ? (ac->write ? &s.wr : &s.rr) : (ac->write ? &s.w : &s.r);
            *dst = isl_union_map_union(*dst, a);
        }
    }
    return s;
}

static void free_sets(AccSets *s)
{
    isl_union_map_free(s->w);
    isl_union_map_free(s->r);
    isl_union_map_free(s->wr);
    isl_union_map_free(s->rr);
}

static isl_union_map *compute_deps_skip(Model *m, const Var *only, Var *const *skip, int nskip)
{
    AccSets s = access_sets(m, only, skip, nskip);
    isl_union_map *before = isl_union_map_lex_lt_union_map(isl_union_map_copy(m->sched), isl_union_map_copy(m->sched));
    isl_union_map *d = deps_between(m, s.w, s.r, s.w, s.r, before);
    d = isl_union_map_union(d, deps_between(m, s.w, s.r, s.wr, s.rr, before));
    d = isl_union_map_union(d, deps_between(m, s.wr, s.rr, s.w, s.r, before));
    isl_union_map_free(before);
    free_sets(&s);
    return d;
}

static isl_union_map *compute_deps(Model *m, const Var *only)
{
    return compute_deps_skip(m, only, NULL, 0);
}

static isl_union_map *to_time(Model *m, isl_union_map *d)
{
    d = isl_union_map_apply_domain(d, isl_union_map_copy(m->sched));
    return isl_union_map_apply_range(d, isl_union_map_copy(m->sched));
}

/* { [t] -> [s] : t_k = s_k for k < dim, t_dim-1 = ord (the loop), t_dim != s_dim } */
static bool carries(Model *m, isl_union_map *dt, int ord, int dim, bool only_change)
{
    int n = 2 * m->maxdepth + 1;
    char *in = arena_strdup(m->a, ""), *out = arena_strdup(m->a, ""), *cons = arena_strdup(m->a, "");
    for (int k = 0; k < n; k++) {
        in = arena_printf(m->a, "%s%st%d", in, k ? ", " : "", k);
        out = arena_printf(m->a, "%s%ss%d", out, k ? ", " : "", k);
    }
    for (int k = 0; k < dim; k++)
        cons = arena_printf(m->a, "%st%d = s%d and ", cons, k, k);
    cons = arena_printf(m->a, "%st%d = %d and t%d %s s%d", cons, dim - 1, ord, dim, only_change ? "!=" : "<", dim);
    char *str = arena_printf(m->a, "%s -> { [%s] -> [%s] : %s }", m->params, in, out, cons);
    isl_union_map *sel = umap(m, str);
    isl_union_map *x = isl_union_map_intersect(isl_union_map_copy(dt), sel);
    bool empty = isl_union_map_is_empty(x);
    isl_union_map_free(x);
    return !empty;
}

static char *umap_str(Model *m, isl_union_map *u)
{
    char *s = isl_union_map_to_str(u);
    char *r = arena_strdup(m->a, s ? s : "");
    free(s);
    return r;
}

static void mark_loops(Model *m, Stmt *s)
{
    if (!s)
        return;
    switch (s->kind) {
    case S_BLOCK:
        for (int i = 0; i < s->list.len; i++)
            mark_loops(m, vec_at(&s->list, i));
        return;
    case S_IF:
        mark_loops(m, s->then);
        mark_loops(m, s->els);
        return;
    case S_FOR: {
        int dim = 2 * s->depth + 1;
        s->parallel = !carries(m, m->deps_t, loop_ord(s), dim, false);
        /* a reduction loop: a reduction statement inside whose accumulator
         * lives outside the loop */
        s->reduction = false;
        for (int i = 0; i < m->ps.len; i++) {
            PStmt *ps = vec_at(&m->ps, i);
            if (!ps->s->red)
                continue;
            for (int k = 0; k < ps->nloops; k++)
                if (ps->loops[k] == s && ps->s->red_var->depth <= s->depth)
                    s->reduction = true;
        }
        mark_loops(m, s->body);
        return;
    }
    default:
        return;
    }
}

static bool any_parallel(Stmt *s)
{
    if (!s)
        return false;
    switch (s->kind) {
    case S_BLOCK:
        for (int i = 0; i < s->list.len; i++)
            if (any_parallel(vec_at(&s->list, i)))
                return true;
        return false;
    case S_IF: return any_parallel(s->then) || any_parallel(s->els);
    case S_FOR: return s->parallel || any_parallel(s->body);
    default: return false;
    }
}

/* Names the array (or scalar) whose dependence a loop carries. */
static Var *carried_var(Model *m, Stmt *loop)
{
    for (int i = 0; i < m->r->vars.len; i++) {
        Var *v = vec_at(&m->r->vars, i);
        if (v->kind == V_IV || (!v->is_array && v->kind == V_PARAM))
            continue;
        isl_union_map *d = compute_deps(m, v);
        isl_union_map *dt = to_time(m, d);
        bool c = carries(m, dt, loop_ord(loop), 2 * loop->depth + 1, false);
        isl_union_map_free(dt);
        if (c)
            return v;
    }
    return NULL;
}

/* A loop that breaks (Stmt.brk) stops early on data, so it must run per
 * element: inside a parallel loop (`outermost`: only the loops that start a
 * nest are checked).  Its flag makes it sequential; outside
 * any parallel loop it would be the loop that runs in parallel, or a
 * sequential loop on the host (a time loop around kernels, or one a single
 * thread runs), neither of which can stop on a value the iterations compute. */
static bool check_breaks(Model *m, Stmt *s, bool in_parallel, bool outermost)
{
    if (!s)
        return true;
    switch (s->kind) {
    case S_BLOCK:
        for (int i = 0; i < s->list.len; i++)
            if (!check_breaks(m, vec_at(&s->list, i), in_parallel, outermost))
                return false;
        return true;
    case S_IF:
        return check_breaks(m, s->then, in_parallel, outermost) && check_breaks(m, s->els, in_parallel, outermost);
    case S_WHILE:
    case S_FOR:
        if (s->brk && !in_parallel && (!outermost || (s->kind == S_FOR && !s->depth))) {
            /* said at the (first) break, naming the loop it leaves */
            Loc at = s->brk->var->loc;
            const char *what = s->kind == S_WHILE ? arena_printf(m->a, "the 'while' loop of line %d", s->loc.line) :
                               arena_printf(m->a, "loop '%s' (line %d)", s->iv->name, s->loc.line);
            if (s->kind == S_FOR && any_parallel(s->body))
                diag_reject(at, "-Wgpufuse-control",
                            "'break' leaves %s, which runs on the host around the kernels of its body (as a time "
                            "loop does): the launches cannot stop early on a value the kernels compute; keep the loop "
                            "in C around a marked function without the 'break'; '%s' keeps its CPU body",
                            what, m->r->name);
            else if (s->kind == S_FOR && !s->depth)
                diag_reject(at, "-Wgpufuse-control",
                            "'break' leaves %s, the outermost loop of its nest, which would run in parallel: an "
                            "early exit makes every iteration depend on whether an earlier one broke; only a loop "
                            "run per element inside a parallel loop may break; '%s' keeps its CPU body",
                            what, m->r->name);
            else
                diag_reject(at, "-Wgpufuse-control",
                            "'break' leaves %s that is not inside a parallel loop (it would run sequentially on "
                            "the host or in a single thread); only a loop run per element inside a parallel loop "
                            "may break; '%s' keeps its CPU body", what, m->r->name);
            return false;
        }
        if (outermost)
            return true;
        return check_breaks(m, s->body, in_parallel || (s->kind == S_FOR && s->parallel), false);
    default: return true;
    }
}

static bool check_nests(Model *m, Stmt *s)
{
    /* every top-level loop nest needs a parallel loop somewhere */
    for (int i = 0; i < s->list.len; i++) {
        Stmt *t = vec_at(&s->list, i);
        if (t->kind != S_FOR || any_parallel(t))
            continue;
        Var *v = carried_var(m, t);
        bool indirect = false;   /* some write to v has a computed subscript */
        for (int j = 0; v && v->is_array && j < m->ps.len; j++) {
            PStmt *ps = vec_at(&m->ps, j);
            for (int k = 0; k < ps->acc.len; k++) {
                Access *ac = vec_at(&ps->acc, k);
                if (ac->var == v && ac->write && !ac->exact)
                    indirect = true;
            }
        }
        const char *why = v ? m->not_atomic[v->id] : NULL;
        if (indirect)
            diag_reject(t->loc, "-Wgpufuse-dependence",
                        "writes to '%s' use a subscript that is not affine in the loop indices (indirect like "
                        "'%s[idx[i]]', or flattened with a variable row length like '%s[i*m + j]'), so different "
                        "iterations may write the same element%s%s%s; '%s' keeps its CPU body",
                        v->name, v->name, v->name, why ? "; the writes cannot be atomic updates: " : "",
                        why ? why : "", why ? "" : arena_printf(m->a, " (only '+=', '-=', '*=', '&=', '|=', '^=' "
                        "updates and min/max updates like '%s[k] = fmaxf(%s[k], v)' can be atomic)", v->name, v->name),
                        m->r->name);
        else if (v && !v->is_array && v->kind == V_LOCAL)
            diag_reject(t->loc, "-Wgpufuse-dependence",
                        "loop carries a dependence through '%s' from one iteration to the next (a running value "
                        "that is not a reduction); no iteration can run in parallel, so '%s' keeps its CPU body",
                        v->name, m->r->name);
        else if (v)
            diag_reject(t->loc, "-Wgpufuse-dependence",
                        "loop carries a dependence on '%s' (an iteration uses what an earlier one wrote)%s%s%s%s; "
                        "no loop of this nest is parallel, so '%s' keeps its CPU body", v->name,
                        v->priv_why ? "; '" : "", v->priv_why ? v->name : "",
                        v->priv_why ? "' cannot be private to each iteration: " : "",
                        v->priv_why ? v->priv_why : "", m->r->name);
        else
            diag_reject(t->loc, "-Wgpufuse-dependence",
                        "no loop of this nest is free of loop-carried dependences; '%s' keeps its CPU body",
                        m->r->name);
        return false;
    }
    return true;
}

static int live_models;

static void free_ctx(void)
{
    if (ctx && !live_models) {
        isl_ctx_free(ctx);
        ctx = NULL;
    }
}

void deps_free(Region *r)
{
    if (!r->deps || !r->deps->priv)
        return;
    Model *m = &((DepPriv *)r->deps->priv)->m;
    isl_union_set_free(m->domain);
    isl_union_map_free(m->sched);
    isl_union_map_free(m->deps);
    isl_union_map_free(m->deps_t);
    r->deps->priv = NULL;
    live_models--;
}

void deps_model(Unit *u, Region *r)
{
    if (!ctx) {
        ctx = isl_ctx_alloc();
        isl_options_set_on_error(ctx, ISL_ON_ERROR_CONTINUE);
        atexit(free_ctx);
    }
    DepPriv *dp = arena_alloc(u->arena, sizeof *dp);
    Model *m = &dp->m;
    m->u = u;
    m->r = r;
    m->a = u->arena;
    m->params = arena_strdup(m->a, "[");
    int np = 0;
    for (int i = 0; i < r->params.len; i++) {
        Var *v = vec_at(&r->params, i);
        if (!v->is_array && type_is_integer(v->ty))
            m->params = arena_printf(m->a, "%s%s%s", m->params, np++ ? ", " : "", isl_name(m, v));
    }
    m->params = arena_printf(m->a, "%s]", m->params);
    delin_stmt(m, r->body);
    /* a flattened array whose inner part leaves [0, P) somewhere is taken
     * back to 1-D and the model rebuilt (at most once per array) */
    for (int tries = 0; tries <= r->vars.len; tries++) {
        m->redo = false;
        m->ps.len = 0;
        m->ord = 0;
        m->maxdepth = 0;
        m->nloops = 0;
        m->nconds = 0;
        m->inexact = 0;
        m->ncexprs = 0;
        m->not_atomic = arena_alloc(m->a, sizeof(char *) * (size_t)(r->vars.len + 1));
        build(m, r->body);
        if (!m->redo)
            break;
    }

    /* reduction statements: the accumulator must be touched only by
     * reductions of the same operator inside their loops */
    for (int i = 0; i < m->ps.len; i++) {
        PStmt *ps = vec_at(&m->ps, i);
        if (!ps->s->red)
            continue;
        Var *v = ps->s->red_var;
        int scope = v->depth;    /* loops at depth >= scope reduce */
        if (ps->nloops <= scope) {
            ps->s->red = RED_NONE;  /* not inside any loop: a plain update */
            ps->s->red_var = NULL;
            continue;
        }
        Stmt *outer = ps->loops[scope];
        for (int j = 0; j < m->ps.len; j++) {
            PStmt *q = vec_at(&m->ps, j);
            bool inside = q->nloops > scope && q->loops[scope] == outer;
            if (!inside || q == ps)
                continue;
            bool same = q->s->red == ps->s->red && q->s->red_var == v;
            bool touches = false;
            for (int k = 0; k < q->acc.len; k++)
                if (((Access *)vec_at(&q->acc, k))->var == v)
                    touches = true;
            if (touches && !same) {
                ps->s->red = RED_NONE;
                ps->s->red_var = NULL;
                break;
            }
        }
        if (!ps->s->red) {
            /* an ordinary update after all: its accumulator accesses are
             * plain ones, and they already cover the read in the rhs */
            for (int k = 0; k < ps->acc.len; k++)
                ((Access *)vec_at(&ps->acc, k))->red = false;
        }
    }

    check_atomics(m);

    /* domain and schedule */
    char *dom = arena_printf(m->a, "%s -> { ", m->params);
    char *sch = arena_printf(m->a, "%s -> { ", m->params);
    int n = 2 * m->maxdepth + 1;
    for (int i = 0; i < m->ps.len; i++) {
        PStmt *ps = vec_at(&m->ps, i);
        dom = arena_printf(m->a, "%s%s%s[%s]%s%s", dom, i ? "; " : "", ps->name, ps->iters,
                           *ps->cons ? " : " : "", ps->cons);
        char *t = arena_strdup(m->a, "");
        int k = 0;
        for (int l = 0; l < ps->nloops; l++, k += 2)
            t = arena_printf(m->a, "%s%d, %s, ", t, loop_ord(ps->loops[l]), isl_name(m, ps->loops[l]->iv));
        t = arena_printf(m->a, "%s%d", t, ps->ord);
        for (k++; k < n; k++)
            t = arena_printf(m->a, "%s, 0", t);
        sch = arena_printf(m->a, "%s%s%s[%s] -> [%s]", sch, i ? "; " : "", ps->name, ps->iters, t);
    }
    dom = arena_printf(m->a, "%s }", dom);
    sch = arena_printf(m->a, "%s }", sch);
    isl_union_set *d = isl_union_set_read_from_str(ctx, dom);
    if (!d) {
        diag_at(DIAG_ERROR, r->loc, NULL, "internal: isl rejected the domain %s", dom);
        gfc_panic(__FILE__, __LINE__, "isl domain");
    }
    m->domain = d;
    m->sched = isl_union_map_intersect_domain(umap(m, sch), isl_union_set_copy(d));
    m->deps = compute_deps(m, NULL);
    m->deps_t = to_time(m, isl_union_map_copy(m->deps));
    live_models++;

    r->deps = arena_alloc(m->a, sizeof *r->deps);
    r->deps->isl_domain = dom;
    r->deps->isl_schedule = sch;
    r->deps->isl_deps = umap_str(m, m->deps);
    r->deps->priv = dp;

    mark_loops(m, r->body);
}

/* A private array declared in a loop that runs on the host (a sequential
 * loop not inside any parallel one): its one copy per iteration would have
 * to be shared by the kernels the loop launches. */
static bool check_private(Model *m, Stmt *s)
{
    if (!s)
        return true;
    switch (s->kind) {
    case S_BLOCK:
        for (int i = 0; i < s->list.len; i++)
            if (!check_private(m, vec_at(&s->list, i)))
                return false;
        return true;
    case S_FOR: return s->parallel || check_private(m, s->body);
    case S_DECL:
        if (!s->var->is_private)
            return true;
        diag_reject(s->var->loc, "-Wgpufuse-temp",
                    "local array '%s' is declared in a loop that runs on the host (no parallel loop around it): an "
                    "array private to each iteration must be declared inside a parallel loop; declare it at the top "
                    "of the marked function; '%s' keeps its CPU body", s->var->name, m->r->name);
        return false;
    default: return true;        /* if/while at the host level: a single-thread kernel */
    }
}

bool deps_check(Region *r)
{
    Model *m = &((DepPriv *)r->deps->priv)->m;
    /* a nest whose outermost loop breaks is said so first; a nest with no
     * parallel loop at all, for its own reason; then the other breaks */
    return check_breaks(m, r->body, false, true) && check_nests(m, r->body) &&
           check_breaks(m, r->body, false, false) && check_private(m, r->body);
}

bool deps_analyze(Unit *u, Region *r)
{
    deps_model(u, r);
    return deps_check(r);
}

/* Statements (by name) under a loop nest. */
static bool under(const PStmt *ps, const Stmt *nest)
{
    for (int k = 0; k < ps->nloops; k++)
        if (ps->loops[k] == nest)
            return true;
    return false;
}

/* Whether every dependence from statements under a to statements under b
 * keeps the time dimensions tdims[0..n) equal. */
static bool deps_keep(Region *r, Stmt *a, Stmt *b, const int *tdims, int nd)
{
    Model *m = &((DepPriv *)r->deps->priv)->m;
    isl_union_map *d = isl_union_map_copy(m->deps);
    /* restrict to A -> B */
    isl_union_set *sa = isl_union_set_empty(isl_union_set_get_space(m->domain));
    isl_union_set *sb = isl_union_set_copy(sa);
    for (int i = 0; i < m->ps.len; i++) {
        PStmt *ps = vec_at(&m->ps, i);
        bool ina = under(ps, a), inb = under(ps, b);
        if (!ina && !inb)
            continue;
        char *s = arena_printf(m->a, "%s -> { %s[%s] }", m->params, ps->name, ps->iters);
        if (ina)
            sa = isl_union_set_union(sa, isl_union_set_read_from_str(ctx, s));
        if (inb)
            sb = isl_union_set_union(sb, isl_union_set_read_from_str(ctx, s));
    }
    d = isl_union_map_intersect_domain(d, sa);
    d = isl_union_map_intersect_range(d, sb);
    isl_union_map *dt = to_time(m, d);
    int n = 2 * m->maxdepth + 1;
    char *in = arena_strdup(m->a, ""), *out = arena_strdup(m->a, ""), *cons = arena_strdup(m->a, "");
    for (int k = 0; k < n; k++) {
        in = arena_printf(m->a, "%s%st%d", in, k ? ", " : "", k);
        out = arena_printf(m->a, "%s%ss%d", out, k ? ", " : "", k);
    }
    for (int k = 0; k < nd; k++)
        cons = arena_printf(m->a, "%s%st%d = s%d", cons, k ? " and " : "", tdims[k], tdims[k]);
    char *str = arena_printf(m->a, "%s -> { [%s] -> [%s] : %s }", m->params, in, out, *cons ? cons : "true");
    isl_union_map *same = umap(m, str);
    bool ok = isl_union_map_is_subset(dt, same);
    isl_union_map_free(same);
    isl_union_map_free(dt);
    return ok;
}

bool deps_fusable(Region *r, Stmt *a, Stmt *b, int dims)
{
    int t[16];
    for (int k = 0; k < dims && k < 16; k++)
        t[k] = 2 * (k + a->depth) + 1;
    return deps_keep(r, a, b, t, dims < 16 ? dims : 16);
}

/* ---- interchange ----------------------------------------------------------------
 * A sequential loop whose body is only a parallel loop, where every
 * dependence inside keeps the inner index equal (a column update
 * y[j] += A[i][j]*t[i], a time loop around an element-wise update): the two
 * loop headers are swapped, so the parallel loop is outside and the
 * sequential one runs per element inside the kernel, in the same order for
 * each element (the C loop's operations in its order). */

static bool uses_iv(const Expr *e, const void *v)
{
    return e->kind == E_VAR && e->var == v;
}

static bool try_interchange(Region *r, Stmt *s)
{
    if (!s)
        return false;
    bool any = false;
    switch (s->kind) {
    case S_BLOCK:
        for (int i = 0; i < s->list.len; i++)
            any |= try_interchange(r, vec_at(&s->list, i));
        return any;
    case S_FOR: break;
    default: return false;
    }
    Stmt *inner = s->body;
    while (inner && inner->kind == S_BLOCK && inner->list.len == 1)
        inner = vec_at(&inner->list, 0);
    if (s->parallel || !inner || inner->kind != S_FOR || !inner->parallel || s->brk || inner->brk)
        return try_interchange(r, s->body);
    /* rectangular: the inner bounds do not move with the outer index */
    if (ir_expr_any(inner->lb, uses_iv, s->iv) || ir_expr_any(inner->ub, uses_iv, s->iv))
        return false;
    int t = 2 * inner->depth + 1;
    if (!deps_keep(r, s, s, &t, 1))
        return false;
    Stmt tmp = *s;
    s->iv = inner->iv, s->lb = inner->lb, s->ub = inner->ub, s->step = inner->step;
    inner->iv = tmp.iv, inner->lb = tmp.lb, inner->ub = tmp.ub, inner->step = tmp.step;
    int d = s->iv->depth;
    s->iv->depth = inner->iv->depth;
    inner->iv->depth = d;
    s->interchanged = inner->interchanged = true;
    return true;
}

bool deps_interchange(Region *r)
{
    return try_interchange(r, r->body);
}

/* ---- extents ------------------------------------------------------------------- */

static char *pw_to_c(Model *m, isl_pw_aff *pa)
{
    isl_set *ctxset = isl_set_universe(isl_pw_aff_get_domain_space(pa));
    isl_ast_build *b = isl_ast_build_from_context(ctxset);
    isl_ast_expr *e = isl_ast_build_expr_from_pw_aff(b, pa);
    char *s = e ? isl_ast_expr_to_C_str(e) : NULL;
    isl_ast_expr_free(e);
    isl_ast_build_free(b);
    if (!s)
        return NULL;
    /* isl's min/max/floord become the generated file's gf_ helpers */
    Buf out = {0};
    for (const char *p = s; *p;) {
        bool boundary = p == s || !(p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= 'A' && p[-1] <= 'Z') ||
                                    (p[-1] >= '0' && p[-1] <= '9'));
        if (boundary && (!strncmp(p, "min(", 4) || !strncmp(p, "max(", 4) || !strncmp(p, "floord(", 7))) {
            buf_puts(&out, "gf_");
        }
        buf_printf(&out, "%c", *p++);
    }
    char *r = arena_strdup(m->a, out.data ? out.data : "");
    buf_free(&out);
    free(s);
    return r;
}

bool deps_extent(Unit *u, Region *r, Var *v, char ***lo, char ***hi)
{
    (void)u;
    Model *m = &((DepPriv *)r->deps->priv)->m;
    isl_union_map *acc = NULL;
    for (int i = 0; i < m->ps.len; i++) {
        PStmt *ps = vec_at(&m->ps, i);
        for (int j = 0; j < ps->acc.len; j++) {
            Access *ac = vec_at(&ps->acc, j);
            if (ac->var != v)
                continue;
            if (!ac->exact || !ps->exact_domain) {
                if (acc)
                    isl_union_map_free(acc);
                return false;
            }
            isl_union_map *a = umap(m, ac->map);
            acc = acc ? isl_union_map_union(acc, a) : a;
        }
    }
    if (!acc) {
        *lo = *hi = NULL;    /* untouched */
        return true;
    }
    isl_union_set *touched = isl_union_set_apply(isl_union_set_copy(m->domain), acc);
    isl_set_list *sets = isl_union_set_get_set_list(touched);
    isl_union_set_free(touched);
    if (isl_set_list_n_set(sets) != 1) {
        isl_set_list_free(sets);
        return false;
    }
    isl_set *set = isl_set_list_get_set(sets, 0);
    isl_set_list_free(sets);
    /* the bounding box, per dimension; the launcher flattens it */
    int nd = isl_set_dim(set, isl_dim_set);
    char **los = arena_alloc(m->a, sizeof(char *) * (size_t)(nd ? nd : 1));
    char **his = arena_alloc(m->a, sizeof(char *) * (size_t)(nd ? nd : 1));
    bool flat = nd == 2 && v->ndims == 1 && v->delin && !v->delin_bad;
    bool ok = nd == v->ndims || flat;
    for (int d = 0; d < nd && ok; d++) {
        isl_pw_aff *mn = isl_set_dim_min(isl_set_copy(set), d);
        isl_pw_aff *mx = isl_set_dim_max(isl_set_copy(set), d);
        if (!mn || !mx || isl_pw_aff_involves_nan(mn) || isl_pw_aff_involves_nan(mx)) {
            isl_pw_aff_free(mn);
            isl_pw_aff_free(mx);
            ok = false;
            break;
        }
        los[d] = pw_to_c(m, mn);
        his[d] = pw_to_c(m, mx);
        ok = los[d] && his[d];
    }
    isl_set_free(set);
    if (!ok)
        return false;
    if (flat) {
        /* rows of length P: the box corners, flattened */
        const char *p = v->delin->cname;
        los[0] = arena_printf(m->a, "(long long)(%s) * (long long)(%s) + (%s)", los[0], p, los[1]);
        his[0] = arena_printf(m->a, "(long long)(%s) * (long long)(%s) + (%s)", his[0], p, his[1]);
    }
    *lo = los;
    *hi = his;
    return true;
}

/* ---- privatisation and distribution (priv.c asks, isl answers) ------------------- */

/* { [t0..] -> [s0..] : t_k = s_k for k < eq } and, with differ >= 0, t_differ != s_differ. */
static isl_union_map *time_rel(Model *m, int eq, int differ)
{
    int n = 2 * m->maxdepth + 1;
    char *in = arena_strdup(m->a, ""), *out = arena_strdup(m->a, ""), *cons = arena_strdup(m->a, "");
    for (int k = 0; k < n; k++) {
        in = arena_printf(m->a, "%s%st%d", in, k ? ", " : "", k);
        out = arena_printf(m->a, "%s%ss%d", out, k ? ", " : "", k);
    }
    for (int k = 0; k < eq && k < n; k++)
        cons = arena_printf(m->a, "%s%st%d = s%d", cons, k ? " and " : "", k, k);
    if (differ >= 0 && differ < n)
        cons = arena_printf(m->a, "%s%st%d != s%d", cons, *cons ? " and " : "", differ, differ);
    return umap(m, arena_printf(m->a, "%s -> { [%s] -> [%s] : %s }", m->params, in, out, *cons ? cons : "true"));
}

const char *deps_private_flow(Region *r, Var *t, Stmt *loop)
{
    Model *m = &((DepPriv *)r->deps->priv)->m;
    isl_space *sp = isl_union_set_get_space(m->domain);
    isl_union_map *sink = isl_union_map_empty(isl_space_copy(sp));
    isl_union_map *must = isl_union_map_empty(isl_space_copy(sp));
    isl_union_map *may = isl_union_map_empty(sp);
    const char *why = NULL;
    for (int i = 0; i < m->ps.len && !why; i++) {
        PStmt *ps = vec_at(&m->ps, i);
        for (int j = 0; j < ps->acc.len && !why; j++) {
            Access *ac = vec_at(&ps->acc, j);
            if (ac->var != t)
                continue;
            if (!under(ps, loop)) {
                why = arena_printf(m->a, "line %d uses it outside the loop", ps->s->loc.line);
                break;
            }
            if (!ac->exact) {
                why = arena_printf(m->a, "a subscript of '%s' on line %d is not affine", t->name, ps->s->loc.line);
                break;
            }
            isl_union_map *a = isl_union_map_intersect_domain(umap(m, ac->map), isl_union_set_copy(m->domain));
            if (!ac->write)
                sink = isl_union_map_union(sink, a);
            else if (ps->exact_domain && ps->exact_cond && ps->s->kind != S_WHILE)
                must = isl_union_map_union(must, a);   /* surely overwrites what it names */
            else
                may = isl_union_map_union(may, a);
        }
    }
    if (why) {
        isl_union_map_free(sink);
        isl_union_map_free(must);
        isl_union_map_free(may);
        return why;
    }
    /* value-based: each read's possible sources, the last writes before it */
    isl_union_access_info *ai = isl_union_access_info_from_sink(sink);
    ai = isl_union_access_info_set_must_source(ai, must);
    ai = isl_union_access_info_set_may_source(ai, may);
    ai = isl_union_access_info_set_schedule_map(ai, isl_union_map_copy(m->sched));
    isl_union_flow *fl = isl_union_access_info_compute_flow(ai);
    if (!fl)
        return "isl could not compute its flow of values";
    isl_union_map *dep = isl_union_flow_get_may_dependence(fl);
    isl_union_flow_free(fl);
    /* every source in the same iteration of the loop and of those around it */
    isl_union_map *dt = to_time(m, dep);
    isl_union_map *same = time_rel(m, 2 * loop->depth + 2, -1);
    isl_bool ok = isl_union_map_is_subset(dt, same);
    isl_union_map_free(same);
    isl_union_map_free(dt);
    if (ok != isl_bool_true)
        return arena_printf(m->a, "an iteration of '%s' reads elements of '%s' that an earlier iteration wrote",
                            loop->iv->name, t->name);
    return NULL;
}

bool deps_parallel_without(Region *r, Stmt *loop, Var *const *skip, int n)
{
    Model *m = &((DepPriv *)r->deps->priv)->m;
    isl_union_map *dt = to_time(m, compute_deps_skip(m, NULL, skip, n));
    bool c = carries(m, dt, loop_ord(loop), 2 * loop->depth + 1, false);
    isl_union_map_free(dt);
    return !c;
}

/* The statement ids under s. */
static void ids_under(const Stmt *s, int *kid_of, int n, int k)
{
    if (!s)
        return;
    if (s->id >= 0 && s->id < n)
        kid_of[s->id] = k;
    switch (s->kind) {
    case S_BLOCK:
        for (int i = 0; i < s->list.len; i++)
            ids_under(vec_at(&s->list, i), kid_of, n, k);
        return;
    case S_FOR:
    case S_WHILE: ids_under(s->body, kid_of, n, k); return;
    case S_IF:
        ids_under(s->then, kid_of, n, k);
        ids_under(s->els, kid_of, n, k);
        return;
    default: return;
    }
}

typedef struct GraphCx {
    Model *m;
    const int *kid_of;
    int nids, n;
    isl_union_map *same, *carry;
    bool *edge, *carried;
} GraphCx;

static int stmt_no(const char *name)
{
    return name && name[0] == 'S' ? atoi(name + 1) : -1;
}

static isl_stat graph_map(isl_map *d, void *user)
{
    GraphCx *g = user;
    int x = stmt_no(isl_map_get_tuple_name(d, isl_dim_in)), y = stmt_no(isl_map_get_tuple_name(d, isl_dim_out));
    int a = x >= 0 && x < g->nids ? g->kid_of[x] : -1, b = y >= 0 && y < g->nids ? g->kid_of[y] : -1;
    if (a < 0 || b < 0) {
        isl_map_free(d);
        return isl_stat_ok;
    }
    isl_union_map *dt = to_time(g->m, isl_union_map_from_map(d));
    isl_union_map *x1 = isl_union_map_intersect(isl_union_map_copy(dt), isl_union_map_copy(g->same));
    if (!isl_union_map_is_empty(x1))
        g->edge[a * g->n + b] = true;
    isl_union_map *x2 = isl_union_map_intersect(dt, isl_union_map_copy(g->carry));
    if (!isl_union_map_is_empty(x2))
        g->carried[a * g->n + b] = true;
    isl_union_map_free(x1);
    isl_union_map_free(x2);
    return isl_stat_ok;
}

void deps_body_graph(Region *r, Stmt *loop, Stmt *const *kids, int n, bool *edge, bool *carried)
{
    Model *m = &((DepPriv *)r->deps->priv)->m;
    int nids = r->stmts.len;
    int *kid_of = arena_alloc(m->a, sizeof(int) * (size_t)(nids ? nids : 1));
    for (int i = 0; i < nids; i++)
        kid_of[i] = -1;
    for (int k = 0; k < n; k++)
        ids_under(kids[k], kid_of, nids, k);
    memset(edge, 0, sizeof(bool) * (size_t)n * (size_t)n);
    memset(carried, 0, sizeof(bool) * (size_t)n * (size_t)n);
    /* one iteration of the loops around: the time vector up to the loop's
     * ordinal is the same; carried: the loop's own index differs */
    int d = 2 * loop->depth + 1;
    GraphCx g = {m, kid_of, nids, n, time_rel(m, d, -1), time_rel(m, d, d), edge, carried};
    isl_union_map_foreach_map(m->deps, graph_map, &g);
    isl_union_map_free(g.same);
    isl_union_map_free(g.carry);
}

/* ---- library calls (libcall.c) --------------------------------------------------- */

static PStmt *pstmt_of(Model *m, const Stmt *s)
{
    for (int i = 0; i < m->ps.len; i++) {
        PStmt *ps = vec_at(&m->ps, i);
        if (ps->s == s)
            return ps;
    }
    return NULL;
}

/* The accesses of v by ps (reads: want 1, writes: 2, both: 3) on its
 * domain; false when one is not exact. */
static bool accesses_of(Model *m, PStmt *ps, const Var *v, int want, isl_union_map **out)
{
    for (int j = 0; j < ps->acc.len; j++) {
        Access *ac = vec_at(&ps->acc, j);
        if (ac->var != v || !(want & (ac->write ? 2 : 1)))
            continue;
        if (!ac->exact || !ps->exact_domain || !ps->exact_cond)
            return false;
        isl_union_map *a = isl_union_map_intersect_domain(umap(m, ac->map), isl_union_set_copy(m->domain));
        *out = isl_union_map_union(*out, a);
    }
    return true;
}

bool deps_before_on(Region *r, Stmt *a, Stmt *b, Var *v)
{
    Model *m = &((DepPriv *)r->deps->priv)->m;
    PStmt *pa = pstmt_of(m, a), *pb = pstmt_of(m, b);
    if (!pa || !pb)
        return false;
    isl_space *sp = isl_union_set_get_space(m->domain);
    isl_union_map *xa = isl_union_map_empty(isl_space_copy(sp)), *xb = isl_union_map_empty(sp);
    bool ok = accesses_of(m, pa, v, 3, &xa) && accesses_of(m, pb, v, 3, &xb);
    if (ok) {
        /* instance of a -> instance of b touching the same element */
        isl_union_map *pairs = isl_union_map_apply_range(isl_union_map_copy(xa), isl_union_map_reverse(isl_union_map_copy(xb)));
        isl_union_map *before = isl_union_map_lex_lt_union_map(isl_union_map_copy(m->sched), isl_union_map_copy(m->sched));
        ok = isl_union_map_is_subset(pairs, before) == isl_bool_true;
        isl_union_map_free(pairs);
        isl_union_map_free(before);
    }
    isl_union_map_free(xa);
    isl_union_map_free(xb);
    return ok;
}

bool deps_reads_initial(Region *r, Stmt *nest, Stmt *s, Var *v)
{
    Model *m = &((DepPriv *)r->deps->priv)->m;
    PStmt *ps = pstmt_of(m, s);
    if (!ps)
        return false;
    isl_space *sp = isl_union_set_get_space(m->domain);
    isl_union_map *rd = isl_union_map_empty(isl_space_copy(sp)), *own = isl_union_map_empty(isl_space_copy(sp));
    isl_union_map *w = isl_union_map_empty(sp);
    bool ok = accesses_of(m, ps, v, 1, &rd) && accesses_of(m, ps, v, 2, &own);
    for (int i = 0; ok && i < m->ps.len; i++) {
        PStmt *q = vec_at(&m->ps, i);
        if (under(q, nest))
            ok = accesses_of(m, q, v, 2, &w);
    }
    if (ok) {
        /* the reads of elements other than the one the instance writes,
         * and a write of the nest to the same element before them */
        rd = isl_union_map_subtract(rd, isl_union_map_copy(own));
        isl_union_map *pairs = isl_union_map_apply_range(isl_union_map_copy(w), isl_union_map_reverse(isl_union_map_copy(rd)));
        isl_union_map *before = isl_union_map_lex_lt_union_map(isl_union_map_copy(m->sched), isl_union_map_copy(m->sched));
        pairs = isl_union_map_intersect(pairs, before);
        ok = isl_union_map_is_empty(pairs) == isl_bool_true;
        isl_union_map_free(pairs);
    }
    isl_union_map_free(rd);
    isl_union_map_free(own);
    isl_union_map_free(w);
    return ok;
}
