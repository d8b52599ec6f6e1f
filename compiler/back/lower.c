/* lower.c - the CUDA back end's decisions, before any text: each kernel's
 * shape (lower.h's Shape) and what its printers need — what it uses, which
 * loop maps to threads, the launch geometry, rows and values in registers.
 * Requires the plan (fuse.c) and args_plan's facts; reads them, writes nothing back. */
#include "lower.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const char *const shape_names[SH_COUNT] = {
#define GF_SHAPE_NAME(e, name, what) name,
    GF_SHAPES(GF_SHAPE_NAME)
#undef GF_SHAPE_NAME
};

#define in(v, x) vec_has(v, x)

typedef struct LowCx {
    Arena *a;
    Kernel *k;
    KernelLow *kl;
} LowCx;

static Arena *A(LowCx *c)
{
    return c->a;
}

long long lower_row_offset(const Expr *e, const Var *iv, bool *ok)
{
    *ok = false;
    if (!e->aff || !e->aff[0])
        return 0;
    const Aff *f = e->aff[0];
    if (f->nterms != 1 || f->terms[0].var != iv || f->terms[0].coef != 1)
        return 0;
    *ok = true;
    return f->c;
}

/* ---- what a kernel uses ------------------------------------------------------------ */

typedef struct UsesCx {
    IrVisitor v;
    Arena *a;
    Uses *u;
} UsesCx;

static void add_once(Arena *a, Vec *v, Var *x)
{
    if (!in(v, x))
        vec_push(a, v, x);
}

static Expr *uses_expr_cb(IrVisitor *v, Expr *e, Stmt *owner)
{
    UsesCx *c = (UsesCx *)v;
    if (owner && e == owner->brk)
        return e;                /* a loop's break flag: declared with it */
    if (owner && owner->kind == S_ASSIGN && e == owner->lhs) {
        const Expr *l = e->kind == E_FIELD ? e->kids[0] : e;
        if (l->kind == E_INDEX) {
            add_once(c->a, &c->u->arrays, l->var);
            add_once(c->a, &c->u->stored, l->var);
            if (owner->op == OP_ASSIGN && e->kind != E_FIELD)
                return e;        /* the target of a plain store is not a load; its subscripts are */
        }
    }
    if (e->kind == E_INDEX) {
        add_once(c->a, &c->u->arrays, e->var);
        add_once(c->a, &c->u->loaded, e->var);
    }
    if (e->kind == E_VAR)
        add_once(c->a, &c->u->scalars, e->var);
    return e;
}

static bool uses_stmt_cb(IrVisitor *v, Stmt *s)
{
    UsesCx *c = (UsesCx *)v;
    if (s->kind == S_LIB)
        return false;            /* never in a kernel */
    if (s->kind == S_FOR)
        vec_push(c->a, &c->u->declared, s->iv);
    if (s->kind == S_DECL) {
        vec_push(c->a, &c->u->declared, s->var);
        ir_visit_expr(v, s->rhs, s);
        v->skip = true;          /* not the sizes of an array it declares */
    }
    return true;
}

static void uses_expr(Arena *a, Uses *u, const Expr *e)
{
    UsesCx c = {{.expr = uses_expr_cb}, a, u};
    ir_visit_expr(&c.v, (Expr *)e, NULL);
}

static void uses_stmt(Arena *a, Uses *u, const Stmt *s)
{
    UsesCx c = {{.stmt = uses_stmt_cb, .expr = uses_expr_cb}, a, u};
    ir_visit_stmt(&c.v, (Stmt *)s);
}

/* Free scalars of a kernel: everything it reads that it does not declare,
 * minus reduction accumulators (passed as <name>_init). Arrays: all it touches,
 * plus the dimension parameters their indexing needs. */
static void kernel_uses(LowCx *c, Kernel *k, Uses *u)
{
    memset(u, 0, sizeof *u);
    for (int i = 0; i < k->dev_prelude.len; i++)
        uses_stmt(A(c), u, vec_at(&k->dev_prelude, i));
    for (int i = 0; c->kl->absorbed && i < c->kl->absorbed->nests.len; i++)
        uses_stmt(A(c), u, vec_at(&c->kl->absorbed->nests, i));
    for (int i = 0; i < k->dev_in.len; i++)
        if (!in(&u->scalars, vec_at(&k->dev_in, i)))
            vec_push(A(c), &u->scalars, vec_at(&k->dev_in, i));
    for (int i = 0; i < k->nests.len; i++)
        uses_stmt(A(c), u, vec_at(&k->nests, i));
    for (int i = 0; i < u->arrays.len; i++) {
        Var *v = vec_at(&u->arrays, i);
        for (int d = 1; d < v->ndims; d++)
            uses_expr(A(c), u, v->dims[d]);
    }
    Vec keep = {0};
    for (int i = 0; i < u->scalars.len; i++) {
        Var *v = vec_at(&u->scalars, i);
        if (in(&u->declared, v) || in(&k->red_vars, v))
            continue;
        vec_push(A(c), &keep, v);
    }
    u->scalars = keep;
    /* arrays private to each iteration are declared in the kernel, tables
     * are in the file (decls_table): not arguments, not memory the kernel
     * shares */
    Vec *lists[3] = {&u->arrays, &u->loaded, &u->stored};
    for (int l = 0; l < 3; l++) {
        int n = 0;
        for (int i = 0; i < lists[l]->len; i++)
            if (!((Var *)vec_at(lists[l], i))->is_private && ((Var *)vec_at(lists[l], i))->kind != V_TABLE)
                lists[l]->data[n++] = lists[l]->data[i];
        lists[l]->len = n;
    }
}

bool lower_reg_temp(const Kernel *k, const Var *v)
{
    return k && in(&k->reg_temps, v);
}

RedOp lower_red_of(const Kernel *k, const Var *v)
{
    for (int i = 0; i < k->reds.len; i++) {
        Stmt *s = vec_at(&k->reds, i);
        if (s->red_var == v)
            return s->red;
    }
    unreachable();
}

/* The atomic a reduction finishes with under --atomic-reductions: only
 * operators whose identity is all-zero bits (the launcher zeroes the result
 * with one memset) on types CUDA has the atomic for; NULL otherwise. */
const char *lower_atomic_fn(RedOp op, const Type *t)
{
    bool word = t->kind == TY_INT || t->kind == TY_UINT || t->kind == TY_LONG || t->kind == TY_ULONG ||
                t->kind == TY_LLONG || t->kind == TY_ULLONG;
    switch (op) {
    case RED_ADD: return word || t->kind == TY_FLOAT || t->kind == TY_DOUBLE ? "gf_atomic_add" : NULL;
    case RED_BOR: return word ? "gf_atomic_or" : NULL;
    case RED_BXOR: return word ? "gf_atomic_xor" : NULL;
    default: return NULL;
    }
}

/* Under --atomic-reductions, whether every accumulator of k can finish with an atomic. */
bool lower_red_atomic(const Kernel *k, bool atomic_reductions)
{
    if (!atomic_reductions || !k->red_vars.len)
        return false;
    for (int i = 0; i < k->red_vars.len; i++) {
        Var *v = vec_at(&k->red_vars, i);
        if (!lower_atomic_fn(lower_red_of(k, v), v->ty))
            return false;
    }
    return true;
}

/* Whether s stores to array v; with only_cond, only a store under an if or
 * a loop counts (a statement of s, s itself included, around it). */
typedef struct StoreCx {
    IrVisitor v;
    const Var *var;
    bool only_cond;
} StoreCx;

static bool store_stmt(IrVisitor *v, Stmt *s)
{
    StoreCx *c = (StoreCx *)v;
    if (s->kind != S_ASSIGN)
        return true;
    bool under = false;
    for (const IrFrame *f = v->up; f; f = f->up)
        under |= f->s->kind != S_BLOCK;
    const Expr *l = s->lhs->kind == E_FIELD ? s->lhs->kids[0] : s->lhs;
    if ((under || !c->only_cond) && l->kind == E_INDEX && l->var == c->var)
        v->done = true;
    return true;
}

static bool find_store(const Stmt *s, const Var *v, bool only_cond)
{
    StoreCx c = {{.stmt = store_stmt}, v, only_cond};
    ir_visit_stmt(&c.v, (Stmt *)s);
    return c.v.done;
}

static bool stores_to(const Stmt *s, const Var *v)
{
    return find_store(s, v, false);
}

static bool stored_conditionally(Kernel *k, Var *v)
{
    for (int i = 0; i < k->nests.len; i++)
        if (find_store(nest_inner_body(vec_at(&k->nests, i), k->pdims), v, true))
            return true;
    return false;
}

bool lower_reads_var(const Expr *e, const Var *v)
{
    if (!e)
        return false;
    if ((e->kind == E_INDEX || e->kind == E_VAR) && e->var == v)
        return true;
    for (int i = 0; i < e->nkids; i++)
        if (lower_reads_var(e->kids[i], v))
            return true;
    return false;
}

/* ---- row windows of 2-D maps (SH_GRID) ------------------------------------------------ */

/* Loads that always happen (not under if, ?:, && or ||, nor in inner loops). */
static void rot_expr(LowCx *c, Kernel *k, Uses *u, const Expr *e)
{
    if (!e)
        return;
    if (e->kind == E_COND) {
        rot_expr(c, k, u, e->kids[0]);
        return;
    }
    if (e->kind == E_BINARY && (e->op == OP_LAND || e->op == OP_LOR)) {
        rot_expr(c, k, u, e->kids[0]);
        return;
    }
    if (e->kind == E_INDEX && e->nkids == 2 && e->var->ndims == 2 && !in(&u->stored, e->var) &&
        !e->var->is_private && !lower_reg_temp(k, e->var) && !lower_reads_var(e->kids[1], k->loops[0]->iv)) {
        bool ok;
        long long off = lower_row_offset(e, k->loops[0]->iv, &ok);
        if (ok) {
            Rot *r = NULL;
            for (int i = 0; i < c->kl->rots.len; i++) {
                Rot *x = vec_at(&c->kl->rots, i);
                if (x->v == e->var && expr_equal(x->col, e->kids[1]))
                    r = x;
            }
            if (!r) {
                r = arena_alloc(A(c), sizeof *r);
                r->v = e->var;
                r->col = e->kids[1];
                r->lo = r->hi = off;
                r->id = c->kl->rots.len;
                vec_push(A(c), &c->kl->rots, r);
            }
            r->lo = off < r->lo ? off : r->lo;
            r->hi = off > r->hi ? off : r->hi;
        }
    }
    for (int i = 0; i < e->nkids; i++)
        rot_expr(c, k, u, e->kids[i]);
}

typedef struct RotCx {
    IrVisitor v;
    LowCx *c;
    Kernel *k;
    Uses *u;
} RotCx;

/* A statement's loads that always happen: not in its branches or loops. */
static bool rot_stmt(IrVisitor *v, Stmt *s)
{
    RotCx *r = (RotCx *)v;
    if (s->kind == S_DECL || s->kind == S_ASSIGN) {
        rot_expr(r->c, r->k, r->u, s->rhs);
        if (s->kind == S_ASSIGN && s->lhs->kind == E_INDEX)
            for (int i = 0; i < s->lhs->nkids; i++)
                rot_expr(r->c, r->k, r->u, s->lhs->kids[i]);
    }
    if (s->kind == S_IF)
        rot_expr(r->c, r->k, r->u, s->cond);
    return s->kind == S_BLOCK;
}

