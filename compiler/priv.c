/* priv.c - where the written order hides parallelism (SPEC §1), two
 * rewrites of the region IR, each done only when isl proves it legal and
 * only when it makes a loop parallel.  They run between deps_model and
 * deps_check (driver.c); after each one the model is rebuilt.
 *
 * Privatisation.  A temporary (a VLA or malloc'd array of the function)
 * that each iteration of a loop overwrites before reading it serialises the
 * loop through its anti and output dependences only.  When every value read
 * from it inside the loop was written earlier in the same iteration (isl's
 * value-based flow analysis, deps_private_flow), it is not used outside the
 * loop (not live-in, not live-out), and the loop carries no other
 * dependence (deps_parallel_without), each iteration gets its own copy:
 *   - a small constant-size array (at most GF_PRIVATE_MAX elements) moves
 *     into the loop body: an array private to each iteration, a per-thread
 *     array in the kernel (like `float t[64];` written inside the loop);
 *   - any other one is expanded by the loop's trip count: t[m] becomes
 *     t[n][m] indexed by the loop index, device scratch reserved by the
 *     launcher like every temporary.
 * A cheap producer has already been recomputed at its reads (inline.c).
 *
 * Distribution.  A loop that carries dependences only because of the order
 * of its statements, `a[i] = x[i]; c[i] = a[i-1];`, is split into the
 * strongly connected components of its statements' dependence graph (from
 * isl's dependences, deps_body_graph), each a loop of its own, in a
 * topological order of the components (the written order where free).  A
 * component whose statements carry a dependence between them stays a
 * sequential loop, which is done only when a parallel loop inside it
 * remains (a sweep over rows); with none (a running sum) the loop stays as
 * written, and the function keeps its CPU body with the usual diagnostic
 * when nothing else is parallel.  Statements that share a local declared in the body
 * stay together (a local lives in one loop).  Fusion (fuse.c) and the
 * recomputation of cheap producers (inline.c, run again) then decide which
 * pieces become one kernel again. */
#include "gfc.h"

#include <stdlib.h>
#include <string.h>

#define MAX_KIDS 64              /* statements of a loop body distributed */
#define MAX_PRIV 16              /* temporaries privatised for one loop */

typedef struct Pv {
    Unit *u;
    Region *r;
    Arena *a;
    Vec done;                    /* Var*: temporaries already rewritten */
} Pv;

static bool in_set(const Vec *s, const void *x)
{
    for (int i = 0; i < s->len; i++)
        if (vec_at(s, i) == x)
            return true;
    return false;
}

static bool is_use(const Expr *e, const void *v)
{
    return (e->kind == E_VAR || e->kind == E_INDEX) && e->var == v;
}

static bool is_bare(const Expr *e, const void *v)
{
    return e->kind == E_VAR && e->var == v;
}

static bool stmt_uses(const Stmt *s, const Var *v)
{
    return ir_stmt_any(s, is_use, v);
}

/* What a statement reads or writes itself (not its sub-statements). */
static bool own_uses(const Stmt *s, const Var *v)
{
    switch (s->kind) {
    case S_BLOCK: return false;
    case S_FOR: return ir_expr_any(s->lb, is_use, v) || ir_expr_any(s->ub, is_use, v);
    case S_WHILE:
    case S_IF: return ir_expr_any(s->cond, is_use, v);
    case S_DECL: return s->var != v && ir_expr_any(s->rhs, is_use, v);
    case S_FREE: return false;
    default: return ir_stmt_any(s, is_use, v);
    }
}

/* The first statement outside `loop` that uses v (its declaration and free
 * aside), or NULL. */
static const Stmt *use_outside(const Stmt *s, const Stmt *loop, const Var *v)
{
    if (!s || s == loop)
        return NULL;
    if (own_uses(s, v))
        return s;
    const Stmt *x = NULL;
    switch (s->kind) {
    case S_BLOCK:
        for (int i = 0; i < s->list.len && !x; i++)
            x = use_outside(vec_at(&s->list, i), loop, v);
        return x;
    case S_FOR:
    case S_WHILE: return use_outside(s->body, loop, v);
    case S_IF:
        x = use_outside(s->then, loop, v);
        return x ? x : use_outside(s->els, loop, v);
    default: return NULL;
    }
}

typedef struct Sub {
    const Var *v;
    const Stmt *bad;             /* a statement with a subscript of v that is not affine */
    Arena *a;
} Sub;

