/* inline.c - recomputing a cheap producer in its consumers (SPEC §2,
 * stencils): a nest that only fills a temporary,
 *
 *   for i: for j: t[i][j] = f(i, j);          (f cheap: a few reads and flops)
 *
 * whose values are read, later in the same block, at neighbouring or
 * shuffled indices (t[i][j-1], t[i+1][j], t[m-1-j]), is removed and each
 * read t[e0][e1] becomes f(e0, e1).  The temporary is then never written
 * nor allocated, the consumers no longer depend on another nest, and a
 * scratch array an outer loop refills each iteration stops serialising it.
 *
 * Legal when: t is a temporary written only by that statement and read only
 * by later statements of the same block; f reads no t, no local scalars,
 * only arrays that nothing from the producer to the last reader writes (so
 * f gives at the read what it gave at the producer), and indices of the
 * producer's loops or of loops around the block.  A read of t outside the
 * producer's domain would have read an element nothing wrote. */
#include "gfc.h"

#include <string.h>

#define MAX_DIMS 8
#define MAX_NODES 24             /* f: expression nodes */
#define MAX_ARRAY_READS 4        /* f: array elements it reads */
#define MAX_T_READS 9            /* reads of t to recompute (a 3x3 stencil) */

typedef struct Prod {
    Stmt *nest, *assign;
    Var *t;
    Var *ivs[MAX_DIMS];
    int d;
    Vec arrays;                  /* Var*: arrays f reads */
} Prod;

static Stmt *sole(Stmt *s)
{
    while (s && s->kind == S_BLOCK && s->list.len == 1)
        s = vec_at(&s->list, 0);
    return s;
}

/* f's shape: counts, and the variables it may read. */
typedef struct Shape {
    int nodes, arrays, calls;
    bool bad;
} Shape;

static bool is_iv_of(const Prod *p, const Var *v)
{
    for (int i = 0; i < p->d; i++)
        if (p->ivs[i] == v)
            return true;
    return false;
}

static void shape_of(Arena *a, Prod *p, const Expr *e, Shape *s)
{
    if (!e || s->bad)
        return;
    s->nodes++;
    switch (e->kind) {
    case E_VAR: {
        Var *v = e->var;
        /* loop indices (its own, or of loops around the block: the same
         * at the reads) and unmodified scalar parameters */
        if (v->kind == V_IV)
            break;
        if (v->kind == V_PARAM && !v->is_array && !v->scalar_written)
            break;
        s->bad = true;
        return;
    }
    case E_INDEX: {
        if (e->var == p->t || e->var->is_temp) {
            s->bad = true;
            return;
        }
        s->arrays++;
        bool seen = false;
        for (int i = 0; i < p->arrays.len; i++)
            if (vec_at(&p->arrays, i) == e->var)
                seen = true;
        if (!seen)
            vec_push(a, &p->arrays, e->var);
        break;
    }
    case E_CALL:
        if (e->callee) {         /* a helper: its cost is not known here */
            s->bad = true;
            return;
        }
        s->calls++;
        break;
    case E_SIZEOF:
    case E_INT:
    case E_FLOAT:
    case E_FIELD:
    case E_UNARY:
    case E_BINARY:
    case E_COND:
    case E_CAST: break;
    }
    for (int i = 0; i < e->nkids; i++)
        shape_of(a, p, e->kids[i], s);
}

/* The nest is `for ivs: t[ivs] = f` with f cheap. */
static bool producer(Arena *a, Stmt *nest, Prod *p)
{
    memset(p, 0, sizeof *p);
    Stmt *s = nest;
    while (s && s->kind == S_FOR) {
        if (p->d == MAX_DIMS || s->step != 1)
            return false;
        p->ivs[p->d++] = s->iv;
        s = sole(s->body);
    }
    if (!p->d || !s || s->kind != S_ASSIGN || s->op != OP_ASSIGN || s->lhs->kind != E_INDEX)
        return false;
    Var *t = s->lhs->var;
    if (!t->is_temp || t->ndims != p->d || s->lhs->nkids != p->d)
        return false;
    for (int k = 0; k < p->d; k++) {
        const Expr *x = s->lhs->kids[k];
        if (x->kind != E_VAR || x->var != p->ivs[k])
            return false;
    }
    p->nest = nest;
    p->assign = s;
    p->t = t;
    Shape sh = {0};
    shape_of(a, p, s->rhs, &sh);
    return !sh.bad && sh.nodes <= MAX_NODES && sh.arrays <= MAX_ARRAY_READS && sh.calls <= 2;
}

/* ---- uses of t and writes of f's arrays ----------------------------------------- */

