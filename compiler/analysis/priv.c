/* priv.c - where the written order hides parallelism (SPEC §1), two
 * rewrites of the region IR, each done only when isl proves it legal and
 * only when it makes a loop parallel.  They run between deps_model and
 * deps_check (driver.c); after each one the model is rebuilt.
 *
 * Privatisation.  A temporary (a VLA or malloc'd array of the function),
 * or a scalar local declared outside the loop (PolyBench symm's `temp2`),
 * that each iteration of a loop overwrites before reading it serialises the
 * loop through its anti and output dependences only.  When every value read
 * from it inside the loop was written earlier in the same iteration (isl's
 * value-based flow analysis, deps_private_flow), it is not used outside the
 * loop (not live-in, not live-out), and the loop carries no other
 * dependence (deps_parallel_without), each iteration gets its own copy:
 *   - a scalar, or a small constant-size array (at most GF_PRIVATE_MAX
 *     elements), moves into the loop body: a register, or an array private
 *     to each iteration, a per-thread array in the kernel (like
 *     `float t[64];` written inside the loop); a scalar's initial value is
 *     dropped (never read, by the flow analysis);
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
    Vec done_at;                 /* Stmt*: the loop each of `done` was privatised for */
} Pv;

static int index_of(const Vec *s, const void *x)
{
    for (int i = s->len - 1; i >= 0; i--)
        if (vec_at(s, i) == x)
            return i;
    return -1;
}

