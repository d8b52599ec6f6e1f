/* inspect.c - extents found at run time.  An array parameter declared as a
 * plain pointer whose elements isl cannot bound (the values of a sparse
 * row, val[k] for k from row_ptr[r] to row_ptr[r + 1]; a gather x[col[k]];
 * a stride known only at run time, x[i * incx]) gets its extent from a pass
 * the launcher runs on the host before it stages anything: the function's
 * own loops, keeping only what decides which elements are touched (the
 * loop bounds, the conditions, the integer locals they need, the
 * subscripts) and recording the least and the greatest subscript of each
 * such array.  The pass evaluates only integer expressions C evaluates at
 * the same points, reading arrays the function does not write, so it reads
 * nothing C would not; an array it reads whose extent is itself found this
 * way is read by a later pass (Var.ext_run is the pass, 1, 2, ...).  A loop
 * that records only subscripts monotone in its index runs at its ends
 * (InspectPass.ends); an outermost loop runs in threads (InspectPass.par).
 * When
 * something the pass needs is a floating-point value, a value the function
 * computes in an array, a call or an early return, the array's extent stays
 * unknown and the function keeps its CPU body, with that reason. */
#include "gfc.h"

#include <string.h>

typedef struct Slice {
    Region *r;
    Arena *a;
    const Vec *targets;          /* Var*: the arrays whose subscripts it records */
    Vec need;                    /* Var*: the scalars it computes */
    Vec keep;                    /* Stmt*: the statements it runs */
    Vec req;                     /* Expr*: what it evaluates */
    Vec reads;                   /* Var*: the arrays it reads */
    Vec cover;                   /* Expr*: accesses the conditions around made first */
    Vec skip;                    /* Expr*: accesses of targets it need not record (cover) */
    const char *why;             /* why it cannot be done, NULL while it can */
} Slice;

static bool is_target_access(const Expr *e, const void *targets)
{
    return e->kind == E_INDEX && vec_has(targets, e->var);
}

static bool has_target(const Slice *sl, const Expr *e)
{
    return e && ir_expr_any(e, is_target_access, sl->targets);
}

static void require(Slice *sl, Expr *e)
{
    if (e && !vec_has(&sl->req, e))
        vec_push(sl->a, &sl->req, e);
}

static void cover(Slice *sl, Expr *e, const Stmt *s);

static bool covered(Slice *sl, const Expr *e)
{
    for (int i = 0; i < sl->cover.len; i++)
        if (expr_equal(vec_at(&sl->cover, i), e))
            return true;
    return false;
}

/* The accesses of targets in e that the pass records (true when there is
 * one): their subscripts are required, and so is each condition that
 * decides whether they are evaluated (&&, ||, ?:).  One equal to an access
 * the enclosing if's condition made first (Slice.cover) adds nothing. */
static bool sites(Slice *sl, Expr *e)
{
    if (!e || !has_target(sl, e))
        return false;
    if (e->kind == E_INDEX && vec_has(sl->targets, e->var)) {
        if (covered(sl, e)) {
            if (!vec_has(&sl->skip, e))
                vec_push(sl->a, &sl->skip, e);
            return false;
        }
        for (int i = 0; i < e->nkids; i++) {
            require(sl, e->kids[i]);
            sites(sl, e->kids[i]);
        }
        return true;
    }
    bool any = false, lazy = e->kind == E_COND || (e->kind == E_BINARY && (e->op == OP_LAND || e->op == OP_LOR));
    int save = sl->cover.len;
    for (int i = 0; i < e->nkids; i++) {
        if (sites(sl, e->kids[i])) {
            any = true;
            if (lazy && i > 0)
                require(sl, e->kids[0]);
        }
        if (lazy && i == 0)
            cover(sl, e->kids[0], NULL);   /* `c[k] > m ? c[k] : m` */
    }
    sl->cover.len = save;
    return any;
}

static bool names_var(const Expr *e, const void *v)
{
    return e->kind == E_VAR && e->var == v;
}