static void rot_stmts(LowCx *c, Kernel *k, Uses *u, const Stmt *s)
{
    RotCx r = {{.stmt = rot_stmt}, c, k, u};
    ir_visit_stmt(&r.v, (Stmt *)s);
}

/* The x loop starts at a small constant c: the grid starts at c % 32 below
 * it so that warps read aligned 128-byte lines. */
static int inner_skew(const Stmt *l)
{
    long long v;
    char *end;
    if (l->step != 1 || l->lb->kind != E_INT)
        return 0;
    v = strtoll(l->lb->text, &end, 0);
    if (*end || v <= 0)
        return 0;
    return (int)(v % 32);
}

/* ---- the grid's x loop (SH_GRID) -------------------------------------------------
 * Threads next to each other in x touch elements next to each other when x
 * runs over the loop the last subscript moves with at stride 1: the nest's
 * innermost loop as written, unless more accesses move with another
 * parallel loop (gramschmidt's update `for j { for i A[i][j] -= Q[i][k] *
 * R[k][j]; }`: x over j, else every warp's access 32 transactions).  The
 * kernel's parallel loops are rectangular (fuse.c) and carry nothing, so
 * any order is legal. */

typedef struct GridX {
    IrVisitor v;
    const Kernel *k;
    int score[3];
} GridX;

static Expr *grid_x_expr(IrVisitor *v, Expr *e, Stmt *owner)
{
    (void)owner;
    GridX *g = (GridX *)v;
    if (e->kind != E_INDEX || !e->aff || !e->nkids || !e->aff[e->nkids - 1])
        return e;
    for (int d = 0; d < g->k->pdims; d++) {
        long long c = aff_coef(e->aff[e->nkids - 1], g->k->loops[d]->iv) * g->k->loops[d]->step;
        if (c == 1 || c == -1)
            g->score[d]++;
    }
    return e;
}

int lower_grid_x(const Kernel *k)
{
    int x = k->pdims - 1;
    if (k->pdims < 2)
        return x;
    GridX g = {{.expr = grid_x_expr}, k, {0}};
    for (int i = 0; i < k->nests.len; i++)
        ir_visit_stmt(&g.v, nest_inner_body(vec_at(&k->nests, i), k->pdims));
    for (int d = 0; d < k->pdims; d++)
        if (g.score[d] > g.score[x])
            x = d;
    return x;
}

/* ---- row kernels (SH_ROW) ------------------------------------------------------------------
 * Row-level statements: every thread computes the same scalars; stores to
 * arrays are done once.  Inner loops are shared by the group. */

/* The reduction updates of a statement tree (through blocks, ifs and for
 * loops; not while loops), in order. */
typedef struct RedSink {
    Arena *a;
    Vec *out;                    /* Stmt* */
} RedSink;

static IrFind red_update(const Stmt *s, const void *arg)
{
    const RedSink *k = arg;
    if (s->kind == S_WHILE)
        return IR_SKIP;
    if (s->kind == S_ASSIGN && s->red)
        vec_push(k->a, k->out, (void *)s);
    return IR_NEXT;
}

static void row_reds_of(LowCx *c, Stmt *loop, Vec *out)
{
    /* accumulators reduced by this coop loop: row scalars, the last
     * update first */
    Vec ups = {0};
    RedSink k = {A(c), &ups};
    ir_stmt_find(loop->body, red_update, &k);
    for (int i = ups.len - 1; i >= 0; i--) {
        Stmt *s = vec_at(&ups, i);
        if (s->red_var->depth <= loop->depth && !in(out, s->red_var))
            vec_push(A(c), out, s->red_var);
    }
}

static IrFind red_of(const Stmt *s, const void *v)
{
    if (s->kind == S_WHILE)
        return IR_SKIP;
    return s->kind == S_ASSIGN && s->red_var == v && s->red ? IR_FOUND : IR_NEXT;
}

/* The reduction of v in loop (through blocks, ifs and for loops). */
static RedOp red_in_loop(Stmt *loop, Var *v)
{
    Stmt *s = ir_stmt_find(loop, red_of, v);
    return s ? s->red : RED_NONE;
}

/* Whether s reads array v (a plain store's target is not a read): its
 * bounds, conditions and values, not a library call's operands nor the sizes
 * of an array it declares. */
typedef struct ReadsCx {
    IrVisitor v;
    const Var *var;
} ReadsCx;

static bool assign_reads_array(const Stmt *s, const Var *v)
{
    if (lower_reads_var(s->rhs, v))
        return true;
    const Expr *l = s->lhs->kind == E_FIELD ? s->lhs->kids[0] : s->lhs;
    if (l->kind != E_INDEX)
        return false;
    if (l->var == v && s->op != OP_ASSIGN)
        return true;
    for (int i = 0; i < l->nkids; i++)
        if (lower_reads_var(l->kids[i], v))
            return true;
    return false;
}

static bool reads_stmt(IrVisitor *v, Stmt *s)
{
    ReadsCx *c = (ReadsCx *)v;
    if (s->kind == S_ASSIGN || s->kind == S_DECL)
        v->done = s->kind == S_ASSIGN ? assign_reads_array(s, c->var) : lower_reads_var(s->rhs, c->var);
    return s->kind != S_ASSIGN && s->kind != S_DECL && s->kind != S_LIB;
}

static Expr *reads_expr(IrVisitor *v, Expr *e, Stmt *owner)
{
    ReadsCx *c = (ReadsCx *)v;
    if (owner && e == owner->brk)
        return e;
    if ((e->kind == E_INDEX || e->kind == E_VAR) && e->var == c->var)
        v->done = true;
    return e;
}

static bool stmt_reads_array(const Stmt *s, const Var *v)
{
    ReadsCx c = {{.stmt = reads_stmt, .expr = reads_expr}, v};
    ir_visit_stmt(&c.v, (Stmt *)s);
    return c.v.done;
}

/* y[row][j] = ... at the top of the loop body, y float, written once and not
 * read in the loop: buffered per thread and written 16 bytes at a time. */
static void row_vec_stores(LowCx *c, Stmt *l, Vec *out)
{
    Stmt *body = l->body;
    Stmt *one[1] = {body};
    Stmt **list = body->kind == S_BLOCK ? (Stmt **)body->list.data : one;
    int n = body->kind == S_BLOCK ? body->list.len : 1;
    Var *row = ((Stmt *)vec_at(&c->k->nests, 0))->iv;
    for (int i = 0; i < n; i++) {
        Stmt *s = list[i];
        if (s->kind != S_ASSIGN || s->op != OP_ASSIGN || s->lhs->kind != E_INDEX)
            continue;
        Expr *x = s->lhs;
        Var *v = x->var;
        if (x->nkids != 2 || v->is_private || type_elem(v->ty)->kind != TY_FLOAT || !v->dims[1] || in(out, v))
            continue;
        if (x->kids[0]->kind != E_VAR || x->kids[0]->var != row || x->kids[1]->kind != E_VAR ||
            x->kids[1]->var != l->iv)
            continue;
        int stores = 0;
        for (int j = 0; j < n; j++)
            if (stores_to(list[j], v))
                stores++;
        if (stores == 1 && !stmt_reads_array(body, v))
            vec_push(A(c), out, v);
    }
}

/* Reads of a float array the kernel does not store, at [j] or [row][j]
 * (j the loop's index), that every iteration of the loop makes: in a
 * statement of the body's top level, not under ?:, && or ||.  The 4-wide
 * form loads the group's 4 consecutive elements in one 16-byte load (where
 * the address is aligned) and the statements read them from registers
 * (layernorm's gamma[j] and beta[j]); an element outside [0, ub) is never
 * read, as the loop reads each element it loads. */
typedef struct VloadCx {
    LowCx *c;
    Stmt *loop;
    Vec *out;
} VloadCx;

static void row_vec_load(VloadCx *vc, const Expr *e)
{
    LowCx *c = vc->c;
    if (e->kind == E_COND) {
        row_vec_load(vc, e->kids[0]);   /* only the condition is always evaluated */
        return;
    }
    if (e->kind == E_BINARY && (e->op == OP_LAND || e->op == OP_LOR)) {
        row_vec_load(vc, e->kids[0]);
        return;
    }
    for (int i = 0; i < e->nkids; i++)
        row_vec_load(vc, e->kids[i]);
    if (e->kind != E_INDEX)
        return;
    Var *v = e->var, *row = ((Stmt *)vec_at(&c->k->nests, 0))->iv;
    if (v->is_private || v->kind == V_TABLE || type_elem(v->ty)->kind != TY_FLOAT || in(&c->kl->cached, v) || in(&c->kl->uses.stored, v) ||
        lower_reg_temp(c->k, v))
        return;
    const Expr *last = e->kids[e->nkids - 1];
    if (last->kind != E_VAR || last->var != vc->loop->iv)
        return;
    if (e->nkids == 2 && (e->kids[0]->kind != E_VAR || e->kids[0]->var != row || !v->dims[1]))
        return;
    if (e->nkids > 2)
        return;
    for (int i = 0; i < vc->out->len; i++)
        if (expr_equal(vec_at(vc->out, i), e))
            return;
    vec_push(A(c), vc->out, (void *)e);
}

static void row_vec_loads(LowCx *c, Stmt *l, Vec *out)
{
    Stmt *body = l->body;
    Stmt *one[1] = {body};
    Stmt **list = body->kind == S_BLOCK ? (Stmt **)body->list.data : one;
    int n = body->kind == S_BLOCK ? body->list.len : 1;
    VloadCx vc = {c, l, out};
    for (int i = 0; i < n; i++) {
        Stmt *s = list[i];
        if (s->kind == S_ASSIGN) {
            row_vec_load(&vc, s->rhs);
            if (s->lhs->kind == E_INDEX)
                for (int k = 0; k < s->lhs->nkids; k++)
                    row_vec_load(&vc, s->lhs->kids[k]);
        } else if (s->kind == S_DECL && s->rhs) {
            row_vec_load(&vc, s->rhs);
        }
    }
}

/* Whether an expression reads an array that `loop` stores to. */
static bool reads_store_of(const Expr *e, const void *loop)
{
    return e->kind == E_INDEX && stores_to(loop, e->var);
}

static bool reads_any_store(const Stmt *t, const Stmt *loop)
{
    return ir_stmt_any(t, reads_store_of, loop);
}

/* A barrier after an inner loop is needed only when a later statement of
 * the row reads what the loop stored (another thread may have stored it). */
static bool later_reads_written(const Stmt *loop)
{
    const Stmt *blk = loop->parent;
    if (!blk || blk->kind != S_BLOCK)
        return true;
    bool after = false;
    for (int i = 0; i < blk->list.len; i++) {
        const Stmt *t = vec_at(&blk->list, i);
        if (t == loop)
            after = true;
        else if (after && reads_any_store(t, loop))
            return true;
    }
    return false;
}