static bool non_affine(const Expr *e, const void *arg)
{
    Sub *s = (Sub *)arg;
    if (e->kind != E_INDEX || e->var != s->v)
        return false;
    for (int i = 0; i < e->nkids; i++)
        if (!aff_of(s->a, e->kids[i]))
            return true;
    return false;
}

static const Stmt *find_non_affine(const Stmt *s, Sub *sub)
{
    if (!s)
        return NULL;
    switch (s->kind) {
    case S_BLOCK:
        for (int i = 0; i < s->list.len; i++) {
            const Stmt *x = find_non_affine(vec_at(&s->list, i), sub);
            if (x)
                return x;
        }
        return NULL;
    case S_FOR:
        if (ir_expr_any(s->lb, non_affine, sub) || ir_expr_any(s->ub, non_affine, sub))
            return s;
        return find_non_affine(s->body, sub);
    case S_WHILE: return ir_expr_any(s->cond, non_affine, sub) ? s : find_non_affine(s->body, sub);
    case S_IF: {
        if (ir_expr_any(s->cond, non_affine, sub))
            return s;
        const Stmt *x = find_non_affine(s->then, sub);
        return x ? x : find_non_affine(s->els, sub);
    }
    default: return ir_stmt_any(s, non_affine, sub) ? s : NULL;
    }
}

/* A constant integer expression's value. */
static bool const_value(const Expr *e, long long *out)
{
    if (!e)
        return false;
    switch (e->kind) {
    case E_INT: {
        char *end;
        long long v = strtoll(e->text, &end, 0);
        while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
            end++;
        if (*end)
            return false;
        *out = v;
        return true;
    }
    case E_CAST: return type_is_integer(e->ty) && const_value(e->kids[0], out);
    case E_BINARY: {
        long long x, y;
        if (!const_value(e->kids[0], &x) || !const_value(e->kids[1], &y) || x < 0 || y < 0 || x > (1LL << 30) ||
            y > (1LL << 30))
            return false;
        if (e->op == OP_MUL)
            *out = x * y;
        else if (e->op == OP_ADD)
            *out = x + y;
        else if (e->op == OP_SUB)
            *out = x - y;
        else
            return false;
        return true;
    }
    default: return false;
    }
}

/* The element count of a temporary when its size is a constant, else -1. */
static long long const_elems(const Var *t)
{
    long long n = 1;
    for (int d = 0; d < t->ndims; d++) {
        long long k;
        if (!const_value(t->dims[d], &k) || k < 0 || k > (1LL << 30))
            return -1;
        n *= k;
        if (n > (1LL << 40))
            return -1;
    }
    return n;
}

static bool not_param(const Expr *e, const void *arg)
{
    (void)arg;
    return (e->kind == E_VAR && (e->var->kind != V_PARAM || e->var->is_array)) || e->kind == E_INDEX ||
           e->kind == E_CALL;
}

/* ---- the original body ----------------------------------------------------------
 * gf_seq_<name> runs when arguments overlap, where the dependences the
 * rewrites relied on do not hold: it keeps the body as written. */

static Expr *clone(Arena *a, const Expr *e);

static Stmt *copy_stmt(Arena *a, const Stmt *s, Stmt *parent)
{
    if (!s)
        return NULL;
    Stmt *c = arena_alloc(a, sizeof *c);
    *c = *s;
    c->parent = parent;
    switch (s->kind) {
    case S_BLOCK:
        memset(&c->list, 0, sizeof c->list);
        for (int i = 0; i < s->list.len; i++)
            vec_push(a, &c->list, copy_stmt(a, vec_at(&s->list, i), c));
        break;
    case S_FOR:
        c->lb = clone(a, s->lb);
        c->ub = clone(a, s->ub);
        c->body = copy_stmt(a, s->body, c);
        break;
    case S_WHILE:
        c->cond = clone(a, s->cond);
        c->body = copy_stmt(a, s->body, c);
        break;
    case S_IF:
        c->cond = clone(a, s->cond);
        c->then = copy_stmt(a, s->then, c);
        c->els = copy_stmt(a, s->els, c);
        break;
    default:
        c->lhs = clone(a, s->lhs);
        c->rhs = clone(a, s->rhs);
        break;
    }
    return c;
}

static void seq_var_expr(Expr *e, const Var *from, Var *to)
{
    if (!e)
        return;
    if ((e->kind == E_VAR || e->kind == E_INDEX) && e->var == from)
        e->var = to;
    for (int i = 0; i < e->nkids; i++)
        seq_var_expr(e->kids[i], from, to);
}