static IrFind assigns_named(const Stmt *s, const void *site)
{
    if (s->kind == S_ASSIGN && s->lhs->kind == E_VAR && ir_expr_any(site, names_var, s->lhs->var))
        return IR_FOUND;
    return IR_NEXT;
}

/* The accesses of targets that an if's condition (or the first operand of
 * &&, || or ?:) makes whatever it holds (not under a lazy operand of its
 * own), which its branches, assigning none of the scalars they name, make
 * again: `if (col[k] != r) s -= x[col[k]];`. */
static void cover(Slice *sl, Expr *e, const Stmt *s)
{
    if (!e)
        return;
    if (e->kind == E_INDEX && vec_has(sl->targets, e->var) &&
        (!s || (!ir_stmt_find(s->then, assigns_named, e) && !ir_stmt_find(s->els, assigns_named, e))))
        vec_push(sl->a, &sl->cover, e);
    bool lazy = e->kind == E_COND || (e->kind == E_BINARY && (e->op == OP_LAND || e->op == OP_LOR));
    for (int i = 0; i < (lazy ? 1 : e->nkids); i++)
        cover(sl, e->kids[i], s);
}

static bool names_local_or(const Expr *e, const void *iv)
{
    return e->kind == E_VAR && (e->var == iv || e->var->kind == V_LOCAL);
}

static void keep(Slice *sl, Stmt *s)
{
    if (!vec_has(&sl->keep, s))
        vec_push(sl->a, &sl->keep, s);
}

static bool needed(const Slice *sl, const Expr *e)
{
    return e && e->kind == E_VAR && vec_has(&sl->need, e->var);
}

/* Whether s matters to the pass: it touches a target, computes a scalar the
 * pass needs, or holds a statement that does. */
static bool relevant(Slice *sl, Stmt *s)
{
    if (!s || sl->why)
        return false;
    bool rel = false, runs = false;
    switch (s->kind) {
    case S_BLOCK:
        for (int i = 0; i < s->list.len; i++)
            rel |= relevant(sl, vec_at(&s->list, i));
        break;
    case S_FOR:
        runs = relevant(sl, s->body);
        rel = sites(sl, s->lb);
        rel |= sites(sl, s->ub);
        rel |= runs;
        if (runs) {
            require(sl, s->lb);
            require(sl, s->ub);
            require(sl, s->brk);
        }
        /* the upper bound is evaluated before every iteration: the pass
         * records what its subscripts name once, before the loop, which
         * holds when they name neither the index nor a local (a search
         * `for (k = 0; a[k] != 0; k++)` reads a new element each time) */
        if (has_target(sl, s->ub) && ir_expr_any(s->ub, names_local_or, s->iv))
            sl->why = arena_printf(sl->a, "the bound of the loop at line %d reads it at a subscript that changes "
                                   "in the loop", s->loc.line);
        break;
    case S_WHILE:
        runs = relevant(sl, s->body);
        rel = runs || has_target(sl, s->cond);
        if (has_target(sl, s->cond))
            sl->why = arena_printf(sl->a, "the condition of the while loop at line %d reads it", s->loc.line);
        if (runs) {
            require(sl, s->cond);
            require(sl, s->brk);
        }
        break;
    case S_IF: {
        int save = sl->cover.len;
        cover(sl, s->cond, s);
        bool branches = relevant(sl, s->then);
        branches |= relevant(sl, s->els);
        sl->cover.len = save;
        rel = sites(sl, s->cond) || branches;
        runs = branches;
        if (branches)
            require(sl, s->cond);
        break;
    }
    case S_DECL:
        rel = sites(sl, s->rhs);
        if (vec_has(&sl->need, s->var)) {
            rel = true;
            require(sl, s->rhs);
        }
        break;
    case S_ASSIGN:
        rel = sites(sl, s->lhs);
        rel |= sites(sl, s->rhs);
        if (needed(sl, s->lhs)) {
            rel = true;
            require(sl, s->rhs);
            if (s->op != OP_ASSIGN)
                require(sl, s->lhs);
        }
        break;
    case S_RETURN: {
        Stmt *body = sl->r->seq_body ? sl->r->seq_body : sl->r->body;
        if (s->parent != body || vec_at(&body->list, body->list.len - 1) != s)
            sl->why = arena_printf(sl->a, "the function returns before its end (line %d)", s->loc.line);
        rel = sites(sl, s->rhs);
        break;
    }
    case S_LIB:
        if (has_target(sl, s->rhs) || ir_own_any(s, is_target_access, sl->targets))
            sl->why = arena_printf(sl->a, "a library call at line %d reads it", s->loc.line);
        break;
    case S_FREE:
        break;
    }
    /* a block runs when something in it matters, a loop or an if when its
     * body or a branch does (the accesses in its own bounds or condition
     * are recorded before it), an assignment when it computes a scalar the
     * pass needs */
    if (s->kind == S_BLOCK)
        runs = rel;
    else if (s->kind == S_DECL)
        runs = vec_has(&sl->need, s->var);
    else if (s->kind == S_ASSIGN)
        runs = needed(sl, s->lhs);
    if (runs)
        keep(sl, s);
    return rel;
}

