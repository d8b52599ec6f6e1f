/* share.c - calls of small helpers that compute the same values, inlined so
 * that each value is computed once.
 *
 * Black-Scholes prices a call and a put with cnd(d1), cnd(d2), cnd(-d2) and
 * cnd(-d1), the normal CDF written as a static helper.  cnd(x) and cnd(-x)
 * compute the same reciprocal 1 / (1 + k * fabsf(x)) and the same
 * expf(-0.5f * x * x), bit for bit, yet nvcc computes each call's own: it
 * does not see fabsf(-x) as fabsf(x), nor (-0.5f * -x) * -x as
 * (-0.5f * x) * x.  A helper with a form (Func.ret: declarations with
 * initialisers and one return, read by parse.c) is inlined here into
 * declarations of its locals, and each value is numbered by a canonical
 * form in which a negation moves out of products and quotients, cancels
 * against another one, and disappears inside fabs: rewrites that hold
 * exactly in IEEE arithmetic (rounding to nearest is symmetric), so that
 * no value changes.  A value another call already computed is read from
 * the variable that holds it (negated when its form is the negation).
 *
 * Within each block of statements in order: a call is inlined only when it
 * is evaluated unconditionally (not in an arm of ?:, nor to the right of
 * && or ||) in the value of a declaration or an assignment; a value stops
 * being available once a statement writes a variable or an array it reads,
 * and at any statement that is not a declaration or an assignment.  The
 * block is rewritten only when a costly value (a call of a math function
 * other than fabs, or a division) is found again; otherwise it stays as
 * written and its calls call the helper's device function.
 *
 * Runs first, on the IR as parsed: the analyses see the declarations as
 * any other scalars private to an iteration. */
#include "gfc.h"

#include <string.h>

#define MAX_INLINE_DEPTH 8       /* helpers inlined inside helpers */

typedef struct Avail {
    Expr *canon;                 /* the value's canonical form */
    Var *var;                    /* the declaration that holds it */
    bool costly;
} Avail;

typedef struct Cx {
    Arena *a;
    Region *r;
    Vec avail;                   /* Avail*: values held at the current point */
    Vec defs;                    /* Avail*: the block's scalars and their values (canonical) */
    Vec pending;                 /* Stmt*: declarations to put before the current statement */
    Vec decls;                   /* Stmt*: the block's new declarations (their Vars not yet in the region) */
    Stmt *at;                    /* the statement being rewritten */
    int line;                    /* the first one's line */
    Vec names;                   /* const char*: the helpers inlined */
    int shared;                  /* costly values found again */
    int inlined;                 /* calls inlined */
    int depth;
} Cx;

/* ---- expressions ----------------------------------------------------------- */

static bool is_float(const Type *t) { return t && (t->kind == TY_FLOAT || t->kind == TY_DOUBLE); }

static bool same_ty(const Type *a, const Type *b)
{
    if (!a || !b)
        return a == b;
    return a->kind == b->kind && a->kind != TY_STRUCT && a->kind != TY_PTR && a->kind != TY_ARRAY;
}

static bool signed_int(const Type *t)
{
    return t->kind == TY_INT || t->kind == TY_LONG || t->kind == TY_LLONG;
}

static bool is_neg(const Expr *e) { return e->kind == E_UNARY && e->op == OP_NEG; }

static Expr *node(Cx *c, ExprKind k, Type *ty, Loc loc, int nkids)
{
    Expr *e = arena_alloc(c->a, sizeof *e);
    e->kind = k;
    e->ty = ty;
    e->loc = loc;
    e->nkids = nkids;
    e->kids = arena_alloc(c->a, sizeof(Expr *) * (size_t)(nkids ? nkids : 1));
    return e;
}

/* A copy of e's node with kids of its own (the kids themselves shared). */
static Expr *reshape(Cx *c, const Expr *e)
{
    Expr *n = arena_alloc(c->a, sizeof *n);
    *n = *e;
    n->aff = NULL;
    n->kids = arena_alloc(c->a, sizeof(Expr *) * (size_t)(e->nkids ? e->nkids : 1));
    for (int i = 0; i < e->nkids; i++)
        n->kids[i] = e->kids[i];
    return n;
}

static Expr *neg(Cx *c, Expr *x)
{
    Expr *e = node(c, E_UNARY, x->ty, x->loc, 1);
    e->op = OP_NEG;
    e->kids[0] = x;
    return e;
}

static Expr *cast(Cx *c, Type *ty, Expr *x)
{
    Expr *e = node(c, E_CAST, ty, x->loc, 1);
    e->kids[0] = x;
    return e;
}

static Expr *ref(Cx *c, Var *v, Loc loc)
{
    Expr *e = node(c, E_VAR, v->ty, loc, 0);
    e->var = v;
    return e;
}