/* Arrays the row reads at [row][coop index] in every inner loop, never written. */
static void find_cacheable(LowCx *c, Kernel *k, Uses *u)
{
    Stmt *nest = vec_at(&k->nests, 0);
    for (int i = 0; i < u->arrays.len; i++) {
        Var *v = vec_at(&u->arrays, i);
        if (v->written || v->ndims != 2 || type_elem(v->ty)->kind == TY_STRUCT)
            continue;
        vec_push(A(c), &c->kl->cached, v);
    }
    /* every access must be v[i][j] with j the index of its inner loop, and
     * every inner loop must have the same bounds (one mapping of j to threads) */
    Stmt *body = nest->body;
    Stmt *first = NULL;
    Vec keep = {0};
    for (int ci = 0; ci < c->kl->cached.len; ci++) {
        Var *v = vec_at(&c->kl->cached, ci);
        bool ok = true;
        for (int i = 0; i < body->list.len && ok; i++) {
            Stmt *s = vec_at(&body->list, i);
            if (s->kind != S_FOR) {
                if (s->kind == S_DECL ? lower_reads_var(s->rhs, v) : s->kind == S_ASSIGN &&
                    (lower_reads_var(s->rhs, v) || lower_reads_var(s->lhs, v)))
                    ok = false;
                continue;
            }
            if (!first)
                first = s;
            else if (!expr_equal(s->lb, first->lb) || !expr_equal(s->ub, first->ub) || s->step != first->step)
                ok = false;
        }
        /* the subscripts: checked cheaply by walking the statements */
        if (ok)
            vec_push(A(c), &keep, v);
    }
    c->kl->cached = keep;
}

/* Whether every access to v in s is [row_iv][coop_iv] (NULL: whether s has
 * none): in conditions, declarations' values and assignments, not in loop
 * bounds, returns or the sizes of declared arrays. */
typedef struct CachedCx {
    IrVisitor v;
    Var *var, *row_iv, *coop_iv;
} CachedCx;

static bool stmt_cached_ok(const Stmt *s, Var *v, Var *row_iv, Var *coop_iv);

static bool cached_stmt(IrVisitor *v, Stmt *s)
{
    CachedCx *c = (CachedCx *)v;
    if (s->kind == S_RETURN || s->kind == S_LIB || s->kind == S_FREE)
        return false;
    if (s->kind == S_DECL) {
        ir_visit_expr(v, s->rhs, s);
        v->skip = true;          /* not the sizes of an array it declares */
    }
    if (s->kind == S_FOR) {
        /* deeper loops: their own index would not match the cache slot */
        if (!lower_reads_var(s->lb, c->var) && !lower_reads_var(s->ub, c->var) &&
            !stmt_cached_ok(s->body, c->var, NULL, NULL))
            v->done = true;
        v->skip = true;
    }
    return true;
}

static Expr *cached_expr(IrVisitor *v, Expr *e, Stmt *owner)
{
    (void)owner;
    CachedCx *c = (CachedCx *)v;
    if (e->kind == E_INDEX && e->var == c->var &&
        (e->nkids != 2 || e->kids[0]->kind != E_VAR || e->kids[0]->var != c->row_iv ||
         e->kids[1]->kind != E_VAR || e->kids[1]->var != c->coop_iv))
        v->done = true;
    return e;
}

static bool stmt_cached_ok(const Stmt *s, Var *v, Var *row_iv, Var *coop_iv)
{
    CachedCx c = {{.stmt = cached_stmt, .expr = cached_expr}, v, row_iv, coop_iv};
    ir_visit_stmt(&c.v, (Stmt *)s);
    return !c.v.done;
}

/* ---- values reused across a row's inner loops ------------------------------------------------ */

/* softmax's `s += expf(x[i][j] - m)` and then `y[i][j] = expf(x[i][j] - m) / s`:
 * the second loop maps each j to the same thread and register slot as the
 * first, so the value the first computed is kept in registers (as a
 * hand-written kernel keeps it) instead of computed again.  Exact: the
 * same expression of the same operands (lower.h's RowVal). */

/* Whether e reads only what stays the same from loop `from` through loop
 * `to` of the row (statements list[from..to]): arrays held in registers
 * at [row][this loop's index], the loop index, and scalars none of those
 * statements assign. */
static bool rowval_operands_ok(LowCx *c, const Expr *e, const Vec *list, int from, int to, const Var *iv)
{
    if (!e)
        return true;
    if (e->kind == E_INDEX && !in(&c->kl->cached, e->var))
        return false;
    if (e->kind == E_FIELD || e->kind == E_SIZEOF)
        return false;
    if (e->kind == E_VAR && e->var != iv) {
        if (e->var->is_array)
            return false;
        for (int i = from; i <= to; i++)
            if (ir_assigns_var(vec_at(list, i), e->var))
                return false;
    }
    if (e->kind == E_INDEX)
        return true;             /* [row][iv]: checked for every cached array */
    for (int i = 0; i < e->nkids; i++)
        if (!rowval_operands_ok(c, e->kids[i], list, from, to, iv))
            return false;
    return true;
}

/* Calls evaluated for every j of the loop body `s` (not under if, ?:, &&,
 * || or an inner loop), outermost first. */
static void uncond_calls_expr(Arena *a, const Expr *e, Vec *out)
{
    if (!e)
        return;
    if (e->kind == E_CALL) {
        vec_push(a, out, (void *)e);
        return;                  /* its operands are part of it */
    }
    if (e->kind == E_COND) {
        uncond_calls_expr(a, e->kids[0], out);
        return;
    }
    if (e->kind == E_BINARY && (e->op == OP_LAND || e->op == OP_LOR)) {
        uncond_calls_expr(a, e->kids[0], out);
        return;
    }
    for (int i = 0; i < e->nkids; i++)
        uncond_calls_expr(a, e->kids[i], out);
}

typedef struct UncondCx {
    IrVisitor v;
    Arena *a;
    Vec *out;
} UncondCx;

static bool uncond_stmt(IrVisitor *v, Stmt *s)
{
    UncondCx *c = (UncondCx *)v;
    if (s->kind == S_BLOCK)
        return true;
    if (s->kind == S_DECL || s->kind == S_ASSIGN) {
        uncond_calls_expr(c->a, s->rhs, c->out);
        if (s->kind == S_ASSIGN && s->lhs->kind == E_INDEX)
            for (int i = 0; i < s->lhs->nkids; i++)
                uncond_calls_expr(c->a, s->lhs->kids[i], c->out);
    }
    if (s->kind == S_IF)
        uncond_calls_expr(c->a, s->cond, c->out);
    return false;                /* not its branches; loops: not every j runs them the same */
}

static void uncond_calls(Arena *a, const Stmt *s, Vec *out)
{
    UncondCx c = {{.stmt = uncond_stmt}, a, out};
    ir_visit_stmt(&c.v, (Stmt *)s);
}

/* Every call of a statement tree (the uses in a later loop). */
typedef struct CallSink {
    Arena *a;
    Vec *out;
} CallSink;

static bool collect_call(const Expr *e, const void *arg)
{
    const CallSink *k = arg;
    if (e->kind == E_CALL)
        vec_push(k->a, k->out, (void *)e);
    return false;                /* visit everything */
}

/* Finds the values to keep; only for the register form of the row (the
 * cached arrays exist and every inner loop has the same bounds). */
static void find_rowvals(LowCx *c, Stmt *body)
{
    c->kl->rowvals.len = 0;
    if (!c->kl->cached.len || body->kind != S_BLOCK)
        return;
    Vec *list = &body->list;
    for (int a = 0; a < list->len; a++) {
        Stmt *la = vec_at(list, a);
        if (la->kind != S_FOR)
            continue;
        Vec defs = {0};
        uncond_calls(A(c), la->body, &defs);
        for (int bi = a + 1; bi < list->len; bi++) {
            Stmt *lb = vec_at(list, bi);
            if (lb->kind != S_FOR)
                continue;
            Vec calls = {0};
            CallSink sink = {A(c), &calls};
            ir_stmt_any(lb->body, collect_call, &sink);
            for (int d = 0; d < defs.len; d++) {
                const Expr *def = vec_at(&defs, d);
                if (!def->ty || def->ty->kind > TY_DOUBLE || def->ty->kind == TY_VOID ||
                    !rowval_operands_ok(c, def, list, a, bi, la->iv))
                    continue;
                RowVal *rv = NULL;
                for (int i = 0; i < c->kl->rowvals.len && !rv; i++)
                    if (((RowVal *)vec_at(&c->kl->rowvals, i))->def == def)
                        rv = vec_at(&c->kl->rowvals, i);
                for (int i = 0; i < calls.len; i++) {
                    const Expr *use = vec_at(&calls, i);
                    if (!expr_equal_renamed(def, use, la->iv, lb->iv))
                        continue;
                    if (!rv) {
                        rv = arena_alloc(A(c), sizeof *rv);
                        memset(rv, 0, sizeof *rv);
                        rv->id = c->kl->rowvals.len;
                        rv->def = def;
                        rv->loop = la;
                        vec_push(A(c), &c->kl->rowvals, rv);
                    }
                    vec_push(A(c), &rv->uses, (void *)use);
                }
            }
        }
    }
}

/* ---- values kept in place of the row they were computed from ----
 * softmax's expf(x[i][j] - m) is the last use of x[i][j]: the registers
 * that held the row can hold the value (x_c[k] = expf(x_c[k] - m)), as a
 * hand-written kernel does, where registers of its own cost occupancy
 * (softmax 16384x4096 at 16 elements a thread: 57 registers against 43). */

static bool count_read(const Expr *e, const void *arg)
{
    const struct { const Var *v; int *n; } *c = arg;
    if (e->kind == E_INDEX && e->var == c->v)
        (*c->n)++;
    return false;                /* every node */
}

static int reads_in_expr(const Expr *e, const Var *v)
{
    int n = 0;
    struct { const Var *v; int *n; } c = {v, &n};
    ir_expr_any(e, count_read, &c);
    return n;
}

/* Whether every read of v from rv's loop on is inside rv's definition or
 * one of its uses (which read the kept value instead). */
static bool reads_only_through(const Vec *list, const RowVal *rv, const Var *v)
{
    int all = 0, through = reads_in_expr(rv->def, v);
    struct { const Var *v; int *n; } c = {v, &all};
    bool from = false;
    for (int i = 0; i < list->len; i++) {
        Stmt *s = vec_at(list, i);
        from |= s == rv->loop;
        if (from)
            ir_stmt_any(s, count_read, &c);
    }
    for (int i = 0; i < rv->uses.len; i++)
        through += reads_in_expr(vec_at(&rv->uses, i), v);
    return from && through > 0 && all == through;
}

static void find_rowval_slots(LowCx *c, Stmt *body)
{
    KernelLow *kl = c->kl;
    for (int r = 0; r < kl->rowvals.len; r++) {
        RowVal *rv = vec_at(&kl->rowvals, r);
        for (int i = 0; i < kl->cached.len && !rv->slot; i++) {
            Var *v = vec_at(&kl->cached, i);
            bool taken = false;
            for (int q = 0; q < r; q++)
                taken |= ((RowVal *)vec_at(&kl->rowvals, q))->slot == v;
            if (!taken && type_elem(v->ty)->kind == rv->def->ty->kind && reads_only_through(&body->list, rv, v))
                rv->slot = v;
        }
    }
}