typedef struct Needs {
    Slice *sl;
    bool grew;
} Needs;

static bool scalar_computed(const Expr *e, const void *unused)
{
    (void)unused;
    return e->kind == E_VAR && !e->var->is_array &&
           (e->var->kind == V_LOCAL || (e->var->kind == V_PARAM && e->var->scalar_written));
}

/* Adds the scalars e names that the body computes; true when one is new. */
static bool add_needs(Slice *sl, const Expr *e)
{
    if (!e)
        return false;
    bool grew = false;
    if (scalar_computed(e, NULL) && !vec_has(&sl->need, e->var)) {
        vec_push(sl->a, &sl->need, e->var);
        grew = true;
    }
    for (int i = 0; i < e->nkids; i++)
        grew |= add_needs(sl, e->kids[i]);
    return grew;
}

/* Whether the pass can evaluate e (integers from the parameters, the loop
 * indices, the scalars it computes and arrays the function only reads);
 * otherwise sl->why says what it would need. */
static bool evaluable(Slice *sl, const Expr *e)
{
    if (!e)
        return true;
    const char *fn = sl->r->name;
    int line = e->loc.line;
    switch (e->kind) {
    case E_INT:
    case E_SIZEOF:
        return true;
    case E_FLOAT:
        sl->why = arena_printf(sl->a, "it needs the floating-point value %s (line %d)", e->text, line);
        return false;
    case E_VAR:
        if (!e->ty || !type_is_integer(e->ty)) {
            sl->why = arena_printf(sl->a, "it needs '%s' (line %d), which is not an integer", e->var->name, line);
            return false;
        }
        if (e->var->is_array) {
            sl->why = arena_printf(sl->a, "it needs the array '%s' as a value (line %d)", e->var->name, line);
            return false;
        }
        return true;
    case E_FIELD:
        if (!e->ty || !type_is_integer(e->ty)) {
            sl->why = arena_printf(sl->a, "it needs the field '%s' (line %d), which is not an integer", e->text, line);
            return false;
        }
        if (e->kids[0]->kind != E_INDEX) {
            sl->why = arena_printf(sl->a, "it needs a field of a struct value (line %d)", line);
            return false;
        }
        e = e->kids[0];
        break;
    case E_INDEX:
        if (!e->ty || !type_is_integer(e->ty)) {
            sl->why = arena_printf(sl->a, "it needs elements of '%s' (line %d), which are not integers", e->var->name,
                                   line);
            return false;
        }
        break;
    case E_UNARY:
        if (e->op != OP_NEG && e->op != OP_PLUS && e->op != OP_NOT && e->op != OP_BNOT) {
            sl->why = arena_printf(sl->a, "it needs the operator '%s' (line %d)", op_spelling(e->op), line);
            return false;
        }
        goto integer;
    case E_BINARY:
        if (op_is_assign(e->op) || e->op == OP_COMMA) {
            sl->why = arena_printf(sl->a, "it needs the operator '%s' (line %d)", op_spelling(e->op), line);
            return false;
        }
        goto integer;
    case E_COND:
    case E_CAST:
    integer:
        if (!e->ty || !type_is_integer(e->ty)) {
            sl->why = arena_printf(sl->a, "it needs a value of type '%s' (line %d), not an integer",
                                   e->ty ? type_src_name(e->ty) : "?", line);
            return false;
        }
        for (int i = 0; i < e->nkids; i++)
            if (!evaluable(sl, e->kids[i]))
                return false;
        return true;
    case E_CALL:
        sl->why = arena_printf(sl->a, "it needs the call of '%s' (line %d)", e->text, line);
        return false;
    }
    /* an element read (E_INDEX, or the one under E_FIELD) */
    Var *v = e->var;
    if (v->written) {
        sl->why = arena_printf(sl->a, "it needs elements of '%s' (line %d), which '%s' writes", v->name, line, fn);
        return false;
    }
    if (v->kind != V_PARAM && v->kind != V_TABLE) {
        sl->why = arena_printf(sl->a, "it needs elements of '%s' (line %d), which '%s' computes", v->name, line, fn);
        return false;
    }
    if (v->kind == V_PARAM && !vec_has(&sl->reads, v))
        vec_push(sl->a, &sl->reads, v);
    for (int i = 0; i < e->nkids; i++)
        if (!evaluable(sl, e->kids[i]))
            return false;
    return true;
}