static bool is_fabs(const Expr *e)
{
    return e->kind == E_CALL && e->nkids == 1 && e->text && (!strcmp(e->text, "fabsf") || !strcmp(e->text, "fabs"));
}

/* The canonical form: -(-x) = x, +x = x, (-a) * b = -(a * b) and the same
 * for / and either operand, fabs(-x) = fabs(x), (double)-x = -(double)x
 * (x floating or a signed integer), a negative floating literal the
 * negation of its magnitude.  Each holds exactly, zeros' signs included,
 * in float and double (their rounding to nearest is symmetric); sums do
 * not ((-a) + (-b) is +0 where -(a + b) is -0), integers keep their form. */
static Expr *canon(Cx *c, const Expr *e)
{
    if (e->kind == E_VAR)        /* a scalar the block declared: its value (float nd = -d; cnd(nd)) */
        for (int i = c->defs.len - 1; i >= 0; i--)
            if (((Avail *)vec_at(&c->defs, i))->var == e->var)
                return ((Avail *)vec_at(&c->defs, i))->canon;
    if ((e->kind == E_FLOAT || e->kind == E_INT) && is_float(e->ty) && e->text && e->text[0] == '-') {
        Expr *m = reshape(c, e);
        m->text = e->text + 1;
        return neg(c, m);
    }
    Expr *n = reshape(c, e);
    for (int i = 0; i < e->nkids; i++)
        n->kids[i] = canon(c, e->kids[i]);
    if (e->kind == E_UNARY && is_float(e->ty) && same_ty(e->ty, n->kids[0]->ty)) {
        if (e->op == OP_PLUS)
            return n->kids[0];
        if (e->op == OP_NEG && is_neg(n->kids[0]))
            return n->kids[0]->kids[0];
    }
    if (e->kind == E_BINARY && (e->op == OP_MUL || e->op == OP_DIV) && is_float(e->ty) &&
        same_ty(e->ty, n->kids[0]->ty) && same_ty(e->ty, n->kids[1]->ty)) {
        bool minus = false;
        for (int i = 0; i < 2; i++)
            if (is_neg(n->kids[i])) {
                n->kids[i] = n->kids[i]->kids[0];
                minus = !minus;
            }
        return minus ? neg(c, n) : n;
    }
    if (is_fabs(e) && is_neg(n->kids[0]) && same_ty(n->kids[0]->ty, n->kids[0]->kids[0]->ty))
        n->kids[0] = n->kids[0]->kids[0];
    if (e->kind == E_CAST && is_float(e->ty) && is_neg(n->kids[0]) && n->kids[0]->ty &&
        (is_float(n->kids[0]->ty) || signed_int(n->kids[0]->ty))) {
        n->kids[0] = n->kids[0]->kids[0];
        return neg(c, n);
    }
    return n;
}

/* Canonical forms with the same value: the same nodes, variables, literals
 * and types. */
static bool same(const Expr *a, const Expr *b)
{
    if (a == b)
        return true;
    if (a->kind != b->kind || a->op != b->op || a->var != b->var || a->nkids != b->nkids || !same_ty(a->ty, b->ty) ||
        a->kind == E_SIZEOF)
        return false;
    if ((a->text || b->text) && (!a->text || !b->text || strcmp(a->text, b->text)))
        return false;
    for (int i = 0; i < a->nkids; i++)
        if (!same(a->kids[i], b->kids[i]))
            return false;
    return true;
}

static bool costly(const Expr *e)
{
    if ((e->kind == E_CALL && !is_fabs(e)) || (e->kind == E_BINARY && (e->op == OP_DIV || e->op == OP_MOD)))
        return true;
    for (int i = 0; i < e->nkids; i++)
        if (costly(e->kids[i]))
            return true;
    return false;
}

static bool reads(const Expr *e, const Var *v)
{
    if ((e->kind == E_VAR || e->kind == E_INDEX) && e->var == v)
        return true;
    for (int i = 0; i < e->nkids; i++)
        if (reads(e->kids[i], v))
            return true;
    return false;
}

/* A variable or a literal, or its negation: substituted as it is. */
static bool simple(const Expr *e)
{
    if (is_neg(e))
        e = e->kids[0];
    return (e->kind == E_VAR && !e->var->is_array) || e->kind == E_INT || e->kind == E_FLOAT;
}

/* ---- values held in variables ------------------------------------------------ */

/* The variable (or its negation) that holds canonical value v, or NULL. */
static Expr *find(Cx *c, const Expr *v, Loc loc)
{
    for (int i = c->avail.len - 1; i >= 0; i--) {
        Avail *h = vec_at(&c->avail, i);
        bool minus;
        if (same(h->canon, v))
            minus = false;
        else if ((is_neg(v) && same(h->canon, v->kids[0])) || (is_neg(h->canon) && same(h->canon->kids[0], v)))
            minus = true;
        else
            continue;
        if (h->costly)
            c->shared++;
        Expr *x = ref(c, h->var, loc);
        return minus ? neg(c, x) : x;
    }
    return NULL;
}