/* The copy's references to `from` become `to` (in place: a deep copy). */
static void seq_var(Stmt *s, const Var *from, Var *to)
{
    if (!s)
        return;
    if ((s->kind == S_DECL || s->kind == S_FREE) && s->var == from)
        s->var = to;
    switch (s->kind) {
    case S_BLOCK:
        for (int i = 0; i < s->list.len; i++)
            seq_var(vec_at(&s->list, i), from, to);
        return;
    case S_FOR:
        seq_var_expr(s->lb, from, to);
        seq_var_expr(s->ub, from, to);
        seq_var(s->body, from, to);
        return;
    case S_WHILE:
        seq_var_expr(s->cond, from, to);
        seq_var(s->body, from, to);
        return;
    case S_IF:
        seq_var_expr(s->cond, from, to);
        seq_var(s->then, from, to);
        seq_var(s->els, from, to);
        return;
    default:
        seq_var_expr(s->lhs, from, to);
        seq_var_expr(s->rhs, from, to);
        return;
    }
}

/* The copy gets temporaries of its own, as declared: the rewrites and a
 * later recomputation (inline.c) change the region's. */
static void snapshot(Pv *pv)
{
    Region *r = pv->r;
    if (r->seq_body)
        return;
    r->seq_body = copy_stmt(pv->a, r->body, NULL);
    for (int i = 0; i < r->vars.len; i++) {
        Var *t = vec_at(&r->vars, i);
        if (!t->is_temp || !t->decl)
            continue;
        Var *o = arena_alloc(pv->a, sizeof *o);
        *o = *t;
        seq_var(r->seq_body, t, o);
    }
}

/* ---- privatisation ---------------------------------------------------------------- */

/* Why t cannot be private to each iteration of loop, or NULL. */
static const char *priv_legal(Pv *pv, Var *t, Stmt *loop)
{
    Region *r = pv->r;
    const Stmt *out = use_outside(r->body, loop, t);
    if (out) {
        if (out->loc.line > loop->end_line)
            return arena_printf(pv->a, "it is used after the loop, on line %d, so its last values are live there",
                                out->loc.line);
        return arena_printf(pv->a, "line %d uses it before the loop", out->loc.line);
    }
    if (ir_stmt_any(loop, is_bare, t))
        return "it is passed whole to a library call";
    Sub sub = {t, NULL, pv->a};
    const Stmt *bad = find_non_affine(loop, &sub);
    if (bad)
        return arena_printf(pv->a, "a subscript of '%s' on line %d is not affine", t->name, bad->loc.line);
    long long n = const_elems(t);
    if (n < 0 || n > GF_PRIVATE_MAX) {
        /* expanded by the trip count: known where t is declared */
        if (loop->step != 1 || ir_expr_any(loop->lb, not_param, NULL) || ir_expr_any(loop->ub, not_param, NULL))
            return arena_printf(pv->a, "one copy per iteration needs the trip count of loop '%s' where '%s' is "
                                "declared (bounds in the parameters, step 1)", loop->iv->name, t->name);
    }
    return deps_private_flow(r, t, loop);
}

static Expr *mk(Arena *a, ExprKind k, Type *ty, const char *text, int nkids)
{
    Expr *e = arena_alloc(a, sizeof *e);
    e->kind = k;
    e->ty = ty;
    e->text = text;
    e->nkids = nkids;
    if (nkids)
        e->kids = arena_alloc(a, sizeof(Expr *) * (size_t)nkids);
    return e;
}

static Expr *mk_binary(Arena *a, Op op, Type *ty)
{
    Expr *e = mk(a, E_BINARY, ty, NULL, 2);
    e->op = op;
    return e;
}

static Expr *clone(Arena *a, const Expr *e)
{
    if (!e)
        return NULL;
    Expr *c = arena_alloc(a, sizeof *c);
    *c = *e;
    c->aff = NULL;
    if (e->nkids) {
        c->kids = arena_alloc(a, sizeof(Expr *) * (size_t)e->nkids);
        for (int i = 0; i < e->nkids; i++)
            c->kids[i] = clone(a, e->kids[i]);
    }
    return c;
}

static bool is_zero(const Expr *e)
{
    long long v;
    return const_value(e, &v) && v == 0;
}

