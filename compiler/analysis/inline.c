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

typedef struct ShapeCx {
    IrVisitor v;
    Arena *a;
    Prod *p;
    Shape *s;
} ShapeCx;

static Expr *shape_node(IrVisitor *v, Expr *e, Stmt *owner)
{
    (void)owner;
    ShapeCx *c = (ShapeCx *)v;
    Shape *s = c->s;
    s->nodes++;
    if (e->kind == E_VAR) {
        Var *x = e->var;
        /* loop indices (its own, or of loops around the block: the same
         * at the reads) and unmodified scalar parameters */
        if (x->kind != V_IV && (x->kind != V_PARAM || x->is_array || x->scalar_written))
            s->bad = true;
    } else if (e->kind == E_INDEX) {
        if (e->var == c->p->t || e->var->is_temp) {
            s->bad = true;
        } else {
            s->arrays++;
            bool seen = false;
            for (int i = 0; i < c->p->arrays.len; i++)
                if (vec_at(&c->p->arrays, i) == e->var)
                    seen = true;
            if (!seen)
                vec_push(c->a, &c->p->arrays, e->var);
        }
    } else if (e->kind == E_CALL) {
        if (e->callee)           /* a helper: its cost is not known here */
            s->bad = true;
        else
            s->calls++;
    }
    v->done = s->bad;
    return e;
}