/* The first inner loop's trip count, for the launcher's choice of ITEMS. */
static Stmt *first_inner_loop(Kernel *k)
{
    Stmt *body = ((Stmt *)vec_at(&k->nests, 0))->body;
    if (body->kind != S_BLOCK)
        return body->kind == S_FOR ? body : NULL;
    for (int i = 0; i < body->list.len; i++)
        if (((Stmt *)vec_at(&body->list, i))->kind == S_FOR)
            return vec_at(&body->list, i);
    return NULL;
}

/* ---- the shapes ------------------------------------------------------------------ */

/* The grid's order (lower_grid_x); with one nest, the row windows that save loads. */
static void lower_grid(LowCx *c)
{
    Kernel *k = c->k;
    KernelLow *kl = c->kl;
    int x = lower_grid_x(k), n = 0;
    for (int d = 0; d < k->pdims; d++)
        if (d != x)
            kl->grid[n++] = k->loops[d];
    kl->grid[n] = k->loops[x];
    kl->skew = inner_skew(k->loops[x]);
    /* row windows slide along the outer loop as written */
    if (k->pdims == 2 && x == 1 && k->nests.len == 1 && k->loops[0]->step == 1)
        rot_stmts(c, k, &kl->uses, nest_inner_body(vec_at(&k->nests, 0), 2));
    Vec keep = {0};
    for (int i = 0; i < kl->rots.len; i++) {
        Rot *r = vec_at(&kl->rots, i);
        if (r->hi > r->lo && r->hi - r->lo <= 8) {
            r->id = keep.len;
            vec_push(A(c), &keep, r);
        }
    }
    kl->rots = keep;
}

/* ---- few heavy threads: blocks spread over the SMs ------------------------------------
 * A 1-D map's threads whose sequential loops read or write across rows
 * (adi's sweeps: p[i][j] with i the thread's index, j the loop's) make a
 * warp's every access 32 transactions, queued on the load units of the few
 * SMs that blocks of 256 threads occupy (998 rows: 4 blocks on 4 of the
 * H200's 132 SMs).  Such a kernel's blocks get fewer threads, down to a
 * warp, until they cover the SMs (gf_cover_threads).  Not when every
 * access is coalesced or the same for all threads (gramschmidt's
 * A[i][j] and Q[i][k], j the thread's index: warps of one SM then share
 * Q's lines in L1; spread over 38 SMs the kernel took 345 ms against 302). */

static bool strided_in_loops(const Kernel *k);

typedef struct StrideCx {
    IrVisitor v;
    const Var *t;                /* the thread's index */
    bool strided;
} StrideCx;

static Expr *stride_expr(IrVisitor *v, Expr *e, Stmt *owner)
{
    (void)owner;
    StrideCx *c = (StrideCx *)v;
    if (e->kind != E_INDEX || !e->aff || e->nkids < 2 || !e->aff[e->nkids - 1] ||
        aff_uses(e->aff[e->nkids - 1], c->t))
        return e;
    for (int d = 0; d + 1 < e->nkids; d++)
        if (e->aff[d] && aff_uses(e->aff[d], c->t))
            c->strided = true;
    return e;
}

static bool stride_stmt(IrVisitor *v, Stmt *s)
{
    StrideCx *c = (StrideCx *)v;
    if (s->kind != S_FOR)
        return !c->strided;
    StrideCx in = {{.expr = stride_expr}, c->t, false};
    ir_visit_stmt(&in.v, s->body);
    c->strided |= in.strided;
    return false;
}

bool lower_spread(const Kernel *k)
{
    return k->kind != K_ROW && k->pdims == 1 && !k->red_vars.len && strided_in_loops(k);
}

static bool strided_in_loops(const Kernel *k)
{
    StrideCx c = {{.stmt = stride_stmt}, k->loops[0]->iv, false};
    for (int i = 0; i < k->nests.len && !c.strided; i++)
        ir_visit_stmt(&c.v, nest_inner_body(vec_at(&k->nests, i), k->pdims));
    return c.strided;
}

/* The arrays the vector body loads, and those whose alignment the launch
 * checks; whether the blocks spread over the SMs. */
static void lower_flat(LowCx *c)
{
    Kernel *k = c->k;
    KernelLow *kl = c->kl;
    Uses *u = &kl->uses;
    kl->spread = lower_spread(k);
    if (!k->vec4)
        return;
    for (int i = 0; i < u->arrays.len; i++) {
        Var *v = vec_at(&u->arrays, i);
        if (lower_reg_temp(k, v))
            continue;
        vec_push(A(c), &kl->align16, v);
        /* loaded when this kernel reads it, or stores it only under a
         * condition (the other lanes must keep their values) */
        if (in(&u->loaded, v) || (in(&u->stored, v) && stored_conditionally(k, v)))
            vec_push(A(c), &kl->vec_loads, v);
    }
}

/* The inner loops at row level: not inside another inner loop. */
typedef struct RowLoopsCx {
    IrVisitor v;
    LowCx *c;
} RowLoopsCx;

static bool row_loop_stmt(IrVisitor *v, Stmt *s)
{
    LowCx *c = ((RowLoopsCx *)v)->c;
    if (s->kind != S_FOR)
        return true;
    RowLoop *rl = arena_alloc(A(c), sizeof *rl);
    memset(rl, 0, sizeof *rl);
    rl->loop = s;
    row_reds_of(c, s, &rl->reds);
    rl->ops = arena_alloc(A(c), sizeof *rl->ops * (size_t)(rl->reds.len ? rl->reds.len : 1));
    for (int i = 0; i < rl->reds.len; i++)
        rl->ops[i] = red_in_loop(s, vec_at(&rl->reds, i));
    if (c->kl->row_vec) {
        row_vec_stores(c, s, &rl->vstores);
        row_vec_loads(c, s, &rl->vloads);
    }
    rl->sync_after = later_reads_written(s);
    vec_push(A(c), &c->kl->row_loops, rl);
    return false;
}

/* Rows in registers (every inner loop reads them at [row][its index], with
 * the same bounds), the 4-wide form, reused values, the inner loops. */
static void lower_row(LowCx *c)
{
    Kernel *k = c->k;
    KernelLow *kl = c->kl;
    Stmt *nest = vec_at(&k->nests, 0);
    kl->row = nest->iv;
    kl->inner = first_inner_loop(k);
    find_cacheable(c, k, &kl->uses);
    /* drop arrays accessed any other way */
    Vec keep = {0};
    Stmt *body = nest->body;
    Stmt *first = NULL;
    for (int ci = 0; ci < kl->cached.len; ci++) {
        Var *v = vec_at(&kl->cached, ci);
        bool ok = body->kind == S_BLOCK;
        for (int i = 0; ok && i < body->list.len; i++) {
            Stmt *s = vec_at(&body->list, i);
            if (s->kind == S_FOR) {
                if (!first)
                    first = s;
                if (!stmt_cached_ok(s->body, v, nest->iv, s->iv))
                    ok = false;
            }
        }
        if (ok)
            vec_push(A(c), &keep, v);
    }
    kl->cached = keep;
    gfc_assert(!kl->cached.len || first == kl->inner);
    /* the 4-wide form: unit-stride inner loops from 0 over float rows */
    kl->row_vec = kl->cached.len && first && first->step == 1 && first->lb->kind == E_INT && !strcmp(first->lb->text, "0");
    for (int i = 0; i < kl->cached.len; i++)
        if (type_elem(((Var *)vec_at(&kl->cached, i))->ty)->kind != TY_FLOAT)
            kl->row_vec = false;
    find_rowvals(c, nest->body);
    find_rowval_slots(c, nest->body);
    RowLoopsCx rc = {{.stmt = row_loop_stmt}, c};
    ir_visit_stmt(&rc.v, nest->body);
    if (!kl->row_vec)
        return;
    /* 16-byte loads when every row starts on a 16-byte boundary */
    for (int i = 0; i < kl->uses.arrays.len; i++) {
        Var *v = vec_at(&kl->uses.arrays, i);
        if (v->ndims == 2 && type_elem(v->ty)->kind == TY_FLOAT && v->dims[1])
            vec_push(A(c), &kl->align16, v);
    }
}

/* ---- tiles (SH_TILED) ------------------------------------------------------------ */

/* cov[i][j] = 0; for (k ...) cov[i][j] += data[k][i] * data[k][j]; cov[i][j] /= d:
 * a 2-D (i, j) map whose body runs a sequential k loop over operands
 * indexed by (i, k) or (k, j).  A block computes a GF_TILE x GF_TILE tile of
 * (i, j); k runs in chunks of GF_TILE, each operand's chunk loaded once into
 * shared memory for the whole tile (GF_TILE threads read each value).  Each
 * thread still runs its k values in C's order: the results are those of the
 * untiled kernel, bit for bit.  The column loop is the second grid loop, or,
 * in a 1-D kernel, the parallel loop inside the row loop whose bounds may
 * use i (covariance's j = i .. m): then the grid covers the bounding box and
 * threads outside the triangle help load but compute nothing.  With
 * register blocks (tile_regs) each thread computes several outputs of a
 * larger tile, each staged value read once into a register for all of them. */

/* The statements of a body, a block or one statement. */
static int body_len(const Stmt *b)
{
    return b->kind == S_BLOCK ? b->list.len : 1;
}

static Stmt *body_at(Stmt *b, int i)
{
    return b->kind == S_BLOCK ? vec_at(&b->list, i) : b;
}

/* Whether e reads any of the variables in vs. */
static bool reads_any(const Expr *e, const Vec *vs)
{
    for (int i = 0; i < vs->len; i++)
        if (lower_reads_var(e, vec_at(vs, i)))
            return true;
    return false;
}

/* A bound of the column loop: free of i, or i + c (*ok false: anything else). */
static bool tri_bound(LowCx *c, Expr *e, Var *iv, bool *uses_i, long long *off)
{
    *uses_i = false;
    *off = 0;
    if (!lower_reads_var(e, iv))
        return !reads_any(e, &c->kl->uses.declared);
    Aff *f = aff_of(A(c), e);
    if (!f || f->nterms != 1 || f->terms[0].var != iv || f->terms[0].coef != 1)
        return false;
    *uses_i = true;
    *off = f->c;
    return true;
}

/* At most this many operands in shared memory (8 double buffers: 17 KiB of
 * the 48 KiB a block may declare statically); further ones read global memory. */
#define GF_TILE_MAX_STAGED 8

typedef struct StageCx {
    LowCx *c;
    Var *iv[2], *kv;
    bool ok;
} StageCx;

/* What a subscript of a staged operand reads: the tile indices, k, and
 * scalars the kernel neither declares nor assigns; no loads or calls. */
typedef struct SubCx {
    StageCx *s;
    bool uses[2], usesk, bad;
} SubCx;

static bool sub_expr(const Expr *e, const void *arg)
{
    SubCx *x = (SubCx *)arg;
    StageCx *s = x->s;
    if (e->kind == E_INDEX || e->kind == E_CALL || e->kind == E_FIELD || e->kind == E_SIZEOF)
        x->bad = true;
    if (e->kind == E_VAR) {
        Var *v = e->var;
        if (v == s->iv[0] || v == s->iv[1])
            x->uses[v == s->iv[1]] = true;
        else if (v == s->kv)
            x->usesk = true;
        else if (v->is_array || in(&s->c->kl->uses.declared, v))
            x->bad = true;
    }
    return false;                /* visit everything */
}

/* Whether the last subscript moves by one element with the tile index:
 * affine with coefficient +-1, or `x + iv` / `iv + x`. */