/* Every t[e...] under s becomes t[iv - lb][e...] (t[0][e...] without a loop). */
static void expand_expr(Arena *a, Expr *e, Var *t, Stmt *loop, Type *ity)
{
    if (!e)
        return;
    for (int i = 0; i < e->nkids; i++)
        expand_expr(a, e->kids[i], t, loop, ity);
    if (e->kind != E_INDEX || e->var != t)
        return;
    Expr *idx;
    if (!loop) {
        idx = mk(a, E_INT, ity, "0", 0);
    } else {
        idx = mk(a, E_VAR, ity, NULL, 0);
        idx->var = loop->iv;
    }
    idx->loc = e->loc;
    if (loop && !is_zero(loop->lb)) {
        Expr *iv = idx;
        idx = mk_binary(a, OP_SUB, ity);
        idx->loc = e->loc;
        idx->kids[0] = iv;
        idx->kids[1] = clone(a, loop->lb);
    }
    Expr **kids = arena_alloc(a, sizeof(Expr *) * (size_t)(e->nkids + 1));
    kids[0] = idx;
    for (int i = 0; i < e->nkids; i++)
        kids[i + 1] = e->kids[i];
    e->kids = kids;
    e->nkids++;
    e->aff = NULL;
}

static void expand_stmt(Arena *a, Stmt *s, Var *t, Stmt *loop, Type *ity)
{
    if (!s)
        return;
    switch (s->kind) {
    case S_BLOCK:
        for (int i = 0; i < s->list.len; i++)
            expand_stmt(a, vec_at(&s->list, i), t, loop, ity);
        return;
    case S_FOR:
        expand_expr(a, s->lb, t, loop, ity);
        expand_expr(a, s->ub, t, loop, ity);
        expand_stmt(a, s->body, t, loop, ity);
        return;
    case S_WHILE:
        expand_expr(a, s->cond, t, loop, ity);
        expand_stmt(a, s->body, t, loop, ity);
        return;
    case S_IF:
        expand_expr(a, s->cond, t, loop, ity);
        expand_stmt(a, s->then, t, loop, ity);
        expand_stmt(a, s->els, t, loop, ity);
        return;
    case S_DECL:
    case S_RETURN:
    case S_LIB: expand_expr(a, s->rhs, t, loop, ity); return;
    case S_ASSIGN:
        expand_expr(a, s->lhs, t, loop, ity);
        expand_expr(a, s->rhs, t, loop, ity);
        return;
    case S_FREE: return;
    }
}

/* Removes t's declaration and free from the blocks at the host level. */
static Stmt *take_decl(Stmt *s, const Var *t)
{
    if (!s)
        return NULL;
    Stmt *found = NULL;
    if (s->kind == S_BLOCK) {
        int k = 0;
        for (int i = 0; i < s->list.len; i++) {
            Stmt *c = vec_at(&s->list, i);
            if ((c->kind == S_DECL || c->kind == S_FREE) && c->var == t) {
                if (c->kind == S_DECL)
                    found = c;
                continue;
            }
            Stmt *x = take_decl(c, t);
            found = found ? found : x;
            s->list.data[k++] = c;
        }
        s->list.len = k;
    } else if (s->kind == S_IF) {
        Stmt *x = take_decl(s->then, t), *y = take_decl(s->els, t);
        found = x ? x : y;
    } else if (s->kind == S_FOR || s->kind == S_WHILE) {
        found = take_decl(s->body, t);
    }
    return found;
}