typedef struct Use {
    const Prod *p;
    int reads, writes, bare;     /* of t */
    int shifted;                 /* reads not at plain loop indices (t[i-1], t[m-1-j]) */
    bool writes_inputs;          /* a store to an array f reads */
} Use;

static void use_expr(Use *u, const Expr *e)
{
    if (!e)
        return;
    if (e->kind == E_INDEX && e->var == u->p->t) {
        u->reads++;
        for (int i = 0; i < e->nkids; i++)
            if (e->kids[i]->kind != E_VAR || e->kids[i]->var->kind != V_IV) {
                u->shifted++;
                break;
            }
    }
    if (e->kind == E_VAR && e->var == u->p->t)
        u->bare++;               /* a library call's argument */
    for (int i = 0; i < e->nkids; i++)
        use_expr(u, e->kids[i]);
}

static bool writes_input(const Prod *p, const Var *v)
{
    for (int i = 0; i < p->arrays.len; i++)
        if (vec_at(&p->arrays, i) == v)
            return true;
    return false;
}

static void use_stmt(Use *u, const Stmt *s)
{
    if (!s)
        return;
    switch (s->kind) {
    case S_BLOCK:
        for (int i = 0; i < s->list.len; i++)
            use_stmt(u, vec_at(&s->list, i));
        return;
    case S_FOR:
        use_expr(u, s->lb);
        use_expr(u, s->ub);
        use_stmt(u, s->body);
        return;
    case S_WHILE:
        use_expr(u, s->cond);
        use_stmt(u, s->body);
        return;
    case S_IF:
        use_expr(u, s->cond);
        use_stmt(u, s->then);
        use_stmt(u, s->els);
        return;
    case S_DECL:
        use_expr(u, s->rhs);
        return;
    case S_ASSIGN: {
        const Expr *l = s->lhs->kind == E_FIELD ? s->lhs->kids[0] : s->lhs;
        if (l->kind == E_INDEX && l->var == u->p->t) {
            u->writes++;
            for (int i = 0; i < l->nkids; i++)
                use_expr(u, l->kids[i]);
            if (s->op != OP_ASSIGN)
                u->reads++;
        } else {
            if (l->kind == E_INDEX && writes_input(u->p, l->var))
                u->writes_inputs = true;
            use_expr(u, s->lhs);
        }
        use_expr(u, s->rhs);
        return;
    }
    case S_RETURN:
        use_expr(u, s->rhs);
        return;
    case S_LIB: {
        const char *roles = lib_builtin_roles(s->rhs->text);
        for (int i = 0; i < s->rhs->nkids; i++) {
            const Expr *x = s->rhs->kids[i];
            if (roles[i] == 'W' && x->kind == E_VAR && writes_input(u->p, x->var))
                u->writes_inputs = true;
        }
        use_expr(u, s->rhs);
        return;
    }
    case S_FREE: return;
    }
}

/* ---- the rewrite ------------------------------------------------------------------ */

static Expr *clone(Arena *a, const Expr *e, const Prod *p, Expr *const *repl)
{
    if (p && e->kind == E_VAR && is_iv_of(p, e->var)) {
        for (int k = 0; k < p->d; k++)
            if (p->ivs[k] == e->var)
                return clone(a, repl[k], NULL, NULL);
    }
    Expr *c = arena_alloc(a, sizeof *c);
    *c = *e;
    c->aff = NULL;               /* recomputed by the analyses */
    if (e->nkids) {
        c->kids = arena_alloc(a, sizeof(Expr *) * (size_t)e->nkids);
        for (int i = 0; i < e->nkids; i++)
            c->kids[i] = p ? clone(a, e->kids[i], p, repl) : clone(a, e->kids[i], NULL, NULL);
    }
    return c;
}

/* Every read t[e0]..[e_{d-1}] in e becomes f(e0, ..., e_{d-1}). */
static Expr *subst(Arena *a, Expr *e, const Prod *p)
{
    if (!e)
        return e;
    for (int i = 0; i < e->nkids; i++)
        e->kids[i] = subst(a, e->kids[i], p);
    if (e->kind != E_INDEX || e->var != p->t)
        return e;
    Expr *f = clone(a, p->assign->rhs, p, e->kids);
    if (e->ty && f->ty && f->ty->kind != e->ty->kind) {
        /* the element's type, as the store converted it */
        Expr *c = arena_alloc(a, sizeof *c);
        *c = (Expr){.kind = E_CAST, .ty = e->ty, .loc = e->loc, .nkids = 1};
        c->kids = arena_alloc(a, sizeof(Expr *));
        c->kids[0] = f;
        return c;
    }
    return f;
}