static bool unit_along(const Expr *e, const Var *iv)
{
    const Expr *last = e->kids[e->nkids - 1];
    if (e->aff && e->aff[e->nkids - 1]) {
        long long co = aff_coef(e->aff[e->nkids - 1], iv);
        return co == 1 || co == -1;
    }
    if (last->kind != E_BINARY || last->op != OP_ADD)
        return false;
    for (int i = 0; i < 2; i++)
        if (last->kids[i]->kind == E_VAR && last->kids[i]->var == iv && !lower_reads_var(last->kids[1 - i], iv))
            return true;
    return false;
}

/* Which tile index (0: i, 1: j) the access depends on besides k, or -1:
 * its subscripts a function of one of them, k and invariant scalars. */
static int stage_side(StageCx *s, const Expr *e)
{
    if (e->var->is_private || lower_reg_temp(s->c->k, e->var) || in(&s->c->kl->uses.stored, e->var) ||
        type_elem(e->var->ty)->kind == TY_STRUCT || !e->nkids)
        return -1;
    SubCx x = {s, {false, false}, false, false};
    for (int d = 0; d < e->nkids; d++)
        ir_expr_any(e->kids[d], sub_expr, &x);
    if (x.bad || !x.usesk || x.uses[0] == x.uses[1])
        return -1;
    return x.uses[1];
}

/* Staged operands: loads that always happen in the k body (not under ?:,
 * && or ||: their operand may be out of bounds where C does not read it). */
static void stage_expr(StageCx *s, const Expr *e)
{
    if (!e)
        return;
    if (e->kind == E_COND || (e->kind == E_BINARY && (e->op == OP_LAND || e->op == OP_LOR))) {
        stage_expr(s, e->kids[0]);
        return;
    }
    if (e->kind == E_INDEX) {
        int side = stage_side(s, e);
        KernelLow *kl = s->c->kl;
        bool seen = false;
        for (int i = 0; i < kl->staged.len; i++)
            seen |= expr_equal(((Staged *)vec_at(&kl->staged, i))->e, e);
        if (side >= 0 && !seen && kl->staged.len < GF_TILE_MAX_STAGED) {
            Staged *st = arena_alloc(A(s->c), sizeof *st);
            st->e = e;
            st->side = side;
            st->along_x = unit_along(e, s->iv[side]);
            st->id = kl->staged.len;
            vec_push(A(s->c), &kl->staged, st);
        }
        if (side >= 0)
            return;
    }
    for (int i = 0; i < e->nkids; i++)
        stage_expr(s, e->kids[i]);
}

/* The k body: assignments and declarations only (no branch, loop or return). */
static bool stage_body(StageCx *s, Stmt *body)
{
    for (int i = 0; i < body_len(body); i++) {
        Stmt *x = body_at(body, i);
        if (x->kind != S_ASSIGN && x->kind != S_DECL)
            return false;
        if (x->kind == S_DECL && x->var->is_array)
            return false;
        stage_expr(s, x->rhs);
        if (x->kind == S_ASSIGN && x->lhs->kind == E_INDEX)
            for (int d = 0; d < x->lhs->nkids; d++)
                stage_expr(s, x->lhs->kids[d]);
    }
    return true;
}

/* Statements of the column body around the k loop: no loop, no return
 * (a declaration before it is declared by every thread, its value computed
 * in the iteration domain only: emit_cuda.c's tile_stmts). */
static IrFind unplain_stmt(const Stmt *s, const void *arg)
{
    (void)arg;
    bool bad = s->kind == S_FOR || s->kind == S_WHILE || s->kind == S_RETURN || s->kind == S_LIB ||
               s->kind == S_FREE || (s->kind == S_DECL && s->var->is_array) || (s->kind == S_ASSIGN && s->atomic);
    return bad ? IR_FOUND : IR_NEXT;
}

static bool plain_stmt(const Stmt *x)
{
    return !ir_stmt_find(x, unplain_stmt, NULL);
}

/* The accesses to arrays of s (loads and stores), with whether each is a store. */
typedef struct AccCx {
    IrVisitor v;
    Arena *a;
    Vec acc, store;
} AccCx;

static Expr *acc_expr(IrVisitor *v, Expr *e, Stmt *owner)
{
    AccCx *c = (AccCx *)v;
    if (e->kind == E_INDEX) {
        const Expr *l = owner && owner->kind == S_ASSIGN ? (owner->lhs->kind == E_FIELD ? owner->lhs->kids[0] : owner->lhs) : NULL;
        vec_push(c->a, &c->acc, e);
        vec_push(c->a, &c->store, (void *)(intptr_t)(e == l));
    }
    return e;
}

static void accesses(Arena *a, Stmt *s, AccCx *c)
{
    memset(c, 0, sizeof *c);
    c->v.expr = acc_expr;
    c->a = a;
    ir_visit_stmt(&c->v, s);
}

/* Whether x (in a row statement, at row i) and y (in the column body, at
 * (i, j)) never touch the same element: some subscript differs by
 * a * (j - i) + c, and j - i never takes the value that makes it 0. */
static bool disjoint_in_row(LowCx *c, const Expr *x, const Expr *y, Var *iv, Var *jv)
{
    if (!x->aff || !y->aff || x->nkids != y->nkids)
        return false;
    KernelLow *kl = c->kl;
    for (int d = 0; d < x->nkids; d++) {
        if (!x->aff[d] || !y->aff[d])
            continue;
        Aff *f = aff_add(A(c), y->aff[d], x->aff[d], -1);
        long long a = aff_coef(f, jv), b = aff_coef(f, iv);
        bool other = false;
        for (int t = 0; t < f->nterms; t++)
            other |= f->terms[t].coef && f->terms[t].var != iv && f->terms[t].var != jv;
        if (other || !a || b != -a)
            continue;
        /* zero iff j - i == -c / a */
        if (f->c % a)
            return true;
        long long z = -f->c / a;
        if ((kl->lo_i && z < kl->lo_c) || (kl->hi_i && z >= kl->hi_c))
            return true;
    }
    return false;
}

/* A statement of the row around the column loop: array stores only, each
 * access disjoint from the column body's accesses of the same array at the
 * same i when one of them stores (the row loop being parallel covers other
 * rows), and no scalar the column body reads. */
static bool row_stmt_ok(LowCx *c, Stmt *x, Stmt *jloop, Var *iv)
{
    if (x->kind != S_ASSIGN || x->lhs->kind != E_INDEX || x->atomic != RED_NONE)
        return false;
    AccCx ax, ay;
    accesses(A(c), x, &ax);
    accesses(A(c), jloop, &ay);
    for (int i = 0; i < ax.acc.len; i++)
        for (int j = 0; j < ay.acc.len; j++) {
            Expr *ex = vec_at(&ax.acc, i), *ey = vec_at(&ay.acc, j);
            if (ex->var != ey->var || (!vec_at(&ax.store, i) && !vec_at(&ay.store, j)))
                continue;
            if (!disjoint_in_row(c, ex, ey, iv, jloop->iv))
                return false;
        }
    return true;
}

/* The column loop and the statements around it; false: not a tile nest. */
static bool tile_loops(LowCx *c, Stmt **jbody)
{
    Kernel *k = c->k;
    KernelLow *kl = c->kl;
    kl->tile_i = k->loops[0];
    if (k->pdims == 2) {
        kl->tile_j = k->loops[1];
        *jbody = nest_inner_body(vec_at(&k->nests, 0), 2);
        return true;
    }
    Stmt *ib = kl->tile_i->body;
    Stmt *jl = NULL;
    for (int i = 0; i < body_len(ib); i++) {
        Stmt *x = body_at(ib, i);
        if (x->kind == S_FOR) {
            if (jl)
                return false;
            jl = x;
        }
    }
    if (!jl || !jl->parallel || jl->step != 1 || jl->brk || kl->tile_i->step != 1)
        return false;
    kl->tri = true;
    if (!tri_bound(c, jl->lb, kl->tile_i->iv, &kl->lo_i, &kl->lo_c) ||
        !tri_bound(c, jl->ub, kl->tile_i->iv, &kl->hi_i, &kl->hi_c))
        return false;
    for (int i = 0; i < body_len(ib); i++) {
        Stmt *x = body_at(ib, i);
        if (x == jl)
            continue;
        if (!row_stmt_ok(c, x, jl, kl->tile_i->iv))
            return false;
        vec_push(A(c), &kl->outer, x);
    }
    kl->tile_j = jl;
    *jbody = jl->body;
    return true;
}

/* The k body's one statement when it updates an element whose subscripts
 * do not use k and that nothing else in it reads: the value lives in a
 * register over the k loop (stored once after it: the same values, rounded
 * the same way), or NULL. */
static Stmt *tile_acc(Stmt *kloop)
{
    if (body_len(kloop->body) != 1)
        return NULL;
    Stmt *x = body_at(kloop->body, 0);
    if (x->kind != S_ASSIGN || x->op == OP_ASSIGN || x->atomic || x->lhs->kind != E_INDEX)
        return NULL;
    Var *v = x->lhs->var;
    if (v->is_private || type_elem(v->ty)->kind == TY_STRUCT || lower_reads_var(x->lhs, kloop->iv) ||
        lower_reads_var(x->rhs, v))
        return NULL;
    for (int d = 0; d < x->lhs->nkids; d++)
        if (lower_reads_var(x->lhs->kids[d], v))
            return NULL;
    return x;
}

/* The statement of pre that declares v, or NULL. */
static Stmt *pre_decl(const KernelLow *kl, const Var *v)
{
    for (int i = 0; i < kl->pre.len; i++) {
        Stmt *x = vec_at(&kl->pre, i);
        if (x->kind == S_DECL && x->var == v)
            return x;
    }
    return NULL;
}

/* The k body's one statement when it updates a scalar declared before the
 * k loop (int s = 0; for (k ...) s += ...), of a scalar type, that its
 * right side does not read: like tile_acc's element, it lives in a register
 * over the k loop. */
static Stmt *tile_scalar_acc(const KernelLow *kl)
{
    Stmt *kloop = kl->kloop;
    if (body_len(kloop->body) != 1)
        return NULL;
    Stmt *x = body_at(kloop->body, 0);
    if (x->kind != S_ASSIGN || x->op == OP_ASSIGN || x->atomic || x->lhs->kind != E_VAR)
        return NULL;
    Var *v = x->lhs->var;
    Stmt *d = pre_decl(kl, v);
    if (!d || v->is_array || !type_size(v->ty) || lower_reads_var(x->rhs, v))
        return NULL;
    return d;
}

static bool names_var(const Expr *e, const void *arg)
{
    return (e->kind == E_VAR || e->kind == E_INDEX) && e->var == arg;
}

/* Whether a statement of list reads one of the scalars pre declares, other than `but`. */
static bool reads_pre_decl(const KernelLow *kl, const Vec *list, const Expr *e, const Var *but)
{
    for (int i = 0; i < kl->pre.len; i++) {
        Stmt *x = vec_at(&kl->pre, i);
        if (x->kind != S_DECL || x->var == but)
            continue;
        if (e && lower_reads_var(e, x->var))
            return true;
        for (int j = 0; list && j < list->len; j++)
            if (ir_stmt_any(vec_at(list, j), names_var, x->var))
                return true;
    }
    return false;
}