static void priv_rewrite(Pv *pv, Var *t, Stmt *loop)
{
    Arena *a = pv->a;
    long long n = const_elems(t);
    int decl_line = t->loc.line;
    snapshot(pv);
    if (n >= 0 && n <= GF_PRIVATE_MAX) {
        /* a small constant size: declared inside the loop, one per thread */
        Stmt *decl = take_decl(pv->r->body, t);
        gfc_assert(decl);
        t->is_temp = false;
        t->is_private = true;
        t->priv_elems = n;
        t->depth = loop->depth + 1;
        decl->is_malloc = false;
        decl->depth = loop->depth + 1;
        Stmt *body = loop->body;
        if (body->kind != S_BLOCK) {
            Stmt *b = arena_alloc(a, sizeof *b);
            b->kind = S_BLOCK;
            b->loc = body->loc;
            b->end_line = body->end_line;
            b->id = -1;
            b->depth = body->depth;
            b->parent = loop;
            vec_push(a, &b->list, body);
            body->parent = b;
            loop->body = body = b;
        }
        vec_push(a, &body->list, decl);
        for (int i = body->list.len - 1; i > 0; i--)
            body->list.data[i] = body->list.data[i - 1];
        body->list.data[0] = decl;
        decl->parent = body;
        vec_push(a, &pv->r->notes,
                 arena_printf(a, "line %d: temporary '%s' is private to each iteration of loop '%s' (line %d; isl: "
                              "every element read is written earlier in the same iteration): declared inside the "
                              "loop, %lld element%s per iteration (a per-thread array on the GPU)",
                              decl_line, t->name, loop->iv->name, loop->loc.line, n, n == 1 ? "" : "s"));
        return;
    }
    /* expanded: one copy per iteration, t[iv - lb][...] */
    Type *ity = loop->iv->ty;
    Expr *trip;
    if (is_zero(loop->lb)) {
        /* n > 0 ? n : 0 */
        trip = mk(a, E_COND, ity, NULL, 3);
        Expr *gt = mk_binary(a, OP_GT, ity);
        gt->kids[0] = clone(a, loop->ub);
        gt->kids[1] = mk(a, E_INT, ity, "0", 0);
        trip->kids[0] = gt;
        trip->kids[1] = clone(a, loop->ub);
        trip->kids[2] = mk(a, E_INT, ity, "0", 0);
    } else {
        /* ub > lb ? ub - lb : 0 */
        trip = mk(a, E_COND, ity, NULL, 3);
        Expr *gt = mk_binary(a, OP_GT, ity);
        gt->kids[0] = clone(a, loop->ub);
        gt->kids[1] = clone(a, loop->lb);
        Expr *d = mk_binary(a, OP_SUB, ity);
        d->kids[0] = clone(a, loop->ub);
        d->kids[1] = clone(a, loop->lb);
        trip->kids[0] = gt;
        trip->kids[1] = d;
        trip->kids[2] = mk(a, E_INT, ity, "0", 0);
    }
    Expr **dims = arena_alloc(a, sizeof(Expr *) * (size_t)(t->ndims + 1));
    dims[0] = trip;
    for (int d = 0; d < t->ndims; d++)
        dims[d + 1] = t->dims[d];
    t->dims = dims;
    t->ndims++;
    t->delin = NULL;
    t->delin_bad = t->delin_plain = false;
    expand_stmt(a, loop, t, loop, ity);
    vec_push(a, &pv->r->notes,
             arena_printf(a, "line %d: temporary '%s' is private to each iteration of loop '%s' (line %d; isl: every "
                          "element read is written earlier in the same iteration): expanded to one copy per "
                          "iteration, indexed by '%s'", decl_line, t->name, loop->iv->name, loop->loc.line,
                          loop->iv->name));
}

/* Privatises the temporaries that keep `loop` from being parallel. */
static bool try_privatise(Pv *pv, Stmt *loop)
{
    Region *r = pv->r;
    Var *T[MAX_PRIV];
    int n = 0;
    for (int i = 0; i < r->vars.len && n < MAX_PRIV; i++) {
        Var *t = vec_at(&r->vars, i);
        if (!t->is_temp || !t->decl || in_set(&pv->done, t) || !stmt_uses(loop->body, t))
            continue;
        const char *why = priv_legal(pv, t, loop);
        if (why) {
            if (!t->priv_why)
                t->priv_why = why;
            continue;
        }
        T[n++] = t;
    }
    if (!n || !deps_parallel_without(r, loop, T, n))
        return false;
    /* only those the loop needs */
    for (int i = 0; i < n;) {
        Var *rest[MAX_PRIV];
        int k = 0;
        for (int j = 0; j < n; j++)
            if (j != i)
                rest[k++] = T[j];
        if (deps_parallel_without(r, loop, rest, k)) {
            memcpy(T, rest, sizeof(Var *) * (size_t)k);
            n = k;
        } else {
            i++;
        }
    }
    for (int i = 0; i < n; i++) {
        priv_rewrite(pv, T[i], loop);
        T[i]->priv_why = NULL;
        vec_push(pv->a, &pv->done, T[i]);
    }
    return true;
}

/* Loops that run on the host (not inside a parallel loop), outermost first. */
static bool privatise_once(Pv *pv, Stmt *s)
{
    if (!s)
        return false;
    if (s->kind == S_BLOCK) {
        for (int i = 0; i < s->list.len; i++)
            if (privatise_once(pv, vec_at(&s->list, i)))
                return true;
        return false;
    }
    if (s->kind != S_FOR || s->parallel)
        return false;
    return try_privatise(pv, s) || privatise_once(pv, s->body);
}

/* ---- distribution ------------------------------------------------------------------ */