static void shape_of(Arena *a, Prod *p, Expr *e, Shape *s)
{
    ShapeCx c = {{.expr = shape_node}, a, p, s};
    ir_visit_expr(&c.v, e, NULL);
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

static bool writes_input(const Prod *p, const Var *v)
{
    for (int i = 0; i < p->arrays.len; i++)
        if (vec_at(&p->arrays, i) == v)
            return true;
    return false;
}

typedef struct UseCx {
    IrVisitor v;
    Use *u;
} UseCx;

/* The element of t an assignment stores to (t[...] or t[...].field). */
static bool is_t_target(const Use *u, const Stmt *s, const Expr *e)
{
    if (s->kind != S_ASSIGN)
        return false;
    const Expr *l = s->lhs->kind == E_FIELD ? s->lhs->kids[0] : s->lhs;
    return l == e && l->kind == E_INDEX && l->var == u->p->t;
}

static bool use_stmt(IrVisitor *v, Stmt *s)
{
    Use *u = ((UseCx *)v)->u;
    if (s->kind == S_ASSIGN) {
        const Expr *l = s->lhs->kind == E_FIELD ? s->lhs->kids[0] : s->lhs;
        if (is_t_target(u, s, l)) {
            u->writes++;
            if (s->op != OP_ASSIGN)
                u->reads++;
        } else if (l->kind == E_INDEX && writes_input(u->p, l->var)) {
            u->writes_inputs = true;
        }
    }
    if (s->kind == S_LIB) {
        const char *roles = lib_builtin_roles(s->rhs->text);
        for (int i = 0; i < s->rhs->nkids; i++) {
            const Expr *x = s->rhs->kids[i];
            if (roles[i] == 'W' && x->kind == E_VAR && writes_input(u->p, x->var))
                u->writes_inputs = true;
        }
    }
    return true;
}

static Expr *use_expr(IrVisitor *v, Expr *e, Stmt *owner)
{
    Use *u = ((UseCx *)v)->u;
    if (e->kind == E_INDEX && e->var == u->p->t && !is_t_target(u, owner, e)) {
        u->reads++;
        for (int i = 0; i < e->nkids; i++)
            if (e->kids[i]->kind != E_VAR || e->kids[i]->var->kind != V_IV) {
                u->shifted++;
                break;
            }
    }
    if (e->kind == E_VAR && e->var == u->p->t)
        u->bare++;               /* a library call's argument */
    return e;
}

/* Counts the uses of t under s, and notes stores to f's arrays. */
static void uses_in(Use *u, Stmt *s)
{
    UseCx c = {{.stmt = use_stmt, .expr = use_expr}, u};
    ir_visit_stmt(&c.v, s);
}

/* ---- the rewrite ------------------------------------------------------------------ */

typedef struct Subst {
    IrVisitor v;
    Arena *a;
    const Prod *p;
    Expr *const *at;             /* recompute: the subscripts of the read */
} Subst;

/* In a copy of f: each index of the producer's loops becomes the read's subscript. */
static Expr *at_read(IrVisitor *v, Expr *e, Stmt *owner)
{
    (void)owner;
    Subst *c = (Subst *)v;
    if (e->kind == E_VAR)
        for (int k = 0; k < c->p->d; k++)
            if (c->p->ivs[k] == e->var)
                return ir_copy_expr(c->a, c->at[k]);
    return e;
}

/* f(e0, ..., e_{d-1}) for the read t[e0]..[e_{d-1}]. */
static Expr *recompute(Arena *a, const Prod *p, Expr *const *at)
{
    Subst c = {{.expr = at_read}, a, p, at};
    return ir_visit_expr(&c.v, ir_copy_expr(a, p->assign->rhs), NULL);
}

/* After its subscripts: a read t[e0]..[e_{d-1}] becomes f(e0, ..., e_{d-1}). */
static Expr *subst(IrVisitor *v, Expr *e, Stmt *owner)
{
    (void)owner;
    Subst *c = (Subst *)v;
    if (e->kind != E_INDEX || e->var != c->p->t)
        return e;
    Expr *f = recompute(c->a, c->p, e->kids);
    if (e->ty && f->ty && (f->ty->kind != e->ty->kind || type_is_half(e->ty))) {
        /* the element's type, as the store converted it (a _Float16 value
         * computed in float is rounded by the store) */
        Expr *x = arena_alloc(c->a, sizeof *x);
        *x = (Expr){.kind = E_CAST, .ty = e->ty, .loc = e->loc, .nkids = 1};
        x->kids = arena_alloc(c->a, sizeof(Expr *));
        x->kids[0] = f;
        return x;
    }
    return f;
}

static void subst_stmt(Arena *a, Stmt *s, const Prod *p)
{
    Subst c = {{.expr_after = subst}, a, p, NULL};
    ir_visit_stmt(&c.v, s);
}

/* A producer of block b recomputed at its reads. */
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
        uses_in(&all, r->body);
        Use here = {&p, 0, 0, 0, 0, false};
        int last = -1;
        for (int j = i + 1; j < b->list.len; j++) {
            int before = here.reads;
            uses_in(&here, vec_at(&b->list, j));
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
            uses_in(&span, vec_at(&b->list, j));
        if (span.writes_inputs)
            continue;
        for (int j = i + 1; j <= last; j++)
            subst_stmt(a, vec_at(&b->list, j), &p);
        for (int j = i; j + 1 < b->list.len; j++)
            b->list.data[j] = b->list.data[j + 1];
        b->list.len--;
        ir_take_decl(r->body, p.t);
        p.t->decl = NULL;        /* never declared: nothing to allocate or free */
        vec_push(a, &r->notes, arena_printf(a, "line %d: the nest filling '%s' is recomputed where '%s' is read "
                                            "(%d read%s, lines %d-%d): '%s' is never stored",
                                            nest->loc.line, p.t->name, p.t->name, all.reads, all.reads == 1 ? "" : "s",
                                            ((Stmt *)vec_at(&b->list, i))->loc.line,
                                            ((Stmt *)vec_at(&b->list, last - 1))->end_line, p.t->name));
        return true;
    }
    return false;
}

typedef struct Blocks {
    IrVisitor v;
    Unit *u;
    Region *r;
} Blocks;

/* The blocks reached through blocks and loop bodies that are blocks, each
 * before the blocks inside it. */
static bool try_at(IrVisitor *v, Stmt *s)
{
    Blocks *c = (Blocks *)v;
    if (s->kind == S_BLOCK) {
        v->done = try_block(c->u, c->r, s);
        return true;
    }
    return (s->kind == S_FOR || s->kind == S_WHILE) && s->body && s->body->kind == S_BLOCK;
}

static bool inline_once(Unit *u, Region *r)
{
    Blocks c = {{.stmt = try_at}, u, r};
    ir_visit_stmt(&c.v, r->body);
    return c.v.done;
}

void inline_producers(Unit *u, Region *r)
{
    /* one at a time: each rewrite changes what the next one may see */
    for (int n = 0; n < 16 && inline_once(u, r); n++)
        ;
}