/* Register blocking (tile_r, tile_kc): each thread computes tile_r[0] x
 * tile_r[1] outputs (rows and columns GF_TILE apart), the block a tile of
 * GF_TILE * tile_r[0] x GF_TILE * tile_r[1]; each staged value, loaded once
 * from shared memory into a register, serves the thread's tile_r of the
 * other side.  Needs an accumulator in a register (the k body one update of
 * an element or of a scalar declared before the k loop) and the statements
 * after the k loop reading no other scalar of the ones before it (those run
 * per output, in a scope of their own).  The sizes: the first candidate
 * whose staged chunks fit the 48 KiB of static shared memory and whose
 * registers (accumulators and staged values, in 32-bit words) stay under
 * GF_TILE_REG_WORDS; none: one output per thread. */
#define GF_TILE_SHARED_MAX (48 * 1024)
#define GF_TILE_REG_WORDS 96

static int tile_shared_bytes(const KernelLow *kl, const int r[2], int kc)
{
    int n = 0;
    for (int i = 0; i < kl->staged.len; i++) {
        Staged *st = vec_at(&kl->staged, i);
        n += GF_TILE_SIDE * r[st->side] * (kc + 1) * type_size(type_elem(st->e->var->ty));
    }
    return n;
}

static int tile_reg_words(const KernelLow *kl, const int r[2])
{
    const Type *at = kl->acc->lhs->kind == E_VAR ? kl->acc->lhs->var->ty : type_elem(kl->acc->lhs->var->ty);
    int n = r[0] * r[1] * ((type_size(at) + 3) / 4);
    for (int i = 0; i < kl->staged.len; i++) {
        Staged *st = vec_at(&kl->staged, i);
        n += r[st->side] * ((type_size(type_elem(st->e->var->ty)) + 3) / 4);
    }
    return n;
}

static void tile_regs(LowCx *c)
{
    KernelLow *kl = c->kl;
    kl->tile_r[0] = kl->tile_r[1] = 1;
    kl->tile_kc = GF_TILE_SIDE;
    if (!kl->acc)
        return;
    Var *sv = kl->acc_decl ? kl->acc_decl->var : NULL;
    if (reads_pre_decl(kl, &kl->post, kl->acc->rhs, sv) || reads_pre_decl(kl, NULL, kl->acc->lhs, sv))
        return;
    static const int cand[][3] = {{4, 4, 16}, {4, 4, 8}, {2, 4, 8}, {2, 2, 8}};
    for (size_t i = 0; i < sizeof cand / sizeof *cand; i++) {
        int r[2] = {cand[i][0], cand[i][1]};
        if (tile_shared_bytes(kl, r, cand[i][2]) <= GF_TILE_SHARED_MAX && tile_reg_words(kl, r) <= GF_TILE_REG_WORDS) {
            kl->tile_r[0] = r[0], kl->tile_r[1] = r[1];
            kl->tile_kc = cand[i][2];
            return;
        }
    }
}

/* Decides SH_TILED for a map kernel: legal (one nest, a k loop with bounds
 * free of i, j and of everything the kernel declares, its operands not
 * written by the kernel) and profitable (an operand staged: GF_TILE threads
 * of the tile read each value it loads). */
static bool lower_tiled(LowCx *c)
{
    Kernel *k = c->k;
    KernelLow *kl = c->kl;
    if (k->kind != K_MAP || k->nests.len != 1 || k->folded_into || k->vec4 || k->atomics.len ||
        k->reg_temps.len || k->red_vars.len || (k->pdims != 1 && k->pdims != 2))
        return false;
    Stmt *jb = NULL;
    if (!tile_loops(c, &jb) || kl->tile_j->brk || kl->tile_i->brk)
        return false;
    Stmt *kloop = NULL;
    for (int i = 0; i < body_len(jb); i++) {
        Stmt *x = body_at(jb, i);
        if (x->kind == S_FOR && !kloop) {
            kloop = x;
            continue;
        }
        if (!plain_stmt(x))
            return false;
        vec_push(A(c), kloop ? &kl->post : &kl->pre, x);
    }
    if (!kloop || kloop->step != 1 || kloop->brk || reads_any(kloop->lb, &kl->uses.declared) ||
        reads_any(kloop->ub, &kl->uses.declared))
        return false;
    kl->kloop = kloop;
    kl->acc = tile_acc(kloop);
    StageCx s = {c, {kl->tile_i->iv, kl->tile_j->iv}, kloop->iv, true};
    if (!stage_body(&s, kloop->body) || !kl->staged.len)
        return false;
    if (!kl->acc && (kl->acc_decl = tile_scalar_acc(kl)))
        kl->acc = body_at(kloop->body, 0);
    tile_regs(c);
    return true;
}

/* ---- elements kept in registers over a sequential loop ---------------------------
 * trmm's `for (k = i + 1; k < m; k++) B[i][j] += A[k][i] * B[k][j];`
 * updates B[i][j] at every k and reads other elements of B: nvcc must load
 * and store the element at each step (B[k][j] might be it), a round trip
 * through memory per step.  When every other access of the array in the
 * loop provably touches another element (some subscript differs by an
 * amount that the loop's bounds keep from 0), the element lives in a
 * register over the loop: loaded before it and stored after it, only when
 * the loop runs (RegAcc). */

typedef struct AccScan {
    IrVisitor v;
    const Var *var;              /* the array (NULL: collect the candidates) */
    Vec *out;                    /* Expr*: its accesses / the candidates' lhs */
    Arena *a;
    bool bare;                   /* the array named without a subscript (a call's argument) */
} AccScan;

static Expr *acc_scan_expr(IrVisitor *v, Expr *e, Stmt *owner)
{
    (void)owner;
    AccScan *c = (AccScan *)v;
    if (c->var && e->var == c->var) {
        if (e->kind == E_INDEX)
            vec_push(c->a, c->out, e);
        else if (e->kind == E_VAR)
            c->bare = true;
    }
    return e;
}

static bool acc_scan_stmt(IrVisitor *v, Stmt *s)
{
    AccScan *c = (AccScan *)v;
    if (!c->var && s->kind == S_ASSIGN && s->lhs->kind == E_INDEX && !s->atomic)
        vec_push(c->a, c->out, s->lhs);
    if (c->var && s->kind == S_ASSIGN && s->atomic && s->lhs->var == c->var)
        c->bare = true;          /* an atomic update goes to memory */
    return true;
}

typedef struct FixedCx {
    const Stmt *loop;
    bool moves;
} FixedCx;

static bool var_moves(const Expr *e, const void *arg)
{
    FixedCx *c = (FixedCx *)arg;
    if (e->kind == E_CALL || (e->kind == E_INDEX))
        c->moves = true;         /* a call or a load in a subscript: not followed */
    else if (e->kind == E_VAR && ir_assigns_var(c->loop, e->var))
        c->moves = true;
    return false;
}

/* Whether f is a constant (every coefficient 0); its value in *c. */
static bool aff_const(const Aff *f, long long *c)
{
    for (int t = 0; t < f->nterms; t++)
        if (f->terms[t].coef)
            return false;
    *c = f->c;
    return true;
}

/* f with the loop index iv replaced by the affine form b. */
static Aff *aff_at(Arena *a, const Aff *f, const Var *iv, const Aff *b)
{
    long long k = aff_coef(f, iv);
    Aff one = {0, &(AffTerm){(Var *)iv, 1}, 1};
    return aff_add(a, aff_add(a, f, &one, -k), b, k);
}

/* Whether x never touches elem at any iteration of loop (iv in [lb, ub)):
 * some subscript's difference x - elem, a * iv + g with g fixed over the
 * loop, is kept from 0 by the bounds (a * lb + g > 0 for a >= 0, ...). */
static bool apart_over_loop(Arena *a, const Expr *x, const Expr *elem, const Stmt *loop)
{
    if (!x->aff || !elem->aff || x->nkids != elem->nkids)
        return false;
    Aff *lb = aff_of(a, loop->lb), *ub = aff_of(a, loop->ub);
    Aff *last = ub ? aff_add(a, ub, &(Aff){-1, NULL, 0}, 1) : NULL;
    for (int d = 0; d < x->nkids; d++) {
        if (!x->aff[d] || !elem->aff[d])
            continue;
        Aff *f = aff_add(a, x->aff[d], elem->aff[d], -1);
        /* the other variables of f must be fixed over the loop */
        bool fixed = true;
        for (int t = 0; t < f->nterms; t++)
            if (f->terms[t].coef && f->terms[t].var != loop->iv && ir_assigns_var(loop, f->terms[t].var))
                fixed = false;
        if (!fixed)
            continue;
        long long k = aff_coef(f, loop->iv), c;
        if (!k) {
            if (aff_const(f, &c) && c)
                return true;
            continue;
        }
        /* f moves monotonically with iv: its value at the first and at the last index */
        Aff *at_lb = lb ? aff_at(a, f, loop->iv, lb) : NULL, *at_last = last ? aff_at(a, f, loop->iv, last) : NULL;
        if (k > 0 && ((at_lb && aff_const(at_lb, &c) && c > 0) || (at_last && aff_const(at_last, &c) && c < 0)))
            return true;
        if (k < 0 && ((at_lb && aff_const(at_lb, &c) && c < 0) || (at_last && aff_const(at_last, &c) && c > 0)))
            return true;
    }
    return false;
}

static bool reg_acc_type(const Type *t)
{
    switch (t->kind) {
    case TY_FLOAT: case TY_DOUBLE: case TY_INT: case TY_UINT: case TY_LONG: case TY_ULONG: case TY_LLONG:
    case TY_ULLONG:
        return true;
    default:
        return false;
    }
}

/* The element of `loop` to keep in a register, or NULL. */
static const Expr *reg_acc_of(LowCx *c, Stmt *loop)
{
    if (loop->kind != S_FOR || loop->parallel || loop->brk || loop->step <= 0)
        return NULL;
    Vec cands = {0};
    AccScan sc = {{.stmt = acc_scan_stmt, .expr = NULL}, NULL, &cands, A(c), false};
    ir_visit_stmt(&sc.v, loop->body);
    for (int i = 0; i < cands.len; i++) {
        const Expr *e = vec_at(&cands, i);
        Var *v = e->var;
        if (v->is_private || lower_reg_temp(c->k, v) || !reg_acc_type(type_elem(v->ty)) || !e->aff)
            continue;
        FixedCx fx = {loop, false};
        for (int d = 0; d < e->nkids; d++)
            ir_expr_any(e->kids[d], var_moves, &fx);
        if (fx.moves)
            continue;
        Vec accs = {0};
        AccScan va = {{.stmt = acc_scan_stmt, .expr = acc_scan_expr}, v, &accs, A(c), false};
        ir_visit_stmt(&va.v, loop->body);
        if (va.bare)
            continue;
        bool ok = true;
        for (int j = 0; ok && j < accs.len; j++) {
            const Expr *x = vec_at(&accs, j);
            ok = expr_equal(x, e) || apart_over_loop(A(c), x, e, loop);
        }
        if (ok)
            return e;
    }
    return NULL;
}