/* A declaration `ty name = init;` before the current statement, holding
 * canonical value v. */
static Expr *hold(Cx *c, const char *name, Type *ty, Expr *init, Expr *v, Loc loc)
{
    Var *t = arena_alloc(c->a, sizeof *t);
    t->name = t->cname = name;
    t->ty = ty;
    t->kind = V_LOCAL;
    t->id = -1;
    t->depth = c->at->depth;
    t->loc = loc;
    Stmt *d = arena_alloc(c->a, sizeof *d);
    d->kind = S_DECL;
    d->loc = loc;
    d->end_line = loc.line;
    d->id = -1;
    d->depth = c->at->depth;
    d->var = t;
    d->rhs = init;
    t->decl = d;
    vec_push(c->a, &c->pending, d);
    vec_push(c->a, &c->decls, d);
    Avail *h = arena_alloc(c->a, sizeof *h);
    h->canon = v;
    h->var = t;
    h->costly = costly(v);
    vec_push(c->a, &c->avail, h);
    return ref(c, t, loc);
}

/* After statement s: the values that read what it writes are gone. */
static void kill(Cx *c, const Stmt *s)
{
    const Var *w = s->var;
    if (s->kind == S_ASSIGN) {
        const Expr *l = s->lhs;
        while (l->kind == E_FIELD)
            l = l->kids[0];
        w = l->var;
    }
    Vec *lists[2] = {&c->avail, &c->defs};
    for (int l = 0; l < 2; l++) {
        int k = 0;
        for (int i = 0; i < lists[l]->len; i++) {
            Avail *h = vec_at(lists[l], i);
            if (!w || (h->var != w && !reads(h->canon, w)))
                lists[l]->data[k++] = h;
        }
        lists[l]->len = k;
    }
}

/* After declaration s of a scalar: its value, for the canonical forms of
 * the statements after it. */
static void define(Cx *c, Stmt *s, Expr *init)
{
    Avail *d = arena_alloc(c->a, sizeof *d);
    d->var = s->var;
    d->canon = canon(c, same_ty(init->ty, s->var->ty) ? init : cast(c, s->var->ty, init));
    vec_push(c->a, &c->defs, d);
}

/* ---- inlining ------------------------------------------------------------------ */

static Expr *inl(Cx *c, Expr *e, bool cond);

/* f's expression e with its parameters and locals replaced by env. */
static Expr *subst(Cx *c, const Func *f, const Expr *e, Expr **env)
{
    if (e->kind == E_VAR) {
        for (int i = 0; i < f->nparams + f->nlocals; i++)
            if (e->var == (i < f->nparams ? f->params[i] : f->locals[i - f->nparams]))
                return ir_copy_expr(c->a, env[i]);
    }
    Expr *n = reshape(c, e);
    for (int i = 0; i < e->nkids; i++)
        n->kids[i] = subst(c, f, e->kids[i], env);
    return n;
}

static const char *temp_name(Cx *c, const Func *f, const Var *v)
{
    return v ? arena_printf(c->a, "gf_%s_%s", f->cname, decls_cname(c->a, v->name)) : arena_printf(c->a, "gf_%s", f->cname);
}

/* A value of f's: the variable that already holds it, itself when simple,
 * else a new declaration. */
static Expr *value(Cx *c, const Func *f, const Var *v, Type *ty, Expr *init, Loc loc)
{
    Expr *val = same_ty(init->ty, ty) ? init : cast(c, ty, init);
    Expr *cv = canon(c, val);
    Expr *x = find(c, cv, loc);
    if (x)
        return x;
    return simple(val) ? val : hold(c, temp_name(c, f, v), ty, init, cv, loc);
}

/* The call f(args...) inlined: what the call's value is now. */
static Expr *instance(Cx *c, const Func *f, Expr *call)
{
    c->depth++;
    c->inlined++;
    if (!c->line)
        c->line = call->loc.line;
    bool seen = false;
    for (int i = 0; i < c->names.len; i++)
        seen |= !strcmp(vec_at(&c->names, i), f->name);
    if (!seen)
        vec_push(c->a, &c->names, (void *)f->name);
    Expr **env = arena_alloc(c->a, sizeof(Expr *) * (size_t)(f->nparams + f->nlocals + 1));
    for (int i = 0; i < f->nparams; i++)
        env[i] = value(c, f, f->params[i], f->params[i]->ty, call->kids[i], call->loc);
    for (int i = 0; i < f->nlocals; i++) {
        Var *l = f->locals[i];
        env[f->nparams + i] = value(c, f, l, l->ty, inl(c, subst(c, f, f->inits[i], env), false), call->loc);
    }
    Expr *x = value(c, f, NULL, call->ty, inl(c, subst(c, f, f->ret, env), false), call->loc);
    c->depth--;
    return x;
}