/* Whether loop `in` is strictly inside loop `out`. */
static bool inside(const Stmt *out, const Stmt *in)
{
    for (const Stmt *s = in->parent; s; s = s->parent)
        if (s == out)
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

/* What a statement reads or writes itself (its bounds, condition, break
 * flag, target, value, array sizes; not its sub-statements).  Its own
 * declaration is no use of v. */
static bool own_uses(const Stmt *s, const Var *v)
{
    return !(s->kind == S_DECL && s->var == v) && ir_own_any(s, is_use, v);
}

typedef struct Outside {
    const Stmt *loop;
    const Var *v;
} Outside;

static IrFind uses_here(const Stmt *s, const void *arg)
{
    const Outside *o = arg;
    if (s == o->loop)
        return IR_SKIP;
    return own_uses(s, o->v) ? IR_FOUND : IR_NEXT;
}

/* The first statement outside `loop` that uses v (its declaration and free
 * aside), or NULL. */
static const Stmt *use_outside(const Stmt *s, const Stmt *loop, const Var *v)
{
    Outside o = {loop, v};
    return ir_stmt_find(s, uses_here, &o);
}

/* The statement through which s may read scalar v before writing it (an
 * upward-exposed read), or NULL; *kills: s writes v on every path before any
 * read.  A loop never kills (it may run no iteration), and reads only what
 * its body exposes. */
static const Stmt *exposed(const Stmt *s, const Var *v, bool *kills)
{
    *kills = false;
    if (!s)
        return NULL;
    bool k1, k2;
    const Stmt *x;
    switch (s->kind) {
    case S_BLOCK:
        for (int i = 0; i < s->list.len; i++) {
            if ((x = exposed(vec_at(&s->list, i), v, &k1)))
                return x;
            if (k1) {
                *kills = true;
                return NULL;
            }
        }
        return NULL;
    case S_FOR:
    case S_WHILE:
        if (own_uses(s, v))      /* bounds, condition, break flag */
            return s;
        return exposed(s->body, v, &k1);
    case S_IF:
        if (own_uses(s, v))
            return s;
        if ((x = exposed(s->then, v, &k1)) || (x = exposed(s->els, v, &k2)))
            return x;
        *kills = k1 && s->els && k2;
        return NULL;
    case S_ASSIGN:
        if (ir_expr_any(s->rhs, is_use, v))
            return s;
        if (s->lhs->kind == E_VAR && s->lhs->var == v) {
            if (s->op != OP_ASSIGN)
                return s;   /* v += ...: reads it */
            *kills = true;
            return NULL;
        }
        return ir_expr_any(s->lhs, is_use, v) ? s : NULL;
    case S_DECL:
        if (s->var == v) {
            *kills = true;     /* a new object */
            return NULL;
        }
        return own_uses(s, v) ? s : NULL;
    default: return own_uses(s, v) ? s : NULL;   /* return, library call, free */
    }
}

/* The first statement that can read a value `loop` leaves in scalar v, or
 * NULL: what follows the loop in its blocks, the next iterations of the
 * loops around it (their headers, their bodies from the top), and so on up
 * to the function's end. */
static const Stmt *live_after(const Stmt *loop, const Var *v)
{
    for (const Stmt *at = loop; at->parent; at = at->parent) {
        const Stmt *up = at->parent, *x;
        bool k = false;
        if (up->kind == S_BLOCK) {
            int i = 0;
            while (i < up->list.len && vec_at(&up->list, i) != at)
                i++;
            for (i++; i < up->list.len; i++) {
                if ((x = exposed(vec_at(&up->list, i), v, &k)))
                    return x;
                if (k)
                    return NULL;
            }
        } else if (up->kind == S_FOR || up->kind == S_WHILE) {
            if (ir_expr_any(up->cond, is_use, v) || ir_expr_any(up->brk, is_use, v))
                return up;
            if ((x = exposed(up->body, v, &k)))
                return x;
        }
    }
    return NULL;
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

static IrFind has_non_affine(const Stmt *s, const void *sub)
{
    return ir_own_any(s, non_affine, sub) ? IR_FOUND : IR_NEXT;
}

/* The first statement with a subscript of sub->v that is not affine. */
static const Stmt *find_non_affine(const Stmt *s, Sub *sub)
{
    return ir_stmt_find(s, has_non_affine, sub);
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

/* The copy gets temporaries of its own, as declared: the rewrites and a
 * later recomputation (inline.c) change the region's (ir_seq_snapshot). */
static void snapshot(Pv *pv)
{
    ir_seq_snapshot(pv->r, pv->a);
}

/* ---- privatisation ---------------------------------------------------------------- */

/* Why t cannot be private to each iteration of loop, or NULL. */
static const char *priv_legal(Pv *pv, Var *t, Stmt *loop)
{
    Region *r = pv->r;
    const Stmt *out = use_outside(r->body, loop, t);
    if (out && !t->is_array && !own_uses(loop, t)) {
        /* a scalar: only a read that can see the loop's last value matters;
         * other uses see other values (the loop gets a copy: split_scalar) */
        const Stmt *live = live_after(loop, t);
        if (!live)
            out = NULL;
        else if (live->loc.line > loop->end_line)
            return arena_printf(pv->a, "its last value can be read after the loop, on line %d", live->loc.line);
        else
            return arena_printf(pv->a, "its last value can be read by line %d in the next iteration of an "
                                "enclosing loop", live->loc.line);
    }
    if (out) {
        if (out->loc.line > loop->end_line)
            return arena_printf(pv->a, "it is used after the loop, on line %d, so its last values are live there",
                                out->loc.line);
        return arena_printf(pv->a, "line %d uses it before the loop", out->loc.line);
    }
    if (t->is_array && ir_stmt_any(loop, is_bare, t))
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

static bool is_zero(const Expr *e)
{
    long long v;
    return const_value(e, &v) && v == 0;
}

typedef struct Expand {
    IrVisitor v;
    Arena *a;
    Var *t;
    Stmt *loop;
    Type *ity;
} Expand;

/* After its subscripts: t[e...] becomes t[iv - lb][e...] (t[0][e...]
 * without a loop). */
static Expr *expand_expr(IrVisitor *v, Expr *e, Stmt *owner)
{
    (void)owner;
    Expand *x = (Expand *)v;
    Arena *a = x->a;
    Stmt *loop = x->loop;
    if (e->kind != E_INDEX || e->var != x->t)
        return e;
    Expr *idx;
    if (!loop) {
        idx = mk(a, E_INT, x->ity, "0", 0);
    } else {
        idx = mk(a, E_VAR, x->ity, NULL, 0);
        idx->var = loop->iv;
    }
    idx->loc = e->loc;
    if (loop && !is_zero(loop->lb)) {
        Expr *iv = idx;
        idx = mk_binary(a, OP_SUB, x->ity);
        idx->loc = e->loc;
        idx->kids[0] = iv;
        idx->kids[1] = ir_copy_expr(a, loop->lb);
    }
    Expr **kids = arena_alloc(a, sizeof(Expr *) * (size_t)(e->nkids + 1));
    kids[0] = idx;
    for (int i = 0; i < e->nkids; i++)
        kids[i + 1] = e->kids[i];
    e->kids = kids;
    e->nkids++;
    e->aff = NULL;
    return e;
}

/* Every t[e...] under s becomes t[iv - lb][e...]. */
static void expand_stmt(Arena *a, Stmt *s, Var *t, Stmt *loop, Type *ity)
{
    Expand x = {{.expr_after = expand_expr}, a, t, loop, ity};
    ir_visit_stmt(&x.v, s);
}

/* The loop under s (through blocks and ifs, not other loops) that holds
 * every use of v under s, or NULL: a descent along the one child that uses
 * v, not a traversal. */
static Stmt *only_loop_using(Stmt *s, const Var *v)
{
    while (s && stmt_uses(s, v)) {
        if (s->kind == S_FOR)
            return s;
        if (s->kind == S_IF) {
            if (own_uses(s, v) || (stmt_uses(s->then, v) && stmt_uses(s->els, v)))
                return NULL;
            s = stmt_uses(s->then, v) ? s->then : s->els;
            continue;
        }
        if (s->kind != S_BLOCK)
            return NULL;
        Stmt *one = NULL;
        for (int i = 0; i < s->list.len; i++) {
            Stmt *c = vec_at(&s->list, i);
            if (!stmt_uses(c, v))
                continue;
            if (one)
                return NULL;
            one = c;
        }
        s = one;
    }
    return NULL;
}

/* A scalar or a small array private to each iteration of `loop` goes as
 * deep as it stays private: into the loop inside that holds all its uses,
 * and so on (PolyBench doitgen's `sum[NP]`: into the loop over q, which is
 * then parallel too). */
static Stmt *scalar_home(Pv *pv, Var *t, Stmt *loop)
{
    for (;;) {
        Stmt *in = only_loop_using(loop->body, t);
        if (!in || own_uses(in, t) || deps_private_flow(pv->r, t, in))
            return loop;
        loop = in;
    }
}

static Var *fresh_iv(Pv *pv, const Var *old);
static Stmt *parent_of(Stmt *s, const Stmt *x);
static Expr *rename_expr(Arena *a, Expr *e, const Var *from, Var *to);
static bool has_parallel_loop(const Stmt *s);
static void rename_stmt(Arena *a, Stmt *s, const Var *from, Var *to);

/* Puts decl first in loop's body (made a block if it is not one). */
static void prepend_decl(Arena *a, Stmt *loop, Stmt *decl)
{
    Stmt *body = loop->body;
    if (body->kind != S_BLOCK)
        loop->body = body = ir_block_of(a, body, loop);
    vec_push(a, &body->list, decl);
    for (int i = body->list.len - 1; i > 0; i--)
        body->list.data[i] = body->list.data[i - 1];
    body->list.data[0] = decl;
    decl->parent = body;
}

/* Scalar t is private to each iteration of `loop` but also used elsewhere
 * (where no value of the loop's reaches: live_after): the loop gets a
 * variable of its own, declared at the top of its body, and priv_rewrite
 * moves that declaration as deep as it stays private. */
static Var *split_scalar(Pv *pv, Var *t, Stmt *loop)
{
    Arena *a = pv->a;
    snapshot(pv);
    Var *n = fresh_iv(pv, t);
    rename_stmt(a, loop->body, t, n);
    Stmt *decl = arena_alloc(a, sizeof *decl);
    decl->kind = S_DECL;
    decl->loc = t->decl ? t->decl->loc : loop->loc;
    decl->end_line = decl->loc.line;
    decl->id = -1;
    decl->var = n;
    decl->depth = loop->depth + 1;
    n->decl = decl;
    prepend_decl(a, loop, decl);
    return n;
}

/* Returns the variable now private: t, or the loop's own copy of it. */
static Var *priv_rewrite(Pv *pv, Var *t, Stmt *loop)
{
    Arena *a = pv->a;
    long long n = const_elems(t);
    int decl_line = t->loc.line;
    if (!t->is_array && use_outside(pv->r->body, loop, t))
        t = split_scalar(pv, t, loop);
    if (!t->is_array || (n >= 0 && n <= GF_PRIVATE_MAX))
        loop = scalar_home(pv, t, loop);   /* as deep as it stays private */
    snapshot(pv);
    if (n >= 0 && n <= GF_PRIVATE_MAX) {
        /* a scalar, or a small constant size: declared inside the loop, one
         * per thread */
        Stmt *decl = ir_take_decl(pv->r->body, t);
        gfc_assert(decl);
        if (t->is_array) {
            t->is_temp = false;
            t->is_private = true;
            t->priv_elems = n;
        } else {
            decl->rhs = NULL;    /* its initial value is never read (flow) */
        }
        t->depth = loop->depth + 1;
        decl->is_malloc = false;
        decl->depth = loop->depth + 1;
        prepend_decl(a, loop, decl);
        if (!t->is_array)
            vec_push(a, &pv->r->notes,
                     arena_printf(a, "line %d: scalar '%s' is private to each iteration of loop '%s' (line %d; isl: "
                                  "every value read is written earlier in the same iteration): declared inside the "
                                  "loop", decl_line, t->name, loop->iv->name, loop->loc.line));
        else
            vec_push(a, &pv->r->notes,
                     arena_printf(a, "line %d: temporary '%s' is private to each iteration of loop '%s' (line %d; "
                                  "isl: every element read is written earlier in the same iteration): declared "
                                  "inside the loop, %lld element%s per iteration (a per-thread array on the GPU)",
                                  decl_line, t->name, loop->iv->name, loop->loc.line, n, n == 1 ? "" : "s"));
        return t;
    }
    /* expanded: one copy per iteration, t[iv - lb][...] */
    Type *ity = loop->iv->ty;
    Expr *trip;
    if (is_zero(loop->lb)) {
        /* n > 0 ? n : 0 */
        trip = mk(a, E_COND, ity, NULL, 3);
        Expr *gt = mk_binary(a, OP_GT, ity);
        gt->kids[0] = ir_copy_expr(a, loop->ub);
        gt->kids[1] = mk(a, E_INT, ity, "0", 0);
        trip->kids[0] = gt;
        trip->kids[1] = ir_copy_expr(a, loop->ub);
        trip->kids[2] = mk(a, E_INT, ity, "0", 0);
    } else {
        /* ub > lb ? ub - lb : 0 */
        trip = mk(a, E_COND, ity, NULL, 3);
        Expr *gt = mk_binary(a, OP_GT, ity);
        gt->kids[0] = ir_copy_expr(a, loop->ub);
        gt->kids[1] = ir_copy_expr(a, loop->lb);
        Expr *d = mk_binary(a, OP_SUB, ity);
        d->kids[0] = ir_copy_expr(a, loop->ub);
        d->kids[1] = ir_copy_expr(a, loop->lb);
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
    return t;
}


/* ---- a parameter array private to each iteration: its last values copied out ------
 * PolyBench doitgen's `sum` is a parameter each (r, q) iteration fills
 * before reading it: private to each iteration but live after the call.
 * The loop gets a temporary of the same shape in its place (privatised
 * like any temporary in the next rounds), and at the end of the innermost
 * loop of the band around every use, in its last iteration only, the
 * temporary's elements are copied into the parameter: what the loop left
 * in it as written, since every iteration writes the same elements. */

typedef struct Band {
    Stmt *loops[8];              /* the loops the parameter is private to, outermost first */
    int n;
    Stmt *writes[MAX_KIDS];      /* the statements that write it, under the innermost */
    int nw;
} Band;

typedef struct Allowed {
    Stmt *const *ivs;            /* loops whose indices may appear */
    int n;
} Allowed;

/* Whether e names something other than the scalar parameters the body
 * never assigns and the indices of the allowed loops. */
static bool not_fixed(const Expr *e, const void *arg)
{
    const Allowed *al = arg;
    if (e->kind == E_INDEX || e->kind == E_CALL || e->kind == E_FIELD)
        return true;
    if (e->kind != E_VAR)
        return false;
    const Var *v = e->var;
    if (v->kind == V_PARAM)
        return v->is_array || v->scalar_written;
    for (int i = 0; i < al->n; i++)
        if (al->ivs[i]->iv == v)
            return false;
    return true;
}

static IrFind writes_of(const Stmt *s, const void *t)
{
    return s->kind == S_ASSIGN && s->lhs->kind == E_INDEX && s->lhs->var == t ? IR_FOUND : IR_NEXT;
}

/* The statements under s that write t (assignments to t[...]) with the
 * loops between: only blocks and loops of step 1 whose bounds, like the
 * subscripts, name no more than the scalar parameters and those loops'
 * indices, so that every iteration around s writes the same elements.
 * Why not, or NULL. */
static const char *same_writes(Pv *pv, Stmt *s, const Var *t, Stmt **path, int depth, Band *b)
{
    if (!stmt_uses(s, t))
        return NULL;
    Allowed al = {path, depth};
    switch (s->kind) {
    case S_BLOCK:
        for (int i = 0; i < s->list.len; i++) {
            const char *why = same_writes(pv, vec_at(&s->list, i), t, path, depth, b);
            if (why)
                return why;
        }
        return NULL;
    case S_FOR:
        if (depth >= 8)
            return "its writes are nested too deep";
        path[depth] = s;
        if (ir_expr_any(s->lb, not_fixed, &al) || ir_expr_any(s->ub, not_fixed, &al) || s->brk)
            return arena_printf(pv->a, "the loop on line %d around a write of it has bounds that may change between "
                                "iterations (or a break)", s->loc.line);
        return same_writes(pv, s->body, t, path, depth + 1, b);
    case S_ASSIGN:
        if (!(s->lhs->kind == E_INDEX && s->lhs->var == t))
            return NULL;   /* it reads t: the flow analysis decides */
        if (s->atomic)
            return arena_printf(pv->a, "line %d updates it through a subscript that may collide", s->loc.line);
        for (int i = 0; i < s->lhs->nkids; i++)
            if (ir_expr_any(s->lhs->kids[i], not_fixed, &al))
                return arena_printf(pv->a, "the element line %d writes depends on more than the loops around it "
                                    "and the parameters", s->loc.line);
        if (b->nw >= MAX_KIDS)
            return "it is written by too many statements";
        b->writes[b->nw++] = s;
        return NULL;
    default:
        /* reads only (the flow analysis decides), or writes under a
         * condition or a while loop: not the same elements each time */
        if (ir_stmt_find(s, writes_of, t))
            return arena_printf(pv->a, "line %d writes it under a condition or a while loop", s->loc.line);
        return NULL;
    }
}

/* Why parameter array t cannot be private to each iteration of `loop`
 * with its last values copied out, or NULL (b: the band and the writes). */
static const char *param_legal(Pv *pv, Var *t, Stmt *loop, Band *b, bool *quiet)
{
    Region *r = pv->r;
    b->n = b->nw = 0;
    /* a loop that reads what earlier iterations left in t carries a true
     * dependence: nothing to say about privatising it */
    *quiet = deps_private_flow(r, t, loop) != NULL;
    if (*quiet)
        return "not private";
    for (int d = 0; d < t->ndims; d++)
        if (!t->dims[d])
            return "its outermost extent is not declared (a pointer): a private copy needs its size";
    if (ir_stmt_any(loop, is_bare, t))
        return "it is passed whole to a library call";
    Sub sub = {t, NULL, pv->a};
    const Stmt *bad = find_non_affine(loop, &sub);
    if (bad)
        return arena_printf(pv->a, "a subscript of '%s' on line %d is not affine", t->name, bad->loc.line);
    /* the band: the loop, and the loop in its body that holds every use
     * (through blocks only), and so on, each of step 1 with fixed bounds */
    Stmt *at = loop;
    if (loop->step != 1 || loop->brk)
        return arena_printf(pv->a, "loop '%s' has a step other than 1 or a break", loop->iv->name);
    for (;;) {
        if (b->n > 0) {          /* an inner loop joins the band with fixed bounds and step 1 */
            Allowed none = {NULL, 0};
            if (at->step != 1 || at->brk || ir_expr_any(at->lb, not_fixed, &none) ||
                ir_expr_any(at->ub, not_fixed, &none))
                break;
        }
        b->loops[b->n++] = at;
        if (b->n == 8)
            break;
        Stmt *in = at->body, *one = NULL;
        while (in && in->kind == S_BLOCK) {
            one = NULL;
            int users = 0;
            for (int i = 0; i < in->list.len; i++)
                if (stmt_uses(vec_at(&in->list, i), t)) {
                    one = vec_at(&in->list, i);
                    users++;
                }
            in = users == 1 ? one : NULL;
        }
        if (!in || in->kind != S_FOR || own_uses(in, t) || deps_private_flow(r, t, in))
            break;
        at = in;
    }
    Stmt *inner = b->loops[b->n - 1];
    Stmt *path[8];
    const char *why = same_writes(pv, inner->body, t, path, 0, b);
    if (why)
        return why;
    if (!b->nw)
        return "the loop does not write it";
    return NULL;
}

static bool expr_same(const Expr *x, const Expr *y)
{
    if (!x || !y)
        return x == y;
    if (x->kind != y->kind || x->nkids != y->nkids || x->var != y->var || x->op != y->op)
        return false;
    if ((x->text || y->text) && (!x->text || !y->text || strcmp(x->text, y->text)))
        return false;
    for (int i = 0; i < x->nkids; i++)
        if (!expr_same(x->kids[i], y->kids[i]))
            return false;
    return true;
}

/* Whether write w names only elements write v (earlier) names: v's loops
 * are the first of w's and the subscripts are the same. */
static bool covered(const Stmt *w, const Stmt *v, const Stmt *inner)
{
    if (!expr_same(w->lhs, v->lhs))
        return false;
    for (const Stmt *p = v->parent; p && p != inner; p = p->parent) {
        const Stmt *q = w->parent;
        while (q && q != p && q != inner)
            q = q->parent;
        if (q != p)
            return false;
    }
    return true;
}

static Stmt *new_stmt_like(Arena *a, StmtKind k, const Stmt *like, Stmt *parent)
{
    Stmt *s = arena_alloc(a, sizeof *s);
    s->kind = k;
    s->loc = like->loc;
    s->end_line = like->loc.line;
    s->id = -1;
    s->parent = parent;
    s->depth = parent ? parent->depth + (parent->kind == S_FOR) : 0;
    return s;
}

static void number_stmt(Region *r, Arena *a, Stmt *s)
{
    s->id = r->nstmts++;
    vec_push(a, &r->stmts, s);
}

/* `t[e] = x[e]` under copies of the loops between inner and write w. */
static Stmt *copy_out(Pv *pv, Var *t, Var *x, Stmt *w, Stmt *inner, Stmt *parent)
{
    Arena *a = pv->a;
    Stmt *chain[8];
    int n = 0;
    for (Stmt *p = w->parent; p && p != inner; p = p->parent)
        if (p->kind == S_FOR)
            chain[n++] = p;
    Stmt *top = NULL, *up = parent;
    Var *ivs_from[8], *ivs_to[8];
    for (int i = n - 1; i >= 0; i--) {
        Stmt *l = new_stmt_like(a, S_FOR, chain[i], up);
        l->step = 1;
        l->iv = fresh_iv(pv, chain[i]->iv);
        l->lb = ir_copy_expr(a, chain[i]->lb);
        l->ub = ir_copy_expr(a, chain[i]->ub);
        l->end_line = chain[i]->end_line;
        ivs_from[n - 1 - i] = chain[i]->iv;
        ivs_to[n - 1 - i] = l->iv;
        if (up && up->kind == S_FOR)
            up->body = l;
        if (!top)
            top = l;
        up = l;
    }
    Stmt *as = new_stmt_like(a, S_ASSIGN, w, up);
    as->op = OP_ASSIGN;
    as->lhs = ir_copy_expr(a, w->lhs);
    as->lhs->var = t;
    as->rhs = ir_copy_expr(a, w->lhs);
    as->rhs->var = x;
    for (int i = 0; i < n; i++) {
        as->lhs = rename_expr(a, as->lhs, ivs_from[i], ivs_to[i]);
        as->rhs = rename_expr(a, as->rhs, ivs_from[i], ivs_to[i]);
        /* bounds of inner copies may name outer indices */
        for (Stmt *l = top; l && l->kind == S_FOR; l = l->body) {
            l->lb = rename_expr(a, l->lb, ivs_from[i], ivs_to[i]);
            l->ub = rename_expr(a, l->ub, ivs_from[i], ivs_to[i]);
        }
    }
    as->lhs->aff = as->rhs->aff = NULL;
    number_stmt(pv->r, a, as);
    if (up && up->kind == S_FOR)
        up->body = as;
    return top ? top : as;
}

static Expr *var_expr(Arena *a, Var *v)
{
    Expr *e = mk(a, E_VAR, v->ty, NULL, 0);
    e->var = v;
    return e;
}

/* Puts `before` just before `loop` and `after` just after it, in its block
 * (made one when the loop is the body of another loop or a branch). */
static void insert_around(Pv *pv, Stmt *loop, Stmt *before, Stmt *after)
{
    Arena *a = pv->a;
    Stmt *parent = parent_of(pv->r->body, loop);
    gfc_assert(parent);
    if (parent->kind != S_BLOCK) {
        Stmt *nb = new_stmt_like(a, S_BLOCK, loop, parent);
        nb->end_line = loop->end_line;
        nb->depth = loop->depth;
        vec_push(a, &nb->list, loop);
        if (parent->body == loop)
            parent->body = nb;
        else if (parent->then == loop)
            parent->then = nb;
        else if (parent->els == loop)
            parent->els = nb;
        loop->parent = nb;
        parent = nb;
    }
    Vec list = {0};
    for (int i = 0; i < parent->list.len; i++) {
        Stmt *c = vec_at(&parent->list, i);
        if (c == loop && before) {
            vec_push(a, &list, before);
            before->parent = parent;
        }
        vec_push(a, &list, c);
        if (c == loop && after) {
            vec_push(a, &list, after);
            after->parent = parent;
        }
    }
    parent->list = list;
}

/* A temporary shaped like array `like`, declared (malloc'd) just before
 * `loop` and freed after it: the loop's copy of a parameter
 * (param_rewrite) or of an array as it was before the loop (old_copy). */
static Var *loop_temp(Pv *pv, Var *like, Stmt *loop)
{
    Arena *a = pv->a;
    Var *x = fresh_iv(pv, like);
    x->kind = V_LOCAL;
    x->is_temp = x->is_array = true;
    x->is_private = false;
    x->ext_lo = x->ext_hi = NULL;
    x->ext_whole = x->write_only = false;
    x->alias_class = 0;
    x->delin = NULL;
    x->delin_bad = x->delin_plain = false;
    x->copy_of = NULL;
    x->depth = loop->depth;
    x->loc = loop->loc;
    Stmt *decl = new_stmt_like(a, S_DECL, loop, NULL);
    decl->var = x;
    decl->is_malloc = true;
    decl->depth = loop->depth;
    x->decl = decl;
    number_stmt(pv->r, a, decl);
    Stmt *fr = new_stmt_like(a, S_FREE, loop, NULL);
    fr->var = x;
    fr->depth = loop->depth;
    fr->loc.line = loop->end_line;
    insert_around(pv, loop, decl, fr);
    return x;
}

/* Parameter t becomes a temporary in `loop` (b: legal), copied out in the
 * band's last iteration. */
static Var *param_rewrite(Pv *pv, Var *t, Stmt *loop, Band *b)
{
    Arena *a = pv->a;
    Region *r = pv->r;
    snapshot(pv);
    Var *x = loop_temp(pv, t, loop);
    rename_stmt(a, loop->body, t, x);
    /* if (iv0 == ub0 - 1 && ...) { t[e] = x[e]; ... } at the end of the innermost loop */
    Stmt *inner = b->loops[b->n - 1];
    if (inner->body->kind != S_BLOCK) {
        Stmt *blk = new_stmt_like(a, S_BLOCK, inner->body, inner);
        blk->end_line = inner->body->end_line;
        vec_push(a, &blk->list, inner->body);
        inner->body->parent = blk;
        inner->body = blk;
    }
    Expr *cond = NULL;
    for (int i = 0; i < b->n; i++) {
        Stmt *l = b->loops[i];
        Type *ity = l->iv->ty;
        Expr *last = mk_binary(a, OP_SUB, ity);
        last->kids[0] = ir_copy_expr(a, l->ub);
        last->kids[1] = mk(a, E_INT, ity, "1", 0);
        Expr *eq = mk_binary(a, OP_EQ, ity);
        eq->kids[0] = var_expr(a, l->iv);
        eq->kids[1] = last;
        if (!cond) {
            cond = eq;
        } else {
            Expr *and = mk_binary(a, OP_LAND, ity);
            and->kids[0] = cond;
            and->kids[1] = eq;
            cond = and;
        }
    }
    Stmt *iff = new_stmt_like(a, S_IF, inner, inner->body);
    iff->loc.line = inner->end_line;
    iff->cond = cond;
    Stmt *then = new_stmt_like(a, S_BLOCK, inner, iff);
    iff->then = then;
    for (int i = 0; i < b->nw; i++) {
        bool dup = false;
        for (int j = 0; j < i && !dup; j++)
            dup = covered(b->writes[i], b->writes[j], inner);
        if (dup)
            continue;
        Stmt *c = copy_out(pv, t, x, b->writes[i], inner, then);
        c->parent = then;
        vec_push(a, &then->list, c);
    }
    vec_push(a, &inner->body->list, iff);
    const char *names = "", *lines = "";
    for (int i = 0; i < b->n; i++) {
        names = arena_printf(a, "%s%s'%s'", names, i ? (i == b->n - 1 ? " and " : ", ") : "", b->loops[i]->iv->name);
        lines = arena_printf(a, "%s%s%d", lines, i ? ", " : "", b->loops[i]->loc.line);
    }
    vec_push(a, &r->notes,
             arena_printf(a, "line %d: parameter '%s' is written before it is read in each iteration of loop%s %s "
                          "(line%s %s; isl: every element read is written earlier in the same iteration): a "
                          "temporary in the loop, private to each iteration, copied into '%s' in the last "
                          "iteration (every iteration writes the same elements)", loop->loc.line, t->name,
                          b->n > 1 ? "s" : "", names, b->n > 1 ? "s" : "", lines, t->name));
    return x;
}

/* Privatises the temporaries that keep `loop` from being parallel. */
static bool try_privatise(Pv *pv, Stmt *loop)
{
    Region *r = pv->r;
    Var *T[MAX_PRIV];
    Band B[MAX_PRIV];            /* a parameter's band (B[i].n == 0: a temporary) */
    int n = 0;
    for (int i = 0; i < r->vars.len && n < MAX_PRIV; i++) {
        Var *t = vec_at(&r->vars, i);
        if (t->kind == V_PARAM && t->is_array && t->written) {
            /* a parameter each iteration fills before reading it */
            if (vec_has(&pv->done, t) || !stmt_uses(loop->body, t))
                continue;
            bool quiet;
            const char *why = param_legal(pv, t, loop, &B[n], &quiet);
            if (why) {
                if (!t->priv_why && !quiet)
                    t->priv_why = why;
                continue;
            }
            T[n++] = t;
            continue;
        }
        /* a scalar local declared outside the loop (symm's temp2) */
        bool scalar = t->kind == V_LOCAL && !t->is_array && t->depth <= loop->depth;
        if ((!t->is_temp && !scalar) || !t->decl || !stmt_uses(loop->body, t))
            continue;
        int k = index_of(&pv->done, t);
        /* a temporary expanded for a loop around this one is private to
         * each of its iterations; it may be for the inner loop's too (PolyBench
         * doitgen: `sum` over r and q), when that is what keeps it serial */
        if (k >= 0 && !inside((const Stmt *)vec_at(&pv->done_at, k), loop))
            continue;
        const char *why = priv_legal(pv, t, loop);
        if (why) {
            if (!t->priv_why)
                t->priv_why = why;
            continue;
        }
        B[n].n = 0;
        T[n++] = t;
    }
    if (n && !deps_parallel_without(r, loop, T, n)) {
        /* Not parallel even so.  When nothing in the nest is parallel (the
         * region would be refused), a scalar each iteration writes before
         * reading is declared inside the loop (C89 code declares them all
         * at the top): inner loops then see a local, whose updates can be a
         * reduction or private to them.  A nest that has a parallel loop
         * keeps its plan (durbin's serial run leaves no value on the host). */
        const Stmt *nest = loop;
        while (nest->parent && nest->parent != r->body)
            nest = nest->parent;
        if (has_parallel_loop(nest))
            return false;
        bool any = false;
        for (int i = 0; i < n; i++)
            if (!T[i]->is_array && T[i]->kind != V_PARAM) {
                /* not 'done': inner loops may privatise it further; it is
                 * declared inside `loop` now, no candidate for it again */
                priv_rewrite(pv, T[i], loop);
                T[i]->priv_why = NULL;
                any = true;
            }
        return any;
    }
    if (!n)
        return false;
    /* only those the loop needs */
    for (int i = 0; i < n;) {
        Var *rest[MAX_PRIV];
        int k = 0;
        for (int j = 0; j < n; j++)
            if (j != i)
                rest[k++] = T[j];
        if (deps_parallel_without(r, loop, rest, k)) {
            memmove(&B[i], &B[i + 1], sizeof(Band) * (size_t)(n - i - 1));
            memcpy(T, rest, sizeof(Var *) * (size_t)k);
            n = k;
        } else {
            i++;
        }
    }
    for (int i = 0; i < n; i++) {
        if (B[i].n) {
            /* the parameter's temporary is privatised in the next rounds */
            param_rewrite(pv, T[i], loop, &B[i]);
            T[i]->priv_why = NULL;
            vec_push(pv->a, &pv->done, T[i]);
            vec_push(pv->a, &pv->done_at, loop);
            continue;
        }
        Var *p = priv_rewrite(pv, T[i], loop);
        T[i]->priv_why = NULL;
        vec_push(pv->a, &pv->done, p);   /* a split scalar stays a candidate in other loops */
        vec_push(pv->a, &pv->done_at, loop);
    }
    return true;
}

/* ---- reads from a copy taken before the loop ---------------------------------------
 * PolyBench trmm adds to B[i][j] the products with B[k][j], k > i: rows
 * that later iterations of 'i' rewrite.  Every value those reads see is
 * from before the loop (isl's value-based flow), so through them the loop
 * carries anti-dependences only; read from a copy of B taken before the
 * loop, it carries none and is parallel (deps_old_reads proves both).  The
 * copy costs one pass over the array; it is made only when it makes the
 * loop parallel. */

/* A loop index of its own for the copy's loops. */
static Var *named_iv(Pv *pv, const Var *like, const char *name)
{
    Var named = *like;
    named.name = name;
    return fresh_iv(pv, &named);
}

static void old_copy_rewrite(Pv *pv, Var *x, Stmt *loop, Expr **reads, int n)
{
    Arena *a = pv->a;
    Region *r = pv->r;
    snapshot(pv);
    Var *x0 = loop_temp(pv, x, loop);
    x0->written = x0->read = true;
    x0->copy_of = x;
    /* for (c0 = 0; c0 < d0; c0++) ... x0[c0]... = x[c0]...; */
    Type *et = type_elem(x->ty);
    Expr *dst = mk(a, E_INDEX, et, NULL, x->ndims), *src = mk(a, E_INDEX, et, NULL, x->ndims);
    dst->var = x0;
    src->var = x;
    Stmt *top = NULL, *up = NULL;
    for (int d = 0; d < x->ndims; d++) {
        Stmt *l = new_stmt_like(a, S_FOR, loop, up);
        l->depth = loop->depth + d;
        l->step = 1;
        l->iv = named_iv(pv, loop->iv, arena_printf(a, "%s_c%d", x->name, d));
        l->iv->depth = l->depth;
        l->lb = mk(a, E_INT, l->iv->ty, "0", 0);
        l->ub = ir_copy_expr(a, x->dims[d]);
        l->end_line = loop->loc.line;
        dst->kids[d] = var_expr(a, l->iv);
        src->kids[d] = var_expr(a, l->iv);
        if (up)
            up->body = l;
        else
            top = l;
        up = l;
    }
    Stmt *as = new_stmt_like(a, S_ASSIGN, loop, up);
    as->depth = loop->depth + x->ndims;
    as->op = OP_ASSIGN;
    as->lhs = dst;
    as->rhs = src;
    number_stmt(r, a, as);
    up->body = as;
    insert_around(pv, loop, top, NULL);
    const char *lines = "";
    for (int i = 0; i < n; i++) {
        reads[i]->var = x0;
        reads[i]->aff = NULL;
        lines = arena_printf(a, "%s%s%d", lines, i ? ", " : "", reads[i]->loc.line);
    }
    vec_push(a, &r->notes,
             arena_printf(a, "line %d: the read%s of '%s' on line%s %s see%s only values from before the loop over "
                          "'%s' (isl: value-based flow): read from a copy of '%s' taken before the loop, which then "
                          "carries no dependence", loop->loc.line, n > 1 ? "s" : "", x->name, n > 1 ? "s" : "",
                          lines, n > 1 ? "" : "s", loop->iv->name, x->name));
}

/* A copy of an array made before `loop` for the reads that see only its
 * values from before the loop, when that makes the loop parallel. */
static bool try_old_copy(Pv *pv, Stmt *loop)
{
    Region *r = pv->r;
    for (int i = 0; i < r->vars.len; i++) {
        Var *x = vec_at(&r->vars, i);
        if (!x->is_array || x->is_private || !(x->kind == V_PARAM || x->is_temp) || !x->ndims ||
            !type_is_arith(type_elem(x->ty)) || !stmt_uses(loop->body, x))
            continue;
        bool sized = true;
        for (int d = 0; d < x->ndims; d++)
            if (!x->dims[d] || ir_expr_any(x->dims[d], not_param, NULL))
                sized = false;
        if (!sized)
            continue;
        Expr *reads[16];
        int n = deps_old_reads(r, x, loop, reads, 16);
        if (n) {
            old_copy_rewrite(pv, x, loop, reads, n);
            return true;
        }
    }
    return false;
}

typedef struct Once {
    IrVisitor v;
    Pv *pv;
} Once;

/* Whether a temporary was privatised for parallel loop s or a loop inside
 * it (a loop inside that may then be made parallel by privatising it again). */
static bool has_done_inside(const Pv *pv, const Stmt *s)
{
    for (int i = 0; i < pv->done_at.len; i++) {
        const Stmt *at = vec_at(&pv->done_at, i);
        if (at == s || inside(s, at))
            return true;
    }
    return false;
}

static bool privatise_at(IrVisitor *v, Stmt *s)
{
    if (s->kind == S_BLOCK)
        return true;
    if (s->kind != S_FOR)
        return false;
    if (s->parallel)             /* the loops inside, for what was privatised for it */
        return has_done_inside(((Once *)v)->pv, s);
    if (try_privatise(((Once *)v)->pv, s) || try_old_copy(((Once *)v)->pv, s))
        v->done = true;
    return true;                 /* then the loops inside */
}

/* One privatisation in the loops that run on the host (through blocks and
 * loops that are not parallel), outermost first. */
static bool privatise_once(Pv *pv, Stmt *s)
{
    Once o = {{.stmt = privatise_at}, pv};
    ir_visit_stmt(&o.v, s);
    return o.v.done;
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

static IrFind is_pstmt(const Stmt *s, const void *arg)
{
    (void)arg;
    return s->id >= 0 ? IR_FOUND : IR_NEXT;
}

static bool has_pstmt(const Stmt *s)
{
    return ir_stmt_find(s, is_pstmt, NULL);
}

/* A parallel loop, not looking inside while loops (one statement to the model). */
static IrFind is_parallel_loop(const Stmt *s, const void *arg)
{
    (void)arg;
    if (s->kind == S_WHILE)
        return IR_SKIP;
    return s->kind == S_FOR && s->parallel ? IR_FOUND : IR_NEXT;
}

static bool has_parallel_loop(const Stmt *s)
{
    return ir_stmt_find(s, is_parallel_loop, NULL);
}

typedef struct Rename {
    IrVisitor v;
    const Var *from;
    Var *to;
    Arena *a;
} Rename;

static Expr *rename_node(IrVisitor *v, Expr *e, Stmt *owner)
{
    (void)owner;
    Rename *c = (Rename *)v;
    if ((e->kind == E_VAR || e->kind == E_INDEX) && e->var == c->from)
        e->var = c->to;
    return e;
}

/* e with `from` renamed `to`: a copy when it mentions it (expressions may be
 * shared between the copies distribution makes), else e itself. */
static Expr *rename_expr(Arena *a, Expr *e, const Var *from, Var *to)
{
    if (!e || !ir_expr_any(e, is_use, from))
        return e;
    Rename c = {{.expr = rename_node}, from, to, a};
    return ir_visit_expr(&c.v, ir_copy_expr(a, e), NULL);
}

static Expr *rename_slot(IrVisitor *v, Expr *e, Stmt *owner)
{
    (void)owner;
    Rename *c = (Rename *)v;
    Expr *r = rename_expr(c->a, e, c->from, c->to);
    v->skip = r == e;            /* nothing to rename below */
    return r;
}

static void rename_stmt(Arena *a, Stmt *s, const Var *from, Var *to)
{
    Rename c = {{.expr = rename_slot}, from, to, a};
    ir_visit_stmt(&c.v, s);
}

/* A new loop index like `old`, with a name of its own in generated code. */
static Var *fresh_iv(Pv *pv, const Var *old)
{
    Var *v = arena_alloc(pv->a, sizeof *v);
    *v = *old;
    v->cname = decls_cname(pv->a, old->name);
    ir_add_var(pv->a, pv->r, v);
    return v;
}

/* Host-level loops are in blocks and loops only. */
static IrFind holds(const Stmt *s, const void *x)
{
    if (s->kind == S_FOR)
        return s->body == x ? IR_FOUND : IR_NEXT;
    if (s->kind != S_BLOCK)
        return IR_SKIP;
    for (int i = 0; i < s->list.len; i++)
        if (vec_at(&s->list, i) == x)
            return IR_FOUND;
    return IR_NEXT;
}

static Stmt *parent_of(Stmt *s, const Stmt *x)
{
    return ir_stmt_find(s, holds, x);
}

/* Strongly connected components of the graph of the groups (up[]: the
 * union-find of units that must stay together), numbered in the order of
 * their first unit; returns how many. */
static int components(int n, int *up, const bool *edge, int *comp)
{
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
    int ncomp = 0;
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
    return ncomp;
}

/* par[c]: no dependence inside component c is carried by the loop; how many. */
static int parallel_components(int n, int ncomp, const int *comp, const bool *carried, bool *par)
{
    int npar = 0;
    for (int c = 0; c < ncomp; c++) {
        par[c] = true;
        for (int x = 0; x < n; x++)
            for (int y = 0; y < n; y++)
                if (comp[x] == c && comp[y] == c && carried[x * n + y])
                    par[c] = false;
        npar += par[c];
    }
    return npar;
}

/* A topological order of the components, the written order where free. */
static void component_order(int n, int ncomp, const int *comp, const bool *edge, int *order)
{
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
                pick = c;    /* components are numbered by their first unit */
        }
        gfc_assert(pick >= 0);
        placed[pick] = true;
        order[o] = pick;
    }
}

/* A piece of the distributed loop: the loop itself for the first, a copy
 * with an index of its own for the others, over `body`. */
static Stmt *piece_loop(Pv *pv, Stmt *loop, Stmt *body, bool first)
{
    Stmt *l = first ? loop : arena_alloc(pv->a, sizeof *l);
    if (!first)
        *l = *loop;
    body->parent = l;
    l->body = body;
    l->parallel = l->reduction = l->interchanged = false;
    if (!first) {
        Var *iv = fresh_iv(pv, loop->iv);
        rename_stmt(pv->a, body, loop->iv, iv);
        l->iv = iv;
        l->lb = ir_copy_expr(pv->a, loop->lb);
        l->ub = ir_copy_expr(pv->a, loop->ub);
    }
    return l;
}

/* The pieces in place of the loop, in its block; a note for --report. */
static void splice(Pv *pv, Stmt *loop, Stmt **pieces, int np, const char *why, const char *desc)
{
    Arena *a = pv->a;
    Stmt *parent = parent_of(pv->r->body, loop);
    gfc_assert(parent);
    if (parent->kind == S_FOR) {
        parent->body = ir_block_of(a, loop, parent);
        parent = parent->body;
    }
    Vec list = {0};
    for (int i = 0; i < parent->list.len; i++) {
        Stmt *c = vec_at(&parent->list, i);
        if (c != loop) {
            vec_push(a, &list, c);
            continue;
        }
        for (int o = 0; o < np; o++) {
            vec_push(a, &list, pieces[o]);
            pieces[o]->parent = parent;
        }
    }
    parent->list = list;
    vec_push(a, &pv->r->notes,
             arena_printf(a, "line %d: loop '%s' distributed into %d loops %s, in this order: %s", loop->loc.line,
                          loop->iv->name, np, why, desc));
}

static const char *piece_desc(Pv *pv, const char *desc, bool first, int lo, int hi, bool par)
{
    return arena_printf(pv->a, "%s%s%s (%s)", desc, first ? "" : ", ",
                        lo == hi ? arena_printf(pv->a, "line %d", lo) : arena_printf(pv->a, "lines %d-%d", lo, hi),
                        par ? "parallel" : "sequential: its statements depend on earlier iterations");
}

/* The loop as np pieces in place of it: piece o a copy over the body's
 * statements of component order[o] (comp[k] of each), in their order, the
 * first keeping the loop and its index; par[c]: component c carries no
 * dependence (for the note). */
static void distribute_kids(Pv *pv, Stmt *loop, Stmt **kids, int n, const int *comp, const int *order, int np,
                            const bool *par, const char *why)
{
    Arena *a = pv->a;
    snapshot(pv);
    Stmt *pieces[MAX_KIDS];
    const char *desc = "";
    for (int o = 0; o < np; o++) {
        int c = order[o];
        Stmt *b = arena_alloc(a, sizeof *b);
        *b = *loop->body;
        memset(&b->list, 0, sizeof b->list);
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
        pieces[o] = piece_loop(pv, loop, b, o == 0);
        pieces[o]->end_line = hi;
        desc = piece_desc(pv, desc, o == 0, lo, hi, par[c]);
    }
    splice(pv, loop, pieces, np, why, desc);
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
    int comp[MAX_KIDS];
    int ncomp = components(n, up, edge, comp);
    if (ncomp < 2)
        return false;
    bool par[MAX_KIDS];
    if (!parallel_components(n, ncomp, comp, carried, par))
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
    int order[MAX_KIDS];
    component_order(n, ncomp, comp, edge, order);
    distribute_kids(pv, loop, kids, n, comp, order, ncomp, par, "by the dependences between its statements (isl)");
    return true;
}

/* ---- distribution through inner loops ------------------------------------------
 * When the statements of the body cannot be split as they stand (an inner
 * loop holds statements of different components: bicg's
 *   for i { q[i] = 0; for j { s[j] += r[i]*A[i][j]; q[i] += A[i][j]*p[j]; } }),
 * the units are the statements themselves, at any depth: their dependence
 * graph for one iteration of the loops around gives the components, and
 * each piece is a copy of the loop holding only its component's statements
 * (the inner loops and conditions copied around them, each copy of an
 * inner loop with an index of its own).  Legal for the same reason: every
 * dependence between components goes forward in the order of the pieces,
 * and each piece keeps its statements' order.  Done only for a nest with no
 * parallel loop as it stands, and only when every sequential piece keeps a
 * loop that is parallel among its own statements. */

typedef struct Deep {
    Stmt *units[MAX_KIDS];       /* the statements, in order */
    Stmt **around[MAX_KIDS];     /* the loops and ifs between `loop` and each unit */
    int naround[MAX_KIDS];
    int n;
    const int *comp;             /* component of each unit (while building pieces) */
    Vec copied;                  /* Stmt*: inner loops already in an earlier piece */
} Deep;

typedef struct Units {
    IrVisitor v;
    Pv *pv;
    Deep *d;
    bool bad;
} Units;

static bool deep_unit(IrVisitor *v, Stmt *s)
{
    Units *u = (Units *)v;
    Deep *d = u->d;
    if (s->kind == S_BLOCK || s->kind == S_IF || (s->kind == S_FOR && !s->brk))
        return true;
    if ((s->kind != S_ASSIGN && s->kind != S_DECL) || d->n == MAX_KIDS) {
        u->bad = v->done = true;
        return false;
    }
    /* the loops and ifs around it inside the walk, outermost first */
    int n = 0;
    for (const IrFrame *f = v->up; f; f = f->up)
        n += f->s->kind != S_BLOCK;
    d->units[d->n] = s;
    d->around[d->n] = arena_alloc(u->pv->a, sizeof(Stmt *) * (size_t)(n ? n : 1));
    d->naround[d->n] = n;
    for (const IrFrame *f = v->up; f; f = f->up)
        if (f->s->kind != S_BLOCK)
            d->around[d->n][--n] = f->s;
    d->n++;
    return false;
}

/* Collects the units under s; false when the body holds something that
 * cannot be split (a loop that breaks, a while loop, a library call, a
 * return, a free) or too many statements. */
static bool deep_units(Pv *pv, Deep *d, Stmt *s)
{
    Units u = {{.stmt = deep_unit}, pv, d, false};
    ir_visit_stmt(&u.v, s);
    return !u.bad;
}

/* Whether unit k needs v: it uses v, or a loop or condition around it does. */
static bool needs(const Deep *d, int k, const Var *v)
{
    if (stmt_uses(d->units[k], v))
        return true;
    for (int i = 0; i < d->naround[k]; i++)
        if (own_uses(d->around[k][i], v))
            return true;
    return false;
}

/* The copy of s holding only the units of component c, or NULL. */
static Stmt *deep_filter(Pv *pv, Deep *d, Stmt *s, int c)
{
    if (!s)
        return NULL;
    if (s->kind == S_ASSIGN || s->kind == S_DECL) {
        for (int k = 0; k < d->n; k++)
            if (d->units[k] == s)
                return d->comp[k] == c ? s : NULL;
        unreachable();
    }
    Stmt *x = arena_alloc(pv->a, sizeof *x);
    *x = *s;
    if (s->kind == S_BLOCK) {
        memset(&x->list, 0, sizeof x->list);
        for (int i = 0; i < s->list.len; i++) {
            Stmt *k = deep_filter(pv, d, vec_at(&s->list, i), c);
            if (k) {
                k->parent = x;
                vec_push(pv->a, &x->list, k);
            }
        }
        return x->list.len ? x : NULL;
    }
    if (s->kind == S_IF) {
        x->then = deep_filter(pv, d, s->then, c);
        x->els = deep_filter(pv, d, s->els, c);
        if (!x->then && !x->els)
            return NULL;
        if (!x->then) {
            x->then = arena_alloc(pv->a, sizeof *x->then);
            x->then->kind = S_BLOCK;
            x->then->loc = s->loc;
            x->then->id = -1;
        }
        x->then->parent = x;
        if (x->els)
            x->els->parent = x;
        return x;
    }
    gfc_assert(s->kind == S_FOR);
    x->body = deep_filter(pv, d, s->body, c);
    if (!x->body)
        return NULL;
    x->body->parent = x;
    x->parallel = x->reduction = x->interchanged = false;
    if (vec_has(&d->copied, s)) {
        /* another piece has this loop already: an index of its own */
        Var *iv = fresh_iv(pv, s->iv);
        rename_stmt(pv->a, x->body, s->iv, iv);
        x->iv = iv;
        x->lb = ir_copy_expr(pv->a, s->lb);
        x->ub = ir_copy_expr(pv->a, s->ub);
    } else {
        vec_push(pv->a, &d->copied, (void *)s);
    }
    return x;
}

/* Whether some loop around a unit of component c (inside `loop`) carries no
 * dependence among the units of c. */
static bool keeps_parallel_loop(Pv *pv, Deep *d, int c)
{
    Stmt *mine[MAX_KIDS];
    int nm = 0;
    for (int k = 0; k < d->n; k++)
        if (d->comp[k] == c)
            mine[nm++] = d->units[k];
    for (int k = 0; k < d->n; k++)
        for (int i = 0; d->comp[k] == c && i < d->naround[k]; i++)
            if (d->around[k][i]->kind == S_FOR && deps_parallel_among(pv->r, d->around[k][i], mine, nm))
                return true;
    return false;
}

static bool try_distribute_deep(Pv *pv, Stmt *loop)
{
    Arena *a = pv->a;
    Deep *d = arena_alloc(a, sizeof *d);
    /* only for a nest with no parallel loop as it stands */
    if (has_parallel_loop(loop->body) || !deep_units(pv, d, loop->body) || d->n < 2)
        return false;
    int n = d->n;
    bool *edge = arena_alloc(a, sizeof(bool) * (size_t)(n * n)), *carried = arena_alloc(a, sizeof(bool) * (size_t)(n * n));
    deps_body_graph(pv->r, loop, d->units, n, edge, carried);
    /* a local declared in the body goes with every statement that needs it */
    int up[MAX_KIDS];
    for (int k = 0; k < n; k++)
        up[k] = k;
    for (int k = 0; k < n; k++)
        for (int j = 0; j < n && d->units[k]->kind == S_DECL; j++)
            if (j != k && needs(d, j, d->units[k]->var))
                unite(up, k, j);
    int comp[MAX_KIDS];
    int ncomp = components(n, up, edge, comp);
    d->comp = comp;
    bool par[MAX_KIDS];
    if (ncomp < 2 || !parallel_components(n, ncomp, comp, carried, par))
        return false;
    for (int c = 0; c < ncomp; c++)
        if (!par[c] && !keeps_parallel_loop(pv, d, c))
            return false;
    int order[MAX_KIDS];
    component_order(n, ncomp, comp, edge, order);
    snapshot(pv);
    Stmt *pieces[MAX_KIDS], *body = loop->body;
    const char *desc = "";
    for (int o = 0; o < ncomp; o++) {
        int c = order[o], lo = 0, hi = 0;
        for (int k = 0; k < n; k++) {
            if (comp[k] != c)
                continue;
            if (!lo || d->units[k]->loc.line < lo)
                lo = d->units[k]->loc.line;
            if (d->units[k]->end_line > hi)
                hi = d->units[k]->end_line;
        }
        Stmt *b = deep_filter(pv, d, body, c);
        pieces[o] = piece_loop(pv, loop, b, o == 0);
        pieces[o]->end_line = hi;
        desc = piece_desc(pv, desc, o == 0, lo, hi, par[c]);
    }
    splice(pv, loop, pieces, ncomp, "by the dependences between its statements (isl)", desc);
    return true;
}

/* ---- a parallel loop around inner parallel loops ------------------------------------
 * A map over a parallel loop whose body holds another parallel loop among
 * other statements runs that inner loop whole in each thread (gramschmidt:
 *   for j { R[k][j] = 0; for i R[k][j] += Q[i][k] * A[i][j];
 *           for i A[i][j] = A[i][j] - Q[i][k] * R[k][j]; }
 * 1200 threads each walking 1000 rows twice).  Such an inner loop
 * (ir_hides_parallel: not a few constant trips, bounds free of the index)
 * gets a copy of the loop of its own, the statements between them one each:
 * the update becomes a 2-D map.  Legal because the loop carries nothing:
 * every dependence between the pieces stays within an iteration and goes
 * forward in the pieces' order.  Not when a scalar of the body (its
 * declaration or any scalar but the inner loops' indices) is set in one
 * piece and used in another: each iteration's value would be gone (a row
 * scalar kept for a row kernel, softmax's `s`). */

/* Whether every use of scalar v under s is inside a loop over v. */
static IrFind iv_only_use(const Stmt *s, const void *arg)
{
    const Var *v = arg;
    if (s->kind == S_FOR && s->iv == v)
        return IR_SKIP;
    return own_uses(s, v) || (s->kind == S_DECL && s->var == v) ? IR_FOUND : IR_NEXT;
}

static IrFind is_loop_stmt(const Stmt *s, const void *arg)
{
    (void)arg;
    return s->kind == S_FOR || s->kind == S_WHILE ? IR_FOUND : IR_NEXT;
}

static bool try_split_parallel(Pv *pv, Stmt *loop)
{
    Stmt *body = loop->body;
    if (!body || body->kind != S_BLOCK || body->list.len < 2 || body->list.len > MAX_KIDS || loop->brk)
        return false;
    int n = body->list.len, group[MAX_KIDS], ng = 0;
    Stmt **kids = (Stmt **)body->list.data;
    bool any = false, prev_lone = true;
    for (int i = 0; i < n; i++) {
        bool lone = kids[i]->kind == S_FOR && ir_kid_hides_parallel(loop, kids[i]);
        /* a lone loop is a group of its own, the statements between lone loops one */
        if (lone || prev_lone)
            ng++;
        group[i] = ng - 1;
        prev_lone = lone;
        any |= lone;
    }
    if (!any || ng < 2)
        return false;
    /* the other statements run in order: a parallel loop among them (gemm's
     * `for i { for j C[i][j] *= beta; for k for j C[i][j] += ...; }`) keeps the
     * nest together, for a kernel over both (tiled) */
    bool seq = false;
    for (int k = 0; k < n; k++) {
        if (!(kids[k]->kind == S_FOR && ir_kid_hides_parallel(loop, kids[k])) && has_parallel_loop(kids[k]))
            return false;
        seq |= kids[k]->kind == S_FOR ? !kids[k]->parallel : ir_stmt_find(kids[k], is_loop_stmt, NULL) != NULL;
    }
    /* every inner loop parallel: a row kernel runs them all across a row's
     * threads (fuse.c), one pass over the row */
    if (!seq)
        return false;
    for (int i = 0; i < pv->r->vars.len; i++) {
        Var *v = vec_at(&pv->r->vars, i);
        if (v->ndims)
            continue;
        int set = -1;
        bool across = false, iv_only = true;
        for (int k = 0; k < n; k++) {
            if (!stmt_uses(kids[k], v) && !ir_assigns_var(kids[k], v))
                continue;
            if (set >= 0 && set != group[k])
                across = true;
            if (set < 0 || ir_assigns_var(kids[k], v))
                set = group[k];
            if (ir_stmt_find(kids[k], iv_only_use, v))
                iv_only = false;
        }
        bool assigned = false;
        for (int k = 0; k < n; k++)
            assigned |= ir_assigns_var(kids[k], v);
        if (across && assigned && !iv_only)
            return false;
    }
    int order[MAX_KIDS];
    bool par[MAX_KIDS];
    for (int g = 0; g < ng; g++)
        order[g] = g, par[g] = true;
    distribute_kids(pv, loop, kids, n, group, order, ng, par,
                    "so that its inner parallel loops run as maps of their own (one thread per element, not a loop in "
                    "each thread)");
    return true;
}

static bool distribute_at(IrVisitor *v, Stmt *s)
{
    if (s->kind == S_BLOCK)
        return true;
    if (s->kind != S_FOR || s->parallel)
        return false;
    if (try_distribute(((Once *)v)->pv, s))
        v->done = true;
    return true;                 /* then the loops inside */
}

/* When nothing inside could be distributed: through the inner loops. */
static void distribute_deep_at(IrVisitor *v, Stmt *s)
{
    if (s->kind == S_FOR && !s->parallel && try_distribute_deep(((Once *)v)->pv, s))
        v->done = true;
}

/* One distribution in the loops that run on the host, outermost first. */
static bool distribute_once(Pv *pv, Stmt *s)
{
    Once o = {{.stmt = distribute_at, .stmt_after = distribute_deep_at}, pv};
    ir_visit_stmt(&o.v, s);
    return o.v.done;
}

/* The outermost parallel loops: a map kernel's loops. */
static bool split_at(IrVisitor *v, Stmt *s)
{
    if (s->kind != S_FOR || !s->parallel)
        return s->kind == S_BLOCK || s->kind == S_FOR || s->kind == S_IF;
    if (try_split_parallel(((Once *)v)->pv, s))
        v->done = true;
    return false;
}

bool priv_split_parallel(Unit *u, Region *r)
{
    Pv pv = {u, r, u->arena, {0}, {0}};
    Once o = {{.stmt = split_at}, &pv};
    ir_visit_stmt(&o.v, r->body);
    return o.v.done;
}

/* ---- the pass ---------------------------------------------------------------------- */

/* Notes for the arrays declared inside loops (private as written). */
static bool note_private(IrVisitor *v, Stmt *s)
{
    Pv *pv = ((Once *)v)->pv;
    if (s->kind != S_DECL || !s->var->is_private)
        return true;
    const IrFrame *f = v->up;
    while (f && f->s->kind != S_FOR)
        f = f->up;
    if (f)
        vec_push(pv->a, &pv->r->notes,
                 arena_printf(pv->a, "line %d: local array '%s' (%lld element%s) is private to each iteration "
                              "of loop '%s': a per-thread array on the GPU", s->loc.line, s->var->name,
                              s->var->priv_elems, s->var->priv_elems == 1 ? "" : "s", f->s->iv->name));
    return true;
}

bool priv_region(Unit *u, Region *r)
{
    Pv pv = {u, r, u->arena, {0}, {0}};
    Once notes = {{.stmt = note_private}, &pv};
    ir_visit_stmt(&notes.v, r->body);
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