/* The pass for targets: sl->why NULL when it can run. */
static void slice(Slice *sl, Region *r, const Vec *targets)
{
    memset(sl, 0, sizeof *sl);
    sl->r = r;
    sl->a = r->unit->arena;
    sl->targets = targets;
    Stmt *body = r->seq_body ? r->seq_body : r->body;
    for (int round = 0; round <= r->vars.len + 1; round++) {
        sl->keep.len = sl->req.len = sl->skip.len = sl->cover.len = 0;
        relevant(sl, body);
        if (sl->why)
            return;
        bool grew = false;
        for (int i = 0; i < sl->req.len; i++)
            grew |= add_needs(sl, vec_at(&sl->req, i));
        if (!grew)
            break;
    }
    for (int i = 0; i < sl->req.len && !sl->why; i++)
        evaluable(sl, vec_at(&sl->req, i));
}

/* ---- loops run at their ends ---------------------------------------------------------
 * A subscript that is a monotone function of a loop's index takes its least
 * and greatest values at the loop's first and last iterations: a loop whose
 * body the pass runs only to record such subscripts, unconditionally, is
 * evaluated there alone (CSR's val[k] for k from row_ptr[r] to row_ptr[r +
 * 1], x[i * inc], key_cache[t * kv_dim + i]). */

static bool names_iv(const Expr *e, const void *iv)
{
    return e->kind == E_VAR && e->var == iv;
}

/* Whether e is monotone in iv: free of it, iv itself, sums, differences and
 * negations of such, a product by a factor free of iv, a division by a
 * positive constant, an integer conversion that does not narrow. */