static int find(int *up, int x)
{
    while (up[x] != x)
        x = up[x] = up[up[x]];
    return x;
}

static void unite(int *up, int x, int y)
{
    x = find(up, x);
    y = find(up, y);
    if (x != y)
        up[x > y ? x : y] = x < y ? x : y;
}

static bool has_pstmt(const Stmt *s)
{
    if (!s)
        return false;
    if (s->id >= 0)
        return true;
    switch (s->kind) {
    case S_BLOCK:
        for (int i = 0; i < s->list.len; i++)
            if (has_pstmt(vec_at(&s->list, i)))
                return true;
        return false;
    case S_FOR:
    case S_WHILE: return has_pstmt(s->body);
    case S_IF: return has_pstmt(s->then) || has_pstmt(s->els);
    default: return false;
    }
}

static bool has_parallel_loop(const Stmt *s)
{
    if (!s)
        return false;
    switch (s->kind) {
    case S_BLOCK:
        for (int i = 0; i < s->list.len; i++)
            if (has_parallel_loop(vec_at(&s->list, i)))
                return true;
        return false;
    case S_FOR: return s->parallel || has_parallel_loop(s->body);
    case S_IF: return has_parallel_loop(s->then) || has_parallel_loop(s->els);
    default: return false;
    }
}

/* A copy of e with `from` renamed `to` (nodes that do not mention it are shared). */
static Expr *rename_expr(Arena *a, Expr *e, const Var *from, Var *to)
{
    if (!e || !ir_expr_any(e, is_bare, from))
        return e;
    Expr *c = arena_alloc(a, sizeof *c);
    *c = *e;
    c->aff = NULL;
    if (c->kind == E_VAR && c->var == from)
        c->var = to;
    if (e->nkids) {
        c->kids = arena_alloc(a, sizeof(Expr *) * (size_t)e->nkids);
        for (int i = 0; i < e->nkids; i++)
            c->kids[i] = rename_expr(a, e->kids[i], from, to);
    }
    return c;
}

static void rename_stmt(Arena *a, Stmt *s, const Var *from, Var *to)
{
    if (!s)
        return;
    switch (s->kind) {
    case S_BLOCK:
        for (int i = 0; i < s->list.len; i++)
            rename_stmt(a, vec_at(&s->list, i), from, to);
        return;
    case S_FOR:
        s->lb = rename_expr(a, s->lb, from, to);
        s->ub = rename_expr(a, s->ub, from, to);
        rename_stmt(a, s->body, from, to);
        return;
    case S_WHILE:
        s->cond = rename_expr(a, s->cond, from, to);
        rename_stmt(a, s->body, from, to);
        return;
    case S_IF:
        s->cond = rename_expr(a, s->cond, from, to);
        rename_stmt(a, s->then, from, to);
        rename_stmt(a, s->els, from, to);
        return;
    case S_DECL:
    case S_RETURN:
    case S_LIB: s->rhs = rename_expr(a, s->rhs, from, to); return;
    case S_ASSIGN:
        s->lhs = rename_expr(a, s->lhs, from, to);
        s->rhs = rename_expr(a, s->rhs, from, to);
        return;
    case S_FREE: return;
    }
}

/* A new loop index like `old`, with a name of its own in generated code. */
static Var *fresh_iv(Pv *pv, const Var *old)
{
    Var *v = arena_alloc(pv->a, sizeof *v);
    *v = *old;
    v->id = pv->r->vars.len;
    const char *base = decls_cname(pv->a, old->name);
    v->cname = base;
    for (int i = 0, n = 1; i < pv->r->vars.len; i++) {
        Var *o = vec_at(&pv->r->vars, i);
        if (!strcmp(o->cname, v->cname)) {
            v->cname = arena_printf(pv->a, "%s_%d", base, n++);
            i = -1;
        }
    }
    vec_push(pv->a, &pv->r->vars, v);
    return v;
}

static Stmt *parent_of(Stmt *s, const Stmt *x)
{
    if (!s)
        return NULL;
    switch (s->kind) {
    case S_BLOCK:
        for (int i = 0; i < s->list.len; i++) {
            Stmt *c = vec_at(&s->list, i);
            if (c == x)
                return s;
            Stmt *p = parent_of(c, x);
            if (p)
                return p;
        }
        return NULL;
    case S_FOR:
        if (s->body == x)
            return s;
        return parent_of(s->body, x);
    default: return NULL;            /* host-level loops are in blocks and loops only */
    }
}