static void subst_stmt(Arena *a, Stmt *s, const Prod *p)
{
    if (!s)
        return;
    switch (s->kind) {
    case S_BLOCK:
        for (int i = 0; i < s->list.len; i++)
            subst_stmt(a, vec_at(&s->list, i), p);
        return;
    case S_FOR:
        s->lb = subst(a, s->lb, p);
        s->ub = subst(a, s->ub, p);
        subst_stmt(a, s->body, p);
        return;
    case S_WHILE:
        s->cond = subst(a, s->cond, p);
        subst_stmt(a, s->body, p);
        return;
    case S_IF:
        s->cond = subst(a, s->cond, p);
        subst_stmt(a, s->then, p);
        subst_stmt(a, s->els, p);
        return;
    case S_DECL:
    case S_RETURN:
    case S_LIB: s->rhs = subst(a, s->rhs, p); return;
    case S_ASSIGN:
        s->lhs = subst(a, s->lhs, p);
        s->rhs = subst(a, s->rhs, p);
        return;
    case S_FREE: return;
    }
}

/* Removes t's declaration and free from the whole body. */
static void drop_temp(Stmt *s, const Var *t)
{
    if (!s)
        return;
    if (s->kind == S_BLOCK) {
        int k = 0;
        for (int i = 0; i < s->list.len; i++) {
            Stmt *c = vec_at(&s->list, i);
            if ((c->kind == S_DECL || c->kind == S_FREE) && c->var == t)
                continue;
            drop_temp(c, t);
            s->list.data[k++] = c;
        }
        s->list.len = k;
        return;
    }
    if (s->kind == S_FOR || s->kind == S_WHILE)
        drop_temp(s->body, t);
    if (s->kind == S_IF) {
        drop_temp(s->then, t);
        drop_temp(s->els, t);
    }
}

static bool try_block(Unit *u, Region *r, Stmt *b)
{
    Arena *a = u->arena;
    for (int i = 0; i < b->list.len; i++) {
        Prod p;
        Stmt *nest = vec_at(&b->list, i);
        if (nest->kind != S_FOR || !producer(a, nest, &p))
            continue;
        /* t: written only here, read only after it in this block */
        Use all = {&p, 0, 0, 0, 0, false};
        use_stmt(&all, r->body);
        Use here = {&p, 0, 0, 0, 0, false};
        int last = -1;
        for (int j = i + 1; j < b->list.len; j++) {
            int before = here.reads;
            use_stmt(&here, vec_at(&b->list, j));
            if (here.reads > before)
                last = j;
        }
        /* reads at the producer's own point are vertical fusion's (the
         * value in a register, computed once) */
        if (all.writes != 1 || all.bare || last < 0 || here.reads != all.reads || here.writes ||
            all.reads > MAX_T_READS || !all.shifted)
            continue;
        /* f's inputs unchanged from the producer to the last read */
        Use span = {&p, 0, 0, 0, 0, false};
        for (int j = i + 1; j <= last; j++)
            use_stmt(&span, vec_at(&b->list, j));
        if (span.writes_inputs)
            continue;
        for (int j = i + 1; j <= last; j++)
            subst_stmt(a, vec_at(&b->list, j), &p);
        for (int j = i; j + 1 < b->list.len; j++)
            b->list.data[j] = b->list.data[j + 1];
        b->list.len--;
        drop_temp(r->body, p.t);
        p.t->decl = NULL;        /* never declared: nothing to allocate or free */
        vec_push(a, &r->notes, arena_printf(a, "line %d: the nest filling '%s' is recomputed where '%s' is read "
                                            "(%d read%s, lines %d-%d): '%s' is never stored",
                                            nest->loc.line, p.t->name, p.t->name, all.reads, all.reads == 1 ? "" : "s",
                                            ((Stmt *)vec_at(&b->list, i))->loc.line,
                                            ((Stmt *)vec_at(&b->list, last - 1))->end_line, p.t->name));
        return true;
    }
    for (int i = 0; i < b->list.len; i++) {
        Stmt *s = vec_at(&b->list, i);
        Stmt *inner = s->kind == S_FOR || s->kind == S_WHILE ? s->body : s->kind == S_BLOCK ? s : NULL;
        if (inner && inner->kind == S_BLOCK && try_block(u, r, inner))
            return true;
    }
    return false;
}

void inline_producers(Unit *u, Region *r)
{
    /* one at a time: each rewrite changes what the next one may see */
    for (int n = 0; n < 16 && try_block(u, r, r->body); n++)
        ;
}