static bool monotone_in(const Expr *e, const Var *iv)
{
    if (!ir_expr_any(e, names_iv, iv))
        return true;
    switch (e->kind) {
    case E_VAR:
        return true;
    case E_UNARY:
        return (e->op == OP_NEG || e->op == OP_PLUS) && monotone_in(e->kids[0], iv);
    case E_CAST:
        return type_is_integer(e->ty) && type_size(e->ty) >= type_size(e->kids[0]->ty) &&
               type_is_unsigned(e->ty) == type_is_unsigned(e->kids[0]->ty) && monotone_in(e->kids[0], iv);
    case E_BINARY:
        if (type_is_unsigned(e->ty))
            return false;        /* a difference may wrap */
        if (e->op == OP_ADD || e->op == OP_SUB)
            return monotone_in(e->kids[0], iv) && monotone_in(e->kids[1], iv);
        if (e->op == OP_MUL)
            return (!ir_expr_any(e->kids[0], names_iv, iv) && monotone_in(e->kids[1], iv)) ||
                   (!ir_expr_any(e->kids[1], names_iv, iv) && monotone_in(e->kids[0], iv));
        if (e->op == OP_DIV)
            return expr_pos_const(e->kids[1]) > 0 && monotone_in(e->kids[0], iv);
        return false;
    default:
        return false;
    }
}

/* Every access the pass records in e is unconditional and monotone in iv. */
static bool sites_monotone(const Expr *e, const InspectPass *p, const Var *iv, bool guarded)
{
    if (!e || !ir_expr_any(e, inspect_site, p))
        return true;
    if (inspect_site(e, p) && (guarded || !monotone_in(e->kids[0], iv)))
        return false;
    bool lazy = e->kind == E_COND || (e->kind == E_BINARY && (e->op == OP_LAND || e->op == OP_LOR));
    for (int i = 0; i < e->nkids; i++)
        if (!sites_monotone(e->kids[i], p, iv, guarded || (lazy && i > 0)))
            return false;
    return true;
}

static bool body_monotone(const Stmt *s, const InspectPass *p, const Var *iv)
{
    if (!s)
        return true;
    switch (s->kind) {
    case S_BLOCK:
        for (int i = 0; i < s->list.len; i++)
            if (!body_monotone(vec_at(&s->list, i), p, iv))
                return false;
        return true;
    case S_FOR:
    case S_WHILE:
        /* an inner loop the pass runs, or one whose bounds it records */
        return !inspect_keeps(p, s) && sites_monotone(s->lb, p, iv, false) && sites_monotone(s->ub, p, iv, false) &&
               !ir_expr_any(s->cond, inspect_site, p);
    case S_IF:
        return !inspect_keeps(p, s) && sites_monotone(s->cond, p, iv, false);
    case S_DECL:
    case S_RETURN:
        return !inspect_keeps(p, s) && sites_monotone(s->rhs, p, iv, false);
    case S_ASSIGN:
        return !inspect_keeps(p, s) && sites_monotone(s->lhs, p, iv, false) && sites_monotone(s->rhs, p, iv, false);
    case S_FREE:
    case S_LIB:
        return true;
    }
    return false;
}

static void find_ends(InspectPass *p, Arena *a, Stmt *s)
{
    if (!s || !inspect_keeps(p, s))
        return;
    if (s->kind == S_FOR && !s->brk && body_monotone(s->body, p, s->iv)) {
        vec_push(a, &p->ends, s);
        return;
    }
    if (s->kind == S_BLOCK)
        for (int i = 0; i < s->list.len; i++)
            find_ends(p, a, vec_at(&s->list, i));
    else if (s->kind == S_FOR || s->kind == S_WHILE)
        find_ends(p, a, s->body);
    else if (s->kind == S_IF) {
        find_ends(p, a, s->then);
        find_ends(p, a, s->els);
    }
}

/* ---- loops the pass runs in parallel ------------------------------------------------
 * The pass only takes minima and maxima, so the iterations of a loop it
 * runs may go in any order and in threads (OpenMP's, with min and max
 * reductions), unless one hands a scalar to the next: an outermost loop
 * that breaks or assigns a scalar declared outside it runs in order. */

static bool declared_under(const Stmt *s, const Var *v)
{
    for (const Stmt *d = v->decl; d; d = d->parent)
        if (d == s)
            return true;
    return false;
}

typedef struct Carried {
    const Stmt *loop;
    const InspectPass *p;
} Carried;