static bool reg_acc_stmt(IrVisitor *v, Stmt *s)
{
    LowCx *c = v->user;
    if (s->kind == S_WHILE)
        return false;
    const Expr *e = s->kind == S_FOR ? reg_acc_of(c, s) : NULL;
    if (!e)
        return true;
    RegAcc *ra = arena_alloc(A(c), sizeof *ra);
    ra->loop = s;
    ra->elem = e;
    ra->id = c->kl->reg_accs.len;
    vec_push(A(c), &c->kl->reg_accs, ra);
    return false;                /* one element per loop nest: the inner loops read it from the register */
}

/* The sequential loops of a 1-D or 2-D map (not its parallel loops) whose
 * updated element stays in a register. */
static void lower_reg_accs(LowCx *c)
{
    Kernel *k = c->k;
    IrVisitor v = {.stmt = reg_acc_stmt, .user = c};
    for (int i = 0; i < k->nests.len; i++)
        ir_visit_stmt(&v, nest_inner_body(vec_at(&k->nests, i), k->pdims));
}

/* ---- values handed from one step of a sequential loop to the next ----------------
 * adi's sweeps `p[i][j] = -c / (a * p[i][j - 1] + b);` store an element at
 * each step and read it back at the next: nvcc loads it again, from the
 * memory the store has just written, and the load lies on the recurrence's
 * chain.  When the store is the loop's only store to the array, made at
 * every step (reached from the body through blocks only), with subscripts
 * affine in the loop index and in variables the loop does not assign, and
 * moving with the index (each step writes another element), then the
 * element X[f(iv - step)] read at a step is the value the step before
 * stored: it is handed over in a register (Carried); the first step reads
 * memory, as the loop did. */

typedef struct StoreScan {
    IrVisitor v;
    Vec *out;                    /* Stmt*: assignments to an array element */
    Arena *a;
} StoreScan;

static bool store_scan_stmt(IrVisitor *v, Stmt *s)
{
    StoreScan *c = (StoreScan *)v;
    if (s->kind == S_ASSIGN && s->lhs->kind == E_INDEX)
        vec_push(c->a, c->out, s);
    return true;
}

/* Whether s runs whenever body does: body itself, or inside its blocks. */
static bool runs_with(const Stmt *body, const Stmt *s)
{
    if (body == s)
        return true;
    for (int i = 0; body->kind == S_BLOCK && i < body->list.len; i++)
        if (runs_with(vec_at(&body->list, i), s))
            return true;
    return false;
}

/* Whether the affine form f uses only variables the loop does not assign
 * (its index aside). */
static bool aff_fixed_in(const Aff *f, const Stmt *loop)
{
    for (int t = 0; t < f->nterms; t++)
        if (f->terms[t].coef && f->terms[t].var != loop->iv && ir_assigns_var(loop, f->terms[t].var))
            return false;
    return true;
}

static bool aff_same(Arena *a, const Aff *x, const Aff *y)
{
    long long c;
    return aff_const(aff_add(a, x, y, -1), &c) && c == 0;
}

/* The store w's value read back one step later in `loop`, or NULL. */
static Carried *carried_of(LowCx *c, Stmt *loop, const Stmt *w, const Vec *stores)
{
    const Expr *x = w->lhs;
    Var *v = x->var;
    if (w->op != OP_ASSIGN || w->atomic || v->is_private || lower_reg_temp(c->k, v) ||
        !reg_acc_type(type_elem(v->ty)) || !x->aff || !runs_with(loop->body, w))
        return NULL;
    for (int i = 0; i < stores->len; i++) {
        const Stmt *o = vec_at(stores, i);
        if (o != w && o->lhs->var == v)
            return NULL;         /* another store to the array */
    }
    bool moves = false;
    for (int d = 0; d < x->nkids; d++) {
        if (!x->aff[d] || !aff_fixed_in(x->aff[d], loop))
            return NULL;
        moves |= aff_coef(x->aff[d], loop->iv) != 0;
    }
    if (!moves)
        return NULL;
    Vec accs = {0};
    AccScan va = {{.stmt = acc_scan_stmt, .expr = acc_scan_expr}, v, &accs, A(c), false};
    ir_visit_stmt(&va.v, loop->body);
    if (va.bare)
        return NULL;             /* named whole (a call's argument) or updated atomically */
    Aff prev = {-loop->step, &(AffTerm){loop->iv, 1}, 1};
    Carried *cr = NULL;
    for (int i = 0; i < accs.len; i++) {
        const Expr *r = vec_at(&accs, i);
        bool same = r != x && r->aff && r->nkids == x->nkids;
        for (int d = 0; same && d < x->nkids; d++)
            same = r->aff[d] && aff_same(A(c), r->aff[d], aff_at(A(c), x->aff[d], loop->iv, &prev));
        if (!same)
            continue;
        if (!cr) {
            cr = arena_alloc(A(c), sizeof *cr);
            memset(cr, 0, sizeof *cr);
            cr->loop = loop;
            cr->write = w;
        }
        vec_push(A(c), &cr->reads, (void *)r);
    }
    return cr;
}

static bool carried_stmt(IrVisitor *v, Stmt *s)
{
    LowCx *c = v->user;
    if (s->kind != S_FOR || s->parallel || s->brk || s->step <= 0)
        return true;
    FixedCx fx = {s, false};
    ir_expr_any(s->lb, var_moves, &fx);
    if (fx.moves)
        return true;             /* the first step is told by iv == lb */
    Vec stores = {0};
    StoreScan ss = {{.stmt = store_scan_stmt}, &stores, A(c)};
    ir_visit_stmt(&ss.v, s->body);
    for (int i = 0; i < stores.len; i++) {
        Carried *cr = carried_of(c, s, vec_at(&stores, i), &stores);
        if (cr) {
            cr->id = c->kl->carried.len;
            vec_push(A(c), &c->kl->carried, cr);
        }
    }
    return true;
}

/* The sequential loops of a 1-D or 2-D map that hand a stored value to
 * their next step. */
static void lower_carried(LowCx *c)
{
    Kernel *k = c->k;
    IrVisitor v = {.stmt = carried_stmt, .user = c};
    for (int i = 0; i < k->nests.len; i++)
        ir_visit_stmt(&v, nest_inner_body(vec_at(&k->nests, i), k->pdims));
}

static Shape shape_of(const Kernel *k)
{
    if (k->kind == K_SERIAL)
        return SH_SERIAL;
    if (k->kind == K_ROW)
        return SH_ROW;
    gfc_assert(k->pdims >= 1 && k->pdims <= 3);
    return k->pdims == 1 ? SH_FLAT : SH_GRID;
}

static KernelLow *lower_kernel(Unit *u, Kernel *k, const LowerOptions *o)
{
    KernelLow *kl = arena_alloc(u->arena, sizeof *kl);
    memset(kl, 0, sizeof *kl);
    LowCx c = {u->arena, k, kl};
    kl->k = k;
    kl->shape = shape_of(k);
    kl->via = k->lib ? VIA_LIBRARY : k->folded_into ? VIA_FOLDED : VIA_KERNEL;
    kl->red_atomic = lower_red_atomic(k, o->atomic_reductions);
    kernel_uses(&c, k, &kl->uses);
    if (kl->shape == SH_FLAT || kl->shape == SH_GRID) {
        KernelLow probe = *kl;
        LowCx pc = {u->arena, k, &probe};
        if (lower_tiled(&pc)) {
            *kl = probe;
            kl->shape = SH_TILED;
        }
    }
    switch (kl->shape) {
    case SH_SERIAL: kl->geom = GEOM_SINGLE; break;
    case SH_TILED: kl->geom = GEOM_TILES; break;
    case SH_FLAT: lower_flat(&c); break;
    case SH_GRID: lower_grid(&c); break;
    case SH_ROW: kl->geom = GEOM_ROWS; lower_row(&c); break;
    case SH_COUNT: unreachable();
    }
    if (kl->shape == SH_FLAT || kl->shape == SH_GRID) {
        kl->geom = k->red_vars.len ? GEOM_RESIDENT : GEOM_COVER;
        if (!k->vec4) {
            lower_reg_accs(&c);
            lower_carried(&c);
        }
    }
    return kl;
}

/* ---- the region: temporaries, CUDA graphs ------------------------------------------ */

typedef struct TempSink {
    Arena *a;
    const Region *r;
    Vec *out;
} TempSink;

static IrFind temp_decl(const Stmt *s, const void *arg)
{
    const TempSink *k = arg;
    if (s->kind == S_DECL && s->var->is_array && !s->var->is_private && !in(&k->r->plan->dead_temps, s->var))
        vec_push(k->a, k->out, s->var);
    return IR_NEXT;
}

static bool reads_non_param(const Expr *e, const void *arg)
{
    (void)arg;
    return (e->kind == E_VAR && e->var->kind != V_PARAM) || e->kind == E_INDEX;
}

bool lower_temp_early(const Var *v)
{
    for (int d = 0; d < v->ndims; d++)
        if (ir_expr_any(v->dims[d], reads_non_param, NULL))
            return false;
    return true;
}

static void no_graph(RegionLow *l, const char *why, int line)
{
    if (!l->graph_why) {
        l->graph_why = why;
        l->graph_line = line;
    }
    l->graph = false;
}

/* What keeps the steps from a graph: anything that talks to the stream
 * other than a kernel launch (a result read back, library calls), or host
 * control around kernels (a loop or a branch: each call launches a
 * different sequence). */
static void graph_steps(RegionLow *l, const Vec *steps)
{
    for (int i = 0; i < steps->len; i++) {
        const Step *st = vec_at(steps, i);
        int line = st->kernel && st->kernel->nests.len ? ((Stmt *)vec_at(&st->kernel->nests, 0))->loc.line
                   : st->stmt                          ? st->stmt->loc.line
                                                       : 0;
        if (st->sync_before.len)
            no_graph(l, "a result is read back before it", line);
        else if (st->kind == P_KERNEL && lower_of(l, st->kernel)->via == VIA_LIBRARY)
            no_graph(l, "a library call", line);
        else if (st->kind == P_KERNEL && lower_of(l, st->kernel)->via == VIA_FOLDED)
            no_graph(l, "a kernel folded into a library call", line);
        else if (st->kind == P_LIB)
            no_graph(l, "a library call", line);
        else if (st->kind == P_LOOP)
            no_graph(l, "a host loop around kernels", line);
        else if (st->kind == P_IF)
            no_graph(l, "a host branch around kernels", line);
    }
}

static void lower_graph(RegionLow *l)
{
    const Region *r = l->r;
    l->graph = true;
    for (int i = 0; i < r->plan->kernels.len; i++) {
        const Kernel *k = vec_at(&r->plan->kernels, i);
        if (k->red_vars.len || k->results.len) {
            const Var *v = vec_at(k->red_vars.len ? &k->red_vars : &k->results, 0);
            no_graph(l, v->decl && v->decl->id < 0 ? "the return value is read back from the device"
                                                   : "a scalar result is read back from the device",
                     k->nests.len ? ((Stmt *)vec_at(&k->nests, 0))->loc.line : r->loc.line);
        }
    }
    for (int i = 0; i < l->temps.len; i++) {
        const Var *v = vec_at(&l->temps, i);
        if (!lower_temp_early(v))
            no_graph(l, "a temporary sized at run time", v->loc.line);
    }
    graph_steps(l, &r->plan->steps);
}

/* RegionLow.block: at least two kernels, each a 1-D map or a serial
 * kernel of its own step; beside them only temporaries' declarations and
 * frees (block_host). */
