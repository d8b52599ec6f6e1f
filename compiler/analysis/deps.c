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
#include <isl/id.h>
#include <isl/local_space.h>
#include <isl/map.h>
#include <isl/options.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/union_map.h>
#include <isl/union_set.h>
#include <isl/val.h>
#include <stdlib.h>
#include <string.h>

/* ---- the model ------------------------------------------------------------------
 * Built through isl's API, never through text: every statement's instances
 * live in a space whose tuple id is "S<n>" with the statement as its user
 * pointer, its dimensions carry the loop indices (ids with the Var as user
 * pointer), arrays are tuple ids with the Var as user pointer, and the
 * integer parameters are parameter ids with their Var.  isl compares ids
 * by pointer, so no name the user writes can meet one of gpufuse's; names
 * only matter when a set is printed (--emit=ir). */

#include "model.h"

unsigned long deps_isl_max_operations;

/* ---- isl errors ----------------------------------------------------------------
 * The one place where isl's failures are seen: a NULL object, an
 * isl_bool_error or an isl_size error, passed as `bad`.  The first one is
 * recorded with isl's message; from then on the model has failed and every
 * question asked of it gets the answer that assumes the worst (a carried
 * dependence: not parallel; not fusable; extent unknown), and deps_check
 * refuses the region with that message.  Returns whether the model failed. */
static bool isl_bad(Model *m, bool bad)
{
    if (bad && !m->failed) {
        const char *msg = isl_ctx_last_error_msg(m->ctx);
        enum isl_error e = isl_ctx_last_error(m->ctx);
        m->failed = msg ? arena_strdup(m->a, msg) :
                    e == isl_error_quota ? "its operation limit was reached" : "an isl operation failed";
    }
    return m->failed != NULL;
}

static isl_id *var_id(Model *m, Var *v)
{
    return isl_id_alloc(m->ctx, v->cname, v);
}

/* [params] -> { [n dims] }, anonymous. */
static isl_space *set_space(Model *m, int n)
{
    return isl_space_add_dims(isl_space_set_from_params(isl_space_copy(m->params)), isl_dim_set, (unsigned)n);
}

/* Where v is in the statement's space: a loop index around it or a parameter. */
static bool dim_of(Model *m, const PStmt *ps, const Var *v, enum isl_dim_type *t, int *pos)
{
    for (int k = ps->nloops - 1; k >= 0; k--)
        if (ps->loops[k]->iv == v) {
            *t = isl_dim_in;
            *pos = k;
            return true;
        }
    for (int k = 0; k < m->pvars.len; k++)
        if (vec_at(&m->pvars, k) == v) {
            *t = isl_dim_param;
            *pos = k;
            return true;
        }
    return false;
}

/* f on the statement's instances; NULL when f is NULL or names a variable
 * that is neither a loop index around the statement nor a parameter. */
static isl_aff *stmt_aff(Model *m, const PStmt *ps, const Aff *f)
{
    if (!f)
        return NULL;
    isl_aff *a = isl_aff_zero_on_domain(isl_local_space_from_space(isl_space_copy(ps->space)));
    a = isl_aff_set_constant_val(a, isl_val_int_from_si(m->ctx, f->c));
    for (int i = 0; i < f->nterms; i++) {
        enum isl_dim_type t;
        int pos;
        if (!dim_of(m, ps, f->terms[i].var, &t, &pos)) {
            isl_aff_free(a);
            return NULL;
        }
        a = isl_aff_set_coefficient_val(a, t, pos, isl_val_int_from_si(m->ctx, f->terms[i].coef));
    }
    isl_bad(m, !a);
    return a;
}

static isl_aff *stmt_iv(const PStmt *ps, int k)
{
    return isl_aff_var_on_domain(isl_local_space_from_space(isl_space_copy(ps->space)), isl_dim_set, (unsigned)k);
}

/* ---- building the model ---------------------------------------------------- */

/* The instances of ps where condition c holds (negated: does not hold), or
 * a superset of them; *exact: the set is exactly that. */
/* A subtraction or negation in e: in unsigned arithmetic a value that can
 * wrap below zero, where isl's integers would go negative. */
static bool may_wrap(const Expr *e)
{
    if ((e->kind == E_BINARY && e->op == OP_SUB) || (e->kind == E_UNARY && e->op == OP_NEG))
        return true;
    for (int i = 0; i < e->nkids; i++)
        if (may_wrap(e->kids[i]))
            return true;
    return false;
}

/* An ordering of unsigned values that may wrap. */
static bool wraps_in_order(const Expr *c)
{
    return c->kind == E_BINARY && c->nkids == 2 && op_is_compare(c->op) && c->op != OP_EQ && c->op != OP_NE &&
           (type_is_unsigned(c->kids[0]->ty) || type_is_unsigned(c->kids[1]->ty)) &&
           (may_wrap(c->kids[0]) || may_wrap(c->kids[1]));
}

/* Whether condition c holds such an ordering anywhere (under && || !). */
static bool has_wrapping_order(const Expr *c)
{
    if (wraps_in_order(c))
        return true;
    if ((c->kind == E_BINARY && (c->op == OP_LAND || c->op == OP_LOR)) || (c->kind == E_UNARY && c->op == OP_NOT))
        for (int i = 0; i < c->nkids; i++)
            if (has_wrapping_order(c->kids[i]))
                return true;
    return false;
}

static isl_set *cond_set(Model *m, const PStmt *ps, const Expr *c, bool neg, bool *exact)
{
    *exact = false;
    if (!c)
        return isl_set_universe(isl_space_copy(ps->space));
    if (c->kind == E_UNARY && c->op == OP_NOT)
        return cond_set(m, ps, c->kids[0], !neg, exact);
    if (c->kind == E_BINARY && (c->op == OP_LAND || c->op == OP_LOR)) {
        /* supersets combine into a superset; De Morgan under negation */
        bool ex, ey;
        isl_set *x = cond_set(m, ps, c->kids[0], neg, &ex), *y = cond_set(m, ps, c->kids[1], neg, &ey);
        *exact = ex && ey;
        return (c->op == OP_LAND) != neg ? isl_set_intersect(x, y) : isl_set_union(x, y);
    }
    static const struct { Op op, not; } cmp[] = {
        {OP_LT, OP_GE}, {OP_LE, OP_GT}, {OP_GT, OP_LE}, {OP_GE, OP_LT}, {OP_EQ, OP_NE}, {OP_NE, OP_EQ}};
    Op op = OP_NONE;
    isl_aff *x = NULL, *y = NULL;
    for (size_t i = 0; c->kind == E_BINARY && i < sizeof cmp / sizeof *cmp; i++)
        if (c->op == cmp[i].op)
            op = neg ? cmp[i].not : cmp[i].op;
    if (op) {
        x = stmt_aff(m, ps, aff_of(m->a, c->kids[0]));
        y = stmt_aff(m, ps, aff_of(m->a, c->kids[1]));
    } else {
        /* an integer used as a condition: c != 0 */
        x = stmt_aff(m, ps, aff_of(m->a, (Expr *)c));
        y = x ? isl_aff_zero_on_domain(isl_local_space_from_space(isl_space_copy(ps->space))) : NULL;
        op = neg ? OP_EQ : OP_NE;
    }
    if (!x || !y) {
        isl_aff_free(x);
        isl_aff_free(y);
        return isl_set_universe(isl_space_copy(ps->space));
    }
    /* unsigned values that may wrap order as C does only where they do not
     * ('i - 1u < n' is false at i = 0, true for isl's integers): the set is
     * then a superset of the instances, not exact (== and != are the same
     * modulo 2^N) */
    *exact = !(op != OP_EQ && op != OP_NE && wraps_in_order(c));
    switch (op) {
    case OP_LT: return isl_aff_lt_set(x, y);
    case OP_LE: return isl_aff_le_set(x, y);
    case OP_GT: return isl_aff_gt_set(x, y);
    case OP_GE: return isl_aff_ge_set(x, y);
    case OP_EQ: return isl_aff_eq_set(x, y);
    default: return isl_aff_ne_set(x, y);
    }
}