/* e with the calls it evaluates unconditionally inlined (a new tree where
 * anything changed; e itself is never modified). */
static Expr *inl(Cx *c, Expr *e, bool cond)
{
    Expr *n = e;
    for (int i = 0; i < e->nkids; i++) {
        bool kc = cond || (e->kind == E_COND && i > 0) ||
                  (e->kind == E_BINARY && (e->op == OP_LAND || e->op == OP_LOR) && i == 1);
        Expr *k = inl(c, e->kids[i], kc);
        if (k != e->kids[i]) {
            if (n == e)
                n = reshape(c, e);
            n->kids[i] = k;
        }
    }
    const Func *f = e->callee;
    if (e->kind == E_CALL && f && f->ret && !cond && c->depth < MAX_INLINE_DEPTH && e->nkids == f->nparams)
        return instance(c, f, n);
    return n;
}

/* ---- blocks ------------------------------------------------------------------- */

static void block(Arena *a, Region *r, Stmt *b);

/* The new variables and declarations of a rewritten block, in the region's tables. */
static void commit(Cx *c)
{
    for (int i = 0; i < c->decls.len; i++) {
        Stmt *d = vec_at(&c->decls, i);
        ir_add_var(c->a, c->r, d->var);
        d->id = c->r->nstmts++;
        vec_push(c->a, &c->r->stmts, d);
    }
}

static void child(Arena *a, Region *r, Stmt **slot, Stmt *parent)
{
    Stmt *s = *slot;
    if (!s)
        return;
    if (s->kind != S_ASSIGN) {
        block(a, r, s);
        return;
    }
    /* a loop's or an if's single statement: rewritten in a block of its own */
    Stmt *w = ir_block_of(a, s, parent);
    block(a, r, w);
    if (w->list.len > 1)
        *slot = w;
    else
        s->parent = parent;
}

/* Rewrites block b's statements when they share work (see the top); the
 * statements inside its loops and ifs each in their own block. */
static void block(Arena *a, Region *r, Stmt *b)
{
    switch (b->kind) {
    case S_FOR:
    case S_WHILE: child(a, r, &b->body, b); return;
    case S_IF:
        child(a, r, &b->then, b);
        child(a, r, &b->els, b);
        return;
    case S_BLOCK: break;
    default: return;
    }
    Cx c = {.a = a, .r = r};
    Vec out = {0}, rewritten = {0}, values = {0};
    for (int i = 0; i < b->list.len; i++) {
        Stmt *s = vec_at(&b->list, i);
        if ((s->kind == S_DECL && s->rhs && !s->var->is_array) || s->kind == S_ASSIGN) {
            c.at = s;
            c.pending = (Vec){0};
            Expr *v = inl(&c, s->rhs, false);
            for (int j = 0; j < c.pending.len; j++)
                vec_push(a, &out, vec_at(&c.pending, j));
            if (v != s->rhs) {
                vec_push(a, &rewritten, s);
                vec_push(a, &values, v);
            }
            vec_push(a, &out, s);
            kill(&c, s);
            if (s->kind == S_DECL && type_is_arith(s->var->ty) && !type_is_complex(s->var->ty))
                define(&c, s, v);
            continue;
        }
        vec_push(a, &out, s);
        if (s->kind == S_DECL && !s->rhs && !s->var->is_array)
            continue;            /* `float t;`: a new scalar nothing reads yet */
        c.avail.len = c.defs.len = 0;
        block(a, r, s);
    }
    if (!c.shared)
        return;
    commit(&c);
    for (int i = 0; i < rewritten.len; i++)
        ((Stmt *)vec_at(&rewritten, i))->rhs = vec_at(&values, i);
    for (int i = 0; i < out.len; i++)
        ((Stmt *)vec_at(&out, i))->parent = b;
    b->list = out;
    Buf names = {0};
    for (int i = 0; i < c.names.len; i++)
        buf_printf(&names, "%s%s", i ? ", " : "", (const char *)vec_at(&c.names, i));
    vec_push(a, &r->notes, arena_printf(a, "line %d: %d call%s of %s inlined; %d value%s read from an earlier call "
                                        "instead of computed again (equal up to an exact negation)", c.line, c.inlined,
                                        c.inlined == 1 ? "" : "s", names.data, c.shared, c.shared == 1 ? "" : "s"));
    buf_free(&names);
}

static bool form_call(const Expr *e, const void *arg)
{
    (void)arg;
    return e->kind == E_CALL && e->callee && e->callee->ret;
}

void share_helpers(Unit *u, Region *r)
{
    if (ir_stmt_any(r->body, form_call, NULL))   /* else nothing to inline: no work */
        block(u->arena, r, r->body);
}