static bool try_distribute(Pv *pv, Stmt *loop)
{
    Arena *a = pv->a;
    Stmt *body = loop->body;
    if (!body || body->kind != S_BLOCK || body->list.len < 2 || body->list.len > MAX_KIDS)
        return false;
    int n = body->list.len;
    Stmt **kids = (Stmt **)body->list.data;
    bool *edge = arena_alloc(a, sizeof(bool) * (size_t)(n * n)), *carried = arena_alloc(a, sizeof(bool) * (size_t)(n * n));
    deps_body_graph(pv->r, loop, kids, n, edge, carried);
    /* statements that share a local of the body stay together; one with no
     * polyhedral statement (an unused array declaration) goes with the next */
    int up[MAX_KIDS];
    for (int k = 0; k < n; k++)
        up[k] = k;
    for (int k = 0; k < n; k++) {
        if (kids[k]->kind == S_DECL)
            for (int j = 0; j < n; j++)
                if (j != k && stmt_uses(kids[j], kids[k]->var))
                    unite(up, k, j);
        if (!has_pstmt(kids[k]))
            unite(up, k, k + 1 < n ? k + 1 : k - 1);
    }
    /* strongly connected components of the groups' graph: reach[x][y] */
    static bool reach[MAX_KIDS][MAX_KIDS];
    memset(reach, 0, sizeof reach);
    for (int x = 0; x < n; x++) {
        reach[find(up, x)][find(up, x)] = true;
        for (int y = 0; y < n; y++)
            if (edge[x * n + y])
                reach[find(up, x)][find(up, y)] = true;
    }
    for (int k = 0; k < n; k++)
        for (int x = 0; x < n; x++)
            if (reach[x][k])
                for (int y = 0; y < n; y++)
                    if (reach[k][y])
                        reach[x][y] = true;
    int comp[MAX_KIDS], ncomp = 0;
    for (int k = 0; k < n; k++) {
        int g = find(up, k);
        comp[k] = -1;
        for (int j = 0; j < k; j++) {
            int h = find(up, j);
            if (reach[g][h] && reach[h][g]) {
                comp[k] = comp[j];
                break;
            }
        }
        if (comp[k] < 0)
            comp[k] = ncomp++;
    }
    if (ncomp < 2)
        return false;
    /* a component is parallel when no dependence inside it is carried */
    bool par[MAX_KIDS];
    int npar = 0;
    for (int c = 0; c < ncomp; c++) {
        par[c] = true;
        for (int x = 0; x < n; x++)
            for (int y = 0; y < n; y++)
                if (comp[x] == c && comp[y] == c && carried[x * n + y])
                    par[c] = false;
        npar += par[c];
    }
    if (!npar)
        return false;
    /* a sequential component with no parallel loop inside would run one
     * statement at a time (a running sum): the loop stays as written, and
     * the function keeps its CPU body as before when nothing else is
     * parallel */
    for (int c = 0; c < ncomp; c++) {
        bool inner = false;
        for (int k = 0; k < n && !par[c]; k++)
            if (comp[k] == c && has_parallel_loop(kids[k]))
                inner = true;
        if (!par[c] && !inner)
            return false;
    }
    /* topological order of the components, the written order where free */
    int order[MAX_KIDS];
    bool placed[MAX_KIDS] = {0};
    for (int o = 0; o < ncomp; o++) {
        int pick = -1;
        for (int c = 0; c < ncomp && pick < 0; c++) {
            if (placed[c])
                continue;
            bool ready = true;
            for (int x = 0; x < n && ready; x++)
                for (int y = 0; y < n && ready; y++)
                    if (comp[y] == c && comp[x] != c && !placed[comp[x]] && edge[x * n + y])
                        ready = false;
            if (ready)
                pick = c;    /* components are numbered by their first statement */
        }
        gfc_assert(pick >= 0);
        placed[pick] = true;
        order[o] = pick;
    }
    snapshot(pv);
    /* the pieces: the first keeps the loop (and its index) */
    Stmt *pieces[MAX_KIDS];
    char *desc = arena_strdup(a, "");
    for (int o = 0; o < ncomp; o++) {
        int c = order[o];
        Stmt *l = o == 0 ? loop : arena_alloc(a, sizeof *l);
        if (o)
            *l = *loop;
        Stmt *b = arena_alloc(a, sizeof *b);
        *b = *body;
        memset(&b->list, 0, sizeof b->list);
        b->parent = l;
        int lo = 0, hi = 0;
        for (int k = 0; k < n; k++) {
            if (comp[k] != c)
                continue;
            vec_push(a, &b->list, kids[k]);
            kids[k]->parent = b;
            if (!lo || kids[k]->loc.line < lo)
                lo = kids[k]->loc.line;
            if (kids[k]->end_line > hi)
                hi = kids[k]->end_line;
        }
        l->body = b;
        l->end_line = hi;
        l->parallel = l->reduction = l->interchanged = false;
        if (o) {
            Var *iv = fresh_iv(pv, loop->iv);
            rename_stmt(a, b, loop->iv, iv);
            l->iv = iv;
            l->lb = clone(a, loop->lb);
            l->ub = clone(a, loop->ub);
        }
        pieces[o] = l;
        desc = arena_printf(a, "%s%s%s (%s)", desc, o ? ", " : "",
                            lo == hi ? arena_printf(a, "line %d", lo) : arena_printf(a, "lines %d-%d", lo, hi),
                            par[c] ? "parallel" : "sequential: its statements depend on earlier iterations");
    }
    /* in place of the loop, in its block */
    Stmt *parent = parent_of(pv->r->body, loop);
    gfc_assert(parent);
    if (parent->kind == S_FOR) {
        Stmt *nb = arena_alloc(a, sizeof *nb);
        nb->kind = S_BLOCK;
        nb->loc = loop->loc;
        nb->end_line = loop->end_line;
        nb->id = -1;
        nb->depth = loop->depth;
        nb->parent = parent;
        vec_push(a, &nb->list, loop);
        parent->body = nb;
        parent = nb;
    }
    Vec list = {0};
    for (int i = 0; i < parent->list.len; i++) {
        Stmt *c = vec_at(&parent->list, i);
        if (c != loop) {
            vec_push(a, &list, c);
            continue;
        }
        for (int o = 0; o < ncomp; o++) {
            vec_push(a, &list, pieces[o]);
            pieces[o]->parent = parent;
        }
    }
    parent->list = list;
    vec_push(a, &pv->r->notes,
             arena_printf(a, "line %d: loop '%s' distributed into %d loops by the dependences between its statements "
                          "(isl), in this order: %s", loop->loc.line, loop->iv->name, ncomp, desc));
    return true;
}