/* lb <= iv < ub, and (iv - lb) % step == 0, of the k-th loop around ps. */
static isl_set *loop_set(Model *m, const PStmt *ps, int k, bool *exact)
{
    Stmt *l = ps->loops[k];
    isl_set *s = isl_set_universe(isl_space_copy(ps->space));
    isl_aff *lb = stmt_aff(m, ps, aff_of(m->a, l->lb)), *ub = stmt_aff(m, ps, aff_of(m->a, l->ub));
    *exact = lb && ub;
    if (ub)
        s = isl_set_intersect(s, isl_aff_lt_set(stmt_iv(ps, k), ub));
    if (!lb)
        return s;
    if (l->step > 1) {
        isl_aff *d = isl_aff_mod_val(isl_aff_sub(stmt_iv(ps, k), isl_aff_copy(lb)),
                                     isl_val_int_from_si(m->ctx, l->step));
        s = isl_set_intersect(s, isl_set_from_basic_set(isl_aff_zero_basic_set(d)));
    }
    return isl_set_intersect(s, isl_aff_ge_set(stmt_iv(ps, k), lb));
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

typedef struct ModelCx {
    IrVisitor v;
    Model *m;
} ModelCx;

/* After its subscripts, an access of a 1-D array: plain, or flattened with
 * one row length. */
static Expr *delin_expr(IrVisitor *vis, Expr *e, Stmt *owner)
{
    (void)owner;
    Model *m = ((ModelCx *)vis)->m;
    if (e->kind != E_INDEX || e->nkids != 1 || e->var->delin_bad)
        return e;
    Var *v = e->var;
    if (aff_of(m->a, e->kids[0])) {
        if (v->delin)
            v->delin_bad = true;   /* mixed with plain 1-D subscripts */
        v->delin_plain = true;
        return e;
    }
    Var *P = NULL;
    Aff *o = NULL, *in = NULL;
    if (!deps_split_flat(m->a, e->kids[0], &P, &o, &in) || !P || !o || v->delin_plain || (v->delin && v->delin != P)) {
        v->delin_bad = true;
        return e;
    }
    v->delin = P;
    return e;
}

/* Decides, before the model is built, which 1-D arrays are used only through
 * flattened subscripts of one row length. */
static void delin_stmt(Model *m, Stmt *s)
{
    ModelCx c = {{.expr_after = delin_expr}, m};
    ir_visit_stmt(&c.v, s);
}

/* The reads of an expression, each access once: an array element (or a
 * field of one: only that field's elements) and its subscripts, a local
 * scalar. */
typedef struct Reads {
    IrVisitor v;
    Model *m;
    PStmt *ps;
    const Var *skip;             /* a reduction's own accumulator: not a read */
    const Expr *elem;            /* an atomic min/max update's own element: not
                                    a read (its subscripts are) */
    const Expr *base;            /* the element under the field access just taken */
    const Expr *access;          /* the outermost access being walked (elem is
                                    not looked for inside one) */
} Reads;

static Expr *read_at(IrVisitor *v, Expr *e, Stmt *owner)
{
    (void)owner;
    Reads *c = (Reads *)v;
    if (e == c->base) {
        c->base = NULL;          /* the field was the access; its subscripts are read */
        return e;
    }
    if (c->elem && !c->access && expr_equal(e, c->elem))
        return e;
    if (e->kind == E_INDEX || (e->kind == E_FIELD && e->kids[0]->kind == E_INDEX)) {
        add_access(c->m, c->ps, e, false, false);
        if (e->kind == E_FIELD)
            c->base = e->kids[0];
        if (!c->access)
            c->access = e;
    } else if (e->kind == E_VAR && e->var->kind == V_LOCAL && e->var != c->skip) {
        add_access(c->m, c->ps, e, false, false);
    }
    return e;
}

static Expr *read_after(IrVisitor *v, Expr *e, Stmt *owner)
{
    (void)owner;
    Reads *c = (Reads *)v;
    if (e == c->access)
        c->access = NULL;
    return e;
}

static void reads_of(Model *m, PStmt *ps, Expr *e, const Var *skip, const Expr *elem)
{
    Reads c = {{.expr = read_at, .expr_after = read_after}, m, ps, skip, elem, NULL, NULL};
    ir_visit_expr(&c.v, e, NULL);
}

/* Reads in e, except of `skip` (a reduction's own accumulator). */
static void collect_reads_but(Model *m, PStmt *ps, Expr *e, const Var *skip)
{
    reads_of(m, ps, e, skip, NULL);
}

static void collect_reads(Model *m, PStmt *ps, Expr *e)
{
    reads_of(m, ps, e, NULL, NULL);
}

/* Reads in e, except of the element `elem` itself (an atomic min/max
 * update's own element: its subscripts are still read). */
static void collect_reads_elem(Model *m, PStmt *ps, Expr *e, const Expr *elem)
{
    reads_of(m, ps, e, NULL, elem);
}

/* An aff of one variable with coefficient 1. */
static Aff *aff_var(Arena *a, Var *v)
{
    Aff *f = arena_alloc(a, sizeof *f);
    f->terms = arena_alloc(a, sizeof *f->terms);
    f->terms[0] = (AffTerm){v, 1};
    f->nterms = 1;
    return f;
}

/* { S[iv...] -> v[iv_0..iv_nprefix-1, dims...] }: the first nprefix loop
 * indices (a scalar local or a private array, expanded over the loops
 * around its declaration), then the subscripts; a NULL subscript, or one
 * isl cannot express, is any index (*exact = false). */
/* Statement instance -> element of array `id` (v's, or one field's of v:
 * field_id). */
static isl_map *access_map_id(Model *m, PStmt *ps, isl_id *id, int nprefix, Aff *const *dims, int nd, bool *exact);
static isl_map *access_map_subs(Model *m, PStmt *ps, isl_id *id, int nprefix, Aff *const *dims, Expr *const *subs,
                                int nd, bool *exact);

static isl_map *access_map(Model *m, PStmt *ps, Var *v, int nprefix, Aff *const *dims, int nd, bool *exact)
{
    return access_map_id(m, ps, var_id(m, v), nprefix, dims, nd, exact);
}

/* ---- piecewise subscripts ----------------------------------------------------------
 * A subscript that is no affine form may still be a piecewise one that isl
 * represents exactly: C's division and remainder by a positive constant
 * (isl's tdiv_q, tdiv_r: truncation, as C), `c ? a : b` on affine
 * comparisons, a constant factor, and the calls of a helper whose body is a
 * return of such an expression of its parameters (helper_form: `clampi(x -
 * 2, 0, W - 1)`).  The access is then exact, and its extent known. */

typedef struct PwEnv {
    const Func *f;               /* the helper being evaluated, NULL at the top */
    isl_pw_aff **vals;           /* its parameters' and locals' values */
} PwEnv;

static isl_pw_aff *stmt_pw(Model *m, const PStmt *ps, const Expr *e, const PwEnv *env, int depth);

/* The set where condition e holds; NULL when it is not one of affine
 * comparisons combined with &&, || and ! (nor an unsigned comparison of
 * values that may wrap: `i - 1u < n` is false at i = 0 in C). */
static isl_set *stmt_pw_set(Model *m, const PStmt *ps, const Expr *e, const PwEnv *env, int depth)
{
    if (e->kind == E_UNARY && e->op == OP_NOT) {
        isl_set *x = stmt_pw_set(m, ps, e->kids[0], env, depth + 1);
        return x ? isl_set_complement(x) : NULL;
    }
    if (e->kind != E_BINARY)
        return NULL;
    if (e->op == OP_LAND || e->op == OP_LOR) {
        isl_set *x = stmt_pw_set(m, ps, e->kids[0], env, depth + 1);
        isl_set *y = x ? stmt_pw_set(m, ps, e->kids[1], env, depth + 1) : NULL;
        if (!y) {
            isl_set_free(x);
            return NULL;
        }
        return e->op == OP_LAND ? isl_set_intersect(x, y) : isl_set_union(x, y);
    }
    if (!op_is_compare(e->op) || !type_is_integer(e->kids[0]->ty) || !type_is_integer(e->kids[1]->ty))
        return NULL;
    if (wraps_in_order(e))
        return NULL;
    isl_pw_aff *a = stmt_pw(m, ps, e->kids[0], env, depth + 1);
    isl_pw_aff *b = a ? stmt_pw(m, ps, e->kids[1], env, depth + 1) : NULL;
    if (!b) {
        isl_pw_aff_free(a);
        return NULL;
    }
    switch (e->op) {
    case OP_LT: return isl_pw_aff_lt_set(a, b);
    case OP_LE: return isl_pw_aff_le_set(a, b);
    case OP_GT: return isl_pw_aff_gt_set(a, b);
    case OP_GE: return isl_pw_aff_ge_set(a, b);
    case OP_EQ: return isl_pw_aff_eq_set(a, b);
    default: return isl_pw_aff_ne_set(a, b);
    }
}

static isl_pw_aff *stmt_pw(Model *m, const PStmt *ps, const Expr *e, const PwEnv *env, int depth)
{
    if (!e || depth > 64 || !e->ty || !type_is_integer(e->ty))
        return NULL;
    if (e->kind == E_VAR && env && env->f) {
        const Func *f = env->f;
        for (int i = 0; i < f->nparams + f->nlocals; i++)
            if (e->var == (i < f->nparams ? f->params[i] : f->locals[i - f->nparams]))
                return env->vals[i] ? isl_pw_aff_copy(env->vals[i]) : NULL;
        return NULL;
    }
    if (!env || !env->f) {
        Aff *f = aff_of(m->a, (Expr *)e);
        if (f) {
            isl_aff *a = stmt_aff(m, ps, f);
            return a ? isl_pw_aff_from_aff(a) : NULL;
        }
    } else if (e->kind == E_INT) {
        Aff *f = aff_of(m->a, (Expr *)e);
        isl_aff *a = f ? stmt_aff(m, ps, f) : NULL;
        return a ? isl_pw_aff_from_aff(a) : NULL;
    }
    /* unsigned arithmetic is modulo 2^N and a conversion to a narrower or
     * differently signed type changes values, where isl's integers do
     * neither (`int h = i * 2654435761u` in a hash helper): not exact */
    if ((e->kind == E_BINARY || e->kind == E_UNARY) && type_is_unsigned(e->ty))
        return NULL;
    if (e->kind == E_CAST && e->kids[0]->kind != E_INT &&
        (type_size(e->ty) < type_size(e->kids[0]->ty) ||
         (type_is_unsigned(e->ty) != type_is_unsigned(e->kids[0]->ty) && type_size(e->ty) <= type_size(e->kids[0]->ty)) ||
         (type_is_unsigned(e->ty) && !type_is_unsigned(e->kids[0]->ty))))
        return NULL;
    switch (e->kind) {
    case E_CAST: return type_is_integer(e->kids[0]->ty) ? stmt_pw(m, ps, e->kids[0], env, depth + 1) : NULL;
    case E_UNARY:
        if (e->op == OP_PLUS)
            return stmt_pw(m, ps, e->kids[0], env, depth + 1);
        if (e->op == OP_NEG) {
            isl_pw_aff *x = stmt_pw(m, ps, e->kids[0], env, depth + 1);
            return x ? isl_pw_aff_neg(x) : NULL;
        }
        return NULL;
    case E_BINARY: {
        long long c = expr_pos_const(e->kids[1]);
        if ((e->op == OP_DIV || e->op == OP_MOD) && !c)
            return NULL;
        if (e->op == OP_MUL && !c && !expr_pos_const(e->kids[0]))
            return NULL;         /* a product of two variables */
        if (e->op != OP_ADD && e->op != OP_SUB && e->op != OP_MUL && e->op != OP_DIV && e->op != OP_MOD)
            return NULL;
        isl_pw_aff *x = stmt_pw(m, ps, e->kids[0], env, depth + 1);
        isl_pw_aff *y = x ? stmt_pw(m, ps, e->kids[1], env, depth + 1) : NULL;
        if (!y) {
            isl_pw_aff_free(x);
            return NULL;
        }
        switch (e->op) {
        case OP_ADD: return isl_pw_aff_add(x, y);
        case OP_SUB: return isl_pw_aff_sub(x, y);
        case OP_MUL: return isl_pw_aff_mul(x, y);     /* one side a constant */
        case OP_DIV: return isl_pw_aff_tdiv_q(x, y);  /* C's truncating division */
        default: return isl_pw_aff_tdiv_r(x, y);
        }
    }
    case E_COND: {
        isl_set *c = stmt_pw_set(m, ps, e->kids[0], env, depth + 1);
        isl_pw_aff *x = c ? stmt_pw(m, ps, e->kids[1], env, depth + 1) : NULL;
        isl_pw_aff *y = x ? stmt_pw(m, ps, e->kids[2], env, depth + 1) : NULL;
        if (!y) {
            isl_set_free(c);
            isl_pw_aff_free(x);
            return NULL;
        }
        return isl_pw_aff_cond(isl_set_indicator_function(c), x, y);
    }
    case E_CALL: {
        const Func *f = e->callee;
        if (!f || !f->ret || f->nparams != e->nkids)
            return NULL;
        int n = f->nparams + f->nlocals;
        isl_pw_aff **vals = calloc((size_t)(n ? n : 1), sizeof *vals);
        PwEnv in = {f, vals};
        bool ok = vals != NULL;
        for (int i = 0; ok && i < f->nparams; i++)
            ok = (vals[i] = stmt_pw(m, ps, e->kids[i], env, depth + 1)) != NULL;
        for (int i = 0; ok && i < f->nlocals; i++)
            vals[f->nparams + i] = stmt_pw(m, ps, f->inits[i], &in, depth + 1);  /* NULL: not read as a subscript */
        isl_pw_aff *r = ok ? stmt_pw(m, ps, f->ret, &in, depth + 1) : NULL;
        for (int i = 0; vals && i < n; i++)
            isl_pw_aff_free(vals[i]);
        free(vals);
        return r;
    }
    default: return NULL;
    }
}

static isl_map *access_map_id(Model *m, PStmt *ps, isl_id *id, int nprefix, Aff *const *dims, int nd, bool *exact)
{
    return access_map_subs(m, ps, id, nprefix, dims, NULL, nd, exact);
}

static isl_map *access_map_subs(Model *m, PStmt *ps, isl_id *id, int nprefix, Aff *const *dims, Expr *const *subs,
                                int nd, bool *exact)
{
    int n = nprefix + nd;
    isl_space *arr = isl_space_set_tuple_id(set_space(m, n), isl_dim_set, isl_id_copy(id));
    isl_space *sp = isl_space_map_from_domain_and_range(isl_space_copy(ps->space), arr);
    isl_pw_aff_list *list = isl_pw_aff_list_alloc(m->ctx, n);
    bool *any = arena_alloc(m->a, sizeof(bool) * (size_t)(n ? n : 1));
    for (int k = 0; k < nprefix; k++)
        list = isl_pw_aff_list_add(list, isl_pw_aff_from_aff(stmt_iv(ps, k)));
    for (int k = 0; k < nd; k++) {
        /* under a guard that wraps, an unsigned subscript that may wrap has
         * instances below 0 that C never reaches: any element */
        bool wraps = ps->wrap_cond && subs && subs[k] && type_is_unsigned(subs[k]->ty) && may_wrap(subs[k]);
        isl_aff *a = wraps ? NULL : stmt_aff(m, ps, dims[k]);
        isl_pw_aff *pa = a ? isl_pw_aff_from_aff(a) : subs && subs[k] && !wraps ? stmt_pw(m, ps, subs[k], NULL, 0) : NULL;
        if (!pa) {
            any[nprefix + k] = true;
            *exact = false;
            pa = isl_pw_aff_from_aff(isl_aff_zero_on_domain(isl_local_space_from_space(isl_space_copy(ps->space))));
        }
        list = isl_pw_aff_list_add(list, pa);
    }
    isl_map *map = isl_map_from_multi_pw_aff(isl_multi_pw_aff_from_pw_aff_list(sp, list));
    for (int k = n - 1; k >= 0; k--)
        if (any[k])
            map = isl_map_insert_dims(isl_map_project_out(map, isl_dim_out, (unsigned)k, 1), isl_dim_out,
                                      (unsigned)k, 1);
    map = isl_map_set_tuple_id(map, isl_dim_out, id);
    isl_bad(m, !map);
    return map;
}

/* The loops around ps that a private array or scalar local of v is expanded over. */
static int expanded_over(const PStmt *ps, const Var *v)
{
    return v->depth < ps->nloops ? v->depth : ps->nloops;
}

/* Whether a[outer*P + inner] stays in the row: 0 <= inner < P on every
 * instance of ps (isl checks the instances where it does not). */
static bool flat_in_row(Model *m, PStmt *ps, Var *P, const Aff *inner)
{
    isl_aff *in = stmt_aff(m, ps, inner), *p = stmt_aff(m, ps, aff_var(m->a, P));
    if (!in || !p) {
        isl_aff_free(in);
        isl_aff_free(p);
        return false;
    }
    isl_aff *zero = isl_aff_zero_on_domain(isl_local_space_from_space(isl_space_copy(ps->space)));
    isl_set *below = isl_aff_lt_set(isl_aff_copy(in), zero);
    isl_set *out = isl_set_union(below, isl_aff_ge_set(in, p));
    isl_set *bad = isl_set_intersect(out, isl_set_copy(ps->dom));
    isl_bool empty = isl_set_is_empty(bad);
    isl_set_free(bad);
    isl_bad(m, empty < 0);
    return empty == isl_bool_true;
}

/* Arrays of structs are field-sensitive: each field is an array of its own
 * for isl (bodies[i].vx and bodies[j].x never meet), named "<array>.<field>"
 * and carrying the Var; a whole element is every field. */
static int field_count(const Expr *e)
{
    return e->kind == E_INDEX && e->ty && e->ty->kind == TY_STRUCT && e->ty->nfields > 0 ? e->ty->nfields : 0;
}

static int field_index(Model *m, const Type *st, const char *name)
{
    const char *cname = decls_cname(m->a, name);   /* Field.name is as generated code names it */
    for (int k = 0; k < st->nfields; k++)
        if (!strcmp(st->fields[k].name, cname))
            return k;
    return -1;
}

static isl_id *field_id(Model *m, Var *v, const Type *st, int k)
{
    return isl_id_alloc(m->ctx, arena_printf(m->a, "%s.%s", v->cname, st->fields[k].name), v);
}

static void add_access_id(Model *m, PStmt *ps, Expr *e, bool write, bool red, isl_id *id);

static void add_access(Model *m, PStmt *ps, Expr *e, bool write, bool red)
{
    const char *field = NULL;
    if (e->kind == E_FIELD) {
        field = e->text;
        e = e->kids[0];
    }
    int nf = field_count(e);
    int k = nf && field ? field_index(m, e->ty, field) : -1;
    if (k >= 0)
        add_access_id(m, ps, e, write, red, field_id(m, e->var, e->ty, k));
    else if (nf)
        for (k = 0; k < nf; k++)   /* the whole element (or a field not found: all, to be safe) */
            add_access_id(m, ps, e, write, red, field_id(m, e->var, e->ty, k));
    else
        add_access_id(m, ps, e, write, red, NULL);
}

static void add_access_id(Model *m, PStmt *ps, Expr *e, bool write, bool red, isl_id *id)
{
    Access *ac = arena_alloc(m->a, sizeof *ac);
    ac->write = write;
    ac->red = red;
    ac->exact = true;
    Var *v = e->var;
    ac->var = v;
    ac->e = e;
    if (e->kind == E_VAR) {
        /* a scalar local: expanded over the loops enclosing its declaration */
        isl_id_free(id);
        ac->map = access_map(m, ps, v, expanded_over(ps, v), NULL, 0, &ac->exact);
        vec_push(m->a, &ps->acc, ac);
        return;
    }
    if (!e->aff) {
        e->aff = arena_alloc(m->a, sizeof(Aff *) * (size_t)e->nkids);
        for (int i = 0; i < e->nkids; i++)
            e->aff[i] = aff_of(m->a, e->kids[i]);
    }
    int prefix = v->is_private ? expanded_over(ps, v) : 0;
    Var *P = NULL;
    Aff *o = NULL, *in = NULL;
    if (v->delin && !v->delin_bad && deps_split_flat(m->a, e->kids[0], &P, &o, &in) && P == v->delin && o) {
        /* a[outer*P + inner]: the 2-D access a[outer][inner], valid when
         * 0 <= inner < P on this statement's domain */
        if (!flat_in_row(m, ps, P, in)) {
            v->delin_bad = true;
            m->redo = true;
        }
        Aff *dims[2] = {o, in};
        ac->map = access_map_id(m, ps, id ? id : var_id(m, v), prefix, dims, 2, &ac->exact);
    } else {
        if (v->delin && !v->delin_bad) {
            v->delin_bad = true;
            m->redo = true;
        }
        /* a subscript that is no affine form may be a piecewise one (stmt_pw) */
        ac->map = access_map_subs(m, ps, id ? id : var_id(m, v), prefix, e->aff, e->kids, e->nkids, &ac->exact);
    }
    vec_push(m->a, &ps->acc, ac);
}

/* Any element of array v (a library call's argument). */
static void add_whole(Model *m, PStmt *ps, Var *v, bool write)
{
    Access *ac = arena_alloc(m->a, sizeof *ac);
    ac->write = write;
    ac->var = v;
    int rank = v->delin && !v->delin_bad ? 2 : v->ndims > 0 ? v->ndims : 1;
    Aff **any = arena_alloc(m->a, sizeof(Aff *) * (size_t)rank);
    Type *st = type_elem(v->ty);
    int nf = st && st->kind == TY_STRUCT ? st->nfields : 0;
    ac->map = access_map_id(m, ps, nf ? field_id(m, v, st, 0) : var_id(m, v), v->is_private ? expanded_over(ps, v) : 0,
                            any, rank, &ac->exact);
    ac->exact = false;
    vec_push(m->a, &ps->acc, ac);
    for (int k = 1; k < nf; k++) {   /* an array of structs: every field */
        Access *f = arena_alloc(m->a, sizeof *f);
        *f = *ac;
        f->map = access_map_id(m, ps, field_id(m, v, st, k), v->is_private ? expanded_over(ps, v) : 0, any, rank,
                               &f->exact);
        f->exact = false;
        vec_push(m->a, &ps->acc, f);
    }
}

/* [params] -> S<id>[iv...], the ids carrying the statement and the loop indices. */
static isl_space *stmt_space(Model *m, PStmt *ps)
{
    isl_space *sp = set_space(m, ps->nloops);
    for (int k = 0; k < ps->nloops; k++)
        sp = isl_space_set_dim_id(sp, isl_dim_set, (unsigned)k, var_id(m, ps->loops[k]->iv));
    return isl_space_set_tuple_id(sp, isl_dim_set, isl_id_alloc(m->ctx, arena_printf(m->a, "S%d", ps->s->id), ps));
}

static isl_aff *param_aff(Model *m, isl_space *dom, const Aff *f, long long add);

/* { f + add >= 0 } over the parameters. */
static isl_set *param_ge0(Model *m, const Aff *f, long long k, const Aff *g, long long add)
{
    Aff *h = aff_add(m->a, f, g, k);
    isl_aff *a = param_aff(m, m->params, h, add);
    return a ? isl_pw_aff_nonneg_set(isl_pw_aff_from_aff(a)) : NULL;
}

/* What the parameters standing for expressions (aff_params) are known to
 * satisfy: P = e / c (C's division by a positive constant, truncating) lies
 * within [e/c - 1, e/c] of e, P = e % c within (-c, c) with e's sign.  A
 * product (w * h) is left free. */
static isl_set *pvar_context(Model *m)
{
    isl_set *ctx = isl_set_universe(isl_space_copy(m->params));
    for (int i = 0; i < m->r->pvars.len && ctx; i++) {
        Var *p = vec_at(&m->r->pvars, i);
        Expr *d = p->pdef;
        long long c = d->kind == E_BINARY && (d->op == OP_DIV || d->op == OP_MOD) ? expr_pos_const(d->kids[1]) : 0;
        Aff *e = c ? aff_of(m->a, d->kids[0]) : NULL;
        if (!e)
            continue;
        Aff *P = aff_of(m->a, &(Expr){.kind = E_VAR, .var = p, .ty = p->ty, .pvar = p});
        isl_set *pos = param_ge0(m, e, 0, P, 0);               /* e >= 0 */
        isl_set *neg = pos ? isl_set_complement(isl_set_copy(pos)) : NULL;   /* e <= -1 */
        if (d->op == OP_DIV) {
            Aff *cP = aff_add(m->a, aff_add(m->a, P, P, -1), P, c);      /* 0 + c * P */
            /* e >= 0: c*P <= e <= c*P + c - 1; e < 0: c*P - c + 1 <= e <= c*P */
            pos = isl_set_intersect(pos, isl_set_intersect(param_ge0(m, e, -1, cP, 0), param_ge0(m, cP, -1, e, c - 1)));
            neg = isl_set_intersect(neg, isl_set_intersect(param_ge0(m, e, -1, cP, c - 1), param_ge0(m, cP, -1, e, 0)));
        } else {
            Aff *zero = aff_add(m->a, P, P, -1);
            /* e >= 0: 0 <= P <= c - 1; e < 0: 1 - c <= P <= 0 */
            pos = isl_set_intersect(pos, isl_set_intersect(param_ge0(m, P, 0, zero, 0), param_ge0(m, zero, -1, P, c - 1)));
            neg = isl_set_intersect(neg, isl_set_intersect(param_ge0(m, P, 0, zero, c - 1), param_ge0(m, zero, -1, P, 0)));
        }
        ctx = isl_set_intersect(ctx, isl_set_union(pos, neg));
    }
    isl_bad(m, !ctx);
    return ctx;
}

/* A statement's loops, space and instances: those of the loops and
 * conditions around it now. */
static PStmt *pstmt_at(Model *m, Stmt *s)
{
    PStmt *ps = arena_alloc(m->a, sizeof *ps);
    ps->s = s;
    ps->nloops = m->loops.len;
    ps->loops = arena_alloc(m->a, sizeof(Stmt *) * (size_t)(ps->nloops ? ps->nloops : 1));
    if (ps->nloops)
        memcpy(ps->loops, m->loops.data, sizeof(Stmt *) * (size_t)ps->nloops);
    ps->space = stmt_space(m, ps);
    ps->exact_domain = true;
    ps->exact_cond = m->inexact == 0;
    isl_set *dom = isl_set_universe(isl_space_copy(ps->space));
    for (int k = 0; k < ps->nloops; k++) {
        bool exact;
        dom = isl_set_intersect(dom, loop_set(m, ps, k, &exact));
        ps->exact_domain &= exact;
    }
    for (int i = 0; i < m->conds.len; i++) {
        Cond *c = vec_at(&m->conds, i);
        bool exact;
        dom = isl_set_intersect(dom, cond_set(m, ps, c->e, c->neg, &exact));
        ps->exact_cond &= exact;
        ps->wrap_cond |= has_wrapping_order(c->e);
    }
    if (m->pctx)
        dom = isl_set_intersect_params(dom, isl_set_copy(m->pctx));
    ps->dom = dom;
    isl_bad(m, !dom);
    return ps;
}

static PStmt *new_pstmt(Model *m, Stmt *s)
{
    PStmt *ps = pstmt_at(m, s);
    ps->ord = m->ord++;
    if (ps->nloops > m->maxdepth)
        m->maxdepth = ps->nloops;
    vec_push(m->a, &m->ps, ps);
    /* what the enclosing conditions and loop bounds read, this statement
     * reads too (it cannot run without evaluating them) */
    for (int i = 0; i < m->cexprs.len; i++) {
        Expr *c = vec_at(&m->cexprs, i);
        int from = ps->acc.len;
        collect_reads(m, ps, c);
        for (int j = from; j < ps->acc.len && vec_has(&m->covered, c); j++)
            ((Access *)vec_at(&ps->acc, j))->ctl = true;
    }
    return ps;
}

static bool is_local_or(const Expr *e, const void *iv)
{
    return e->kind == E_VAR && (e->var == iv || e->var->kind == V_LOCAL);
}

/* Where loop or if s evaluates its bounds or condition (n expressions):
 * once per instance of the loops and conditions around it, which the
 * statements inside, whose domains may not be exact (a bound read from an
 * array: `k < row_ptr[r + 1]`), cannot say.  A loop's bounds must not name
 * its index or a local (the upper bound is evaluated again each iteration;
 * a local may change in the body). */
static void new_header(Model *m, Stmt *s, Expr **es, int n)
{
    for (int i = 0; i < n; i++)
        if (s->kind == S_FOR && ir_expr_any(es[i], is_local_or, s->iv))
            return;
    PStmt *ps = pstmt_at(m, s);
    vec_push(m->a, &m->hdrs, ps);
    for (int i = 0; i < n; i++) {
        collect_reads(m, ps, es[i]);
        vec_push(m->a, &m->covered, es[i]);
    }
}

static bool is_ref(const Expr *e, const void *v)
{
    return (e->kind == E_VAR || e->kind == E_INDEX) && e->var == v;
}

static bool reads_var(const Expr *e, const Var *v)
{
    return ir_expr_any(e, is_ref, v);
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

/* Recognises `v op= e`, `v = v op e`, `v = fmaxf(v, e)`, `v = v > e ? v : e`
 * (and mirrored forms) with e not reading v. */
static RedOp reduction_form(Stmt *s)
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

/* A _Float16 accumulator: C rounds to half after every step, which no
 * reordering reproduces, so only max and min (exact) are reductions. */
static RedOp reduction_of(Stmt *s)
{
    RedOp r = reduction_form(s);
    if (r && type_is_half(s->lhs->var->ty) && r != RED_MIN && r != RED_MAX)
        return RED_NONE;
    return r;
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
    if (s->kind != S_ASSIGN || s->lhs->kind != E_INDEX || !m->loops.len)
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
                                          type_src_name(t), atomic_type(&(Type){.kind = TY_FLOAT}, r) ?
                                          ", float and double" : ""));
    else if ((r == RED_MIN || r == RED_MAX) && (!op->ty || op->ty->kind != t->kind))
        why_not_atomic(m, v, arena_printf(m->a, "the %s is computed in '%s', not in the element type '%s' (use "
                                          "%s)", atomic_op_name(r), op->ty ? type_src_name(op->ty) : "another type",
                                          type_src_name(t), t->kind == TY_FLOAT ? "fmaxf/fminf" :
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

/* The accesses of one statement inside a while loop (or of a library call),
 * added to the one statement ps of the whole loop; the visitor walks the
 * rest: what a loop's bounds and break flag, a condition or a returned
 * value read (read_at), and the statements inside. */
static bool body_access(IrVisitor *v, Stmt *t)
{
    Reads *c = (Reads *)v;
    Model *m = c->m;
    PStmt *ps = c->ps;
    if (t->kind == S_WHILE) {
        collect_reads(m, ps, t->cond);
        collect_reads(m, ps, t->brk);
        v->skip = true;          /* read above, in this order */
        return true;
    }
    if (t->kind == S_DECL) {
        /* an array's sizes are not accesses (as in build) */
        collect_reads(m, ps, t->rhs);
        if (t->rhs && !t->var->is_array) {
            Expr *ve = arena_alloc(m->a, sizeof *ve);
            ve->kind = E_VAR;
            ve->var = t->var;
            add_access(m, ps, ve, true, false);
        }
        return false;
    }
    if (t->kind == S_ASSIGN) {
        collect_reads(m, ps, t->rhs);
        Expr *l = t->lhs->kind == E_FIELD ? t->lhs->kids[0] : t->lhs;
        if (t->op != OP_ASSIGN)
            collect_reads(m, ps, t->lhs);
        else if (l->kind != E_VAR)
            for (int i = 0; i < l->nkids; i++)
                collect_reads(m, ps, l->kids[i]);
        if (t->lhs->kind == E_FIELD && l->kind == E_VAR)
            add_access(m, ps, l, false, false);   /* a field of a struct local: as below */
        add_access(m, ps, t->lhs->kind == E_FIELD && l->kind == E_VAR ? l : t->lhs, true, false);
        return false;
    }
    if (t->kind == S_LIB) {
        /* a library call touches its arrays anywhere */
        for (int i = 0; i < t->rhs->nkids; i++) {
            Expr *a = t->rhs->kids[i];
            const char *roles = lib_builtin_roles(t->rhs->text);
            if (LIB_SCALAR_ROLE(roles[i]) || a->kind != E_VAR) {
                collect_reads(m, ps, a);
                continue;
            }
            add_whole(m, ps, a->var, false);
            if (roles[i] == 'W')
                add_whole(m, ps, a->var, true);
        }
        return false;
    }
    return true;
}

/* The accesses of a while loop (its condition, break flag and body), or of
 * a library call, all in the one statement ps. */
static void while_accesses(Model *m, PStmt *ps, Stmt *t)
{
    Reads c = {{.stmt = body_access, .expr = read_at, .expr_after = read_after}, m, ps, NULL, NULL, NULL, NULL};
    ir_visit_stmt(&c.v, t);
}

static void push_cond(Model *m, Expr *e, bool neg)
{
    Cond *c = arena_alloc(m->a, sizeof *c);
    c->e = e;
    c->neg = neg;
    vec_push(m->a, &m->conds, c);
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
        int save_c = m->cexprs.len;
        s->depth = m->loops.len;
        /* the loop's ordinal goes in the time vector before its index */
        s->ord = m->ord++;
        new_header(m, s, (Expr *[]){s->lb, s->ub}, 2);
        vec_push(m->a, &m->cexprs, s->lb);
        vec_push(m->a, &m->cexprs, s->ub);
        /* a loop that breaks tests its flag before each iteration */
        if (s->brk)
            vec_push(m->a, &m->cexprs, s->brk);
        vec_push(m->a, &m->loops, s);
        if (m->loops.len > m->maxdepth)   /* a loop with no statement still has a time dimension */
            m->maxdepth = m->loops.len;
        /* a loop that breaks may stop before its bound: what its body
         * writes is only possibly written (isl sees the whole range) */
        m->inexact += s->brk != NULL;
        build(m, s->body);
        m->inexact -= s->brk != NULL;
        m->loops.len--;
        m->cexprs.len = save_c;
        return;
    }
    case S_IF: {
        int save = m->conds.len, save_c = m->cexprs.len;
        new_header(m, s, &s->cond, 1);
        vec_push(m->a, &m->cexprs, s->cond);
        push_cond(m, s->cond, false);
        build(m, s->then);
        m->conds.len = save;
        push_cond(m, s->cond, true);
        build(m, s->els);
        m->conds.len = save;
        m->cexprs.len = save_c;
        return;
    }
    case S_WHILE: {
        /* the whole while loop is one statement: its accesses are may-accesses */
        while_accesses(m, new_pstmt(m, s), s);
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
        } else if (s->lhs->kind == E_FIELD && lhs->kind == E_VAR) {
            /* a.x = e on a struct local: the other fields keep their values,
             * so the store reads the whole local and writes it whole (the
             * local is private to an iteration only when the iteration set
             * all of it first) */
            add_access(m, ps, lhs, false, false);
            add_access(m, ps, lhs, true, false);
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
    case S_LIB:
        /* a library call touches its arrays anywhere */
        while_accesses(m, new_pstmt(m, s), s);
        return;
    }
}

static int loop_ord(const Stmt *l)
{
    return l->ord;
}

/* ---- isl computations -------------------------------------------------------- */

/* D(X, Y): dependences from accesses X (earlier) to Y (later). */
isl_union_map *model_deps_between(Model *m, isl_union_map *wx, isl_union_map *rx, isl_union_map *wy,
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
static AccSets access_sets_ex(Model *m, const Var *only, Var *const *skip, int nskip, Access *const *ex, int nex);

static AccSets access_sets(Model *m, const Var *only, Var *const *skip, int nskip)
{
    return access_sets_ex(m, only, skip, nskip, NULL, 0);
}

/* ... leaving out the accesses ex[0..nex). */
static AccSets access_sets_ex(Model *m, const Var *only, Var *const *skip, int nskip, Access *const *ex, int nex)
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
            bool out = false;
            for (int k = 0; k < nex && !out; k++)
                out = ex[k] == ac;
            if (out)
                continue;
            isl_union_map *a = isl_union_map_from_map(isl_map_intersect_domain(isl_map_copy(ac->map),
                                                                               isl_set_copy(ps->dom)));
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

/* Every dependence between the accesses of s (freed). */
static isl_union_map *deps_of_sets(Model *m, AccSets s)
{
    isl_union_map *before = isl_union_map_lex_lt_union_map(isl_union_map_copy(m->sched), isl_union_map_copy(m->sched));
    isl_union_map *d = model_deps_between(m, s.w, s.r, s.w, s.r, before);
    d = isl_union_map_union(d, model_deps_between(m, s.w, s.r, s.wr, s.rr, before));
    d = isl_union_map_union(d, model_deps_between(m, s.wr, s.rr, s.w, s.r, before));
    isl_union_map_free(before);
    free_sets(&s);
    return d;
}

static isl_union_map *compute_deps_skip(Model *m, const Var *only, Var *const *skip, int nskip)
{
    return deps_of_sets(m, access_sets(m, only, skip, nskip));
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

/* { [t] -> [s] : t_k = s_k for k < eq } over the time space. */
static isl_map *time_eq(Model *m, int eq)
{
    int n = 2 * m->maxdepth + 1;
    isl_map *t = isl_map_universe(isl_space_map_from_set(set_space(m, n)));
    for (int k = 0; k < eq && k < n; k++)
        t = isl_map_equate(t, isl_dim_in, k, isl_dim_out, k);
    return t;
}

/* t_k != s_k */
static isl_map *time_differ(isl_map *t, int k)
{
    isl_map *lt = isl_map_order_lt(isl_map_copy(t), isl_dim_in, k, isl_dim_out, k);
    return isl_map_union(lt, isl_map_order_gt(t, isl_dim_in, k, isl_dim_out, k));
}

/* Whether dt is empty; an isl failure reads as "not empty". */
static bool empty_umap(Model *m, isl_union_map *dt)
{
    isl_bool e = isl_union_map_is_empty(dt);
    isl_union_map_free(dt);
    return !isl_bad(m, e < 0) && e == isl_bool_true;
}

/* Whether the time-space dependences dt hold one carried by the loop with
 * ordinal `ord` whose index is time dimension `dim`:
 * { [t] -> [s] : t_k = s_k for k < dim, t_dim-1 = ord, t_dim < s_dim }.
 * True when isl fails. */
static bool carries(Model *m, isl_union_map *dt, int ord, int dim)
{
    isl_map *sel = isl_map_fix_si(time_eq(m, dim), isl_dim_in, (unsigned)(dim - 1), ord);
    sel = isl_map_order_lt(sel, isl_dim_in, dim, isl_dim_out, dim);
    return !empty_umap(m, isl_union_map_intersect(isl_union_map_copy(dt), isl_union_map_from_map(sel)));
}

static char *isl_text(Model *m, char *s)
{
    char *r = arena_strdup(m->a, s ? s : arena_printf(m->a, "(isl failed: %s)", m->failed ? m->failed : "?"));
    free(s);
    return r;
}

/* Each loop's parallel and reduction flags (loops inside a while loop, one
 * statement to the model, are left alone). */
static bool mark_loop(IrVisitor *v, Stmt *s)
{
    Model *m = ((ModelCx *)v)->m;
    if (s->kind != S_FOR)
        return s->kind != S_WHILE;
    int dim = 2 * s->depth + 1;
    s->parallel = !carries(m, m->deps_t, loop_ord(s), dim);
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
    return true;
}

static void mark_loops(Model *m, Stmt *s)
{
    ModelCx c = {{.stmt = mark_loop}, m};
    ir_visit_stmt(&c.v, s);
}

/* A parallel loop, not looking inside while loops. */
static IrFind is_parallel(const Stmt *s, const void *arg)
{
    (void)arg;
    if (s->kind == S_WHILE)
        return IR_SKIP;
    return s->kind == S_FOR && s->parallel ? IR_FOUND : IR_NEXT;
}

static bool any_parallel(Stmt *s)
{
    return ir_stmt_find(s, is_parallel, NULL);
}

/* The arrays and scalars whose dependences `loop` carries, at most max of
 * them (in the order of Region.vars): how many. */
static int carried_vars(Model *m, Stmt *loop, Var **out, int max)
{
    int n = 0;
    for (int i = 0; i < m->r->vars.len && n < max; i++) {
        Var *v = vec_at(&m->r->vars, i);
        if (v->kind == V_IV || (!v->is_array && v->kind == V_PARAM))
            continue;
        isl_union_map *dt = to_time(m, compute_deps(m, v));
        if (carries(m, dt, loop_ord(loop), 2 * loop->depth + 1))
            out[n++] = v;
        isl_union_map_free(dt);
    }
    return n;
}

typedef struct Closest {
    IrVisitor v;
    Model *m;
    Stmt *best;
    int nbest;
} Closest;

static bool closest_at(IrVisitor *v, Stmt *s)
{
    Closest *c = (Closest *)v;
    if (s->kind != S_FOR)
        return s->kind != S_WHILE;
    Var *vs[64];
    int n = carried_vars(c->m, s, vs, c->best ? c->nbest : 64);
    if (!c->best || n < c->nbest) {
        c->best = s;
        c->nbest = n;
    }
    return true;
}

/* The loop under s (not inside a while loop) that comes closest to being
 * parallel: the fewest variables carried, the outermost on a tie (*nbest:
 * how many). */
static void closest_loop(Model *m, Stmt *s, Stmt **best, int *nbest)
{
    Closest c = {{.stmt = closest_at}, m, *best, *nbest};
    ir_visit_stmt(&c.v, s);
    *best = c.best;
    *nbest = c.nbest;
}

/* Names what keeps the nest `t` sequential: its loop that comes closest to
 * being parallel (*at), and one variable that loop carries, preferably one
 * that could not be private to each iteration (it says why). */
static Var *carried_var(Model *m, Stmt *t, Stmt **at)
{
    int n = 0;
    *at = NULL;
    closest_loop(m, t, at, &n);
    Var *vs[64];
    n = carried_vars(m, *at, vs, 64);
    for (int i = 0; i < n; i++)
        if (vs[i]->priv_why)
            return vs[i];
    return n ? vs[0] : NULL;
}

/* A loop that breaks (Stmt.brk) stops early on data, so it must run per
 * element: inside a parallel loop (`outermost`: only the loops that start a
 * nest are checked).  Its flag makes it sequential; outside
 * any parallel loop it would be the loop that runs in parallel, or a
 * sequential loop on the host (a time loop around kernels, or one a single
 * thread runs), neither of which can stop on a value the iterations compute. */
typedef struct Breaks {
    IrVisitor v;
    Model *m;
    bool outermost;
} Breaks;

static bool break_at(IrVisitor *v, Stmt *s)
{
    Breaks *c = (Breaks *)v;
    Model *m = c->m;
    if (s->kind == S_BLOCK || s->kind == S_IF)
        return true;
    if (s->kind != S_FOR && s->kind != S_WHILE)
        return false;
    bool in_parallel = false;
    for (const IrFrame *f = v->up; f; f = f->up)
        in_parallel = in_parallel || (f->s->kind == S_FOR && f->s->parallel);
    if (s->brk && !in_parallel && (!c->outermost || (s->kind == S_FOR && !s->depth))) {
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
        v->done = true;
        return false;
    }
    return !c->outermost;
}

static bool check_breaks(Model *m, Stmt *s, bool outermost)
{
    Breaks c = {{.stmt = break_at}, m, outermost};
    ir_visit_stmt(&c.v, s);
    return !c.v.done;
}

static bool check_nests(Model *m, Stmt *s)
{
    /* every top-level loop nest needs a parallel loop somewhere */
    for (int i = 0; i < s->list.len; i++) {
        Stmt *t = vec_at(&s->list, i);
        if (t->kind != S_FOR || any_parallel(t))
            continue;
        Stmt *at;
        Var *v = carried_var(m, t, &at);
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
        const char *cannot = v && v->priv_why ? arena_printf(m->a, "; '%s' cannot be private to each iteration: %s",
                                                              v->name, v->priv_why) : "";
        if (indirect)
            diag_reject(at->loc, "-Wgpufuse-dependence",
                        "writes to '%s' use a subscript that is not affine in the loop indices (indirect like "
                        "'%s[idx[i]]', or flattened with a variable row length like '%s[i*m + j]'), so different "
                        "iterations may write the same element%s%s%s; '%s' keeps its CPU body",
                        v->name, v->name, v->name, why ? "; the writes cannot be atomic updates: " : "",
                        why ? why : "", why ? "" : arena_printf(m->a, " (only '+=', '-=', '*=', '&=', '|=', '^=' "
                        "updates and min/max updates like '%s[k] = fmaxf(%s[k], v)' can be atomic)", v->name, v->name),
                        m->r->name);
        else if (v && !v->is_array && v->kind == V_LOCAL)
            diag_reject(at->loc, "-Wgpufuse-dependence",
                        "loop carries a dependence through '%s' from one iteration to the next (a running value "
                        "that is not a reduction%s)%s; no iteration can run in parallel, so '%s' keeps its CPU body",
                        v->name, type_is_half(v->ty) ? ": a '_Float16' sum or product rounds to half at every step, "
                        "which no parallel order reproduces; accumulate in 'float'" : "", cannot, m->r->name);
        else if (v)
            diag_reject(at->loc, "-Wgpufuse-dependence",
                        "loop carries a dependence on '%s' (an iteration uses what an earlier one wrote)%s; "
                        "no loop of this nest is parallel, so '%s' keeps its CPU body", v->name, cannot, m->r->name);
        else
            diag_reject(at->loc, "-Wgpufuse-dependence",
                        "no loop of this nest is free of loop-carried dependences; '%s' keeps its CPU body",
                        m->r->name);
        return false;
    }
    return true;
}

/* The statements' isl objects. */
static void free_stmts(Model *m)
{
    for (int h = 0; h < 2; h++) {
        Vec *v = h ? &m->hdrs : &m->ps;
        for (int i = 0; i < v->len; i++) {
            PStmt *ps = vec_at(v, i);
            for (int j = 0; j < ps->acc.len; j++)
                isl_map_free(((Access *)vec_at(&ps->acc, j))->map);
            isl_set_free(ps->dom);
            isl_space_free(ps->space);
        }
        v->len = 0;
    }
    m->covered.len = 0;
}

void deps_free(Region *r)
{
    if (!r->deps || !r->deps->priv)
        return;
    Model *m = &((DepPriv *)r->deps->priv)->m;
    free_stmts(m);
    isl_union_set_free(m->domain);
    isl_union_map_free(m->sched);
    isl_union_map_free(m->deps);
    isl_union_map_free(m->deps_t);
    isl_set_free(m->pctx);
    isl_space_free(m->params);
    isl_ctx_free(m->ctx);
    r->deps->priv = NULL;
}

/* The parameter space: the integer scalar parameters, and one for each
 * non-affine expression of them (aff_params: `i < w * h`), ids carrying
 * their Var. */
static void model_params(Model *m)
{
    Region *r = m->r;
    for (int i = 0; i < r->params.len; i++) {
        Var *v = vec_at(&r->params, i);
        if (!v->is_array && type_is_integer(v->ty))
            vec_push(m->a, &m->pvars, v);
    }
    aff_params(m->a, r);
    for (int i = 0; i < r->pvars.len; i++)
        vec_push(m->a, &m->pvars, vec_at(&r->pvars, i));
    m->params = isl_space_params_alloc(m->ctx, (unsigned)m->pvars.len);
    for (int k = 0; k < m->pvars.len; k++)
        m->params = isl_space_set_dim_id(m->params, isl_dim_param, (unsigned)k, var_id(m, vec_at(&m->pvars, k)));
}

/* The statements' instances and their original order: S[iv...] -> [ord_0,
 * iv_0, ord_1, iv_1, ..., ord, 0...] (a loop's ordinal before its index,
 * the statement's own ordinal last, padded to 2 * maxdepth + 1). */
static void model_schedule(Model *m)
{
    int n = 2 * m->maxdepth + 1;
    m->domain = isl_union_set_empty(isl_space_copy(m->params));
    m->sched = isl_union_map_empty(isl_space_copy(m->params));
    for (int i = 0; i < m->ps.len; i++) {
        PStmt *ps = vec_at(&m->ps, i);
        isl_space *sp = isl_space_map_from_domain_and_range(isl_space_copy(ps->space), set_space(m, n));
        isl_aff_list *t = isl_aff_list_alloc(m->ctx, n);
        for (int k = 0; k < n; k++) {
            isl_local_space *ls = isl_local_space_from_space(isl_space_copy(ps->space));
            long c = k == 2 * ps->nloops ? ps->ord : k < 2 * ps->nloops && k % 2 == 0 ? loop_ord(ps->loops[k / 2]) : 0;
            if (k < 2 * ps->nloops && k % 2) {
                isl_local_space_free(ls);
                t = isl_aff_list_add(t, stmt_iv(ps, k / 2));
            } else {
                t = isl_aff_list_add(t, isl_aff_val_on_domain(ls, isl_val_int_from_si(m->ctx, c)));
            }
        }
        isl_map *s = isl_map_from_multi_aff(isl_multi_aff_from_aff_list(sp, t));
        m->sched = isl_union_map_add_map(m->sched, isl_map_intersect_domain(s, isl_set_copy(ps->dom)));
        m->domain = isl_union_set_add_set(m->domain, isl_set_copy(ps->dom));
    }
}

void deps_model(Unit *u, Region *r)
{
    DepPriv *dp = arena_alloc(u->arena, sizeof *dp);
    Model *m = &dp->m;
    m->u = u;
    m->r = r;
    m->a = u->arena;
    m->ctx = isl_ctx_alloc();
    /* errors come back as NULL and isl_bool_error, seen by isl_bad */
    isl_options_set_on_error(m->ctx, ISL_ON_ERROR_CONTINUE);
    if (deps_isl_max_operations)
        isl_ctx_set_max_operations(m->ctx, deps_isl_max_operations);
    model_params(m);
    m->pctx = r->pvars.len ? pvar_context(m) : NULL;
    delin_stmt(m, r->body);
    /* a flattened array whose inner part leaves [0, P) somewhere is taken
     * back to 1-D and the model rebuilt (at most once per array) */
    for (int tries = 0; tries <= r->vars.len; tries++) {
        m->redo = false;
        free_stmts(m);
        m->ord = 0;
        m->maxdepth = 0;
        m->loops.len = 0;
        m->conds.len = 0;
        m->inexact = 0;
        m->cexprs.len = 0;
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

    model_schedule(m);
    m->deps = compute_deps(m, NULL);
    m->deps_t = to_time(m, isl_union_map_copy(m->deps));
    isl_bad(m, !m->domain || !m->sched || !m->deps_t);

    r->deps = arena_alloc(m->a, sizeof *r->deps);
    r->deps->isl_domain = isl_text(m, isl_union_set_to_str(m->domain));
    r->deps->isl_schedule = isl_text(m, isl_union_map_to_str(m->sched));
    r->deps->isl_deps = isl_text(m, isl_union_map_to_str(m->deps));
    r->deps->priv = dp;

    mark_loops(m, r->body);
}

/* A private array declared in a loop that runs on the host (a sequential
 * loop not inside any parallel one): its one copy per iteration would have
 * to be shared by the kernels the loop launches. */
static bool private_at(IrVisitor *v, Stmt *s)
{
    Model *m = ((ModelCx *)v)->m;
    if (s->kind == S_FOR)
        return !s->parallel;
    /* an if around a parallel loop runs on the host too; one without (and a
     * while loop: its loops are never parallel) is a single-thread kernel */
    if (s->kind == S_IF)
        return any_parallel(s);
    if (s->kind != S_DECL || !s->var->is_private)
        return s->kind == S_BLOCK;
    diag_reject(s->var->loc, "-Wgpufuse-temp",
                "local array '%s' is declared in a loop that runs on the host (no parallel loop around it): an "
                "array private to each iteration must be declared inside a parallel loop; declare it at the top "
                "of the marked function; '%s' keeps its CPU body", s->var->name, m->r->name);
    v->done = true;
    return false;
}

static bool check_private(Model *m, Stmt *s)
{
    ModelCx c = {{.stmt = private_at}, m};
    ir_visit_stmt(&c.v, s);
    return !c.v.done;
}

bool deps_check(Region *r)
{
    Model *m = &((DepPriv *)r->deps->priv)->m;
    if (m->failed) {
        diag_reject(r->loc, "-Wgpufuse-dependence",
                    "the dependence analysis failed (isl: %s), so no loop can be shown to be parallel; '%s' "
                    "keeps its CPU body", m->failed, r->name);
        return false;
    }
    /* a nest whose outermost loop breaks is said so first; a nest with no
     * parallel loop at all, for its own reason; then the other breaks */
    return check_breaks(m, r->body, true) && check_nests(m, r->body) && check_breaks(m, r->body, false) &&
           check_private(m, r->body);
}

bool deps_analyze(Unit *u, Region *r)
{
    deps_model(u, r);
    return deps_check(r);
}

/* Statements (by name) under a loop nest. */
bool model_under(const PStmt *ps, const Stmt *nest)
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
    isl_union_set *sa = isl_union_set_empty(isl_space_copy(m->params));
    isl_union_set *sb = isl_union_set_copy(sa);
    for (int i = 0; i < m->ps.len; i++) {
        PStmt *ps = vec_at(&m->ps, i);
        if (model_under(ps, a))
            sa = isl_union_set_add_set(sa, isl_set_universe(isl_space_copy(ps->space)));
        if (model_under(ps, b))
            sb = isl_union_set_add_set(sb, isl_set_universe(isl_space_copy(ps->space)));
    }
    d = isl_union_map_intersect_domain(d, sa);
    d = isl_union_map_intersect_range(d, sb);
    isl_union_map *dt = to_time(m, d);
    isl_map *same = time_eq(m, 0);
    for (int k = 0; k < nd; k++)
        same = isl_map_equate(same, isl_dim_in, tdims[k], isl_dim_out, tdims[k]);
    isl_union_map *s = isl_union_map_from_map(same);
    isl_bool ok = isl_union_map_is_subset(dt, s);
    isl_union_map_free(s);
    isl_union_map_free(dt);
    return !isl_bad(m, ok < 0) && ok == isl_bool_true;
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

typedef struct Swap {
    IrVisitor v;
    Region *r;
    bool any;
} Swap;

/* Through blocks and the loops that are not swapped (not ifs or while
 * loops): a pair swapped is not looked into again. */
static bool interchange_at(IrVisitor *v, Stmt *s)
{
    Swap *c = (Swap *)v;
    if (s->kind != S_FOR)
        return s->kind == S_BLOCK;
    Stmt *inner = s->body;
    while (inner && inner->kind == S_BLOCK && inner->list.len == 1)
        inner = vec_at(&inner->list, 0);
    if (s->parallel || !inner || inner->kind != S_FOR || !inner->parallel || s->brk || inner->brk)
        return true;
    /* rectangular: the inner bounds do not move with the outer index */
    if (ir_expr_any(inner->lb, uses_iv, s->iv) || ir_expr_any(inner->ub, uses_iv, s->iv))
        return false;
    int t = 2 * inner->depth + 1;
    if (!deps_keep(c->r, s, s, &t, 1))
        return false;
    Stmt tmp = *s;
    s->iv = inner->iv, s->lb = inner->lb, s->ub = inner->ub, s->step = inner->step;
    inner->iv = tmp.iv, inner->lb = tmp.lb, inner->ub = tmp.ub, inner->step = tmp.step;
    int d = s->iv->depth;
    s->iv->depth = inner->iv->depth;
    inner->iv->depth = d;
    s->interchanged = inner->interchanged = true;
    c->any = true;
    return false;
}

bool deps_interchange(Region *r)
{
    Swap c = {{.stmt = interchange_at}, r, false};
    ir_visit_stmt(&c.v, r->body);
    return c.any;
}

/* ---- sibling loops fused ---------------------------------------------------------
 * Two parallel loops one after the other in a loop's body, with the same
 * header, where every dependence from the first to the second keeps the
 * index equal (syrk's `for j: C[i][j] *= beta` and, interchanged,
 * `for j: for k: C[i][j] += ...`; gemm's the same): one loop runs the first
 * body and then the second for each index, so the plan sees one loop (a 2-D
 * nest, a tile) where C has two passes.  Each element gets the same
 * operations in the same order; the C body keeps the loops apart
 * (Region.seq_body, copied before the first change). */

typedef struct Sib {
    IrVisitor v;
    Region *r;
    Arena *a;
    bool any;
} Sib;

typedef struct BoundCx {
    const Stmt *body;
    bool scalars;                /* only scalars other than loop indices */
    bool hit;
} BoundCx;

/* Whether a variable e reads is assigned under body. */
static bool bound_var_set(const Expr *e, const void *arg)
{
    BoundCx *c = (BoundCx *)arg;
    if (e->kind == E_VAR && (!c->scalars || (!e->var->is_array && e->var->kind != V_IV)) &&
        ir_assigns_var(c->body, e->var))
        c->hit = true;
    return false;
}

static bool same_header(const Stmt *a, const Stmt *b)
{
    if (a->kind != S_FOR || b->kind != S_FOR || !a->parallel || !b->parallel || a->reduction || b->reduction ||
        a->brk || b->brk || a->step != b->step || !expr_equal(a->lb, b->lb) || !expr_equal(a->ub, b->ub))
        return false;
    /* b's header is evaluated after a's body ran */
    BoundCx c = {a->body, false, false};
    ir_expr_any(a->lb, bound_var_set, &c);
    ir_expr_any(a->ub, bound_var_set, &c);
    return !c.hit;
}

static void append_body(Arena *ar, Stmt *into, Stmt *body)
{
    if (body->kind == S_BLOCK) {
        for (int i = 0; i < body->list.len; i++) {
            Stmt *x = vec_at(&body->list, i);
            x->parent = into;
            vec_push(ar, &into->list, x);
        }
    } else {
        body->parent = into;
        vec_push(ar, &into->list, body);
    }
}

static bool pstmts_apart(Model *m, const PStmt *pa, const PStmt *pb, const Vec *kept);

/* Whether statement ps is x or inside it. */
static bool ps_in(const PStmt *ps, const Stmt *x)
{
    if (model_under(ps, x))
        return true;
    for (const Stmt *p = ps->s; p; p = p->parent)
        if (p == x)
            return true;
    return false;
}

/* Whether x and y may run in either order within one iteration of the
 * loops around them: no element one writes is touched by the other (the
 * model's accesses, all exact), and no scalar one assigns is mentioned by
 * the other (scalars are not in the model's accesses). */
static bool commute(Region *r, Stmt *x, Stmt *y)
{
    BoundCx sx = {y, true, false}, sy = {x, true, false};
    ir_stmt_any(x, bound_var_set, &sx);
    ir_stmt_any(y, bound_var_set, &sy);
    if (sx.hit || sy.hit)
        return false;
    Model *m = &((DepPriv *)r->deps->priv)->m;
    if (m->failed)
        return false;
    int nx = 0, ny = 0;
    for (int i = 0; i < m->ps.len; i++) {
        PStmt *pa = vec_at(&m->ps, i);
        ny += ps_in(pa, y);
        if (!ps_in(pa, x))
            continue;
        nx++;
        for (int j = 0; j < m->ps.len; j++) {
            PStmt *pb = vec_at(&m->ps, j);
            if (ps_in(pb, y) && !pstmts_apart(m, pa, pb, NULL))
                return false;
        }
    }
    return nx > 0 && ny > 0;     /* statements the model does not hold: assume the worst */
}

/* The sibling after a with a's header that may move up to it: the next
 * statement, or a later one that commutes with every statement between
 * (cholesky's column division and diagonal update, the trailing update
 * between them); its index in blk, or -1. */
static int sibling_of(Sib *c, Stmt *blk, int i)
{
    Stmt *a = vec_at(&blk->list, i);
    for (int j = i + 1; j < blk->list.len; j++) {
        Stmt *b = vec_at(&blk->list, j);
        if (same_header(a, b)) {
            bool moves = true;
            for (int k = i + 1; k < j && moves; k++) {
                Stmt *mid = vec_at(&blk->list, k);
                BoundCx h = {mid, false, false};
                ir_expr_any(b->lb, bound_var_set, &h);
                ir_expr_any(b->ub, bound_var_set, &h);
                moves = !h.hit && commute(c->r, mid, b);
            }
            if (moves)
                return j;
        }
        if (b->kind != S_FOR || !b->parallel)
            return -1;           /* only across parallel loops */
    }
    return -1;
}

static bool fuse_at(IrVisitor *v, Stmt *s)
{
    Sib *c = (Sib *)v;
    if (s->kind != S_FOR || s->body->kind != S_BLOCK)
        return s->kind == S_BLOCK || s->kind == S_FOR;
    Stmt *blk = s->body;
    for (int i = 0; i + 1 < blk->list.len; i++) {
        Stmt *a = vec_at(&blk->list, i);
        int j = sibling_of(c, blk, i);
        if (j < 0)
            continue;
        Stmt *b = vec_at(&blk->list, j);
        if (ir_hides_parallel(a, b))
            continue;
        int t = 2 * a->depth + 1;
        if (!deps_keep(c->r, a, b, &t, 1))
            continue;
        ir_seq_snapshot(c->r, c->a);
        /* b moves up next to a (it commutes with what was between) */
        for (int k = j; k > i + 1; k--)
            blk->list.data[k] = blk->list.data[k - 1];
        blk->list.data[i + 1] = b;
        if (b->iv != a->iv)
            ir_rename_var(b->body, b->iv, a->iv);
        if (a->body->kind != S_BLOCK)
            a->body = ir_block_of(c->a, a->body, a);
        append_body(c->a, a->body, b->body);
        if (!a->fused_line)
            a->fused_line = b->loc.line;
        if (b->end_line > a->end_line)
            a->end_line = b->end_line;
        for (int j = i + 1; j + 1 < blk->list.len; j++)
            blk->list.data[j] = blk->list.data[j + 1];
        blk->list.len--;
        c->any = true;
        /* the model no longer describes this body: the caller analyses
         * the region again and comes back for more */
        return false;
    }
    return true;
}

bool deps_fuse_siblings(Region *r)
{
    Sib c = {{.stmt = fuse_at}, r, r->unit->arena, false};
    ir_visit_stmt(&c.v, r->body);
    return c.any;
}

/* ---- extents ------------------------------------------------------------------- */

/* Extents are IR expressions in the parameters, computed in long long: the
 * AST expression isl builds for a piecewise affine bound (isl_ast_expr
 * objects, never text) turned node by node into Expr; isl's floor division,
 * min and max are calls of gf_floord, gf_min and gf_max (templates/common.h). */

Expr *model_ext_node(Model *m, ExprKind k, Op op, int nkids)
{
    static Type ll = {.kind = TY_LLONG};
    Expr *e = arena_alloc(m->a, sizeof *e);
    e->kind = k;
    e->op = op;
    e->ty = &ll;
    e->loc = m->r->loc;
    e->nkids = nkids;
    if (nkids)
        e->kids = arena_alloc(m->a, sizeof(Expr *) * (size_t)nkids);
    return e;
}

Expr *model_ext_call(Model *m, const char *fn, Expr *x, Expr *y)
{
    Expr *e = model_ext_node(m, E_CALL, OP_NONE, 2);
    e->text = fn;
    e->kids[0] = x;
    e->kids[1] = y;
    return e;
}

static Expr *ast_int(Model *m, isl_ast_expr *a)
{
    isl_val *v = isl_ast_expr_int_get_val(a);
    bool ok = v && isl_val_is_int(v) == isl_bool_true && isl_val_cmp_si(v, 1L << 62) < 0 &&
              isl_val_cmp_si(v, -(1L << 62)) > 0;
    long x = ok ? isl_val_get_num_si(v) : 0;
    isl_val_free(v);
    if (!ok)
        return NULL;
    Expr *e = model_ext_node(m, E_INT, OP_NONE, 0);
    e->text = arena_printf(m->a, x >= -2147483647L && x <= 2147483647L ? "%ld" : "%ldLL", x);
    return e;
}

/* A parameter, converted to long long. */
static Expr *ast_id(Model *m, isl_ast_expr *a)
{
    isl_id *id = isl_ast_expr_id_get_id(a);
    Expr *iv = id && m->ast_iv ? m->ast_iv(m->ast_iv_cx, id) : NULL;
    if (iv) {
        isl_id_free(id);
        return iv;
    }
    Var *v = id ? isl_id_get_user(id) : NULL;
    isl_id_free(id);
    bool param = false;
    for (int k = 0; k < m->pvars.len; k++)
        param |= vec_at(&m->pvars, k) == v;
    if (!param)
        return NULL;
    Expr *e = model_ext_node(m, E_VAR, OP_NONE, 0);
    e->var = v;
    e->ty = v->ty;
    if (v->pdef) {               /* a parameter standing for w * h: the expression itself */
        e = ir_copy_expr(m->a, v->pdef);
        e->pvar = NULL;
    }
    Expr *c = model_ext_node(m, E_CAST, OP_NONE, 1);
    c->kids[0] = e;
    return c;
}

static Expr *ast_op(Model *m, isl_ast_expr *a)
{
    isl_size n = isl_ast_expr_op_get_n_arg(a);
    if (n < 1 || n > 64)
        return NULL;
    Expr *k[64];
    for (int i = 0; i < n; i++) {
        isl_ast_expr *x = isl_ast_expr_op_get_arg(a, i);
        k[i] = model_ast_expr(m, x);
        isl_ast_expr_free(x);
        if (!k[i])
            return NULL;
    }
    static const struct { enum isl_ast_expr_op_type t; Op op; } bin[] = {
        {isl_ast_expr_op_add, OP_ADD},   {isl_ast_expr_op_sub, OP_SUB},       {isl_ast_expr_op_mul, OP_MUL},
        {isl_ast_expr_op_div, OP_DIV},   {isl_ast_expr_op_pdiv_q, OP_DIV},    {isl_ast_expr_op_pdiv_r, OP_MOD},
        {isl_ast_expr_op_zdiv_r, OP_MOD}, {isl_ast_expr_op_and, OP_LAND},     {isl_ast_expr_op_and_then, OP_LAND},
        {isl_ast_expr_op_or, OP_LOR},    {isl_ast_expr_op_or_else, OP_LOR},   {isl_ast_expr_op_eq, OP_EQ},
        {isl_ast_expr_op_le, OP_LE},     {isl_ast_expr_op_lt, OP_LT},         {isl_ast_expr_op_ge, OP_GE},
        {isl_ast_expr_op_gt, OP_GT}};
    enum isl_ast_expr_op_type t = isl_ast_expr_op_get_type(a);
    for (size_t i = 0; i < sizeof bin / sizeof *bin; i++) {
        if (t != bin[i].t || n != 2)
            continue;
        Expr *e = model_ext_node(m, E_BINARY, bin[i].op, 2);
        e->kids[0] = k[0];
        e->kids[1] = k[1];
        return e;
    }
    if (t == isl_ast_expr_op_minus && n == 1) {
        Expr *e = model_ext_node(m, E_UNARY, OP_NEG, 1);
        e->kids[0] = k[0];
        return e;
    }
    if (t == isl_ast_expr_op_fdiv_q && n == 2)
        return model_ext_call(m, "gf_floord", k[0], k[1]);
    if ((t == isl_ast_expr_op_min || t == isl_ast_expr_op_max)) {
        Expr *e = k[0];
        for (int i = 1; i < n; i++)
            e = model_ext_call(m, t == isl_ast_expr_op_min ? "gf_min" : "gf_max", e, k[i]);
        return e;
    }
    if ((t == isl_ast_expr_op_cond || t == isl_ast_expr_op_select) && n == 3) {
        Expr *e = model_ext_node(m, E_COND, OP_NONE, 3);
        memcpy(e->kids, k, 3 * sizeof *k);
        return e;
    }
    return NULL;
}

/* NULL when the expression holds something else (reported as unknown). */
Expr *model_ast_expr(Model *m, isl_ast_expr *a)
{
    switch (isl_ast_expr_get_type(a)) {
    case isl_ast_expr_int: return ast_int(m, a);
    case isl_ast_expr_id: return ast_id(m, a);
    case isl_ast_expr_op: return ast_op(m, a);
    default: return NULL;
    }
}

static Expr *pw_to_expr(Model *m, isl_pw_aff *pa)
{
    isl_ast_build *b = isl_ast_build_from_context(isl_set_universe(isl_pw_aff_get_domain_space(pa)));
    isl_ast_expr *e = isl_ast_build_expr_from_pw_aff(b, pa);
    Expr *x = e ? model_ast_expr(m, e) : NULL;
    isl_bad(m, !e);
    isl_ast_expr_free(e);
    isl_ast_build_free(b);
    return x;
}

/* Whether a bound is a number everywhere (not unbounded). */
static bool bounded(Model *m, isl_pw_aff *pa)
{
    isl_bool nan = isl_pw_aff_involves_nan(pa);
    return !isl_bad(m, !pa || nan < 0) && nan == isl_bool_false;
}

/* The elements of v the region touches, or NULL (untouched): each access
 * applied to its statement's instances, united in program order (the
 * result, hence the extents, do not depend on isl's hash order); *ok =
 * false when some access or domain is not exact, the accesses disagree on
 * the rank, or isl failed. */
static isl_set *touched(Model *m, Var *v, bool *ok)
{
    isl_set *set = NULL;
    *ok = true;
    /* the statements, then where the bounds and conditions are evaluated */
    for (int i = 0; i < m->ps.len + m->hdrs.len && *ok; i++) {
        PStmt *ps = i < m->ps.len ? vec_at(&m->ps, i) : vec_at(&m->hdrs, i - m->ps.len);
        for (int j = 0; j < ps->acc.len && *ok; j++) {
            Access *ac = vec_at(&ps->acc, j);
            if (ac->var != v || ac->ctl)
                continue;
            *ok = ac->exact && ps->exact_domain;
            /* the fields of an array of structs are one array here */
            isl_set *t = isl_set_set_tuple_id(isl_set_apply(isl_set_copy(ps->dom), isl_map_copy(ac->map)), var_id(m, v));
            isl_space *st = isl_set_get_space(t), *ss = set ? isl_set_get_space(set) : NULL;
            isl_bool same = ss ? isl_space_has_equal_tuples(ss, st) : isl_bool_true;
            isl_space_free(st);
            isl_space_free(ss);
            *ok = *ok && !isl_bad(m, !t || same < 0) && same == isl_bool_true;
            if (*ok)
                set = set ? isl_set_union(set, t) : t;
            else
                isl_set_free(t);
        }
    }
    if (!*ok) {
        isl_set_free(set);
        return NULL;
    }
    set = set ? isl_set_coalesce(set) : NULL;
    *ok = !isl_bad(m, false);
    return set;
}

bool deps_extent(Unit *u, Region *r, Var *v, Expr ***lo, Expr ***hi)
{
    (void)u;
    Model *m = &((DepPriv *)r->deps->priv)->m;
    bool ok;
    isl_set *set = touched(m, v, &ok);
    if (!set) {
        *lo = *hi = NULL;    /* untouched */
        return ok && !m->failed;
    }
    /* the bounding box, per dimension; the launcher flattens it */
    isl_size nd = isl_set_dim(set, isl_dim_set);
    isl_bad(m, nd < 0);
    Expr **los = arena_alloc(m->a, sizeof(Expr *) * (size_t)(nd > 0 ? nd : 1));
    Expr **his = arena_alloc(m->a, sizeof(Expr *) * (size_t)(nd > 0 ? nd : 1));
    bool flat = nd == 2 && v->ndims == 1 && v->delin && !v->delin_bad;
    ok = nd == v->ndims || flat;
    for (int d = 0; d < nd && ok; d++) {
        isl_pw_aff *mn = isl_set_dim_min(isl_set_copy(set), d);
        isl_pw_aff *mx = isl_set_dim_max(isl_set_copy(set), d);
        ok = bounded(m, mn) && bounded(m, mx);
        los[d] = ok ? pw_to_expr(m, isl_pw_aff_copy(mn)) : NULL;
        his[d] = ok ? pw_to_expr(m, isl_pw_aff_copy(mx)) : NULL;
        ok = los[d] && his[d];
        isl_pw_aff_free(mn);
        isl_pw_aff_free(mx);
    }
    isl_set_free(set);
    if (!ok || m->failed)
        return false;
    if (flat) {
        /* rows of length P: the box corners, flattened */
        for (int k = 0; k < 2; k++) {
            Expr **x = k ? his : los;
            Expr *p = model_ext_node(m, E_VAR, OP_NONE, 0), *mul = model_ext_node(m, E_BINARY, OP_MUL, 2);
            Expr *add = model_ext_node(m, E_BINARY, OP_ADD, 2), *cp = model_ext_node(m, E_CAST, OP_NONE, 1);
            p->var = v->delin;
            p->ty = v->delin->ty;
            cp->kids[0] = p;
            mul->kids[0] = x[0];
            mul->kids[1] = cp;
            add->kids[0] = mul;
            add->kids[1] = x[1];
            x[0] = add;
        }
    }
    *lo = los;
    *hi = his;
    return true;
}

/* ---- outputs written before they are read (args.c asks) ------------------------- */

static isl_union_flow *value_flow(Model *m, isl_union_map *sink, isl_union_map *must, isl_union_map *may);

/* f + add, f an affine form of the integer parameters, on domain space dom
 * (a parameter space or a set space); NULL if f names anything else. */
static isl_aff *param_aff(Model *m, isl_space *dom, const Aff *f, long long add)
{
    if (!f)
        return NULL;
    isl_aff *a = isl_aff_zero_on_domain(isl_local_space_from_space(isl_space_copy(dom)));
    a = isl_aff_set_constant_val(a, isl_val_int_from_si(m->ctx, f->c + add));
    for (int i = 0; i < f->nterms && a; i++) {
        bool param = false;
        for (int k = 0; k < m->pvars.len; k++)
            param |= vec_at(&m->pvars, k) == f->terms[i].var;
        isl_id *id = param ? var_id(m, f->terms[i].var) : NULL;
        int at = id ? isl_space_find_dim_by_id(dom, isl_dim_param, id) : -1;
        isl_id_free(id);
        if (at < 0) {
            isl_aff_free(a);
            return NULL;
        }
        a = isl_aff_set_coefficient_val(a, isl_dim_param, at, isl_val_int_from_si(m->ctx, f->terms[i].coef));
    }
    isl_bad(m, !a);
    return a;
}

/* 0 <= x_d < size_d for the inner dimensions d of v (space sp); NULL if a
 * size is not an affine form of the parameters. */
static isl_set *inner_dims(Model *m, Var *v, isl_space *sp)
{
    isl_set *in = isl_set_universe(isl_space_copy(sp));
    for (int d = 1; d < v->ndims && in; d++) {
        isl_aff *last = v->dims[d] ? param_aff(m, sp, aff_of(m->a, v->dims[d]), -1) : NULL;
        if (!last) {
            isl_set_free(in);
            return NULL;
        }
        isl_aff *x = isl_aff_var_on_domain(isl_local_space_from_space(isl_space_copy(sp)), isl_dim_set, (unsigned)d);
        isl_aff *zero = isl_aff_zero_on_domain(isl_local_space_from_space(isl_space_copy(sp)));
        in = isl_set_intersect(in, isl_aff_ge_set(isl_aff_copy(x), zero));
        in = isl_set_intersect(in, isl_aff_le_set(x, last));
    }
    isl_bad(m, !in);
    return in;
}

/* The call's copy of v (emit_extent) runs from the first to the last
 * corner of the touched box, flattened: within rows lo_0..hi_0 of the
 * declared shape when the inner subscripts stay inside their dimensions
 * (inner_dims).  Those rows, inner dimensions whole; NULL if isl cannot
 * bound them. */
static isl_set *staged_rows(Model *m, Var *v, isl_set *touched_set)
{
    isl_space *sp = isl_set_get_space(touched_set);
    isl_space *ps = isl_space_params(isl_space_copy(sp));
    isl_pw_aff_list *lo = isl_pw_aff_list_alloc(m->ctx, v->ndims), *hi = isl_pw_aff_list_alloc(m->ctx, v->ndims);
    bool ok = true;
    for (int d = 0; d < v->ndims; d++) {
        isl_pw_aff *l, *h;
        if (d == 0) {
            l = isl_set_dim_min(isl_set_copy(touched_set), 0);
            h = isl_set_dim_max(isl_set_copy(touched_set), 0);
            ok = ok && bounded(m, l) && bounded(m, h);
        } else {
            isl_aff *last = v->dims[d] ? param_aff(m, ps, aff_of(m->a, v->dims[d]), -1) : NULL;
            ok = ok && last;
            l = isl_pw_aff_zero_on_domain(isl_local_space_from_space(isl_space_copy(ps)));
            h = last ? isl_pw_aff_from_aff(last) : isl_pw_aff_copy(l);
        }
        lo = isl_pw_aff_list_add(lo, l);
        hi = isl_pw_aff_list_add(hi, h);
    }
    isl_set *rows = isl_set_universe(isl_space_copy(sp));
    rows = isl_set_lower_bound_multi_pw_aff(rows, isl_multi_pw_aff_from_pw_aff_list(isl_space_copy(sp), lo));
    rows = isl_set_upper_bound_multi_pw_aff(rows, isl_multi_pw_aff_from_pw_aff_list(sp, hi));
    isl_space_free(ps);
    if (isl_bad(m, !rows) || !ok) {
        isl_set_free(rows);
        return NULL;
    }
    return rows;
}

/* The parameter values for which the region writes every element of v the
 * call copies (staged_rows) before any read of it can see one: then the
 * launcher need not copy v in.  isl's value-based flow finds the reads
 * with no write before them; must-writes are the exact stores of
 * statements whose instances isl knows exactly (no condition it dropped,
 * no loop that breaks, no while loop). */
Expr *deps_write_first(Region *r, Var *v, bool *always)
{
    Model *m = &((DepPriv *)r->deps->priv)->m;
    *always = false;
    Type *et = type_elem(v->ty);
    if (m->failed || !v->ext_lo || v->ext_whole || v->ndims < 1 || v->is_private || (v->delin && !v->delin_bad) ||
        !et || et->kind == TY_STRUCT)
        return NULL;
    bool ok;
    isl_set *tset = touched(m, v, &ok);
    if (!tset)
        return NULL;
    isl_union_map *sink = isl_union_map_empty(isl_space_copy(m->params));
    isl_union_map *must = isl_union_map_empty(isl_space_copy(m->params));
    isl_union_map *may = isl_union_map_empty(isl_space_copy(m->params));
    for (int i = 0; i < m->ps.len && ok; i++) {
        PStmt *ps = vec_at(&m->ps, i);
        for (int j = 0; j < ps->acc.len && ok; j++) {
            Access *ac = vec_at(&ps->acc, j);
            if (ac->var != v)
                continue;
            ok = ac->exact && ps->exact_domain;
            isl_union_map *a = isl_union_map_from_map(
                isl_map_set_tuple_id(isl_map_intersect_domain(isl_map_copy(ac->map), isl_set_copy(ps->dom)),
                                     isl_dim_out, var_id(m, v)));
            if (!ac->write)
                sink = isl_union_map_union(sink, a);
            else if (ps->exact_cond && ps->s->kind == S_ASSIGN)
                must = isl_union_map_union(must, a);   /* surely writes what it names */
            else
                may = isl_union_map_union(may, a);
        }
    }
    isl_space *sp = isl_set_get_space(tset);
    isl_set *inner = ok ? inner_dims(m, v, sp) : NULL;
    isl_set *rows = inner ? staged_rows(m, v, tset) : NULL;
    if (!rows) {
        isl_set_free(inner);
        isl_space_free(sp);
        isl_set_free(tset);
        isl_union_map_free(sink);
        isl_union_map_free(must);
        isl_union_map_free(may);
        return NULL;
    }
    isl_set *some = isl_set_params(isl_set_copy(tset));  /* the parameters where it touches v */
    isl_union_set *written = isl_union_map_range(isl_union_map_copy(must));
    isl_union_flow *fl = value_flow(m, sink, must, may);
    isl_union_map *exposed = isl_union_flow_get_may_no_source(fl);
    isl_union_flow_free(fl);
    /* the parameter values where it fails: a read sees the caller's value,
     * a copied element is not surely written, or an inner subscript leaves
     * its dimension (the flattened copy would leave the rows) */
    isl_set *w = isl_union_set_extract_set(written, isl_space_copy(sp));
    isl_union_set_free(written);
    isl_set *bad = isl_set_params(isl_set_subtract(rows, w));
    bad = isl_set_union(bad, isl_set_params(isl_set_subtract(tset, inner)));
    bad = isl_set_union(bad, isl_union_set_params(isl_union_map_domain(exposed)));
    /* only where the call touches v does the answer matter: the condition
     * is simplified there (isl's gist), and holds for none or all of it */
    bad = isl_set_intersect(isl_set_coalesce(bad), isl_set_copy(some));
    isl_bool all = isl_set_is_empty(bad);
    isl_set *good = isl_set_subtract(isl_set_copy(some), bad);
    isl_bool none = all == isl_bool_false ? isl_set_is_empty(good) : isl_bool_false;
    good = isl_set_coalesce(isl_set_gist(good, some));
    isl_space_free(sp);
    Expr *cond = NULL;
    if (!isl_bad(m, !good || none < 0 || all < 0) && none == isl_bool_false) {
        if (all == isl_bool_true) {
            *always = true;
        } else {
            isl_ast_build *b = isl_ast_build_from_context(isl_set_universe(isl_set_get_space(good)));
            isl_ast_expr *e = isl_ast_build_expr_from_set(b, isl_set_copy(good));
            cond = e ? model_ast_expr(m, e) : NULL;
            isl_ast_expr_free(e);
            isl_ast_build_free(b);
        }
    }
    isl_set_free(good);
    /* a failure here is not the region's: the call copies v in */
    if (m->failed) {
        m->failed = NULL;
        *always = false;
        return NULL;
    }
    return cond;
}

/* ---- privatisation and distribution (priv.c asks, isl answers) ------------------- */

/* { [t0..] -> [s0..] : t_k = s_k for k < eq } and, with differ >= 0, t_differ != s_differ. */
static isl_union_map *time_rel(Model *m, int eq, int differ)
{
    isl_map *t = time_eq(m, eq);
    if (differ >= 0 && differ < 2 * m->maxdepth + 1)
        t = time_differ(t, differ);
    return isl_union_map_from_map(t);
}

/* isl's value-based flow of the reads `sink` from the writes `must` (that
 * surely write what they name) and `may`, in the model's schedule; takes
 * the three. */
static isl_union_flow *value_flow(Model *m, isl_union_map *sink, isl_union_map *must, isl_union_map *may)
{
    isl_union_access_info *ai = isl_union_access_info_from_sink(sink);
    ai = isl_union_access_info_set_must_source(ai, must);
    ai = isl_union_access_info_set_may_source(ai, may);
    ai = isl_union_access_info_set_schedule_map(ai, isl_union_map_copy(m->sched));
    return isl_union_access_info_compute_flow(ai);
}

/* Whether b begins, as far as the scalar t goes, by assigning it in every
 * case: its first statement naming t is `t = e` (e not reading t), or an
 * if/else whose condition does not read t and whose two branches each do
 * (an else-if chain ending in an else).  The assignments go to out. */
static bool writes_first(const Stmt *b, const Var *t, Arena *a, Vec *out)
{
    int n = b->kind == S_BLOCK ? b->list.len : 1;
    for (int i = 0; i < n; i++) {
        const Stmt *s = b->kind == S_BLOCK ? vec_at(&b->list, i) : b;
        if (s->kind == S_ASSIGN && s->op == OP_ASSIGN && s->lhs->kind == E_VAR && s->lhs->var == t &&
            !ir_expr_any(s->rhs, is_ref, t)) {
            vec_push(a, out, (void *)s);
            return true;
        }
        if (s->kind == S_IF && s->then && s->els && !ir_expr_any(s->cond, is_ref, t) && ir_stmt_any(s, is_ref, t))
            return writes_first(s->then, t, a, out) && writes_first(s->els, t, a, out);
        if (ir_stmt_any(s, is_ref, t) || (s->kind == S_DECL && s->var == t))
            return false;
    }
    return false;
}

/* Writes of the scalar t that together assign it in every iteration: an if
 * directly in the loop's body (only blocks between), its condition not
 * reading t, whose branches each begin by assigning t (`if (c) m = a; else
 * m = b;`, else-if chains: writes_first).  Each write is conditional, a
 * may-write for isl, but one of them runs in every iteration before any
 * read of t in its branch: marked as must-writes, a read after the if
 * finds its source in the same iteration (the last of them in the
 * schedule stands for all, which does not change whether the source is in
 * the same iteration). */
static void branch_pairs(const Stmt *s, const Var *t, Arena *a, Vec *out)
{
    if (!s)
        return;
    if (s->kind == S_BLOCK) {
        for (int i = 0; i < s->list.len; i++)
            branch_pairs(vec_at(&s->list, i), t, a, out);
        return;
    }
    if (s->kind != S_IF || !s->then || !s->els || ir_expr_any(s->cond, is_ref, t))
        return;
    Vec w = {0};
    if (writes_first(s->then, t, a, &w) && writes_first(s->els, t, a, &w))
        for (int i = 0; i < w.len; i++)
            vec_push(a, out, vec_at(&w, i));
}

const char *deps_private_flow(Region *r, Var *t, Stmt *loop)
{
    Model *m = &((DepPriv *)r->deps->priv)->m;
    if (m->failed)
        return arena_printf(m->a, "the dependence analysis failed (isl: %s)", m->failed);
    isl_union_map *sink = isl_union_map_empty(isl_space_copy(m->params));
    isl_union_map *must = isl_union_map_empty(isl_space_copy(m->params));
    isl_union_map *may = isl_union_map_empty(isl_space_copy(m->params));
    const char *why = NULL;
    Vec pairs = {0};
    if (!t->is_array)
        branch_pairs(loop->body, t, m->a, &pairs);
    for (int i = 0; i < m->ps.len && !why; i++) {
        PStmt *ps = vec_at(&m->ps, i);
        for (int j = 0; j < ps->acc.len && !why; j++) {
            Access *ac = vec_at(&ps->acc, j);
            if (ac->var != t)
                continue;
            /* its initial value: a source outside the loop like any other */
            bool init = ps->s->kind == S_DECL && ps->s->var == t;
            bool outside = !model_under(ps, loop) && !init;
            if (outside && !ac->write)
                continue;   /* what reads after the loop see is the caller's question (priv.c: live_after) */
            if (!ac->exact) {
                why = arena_printf(m->a, "a subscript of '%s' on line %d is not affine", t->name, ps->s->loc.line);
                break;
            }
            isl_union_map *a = isl_union_map_from_map(isl_map_intersect_domain(isl_map_copy(ac->map),
                                                                               isl_set_copy(ps->dom)));
            if (!ac->write)
                sink = isl_union_map_union(sink, a);
            else if (!outside && ps->exact_domain && ps->s->kind != S_WHILE &&
                     (ps->exact_cond || vec_has(&pairs, ps->s)))
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
    isl_union_flow *fl = value_flow(m, sink, must, may);
    isl_union_map *dep = isl_union_flow_get_may_dependence(fl);
    /* a parameter has no declaration to stand for its values from before
     * the loop: a read that may see one has no source here */
    isl_union_map *live_in = t->kind == V_PARAM ? isl_union_flow_get_may_no_source(fl) : NULL;
    isl_union_flow_free(fl);
    if (live_in) {
        isl_bool none = isl_union_map_is_empty(live_in);
        isl_union_map_free(live_in);
        if (isl_bad(m, none < 0)) {
            isl_union_map_free(dep);
            return arena_printf(m->a, "the dependence analysis failed (isl: %s)", m->failed);
        }
        if (none != isl_bool_true) {
            isl_union_map_free(dep);
            return arena_printf(m->a, "an iteration of '%s' reads elements of '%s' it has not written (values "
                                "from before the loop)", loop->iv->name, t->name);
        }
    }
    /* every source in the same iteration of the loop and of those around it */
    isl_union_map *dt = to_time(m, dep);
    isl_union_map *same = time_rel(m, 2 * loop->depth + 2, -1);
    isl_bool ok = isl_union_map_is_subset(dt, same);
    isl_union_map_free(same);
    isl_union_map_free(dt);
    if (isl_bad(m, ok < 0))
        return arena_printf(m->a, "the dependence analysis failed (isl: %s)", m->failed);
    if (ok != isl_bool_true)
        return arena_printf(m->a, "an iteration of '%s' reads elements of '%s' that an earlier iteration wrote",
                            loop->iv->name, t->name);
    return NULL;
}

/* The values each read of x under `loop` may see (isl's value-based flow
 * over x's writes in the region): whether one may come from a write
 * inside the loop. */
static isl_bool reads_loop_value(Model *m, PStmt *rps, Access *rd, Var *x, Stmt *loop)
{
    isl_union_map *sink = isl_union_map_from_map(isl_map_intersect_domain(isl_map_copy(rd->map),
                                                                          isl_set_copy(rps->dom)));
    isl_union_map *must = isl_union_map_empty(isl_space_copy(m->params));
    isl_union_map *may = isl_union_map_empty(isl_space_copy(m->params));
    isl_union_set *inside = isl_union_set_empty(isl_space_copy(m->params));
    for (int i = 0; i < m->ps.len; i++) {
        PStmt *ps = vec_at(&m->ps, i);
        bool in = model_under(ps, loop);
        if (in)
            inside = isl_union_set_union(inside, isl_union_set_from_set(isl_set_copy(ps->dom)));
        for (int j = 0; j < ps->acc.len; j++) {
            Access *ac = vec_at(&ps->acc, j);
            if (ac->var != x || !ac->write)
                continue;
            isl_union_map *a = isl_union_map_from_map(isl_map_intersect_domain(isl_map_copy(ac->map),
                                                                               isl_set_copy(ps->dom)));
            if (ac->exact && ps->exact_domain && ps->exact_cond && ps->s->kind != S_WHILE && ps->s->kind != S_LIB)
                must = isl_union_map_union(must, a);
            else
                may = isl_union_map_union(may, a);
        }
    }
    isl_union_flow *fl = value_flow(m, sink, must, may);
    isl_union_map *dep = isl_union_flow_get_may_dependence(fl);
    isl_union_flow_free(fl);
    dep = isl_union_map_intersect_domain(dep, inside);
    isl_bool e = isl_union_map_is_empty(dep);
    isl_union_map_free(dep);
    return e < 0 ? isl_bool_error : e ? isl_bool_false : isl_bool_true;
}

int deps_old_reads(Region *r, Var *x, Stmt *loop, Expr **reads, int max)
{
    Model *m = &((DepPriv *)r->deps->priv)->m;
    if (m->failed)
        return 0;
    Access *old[64];
    int nold = 0;
    bool written = false;
    for (int i = 0; i < m->ps.len; i++) {
        PStmt *ps = vec_at(&m->ps, i);
        if (!model_under(ps, loop))
            continue;
        for (int j = 0; j < ps->acc.len; j++) {
            Access *ac = vec_at(&ps->acc, j);
            if (ac->var != x)
                continue;
            if (ac->write) {
                written = true;
                continue;
            }
            if (!ac->exact || !ac->e || ac->e->kind != E_INDEX || ac->red)
                continue;   /* left as it is: the carried check below sees it */
            isl_bool lv = reads_loop_value(m, ps, ac, x, loop);
            if (isl_bad(m, lv < 0))
                return 0;
            if (lv)
                continue;   /* sees a value the loop wrote: stays on x */
            if (nold == 64)
                return 0;
            old[nold++] = ac;
        }
    }
    if (!written || !nold)
        return 0;
    /* an expression read elsewhere too (shared) moves only when every read
     * through it sees values from before the loop */
    int n = 0;
    for (int k = 0; k < nold; k++) {
        Expr *e = old[k]->e;
        bool all = true;
        for (int i = 0; i < m->ps.len && all; i++) {
            PStmt *ps = vec_at(&m->ps, i);
            for (int j = 0; j < ps->acc.len && all; j++) {
                Access *ac = vec_at(&ps->acc, j);
                if (ac->e != e)
                    continue;
                bool listed = false;
                for (int q = 0; q < nold && !listed; q++)
                    listed = old[q] == ac;
                all = listed;
            }
        }
        if (!all)
            return 0;
        bool dup = false;
        for (int q = 0; q < n && !dup; q++)
            dup = reads[q] == e;
        if (!dup) {
            if (n == max)
                return 0;
            reads[n++] = e;
        }
    }
    /* with those reads elsewhere, the loop must carry no dependence */
    isl_union_map *dt = to_time(m, deps_of_sets(m, access_sets_ex(m, NULL, NULL, 0, old, nold)));
    bool c = carries(m, dt, loop_ord(loop), 2 * loop->depth + 1);
    isl_union_map_free(dt);
    return c ? 0 : n;
}

bool deps_parallel_without(Region *r, Stmt *loop, Var *const *skip, int n)
{
    Model *m = &((DepPriv *)r->deps->priv)->m;
    isl_union_map *dt = to_time(m, compute_deps_skip(m, NULL, skip, n));
    bool c = carries(m, dt, loop_ord(loop), 2 * loop->depth + 1);
    isl_union_map_free(dt);
    return !c;
}

typedef struct Ids {
    IrVisitor v;
    int *kid_of;
    int n, k;
} Ids;

static bool id_at(IrVisitor *v, Stmt *s)
{
    Ids *c = (Ids *)v;
    if (s->id >= 0 && s->id < c->n)
        c->kid_of[s->id] = c->k;
    return true;
}

/* The statement ids under s: unit k. */
static void ids_under(Stmt *s, int *kid_of, int n, int k)
{
    Ids c = {{.stmt = id_at}, kid_of, n, k};
    ir_visit_stmt(&c.v, s);
}

typedef struct GraphCx {
    Model *m;
    const int *kid_of;
    int nids, n;
    isl_union_map *same, *carry;
    bool *edge, *carried;
} GraphCx;

/* The statement whose instances a tuple of d holds. */
static PStmt *tuple_stmt(isl_map *d, enum isl_dim_type t)
{
    isl_id *id = isl_map_get_tuple_id(d, t);
    PStmt *ps = id ? isl_id_get_user(id) : NULL;
    isl_id_free(id);
    return ps;
}

/* Whether dependences d (in time space) meet the time relation rel. */
static bool meets(Model *m, isl_union_map *dt, isl_union_map *rel)
{
    return !empty_umap(m, isl_union_map_intersect(isl_union_map_copy(dt), isl_union_map_copy(rel)));
}

static isl_stat graph_map(isl_map *d, void *user)
{
    GraphCx *g = user;
    PStmt *x = tuple_stmt(d, isl_dim_in), *y = tuple_stmt(d, isl_dim_out);
    int sx = x ? x->s->id : -1, sy = y ? y->s->id : -1;
    int a = sx >= 0 && sx < g->nids ? g->kid_of[sx] : -1, b = sy >= 0 && sy < g->nids ? g->kid_of[sy] : -1;
    if (a < 0 || b < 0) {
        isl_map_free(d);
        return isl_stat_ok;
    }
    isl_union_map *dt = to_time(g->m, isl_union_map_from_map(d));
    g->edge[a * g->n + b] |= meets(g->m, dt, g->same);
    g->carried[a * g->n + b] |= meets(g->m, dt, g->carry);
    isl_union_map_free(dt);
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
    isl_stat st = isl_union_map_foreach_map(m->deps, graph_map, &g);
    isl_union_map_free(g.same);
    isl_union_map_free(g.carry);
    if (isl_bad(m, st < 0))
        for (int k = 0; k < n * n; k++)
            edge[k] = carried[k] = true;   /* the worst: one sequential component */
}

bool deps_parallel_among(Region *r, Stmt *loop, Stmt *const *stmts, int n)
{
    Model *m = &((DepPriv *)r->deps->priv)->m;
    int nids = r->stmts.len;
    int *kid_of = arena_alloc(m->a, sizeof(int) * (size_t)(nids ? nids : 1));
    for (int i = 0; i < nids; i++)
        kid_of[i] = -1;
    for (int k = 0; k < n; k++)
        ids_under(stmts[k], kid_of, nids, k);
    isl_union_set *mine = isl_union_set_empty(isl_space_copy(m->params));
    for (int i = 0; i < m->ps.len; i++) {
        PStmt *ps = vec_at(&m->ps, i);
        if (ps->s->id >= 0 && ps->s->id < nids && kid_of[ps->s->id] >= 0)
            mine = isl_union_set_add_set(mine, isl_set_universe(isl_space_copy(ps->space)));
    }
    isl_union_map *d = isl_union_map_intersect_domain(isl_union_map_copy(m->deps), isl_union_set_copy(mine));
    isl_union_map *dt = to_time(m, isl_union_map_intersect_range(d, mine));
    bool c = carries(m, dt, loop_ord(loop), 2 * loop->depth + 1);
    isl_union_map_free(dt);
    return !c;
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
static bool accesses_of(PStmt *ps, const Var *v, int want, isl_union_map **out)
{
    for (int j = 0; j < ps->acc.len; j++) {
        Access *ac = vec_at(&ps->acc, j);
        if (ac->var != v || !(want & (ac->write ? 2 : 1)))
            continue;
        if (!ac->exact || !ps->exact_domain || !ps->exact_cond)
            return false;
        isl_union_map *a = isl_union_map_from_map(isl_map_intersect_domain(isl_map_copy(ac->map), isl_set_copy(ps->dom)));
        *out = isl_union_map_union(*out, a);
    }
    return true;
}

bool deps_before_on(Region *r, Stmt *a, Stmt *b, Var *v)
{
    Model *m = &((DepPriv *)r->deps->priv)->m;
    PStmt *pa = pstmt_of(m, a), *pb = pstmt_of(m, b);
    if (!pa || !pb || m->failed)
        return false;
    isl_union_map *xa = isl_union_map_empty(isl_space_copy(m->params));
    isl_union_map *xb = isl_union_map_empty(isl_space_copy(m->params));
    bool ok = accesses_of(pa, v, 3, &xa) && accesses_of(pb, v, 3, &xb);
    if (ok) {
        /* instance of a -> instance of b touching the same element */
        isl_union_map *pairs = isl_union_map_apply_range(isl_union_map_copy(xa), isl_union_map_reverse(isl_union_map_copy(xb)));
        isl_union_map *before = isl_union_map_lex_lt_union_map(isl_union_map_copy(m->sched), isl_union_map_copy(m->sched));
        isl_bool sub = isl_union_map_is_subset(pairs, before);
        ok = !isl_bad(m, sub < 0) && sub == isl_bool_true;
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
    if (!ps || m->failed)
        return false;
    isl_union_map *rd = isl_union_map_empty(isl_space_copy(m->params));
    isl_union_map *own = isl_union_map_empty(isl_space_copy(m->params));
    isl_union_map *w = isl_union_map_empty(isl_space_copy(m->params));
    bool ok = accesses_of(ps, v, 1, &rd) && accesses_of(ps, v, 2, &own);
    for (int i = 0; ok && i < m->ps.len; i++) {
        PStmt *q = vec_at(&m->ps, i);
        if (model_under(q, nest))
            ok = accesses_of(q, v, 2, &w);
    }
    if (ok) {
        /* the reads of elements other than the one the instance writes,
         * and a write of the nest to the same element before them */
        rd = isl_union_map_subtract(rd, isl_union_map_copy(own));
        isl_union_map *pairs = isl_union_map_apply_range(isl_union_map_copy(w), isl_union_map_reverse(isl_union_map_copy(rd)));
        isl_union_map *before = isl_union_map_lex_lt_union_map(isl_union_map_copy(m->sched), isl_union_map_copy(m->sched));
        pairs = isl_union_map_intersect(pairs, before);
        isl_bool none = isl_union_map_is_empty(pairs);
        ok = !isl_bad(m, none < 0) && none == isl_bool_true;
        isl_union_map_free(pairs);
    }
    isl_union_map_free(rd);
    isl_union_map_free(own);
    isl_union_map_free(w);
    return ok;
}

/* ---- a serial kernel run by the threads of the next one ---------------------------
 * lower.c's absorption: the statements ser[] (a serial kernel's, once per
 * iteration of the host loops around them) computed by every thread of the
 * next kernel, the 1-D map `nests`, at its start, their stores made by one
 * thread after every block is done.  That is the program's order only when,
 * within one iteration of the loops around both, the two touch no element
 * in common (a write of one and any access of the other) except the map's
 * reads of an element the statements write at the very subscript kept[]
 * names (the map reads the statements' value from a register instead). */

static bool kept_read(const Access *ac, const Vec *kept)
{
    for (int i = 0; !ac->write && ac->e && i < kept->len; i++)
        if (expr_equal(ac->e, vec_at(kept, i)))
            return true;
    return false;
}

/* The instances of ps's access ac (on its domain); NULL when not exact. */
static isl_map *access_on_domain(const PStmt *ps, const Access *ac)
{
    if (!ac->exact || !ps->exact_domain || !ps->exact_cond)
        return NULL;
    return isl_map_intersect_domain(isl_map_copy(ac->map), isl_set_copy(ps->dom));
}

/* Whether a (of ser) and b (of the map) touch no element in common at the
 * same iteration of the loops around both. */
static bool apart(Model *m, const PStmt *pa, const Access *a, const PStmt *pb, const Access *b)
{
    isl_map *x = access_on_domain(pa, a), *y = access_on_domain(pb, b);
    bool ok = x && y;
    if (ok) {
        int shared = 0;
        while (shared < pa->nloops && shared < pb->nloops && pa->loops[shared] == pb->loops[shared])
            shared++;
        isl_map *pairs = isl_map_apply_range(isl_map_copy(x), isl_map_reverse(isl_map_copy(y)));
        isl_map *same = isl_map_universe(isl_space_map_from_domain_and_range(isl_space_copy(pa->space),
                                                                            isl_space_copy(pb->space)));
        for (int k = 0; k < shared; k++)
            same = isl_map_equate(same, isl_dim_in, k, isl_dim_out, k);
        pairs = isl_map_intersect(pairs, same);
        isl_bool none = isl_map_is_empty(pairs);
        ok = !isl_bad(m, none < 0) && none == isl_bool_true;
        isl_map_free(pairs);
    }
    isl_map_free(x);
    isl_map_free(y);
    return ok;
}

/* Whether pa and pb touch no element in common where one writes, at the
 * same iteration of the loops around both; reads of pb in kept (pa's
 * stores at those very subscripts, read from a register) aside. */
static bool pstmts_apart(Model *m, const PStmt *pa, const PStmt *pb, const Vec *kept)
{
    for (int x = 0; x < pa->acc.len; x++) {
        Access *a = vec_at(&pa->acc, x);
        for (int y = 0; y < pb->acc.len; y++) {
            Access *b = vec_at(&pb->acc, y);
            if (a->var != b->var || !(a->write || b->write))
                continue;
            if (kept && a->write && kept_read(b, kept))
                continue;
            if (!apart(m, pa, a, pb, b))
                return false;
        }
    }
    return true;
}

bool deps_absorbable(Region *r, const Vec *ser, const Vec *nests, const Vec *kept)
{
    Model *m = &((DepPriv *)r->deps->priv)->m;
    if (m->failed)
        return false;
    int seen = 0;                /* the map's statements the model holds */
    for (int i = 0; i < ser->len; i++) {
        PStmt *pa = pstmt_of(m, vec_at(ser, i));
        if (!pa)
            return false;
        for (int j = 0; j < m->ps.len; j++) {
            PStmt *pb = vec_at(&m->ps, j);
            bool in_map = false;
            for (int n = 0; n < nests->len && !in_map; n++)
                in_map = model_under(pb, vec_at(nests, n));
            seen += in_map;
            if (in_map && !pstmts_apart(m, pa, pb, kept))
                return false;
        }
    }
    return seen > 0;
}