static IrFind assigns_outer(const Stmt *s, const void *arg)
{
    const Carried *c = arg;
    if (s->kind == S_ASSIGN && inspect_keeps(c->p, s) && s->lhs->kind == E_VAR && !declared_under(c->loop, s->lhs->var))
        return IR_FOUND;
    return IR_NEXT;
}

static void find_parallel(InspectPass *p, Arena *a, Stmt *s)
{
    if (!s || !inspect_keeps(p, s) || vec_has(&p->ends, s))
        return;
    if (s->kind == S_FOR) {
        Carried c = {s, p};
        if (!s->brk && !ir_stmt_find(s->body, assigns_outer, &c))
            vec_push(a, &p->par, s);
        return;              /* the outermost loop only */
    }
    if (s->kind == S_BLOCK)
        for (int i = 0; i < s->list.len; i++)
            find_parallel(p, a, vec_at(&s->list, i));
    else if (s->kind == S_IF) {
        find_parallel(p, a, s->then);
        find_parallel(p, a, s->els);
    }
}

bool inspect_plan(Region *r, const Vec *cands, Var **bad, const char **why)
{
    Arena *a = r->unit->arena;
    int n = cands->len;
    int *level = arena_alloc(a, sizeof(int) * (size_t)(n ? n : 1));
    Vec *reads = arena_alloc(a, sizeof(Vec) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        Vec one = {0};
        vec_push(a, &one, vec_at(cands, i));
        Slice sl;
        slice(&sl, r, &one);
        if (sl.why || vec_has(&sl.reads, vec_at(cands, i))) {
            *bad = vec_at(cands, i);
            *why = sl.why ? sl.why : "finding it needs its own elements";
            return false;
        }
        reads[i] = sl.reads;
    }
    /* passes: an array read to find another's extent is found first */
    for (int i = 0; i < n; i++)
        level[i] = 1;
    for (int round = 0; round <= n; round++) {
        bool changed = false;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                if (vec_has(&reads[i], vec_at(cands, j)) && level[i] <= level[j]) {
                    level[i] = level[j] + 1;
                    changed = true;
                }
        if (!changed)
            break;
        if (round == n) {
            *bad = vec_at(cands, 0);
            *why = "finding it needs elements of an array whose extent it decides";
            return false;
        }
    }
    Inspect *in = arena_alloc(a, sizeof *in);
    for (int i = 0; i < n; i++)
        in->npasses = level[i] > in->npasses ? level[i] : in->npasses;
    in->passes = arena_alloc(a, sizeof(InspectPass) * (size_t)in->npasses);
    int slot = 0;
    for (int l = 1; l <= in->npasses; l++) {
        InspectPass *p = &in->passes[l - 1];
        for (int i = 0; i < n; i++) {
            Var *v = vec_at(cands, i);
            if (level[i] != l)
                continue;
            v->ext_run = l;
            v->ext_slot = slot++;
            vec_push(a, &p->targets, v);
        }
        Slice sl;
        slice(&sl, r, &p->targets);
        if (sl.why) {
            *bad = vec_at(&p->targets, 0);
            *why = sl.why;
            return false;
        }
        p->keep = sl.keep;
        p->reads = sl.reads;
        p->skip = sl.skip;
        find_ends(p, a, r->seq_body ? r->seq_body : r->body);
        find_parallel(p, a, r->seq_body ? r->seq_body : r->body);
    }
    in->nslots = slot;
    r->inspect = in;
    return true;
}

bool inspect_keeps(const InspectPass *p, const Stmt *s)
{
    return vec_has(&p->keep, s);
}

bool inspect_ends(const InspectPass *p, const Stmt *s)
{
    return vec_has(&p->ends, s);
}

bool inspect_parallel(const InspectPass *p, const Stmt *s)
{
    return vec_has(&p->par, s);
}

bool inspect_site(const Expr *e, const void *pass)
{
    const InspectPass *p = pass;
    return e->kind == E_INDEX && vec_has(&p->targets, e->var) && !vec_has(&p->skip, e);
}