static bool distribute_once(Pv *pv, Stmt *s)
{
    if (!s)
        return false;
    if (s->kind == S_BLOCK) {
        for (int i = 0; i < s->list.len; i++)
            if (distribute_once(pv, vec_at(&s->list, i)))
                return true;
        return false;
    }
    if (s->kind != S_FOR || s->parallel)
        return false;
    return try_distribute(pv, s) || distribute_once(pv, s->body);
}

/* ---- the pass ---------------------------------------------------------------------- */

/* Notes for the arrays declared inside loops (private as written). */
static void note_private(Pv *pv, Stmt *s, Stmt *loop)
{
    if (!s)
        return;
    switch (s->kind) {
    case S_BLOCK:
        for (int i = 0; i < s->list.len; i++)
            note_private(pv, vec_at(&s->list, i), loop);
        return;
    case S_FOR: note_private(pv, s->body, s); return;
    case S_WHILE: note_private(pv, s->body, loop); return;
    case S_IF:
        note_private(pv, s->then, loop);
        note_private(pv, s->els, loop);
        return;
    case S_DECL:
        if (s->var->is_private && loop)
            vec_push(pv->a, &pv->r->notes,
                     arena_printf(pv->a, "line %d: local array '%s' (%lld element%s) is private to each iteration "
                                  "of loop '%s': a per-thread array on the GPU", s->loc.line, s->var->name,
                                  s->var->priv_elems, s->var->priv_elems == 1 ? "" : "s", loop->iv->name));
        return;
    default: return;
    }
}

bool priv_region(Unit *u, Region *r)
{
    Pv pv = {u, r, u->arena, {0}};
    note_private(&pv, r->body, NULL);
    bool changed = false;
    /* one rewrite at a time: each changes the dependences the next one sees */
    for (int n = 0; n < 32; n++) {
        /* why a temporary is not privatised: for the model at hand */
        for (int i = 0; i < r->vars.len; i++)
            ((Var *)vec_at(&r->vars, i))->priv_why = NULL;
        if (!privatise_once(&pv, r->body) && !distribute_once(&pv, r->body))
            break;
        changed = true;
        deps_free(r);
        deps_model(u, r);
    }
    return changed;
}