static bool block_kernel(const RegionLow *l, const Step *st)
{
    if (st->kind != P_KERNEL || st->sync_before.len || st->host_prelude.len || st->kernel->fft_step)
        return false;
    const KernelLow *kl = lower_of(l, st->kernel);
    const Kernel *k = kl->k;
    if (kl->via != VIA_KERNEL || k->red_vars.len || k->results.len || k->dev_in.len || k->dev_prelude.len)
        return false;
    return kl->shape == SH_SERIAL || (kl->shape == SH_FLAT && kl->geom == GEOM_COVER && k->pdims == 1);
}

/* A host step the launcher may run before the region's one launch: a
 * temporary's declaration (its device pointer into the call's scratch,
 * reserved before gf_call_map, which reads parameters only) or a free()
 * (scratch lives until the call ends: nothing is printed). */
static bool block_host(const Step *st)
{
    if (st->kind != P_HOST || st->sync_before.len || st->host_prelude.len || st->deferred)
        return false;
    const Stmt *s = st->stmt;
    return s->kind == S_FREE || (s->kind == S_DECL && s->var->is_array && lower_temp_early(s->var));
}

static void lower_block(RegionLow *l)
{
    const Region *r = l->r;
    const Vec *steps = &r->plan->steps;
    int kernels = 0;
    l->block = r->ret->kind == TY_VOID;
    for (int i = 0; i < steps->len && l->block; i++) {
        const Step *st = vec_at(steps, i);
        kernels += st->kind == P_KERNEL;
        l->block = block_host(st) || block_kernel(l, st);
    }
    l->block = l->block && kernels >= 2;
    for (int i = 0; i < l->temps.len && l->block; i++)
        l->block = lower_temp_early(vec_at(&l->temps, i));
}

/* ---- a serial kernel run by the next kernel's threads ----------------------------
 * In a host loop (cholesky: a one-thread kernel takes the square root of
 * the diagonal element, then a map divides the column by it, 2000 times),
 * a serial kernel of plain stores of array elements is run at the start of
 * the 1-D map launched right after it, by each of its threads, into
 * registers (KernelLow.pro); the map reads those elements from the
 * registers; the last block to finish makes the stores (a ticket).  One
 * launch fewer per iteration.  The dependence model must find that the two
 * touch no element in common at one iteration of the loop but through those
 * reads (deps_absorbable): then no thread sees another's store early, and
 * no statement reads what the map writes. */

/* What a stored element's subscript may not read: an element, a field, a
 * call, a variable other than a loop index or a parameter. */
static bool not_index_or_param(const Expr *e, const void *arg)
{
    (void)arg;
    return e->kind == E_INDEX || e->kind == E_FIELD || e->kind == E_CALL ||
           (e->kind == E_VAR && (e->var->is_array || (e->var->kind != V_IV && e->var->kind != V_PARAM)));
}

static bool helper_call(const Expr *e, const void *arg)
{
    (void)arg;
    return e->kind == E_CALL && e->callee;
}

static bool reads_array_at_other(const Expr *e, const void *arg)
{
    const Vec *pro = arg;
    if (e->kind != E_INDEX)
        return false;
    bool written = false;
    for (int i = 0; i < pro->len; i++) {
        const Pro *p = vec_at(pro, i);
        if (expr_equal(p->elem, e))
            return false;
        written |= p->elem->var == e->var;
    }
    return written;
}

/* The elements serial kernel s stores, when each of its statements is a
 * plain store of an array element at subscripts of the loops' indices and
 * parameters, calling no helper, and reading an array it stores only at an
 * element it stores; else false. */
static bool absorb_elems(LowCx *c, const Kernel *s, Vec *pro)
{
    for (int i = 0; i < s->nests.len; i++) {
        const Stmt *st = vec_at(&s->nests, i);
        if (st->kind != S_ASSIGN || st->lhs->kind != E_INDEX || ir_expr_any(st->rhs, helper_call, NULL))
            return false;
        for (int d = 0; d < st->lhs->nkids; d++)
            if (ir_expr_any(st->lhs->kids[d], not_index_or_param, NULL))
                return false;
        bool seen = false;
        for (int j = 0; j < pro->len && !seen; j++)
            seen = expr_equal(((Pro *)vec_at(pro, j))->elem, st->lhs);
        if (!seen) {
            Pro *p = arena_alloc(A(c), sizeof *p);
            p->elem = st->lhs;
            p->id = pro->len;
            vec_push(A(c), pro, p);
        }
    }
    for (int i = 0; i < s->nests.len; i++) {
        const Stmt *st = vec_at(&s->nests, i);
        if (ir_expr_any(st->rhs, reads_array_at_other, pro))
            return false;
        for (int d = 0; d < st->lhs->nkids; d++)
            if (ir_expr_any(st->lhs->kids[d], reads_array_at_other, pro))
                return false;
    }
    return s->nests.len > 0;
}

static void absorb_pair(Unit *u, RegionLow *l, const Step *a, const Step *b)
{
    if (a->kind != P_KERNEL || b->kind != P_KERNEL || b->sync_before.len || b->host_prelude.len)
        return;
    KernelLow *ks = lower_of(l, a->kernel), *km = lower_of(l, b->kernel);
    const Kernel *s = ks->k, *m = km->k;
    if (ks->shape != SH_SERIAL || ks->via != VIA_KERNEL || s->results.len || s->fresh.len || s->dev_in.len ||
        s->dev_prelude.len || s->fft_step)
        return;
    if (km->shape != SH_FLAT || km->via != VIA_KERNEL || km->geom != GEOM_COVER || m->kind != K_MAP ||
        m->pdims != 1 || m->vec4 || m->red_vars.len || m->fft_step || km->absorbed)
        return;
    LowCx c = {u->arena, km->k, km};
    Vec pro = {0}, kept = {0};
    if (!absorb_elems(&c, s, &pro))
        return;
    for (int i = 0; i < pro.len; i++)
        vec_push(u->arena, &kept, (void *)((Pro *)vec_at(&pro, i))->elem);
    if (!deps_absorbable(l->r, &s->nests, &m->nests, &kept))
        return;
    ks->via = VIA_ABSORBED;
    ks->into = km->k;
    km->absorbed = (Kernel *)s;
    km->pro = pro;
    kernel_uses(&c, km->k, &km->uses);
}

static void absorb_steps(Unit *u, RegionLow *l, const Vec *steps, bool in_loop)
{
    for (int i = 0; i < steps->len; i++) {
        const Step *st = vec_at(steps, i);
        if (in_loop && i + 1 < steps->len)
            absorb_pair(u, l, st, vec_at(steps, i + 1));
        if (st->kind == P_LOOP)
            absorb_steps(u, l, &st->body, true);
        if (st->kind == P_IF) {
            absorb_steps(u, l, &st->body, in_loop);
            absorb_steps(u, l, &st->els, in_loop);
        }
    }
}

bool lower_ticket(const KernelLow *kl)
{
    return (kl->k->red_vars.len && !kl->red_atomic) || kl->absorbed;
}

RegionLow *lower_region(Unit *u, Region *r, const LowerOptions *o)
{
    RegionLow *l = arena_alloc(u->arena, sizeof *l);
    memset(l, 0, sizeof *l);
    l->r = r;
    for (int i = 0; i < r->plan->kernels.len; i++)
        vec_push(u->arena, &l->kernels, lower_kernel(u, vec_at(&r->plan->kernels, i), o));
    TempSink t = {u->arena, r, &l->temps};
    ir_stmt_find(r->body, temp_decl, &t);
    lower_graph(l);
    lower_block(l);
    if (!l->graph && !l->block)
        absorb_steps(u, l, &r->plan->steps, false);
    return l;
}

bool lower_symm_tiled(const Kernel *k)
{
    const LibCall *lc = k->lib;
    if (!lc || lc->ops.len != 1 || lc->epi || lc->init || lc->epilogue)
        return false;
    const LibOp *op = vec_at(&lc->ops, 0);
    TypeKind t = type_elem(op->c->ty)->kind;
    return op->kind == L_SYMM && (t == TY_FLOAT || t == TY_DOUBLE);
}

const char *lower_tiled_text(Unit *u, Region *r, const Kernel *k)
{
    LowerOptions o = {0};
    KernelLow *kl = lower_of(lower_region(u, r, &o), k);
    if (kl->shape != SH_TILED)
        return NULL;
    Buf b = {0};
    buf_printf(&b, "tiled %dx%d", GF_TILE_SIDE * kl->tile_r[0], GF_TILE_SIDE * kl->tile_r[1]);
    if (kl->tile_r[0] * kl->tile_r[1] > 1)
        buf_printf(&b, " (%dx%d per thread, k by %d)", kl->tile_r[0], kl->tile_r[1], kl->tile_kc);
    buf_printf(&b, "%s, shared:", kl->tri ? " over a triangle" : "");
    Vec seen = {0};
    for (int i = 0; i < kl->staged.len; i++) {
        Var *v = ((Staged *)vec_at(&kl->staged, i))->e->var;
        if (!in(&seen, v))
            buf_printf(&b, "%s %s", seen.len ? "," : "", v->name);
        add_once(u->arena, &seen, v);
    }
    const char *t = arena_printf(u->arena, "%s", b.data);
    buf_free(&b);
    return t;
}

const Kernel *lower_absorbed_by(Unit *u, Region *r, const Kernel *k)
{
    LowerOptions o = {0};
    const KernelLow *kl = lower_of(lower_region(u, r, &o), k);
    return kl->via == VIA_ABSORBED ? kl->into : NULL;
}

const char *lower_absorbed_text(Unit *u, Region *r, const Kernel *k)
{
    const Kernel *into = lower_absorbed_by(u, r, k);
    if (!into)
        return NULL;
    return arena_printf(u->arena, "on the GPU run by every thread of %s at its start, its stores made by the last "
                                  "block (one launch fewer)", into->name);
}

const char *lower_host_loop_text(Unit *u, Region *r, const HostLoop *hl)
{
    int absorbed = 0;
    Buf b = {0};
    for (int i = 0; i < hl->kernels.len; i++) {
        const Kernel *k = vec_at(&hl->kernels, i);
        const Kernel *into = lower_absorbed_by(u, r, k);
        if (!into)
            continue;
        buf_printf(&b, "%s%s runs in the threads of %s", absorbed ? ", " : "", k->name, into->name);
        absorbed++;
    }
    if (!absorbed)
        return NULL;
    int launches = hl->launches - absorbed;
    const char *t = arena_printf(u->arena, "line %d: on the GPU %d launch%s in each iteration: %s", hl->loop->loc.line,
                                 launches, launches == 1 ? "" : "es", b.data);
    buf_free(&b);
    return t;
}

KernelLow *lower_of(const RegionLow *l, const Kernel *k)
{
    for (int i = 0; i < l->kernels.len; i++) {
        KernelLow *kl = vec_at(&l->kernels, i);
        if (kl->k == k)
            return kl;
    }
    unreachable();
}

RowLoop *lower_row_loop(const KernelLow *kl, const Stmt *loop)
{
    for (int i = 0; i < kl->row_loops.len; i++) {
        RowLoop *rl = vec_at(&kl->row_loops, i);
        if (rl->loop == loop)
            return rl;
    }
    unreachable();
}
