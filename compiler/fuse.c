/* fuse.c - the fusion plan of a region: which loop nests become one kernel
 * (vertical, horizontal and map-reduce fusion, decided by isl's dependences),
 * which kernel shape each gets (map, reduce, row), which temporaries live in
 * registers and are never allocated, and what runs on the host between
 * launches (scalar statements, sequential time loops). */
#include "gfc.h"

#include <string.h>

typedef struct F {
    Unit *u;
    Region *r;
    Arena *a;
    Plan *plan;
} F;

/* ---- small queries -------------------------------------------------------------- */

static bool expr_reads(const Expr *e, const Var *v)
{
    if (!e)
        return false;
    if ((e->kind == E_VAR || e->kind == E_INDEX) && e->var == v)
        return true;
    for (int i = 0; i < e->nkids; i++)
        if (expr_reads(e->kids[i], v))
            return true;
    return false;
}

static bool is_var_use(const Expr *e, const void *v)
{
    return (e->kind == E_VAR || e->kind == E_INDEX) && e->var == v;
}

static bool is_index(const Expr *e, const void *arg)
{
    (void)arg;
    return e->kind == E_INDEX;
}

static bool stmt_uses(const Stmt *s, const Var *v)
{
    return ir_stmt_any(s, is_var_use, v);
}

/* Scalars a host statement assigns. */
static Var *host_target(const Stmt *s)
{
    if (s->kind == S_DECL && !s->var->is_array)
        return s->var;
    if (s->kind == S_ASSIGN && s->lhs->kind == E_VAR)
        return s->lhs->var;
    return NULL;
}

static bool has_loop(const Stmt *s)
{
    if (!s)
        return false;
    switch (s->kind) {
    case S_BLOCK:
        for (int i = 0; i < s->list.len; i++)
            if (has_loop(vec_at(&s->list, i)))
                return true;
        return false;
    case S_FOR: return true;
    case S_IF: return has_loop(s->then) || has_loop(s->els);
    default: return false;
    }
}

/* The only statement of a loop body, if it is a loop. */
static Stmt *sole_loop(Stmt *body)
{
    while (body && body->kind == S_BLOCK && body->list.len == 1)
        body = vec_at(&body->list, 0);
    return body && body->kind == S_FOR ? body : NULL;
}

static bool in_set(const Vec *s, const void *x)
{
    for (int i = 0; i < s->len; i++)
        if (vec_at(s, i) == x)
            return true;
    return false;
}

/* ---- kernels ------------------------------------------------------------------------- */

static void red_collect(F *f, Kernel *k, Stmt *s, int nest_depth)
{
    if (!s)
        return;
    switch (s->kind) {
    case S_BLOCK:
        for (int i = 0; i < s->list.len; i++)
            red_collect(f, k, vec_at(&s->list, i), nest_depth);
        return;
    case S_FOR: red_collect(f, k, s->body, nest_depth); return;
    case S_IF:
        red_collect(f, k, s->then, nest_depth);
        red_collect(f, k, s->els, nest_depth);
        return;
    case S_ASSIGN:
        if (s->atomic && !in_set(&k->atomics, s->lhs->var))
            vec_push(f->a, &k->atomics, s->lhs->var);
        if (s->red && s->red_var->depth <= nest_depth) {
            vec_push(f->a, &k->reds, s);
            bool seen = false;
            for (int i = 0; i < k->red_vars.len; i++)
                if (vec_at(&k->red_vars, i) == s->red_var)
                    seen = true;
            if (!seen)
                vec_push(f->a, &k->red_vars, s->red_var);
        }
        return;
    default: return;
    }
}

static bool loop_depends_on(const Stmt *l, const Var *iv)
{
    return expr_reads(l->lb, iv) || expr_reads(l->ub, iv);
}

/* An array private to each iteration declared in s outside its loops: in a
 * row kernel the row's threads would each have their own copy. */
static bool private_outside_loops(const Stmt *s)
{
    if (!s)
        return false;
    switch (s->kind) {
    case S_BLOCK:
        for (int i = 0; i < s->list.len; i++)
            if (private_outside_loops(vec_at(&s->list, i)))
                return true;
        return false;
    case S_IF: return private_outside_loops(s->then) || private_outside_loops(s->els);
    case S_WHILE: return private_outside_loops(s->body);
    case S_DECL: return s->var->is_private;
    default: return false;
    }
}

static bool is_private_use(const Expr *e, const void *arg)
{
    (void)arg;
    return e->kind == E_INDEX && e->var->is_private;
}

/* Inner loops of a row body: all parallel or reductions into row scalars,
 * with bounds that do not move with the row. */
static bool row_shaped(Stmt *outer)
{
    if (private_outside_loops(outer->body))
        return false;
    bool any = false;
    Stmt *b = outer->body;
    Stmt *one[1] = {b};
    Stmt **list = b->kind == S_BLOCK ? (Stmt **)b->list.data : one;
    int n = b->kind == S_BLOCK ? b->list.len : 1;
    for (int i = 0; i < n; i++) {
        Stmt *s = list[i];
        if (s->kind == S_FOR) {
            if (!s->parallel || loop_depends_on(s, outer->iv))
                return false;
            /* a reduction inside must reduce into a row scalar */
            any = true;
        } else if (s->kind == S_IF || s->kind == S_WHILE) {
            if (has_loop(s))
                return false;
        }
    }
    return any;
}

static bool unit_stride(const Expr *e, const void *iv)
{
    if (e->kind != E_INDEX)
        return false;
    /* true when NOT x[iv] with a 4-byte element */
    if (e->nkids != 1 || !e->aff || !e->aff[0])
        return true;
    const Aff *a = e->aff[0];
    if (a->c != 0 || a->nterms != 1 || a->terms[0].var != iv || a->terms[0].coef != 1)
        return true;
    Type *t = e->ty;
    return !(t->kind == TY_FLOAT || t->kind == TY_INT || t->kind == TY_UINT);
}

static bool has_inner_control(const Stmt *s)
{
    if (!s)
        return false;
    switch (s->kind) {
    case S_BLOCK:
        for (int i = 0; i < s->list.len; i++)
            if (has_inner_control(vec_at(&s->list, i)))
                return true;
        return false;
    case S_FOR:
    case S_WHILE: return true;
    case S_IF: return has_inner_control(s->then) || has_inner_control(s->els);
    default: return false;
    }
}

static void kernel_add_nest(F *f, Kernel *k, Stmt *nest)
{
    vec_push(f->a, &k->nests, nest);
    red_collect(f, k, nest, nest->depth);
    if (!k->first_line || nest->loc.line < k->first_line)
        k->first_line = nest->loc.line;
    if (nest->end_line > k->last_line)
        k->last_line = nest->end_line;
    if (k->kind == K_MAP && k->reds.len)
        k->kind = K_REDUCE;
}

static Kernel *new_kernel(F *f, Stmt *nest)
{
    Kernel *k = arena_alloc(f->a, sizeof *k);
    k->id = f->plan->kernels.len;
    k->name = arena_printf(f->a, "%s_k%d", f->r->cname, k->id);
    k->kind = K_MAP;
    /* parallel dimensions: perfectly nested parallel loops, rectangular */
    Stmt *l = nest;
    while (l && l->parallel && k->pdims < 3) {
        bool rect = true;
        for (int i = 0; i < k->pdims; i++)
            if (loop_depends_on(l, k->loops[i]->iv))
                rect = false;
        if (!rect)
            break;
        k->loops[k->pdims++] = l;
        l = sole_loop(l->body);
    }
    vec_push(f->a, &f->plan->kernels, k);
    kernel_add_nest(f, k, nest);
    if (k->kind == K_MAP && k->pdims == 1 && row_shaped(nest))
        k->kind = K_ROW;
    return k;
}

static bool same_space(Kernel *k, Stmt *nest)
{
    Stmt *l = nest;
    for (int i = 0; i < k->pdims; i++) {
        if (!l || !l->parallel || !expr_equal(l->lb, k->loops[i]->lb) || l->step != k->loops[i]->step)
            return false;
        /* upper bounds equal once the earlier nest's indices are renamed */
        if (!expr_equal(l->ub, k->loops[i]->ub))
            return false;
        l = i + 1 < k->pdims ? sole_loop(l->body) : NULL;
    }
    return true;
}

/* Can `nest` join kernel k?  Returns a reason when it cannot. */
static const char *why_not_fuse(F *f, Kernel *k, Stmt *nest)
{
    if (k->kind == K_ROW)
        return "the earlier kernel is a row kernel";
    if (!same_space(k, nest))
        return "iteration spaces differ";
    Kernel probe = {.kind = K_MAP};
    red_collect(f, &probe, nest, nest->depth);
    if (k->pdims == 1 && row_shaped(nest))
        return "it is row-wise";
    for (int i = 0; i < k->nests.len; i++)
        if (!deps_fusable(f->r, vec_at(&k->nests, i), nest, k->pdims))
            return "a dependence between the nests crosses iterations (a stencil read, an anti-dependence or a reduction result)";
    return NULL;
}

/* ---- the plan ---------------------------------------------------------------------------- */

static Step *new_step(F *f, StepKind kind)
{
    Step *s = arena_alloc(f->a, sizeof *s);
    s->kind = kind;
    return s;
}

static void note(F *f, Loc loc, const char *fmt, const char *a, const char *b)
{
    vec_push(f->a, &f->plan->notes, arena_printf(f->a, "line %d: %s", loc.line,
                                                 arena_printf(f->a, fmt, a, b)));
}

static Kernel *single_thread_kernel(F *f, Stmt *s)
{
    Kernel *k = arena_alloc(f->a, sizeof *k);
    k->id = f->plan->kernels.len;
    k->name = arena_printf(f->a, "%s_k%d", f->r->cname, k->id);
    k->kind = K_MAP;
    k->pdims = 0;
    vec_push(f->a, &k->nests, s);
    k->first_line = s->loc.line;
    k->last_line = s->end_line;
    vec_push(f->a, &f->plan->kernels, k);
    return k;
}

/* Plans a statement list.  `open` is the index of the kernel step that a
 * later nest may still join; the host steps after it are independent of
 * it and are moved before it when a nest joins. */
static void plan_block(F *f, Stmt *block, Vec *steps)
{
    Stmt *one[1] = {block};
    Stmt **list = block->kind == S_BLOCK ? (Stmt **)block->list.data : one;
    int n = block->kind == S_BLOCK ? block->list.len : 1;
    int open = -1;
    for (int i = 0; i < n; i++) {
        Stmt *s = list[i];
        if (s->kind == S_FOR && s->parallel) {
            f->plan->nests++;
            Kernel *ok = open >= 0 ? ((Step *)vec_at(steps, open))->kernel : NULL;
            LibCall *lc = lib_match_matmul(f->a, s);
            if (lc) {
                /* a matrix product: its own kernel, the library's call */
                if (ok)
                    note(f, s->loc, "not fused with kernel %s: %s", ok->name, "it is a matrix product (cuBLAS)");
                Step *st = new_step(f, P_KERNEL);
                st->kernel = new_kernel(f, s);
                st->kernel->lib = lc;
                vec_push(f->a, steps, st);
                open = -1;
                continue;
            }
            const char *why = ok ? why_not_fuse(f, ok, s) : NULL;
            if (ok && !why) {
                /* rotate: host steps first, then the growing kernel */
                Step *kst = vec_at(steps, open);
                for (int j = open; j < steps->len - 1; j++)
                    steps->data[j] = steps->data[j + 1];
                steps->data[steps->len - 1] = kst;
                open = steps->len - 1;
                kernel_add_nest(f, ok, s);
                continue;
            }
            if (ok)
                note(f, s->loc, "not fused with kernel %s: %s", ok->name, why);
            Step *st = new_step(f, P_KERNEL);
            st->kernel = new_kernel(f, s);
            vec_push(f->a, steps, st);
            open = steps->len - 1;
            continue;
        }
        if (s->kind == S_FOR) {
            /* a sequential loop around parallel work: runs on the host */
            Step *st = new_step(f, P_LOOP);
            st->stmt = s;
            plan_block(f, s->body, &st->body);
            vec_push(f->a, steps, st);
            open = -1;
            continue;
        }
        if (s->kind == S_BLOCK && !s->list.len)
            continue;
        if (s->kind == S_LIB) {
            /* a library call between the kernels: nothing fuses across it */
            Step *st = new_step(f, P_LIB);
            st->stmt = s;
            f->plan->has_lib = true;
            vec_push(f->a, steps, st);
            note(f, s->loc, "%s: a library call (%s), between the kernels before and after it", s->rhs->text,
                 lib_builtin_library(s->rhs->text));
            open = -1;
            continue;
        }
        if (ir_stmt_any(s, is_index, NULL) || s->kind == S_IF || s->kind == S_WHILE) {
            /* touches arrays outside any parallel loop: one thread does it */
            Step *st = new_step(f, P_KERNEL);
            st->kernel = single_thread_kernel(f, s);
            vec_push(f->a, steps, st);
            note(f, s->loc, "%s%sstatement outside any parallel loop touches arrays: runs as a single-thread kernel",
                 "", "");
            open = -1;
            continue;
        }
        /* a host statement: scalar work, temporaries, return */
        Step *st = new_step(f, P_HOST);
        st->stmt = s;
        vec_push(f->a, steps, st);
        if (open < 0)
            continue;
        Kernel *k = ((Step *)vec_at(steps, open))->kernel;
        Var *t = host_target(s);
        bool blocks = s->kind == S_RETURN || s->kind == S_FREE || (s->kind == S_DECL && s->var->is_array);
        for (int j = 0; j < k->red_vars.len; j++)
            if (stmt_uses(s, vec_at(&k->red_vars, j)))
                blocks = true;
        for (int j = 0; t && j < k->nests.len; j++)
            if (stmt_uses(vec_at(&k->nests, j), t))
                blocks = true;
        if (blocks)
            open = -1;
    }
}

/* ---- temporaries in registers --------------------------------------------------------------- */

typedef struct TempUse {
    Var *v;
    int kernels;                 /* kernels touching it */
    Kernel *k;
    bool host;                   /* used by a host step */
} TempUse;

static void count_uses(F *f, Vec *steps, TempUse *tu)
{
    for (int i = 0; i < steps->len; i++) {
        Step *st = vec_at(steps, i);
        if (st->kind == P_LOOP) {
            count_uses(f, &st->body, tu);
            continue;
        }
        if (st->kind == P_HOST || st->kind == P_LIB) {
            if (st->stmt->kind == S_DECL && st->stmt->var == tu->v)
                continue;
            if (st->stmt->kind == S_FREE && st->stmt->var == tu->v)
                continue;
            if (stmt_uses(st->stmt, tu->v))
                tu->host = true;
            continue;
        }
        Kernel *k = st->kernel;
        for (int j = 0; j < k->nests.len; j++) {
            if (stmt_uses(vec_at(&k->nests, j), tu->v)) {
                if (tu->k != k)
                    tu->kernels++;
                tu->k = k;
                break;
            }
        }
    }
}

/* Every access of v in the nest is v[iv0][iv1]... of the kernel's loops. */
static bool is_point_access(const Expr *e, const void *arg)
{
    const void *const *pa = arg;
    const Var *v = pa[0];
    Stmt *const *loops = pa[1];
    const int *pdims = pa[2];
    if (e->kind != E_INDEX || e->var != v)
        return false;
    if (e->nkids != *pdims)
        return true;             /* a violation */
    for (int i = 0; i < e->nkids; i++) {
        const Expr *x = e->kids[i];
        if (x->kind != E_VAR || x->var != loops[i]->iv)
            return true;
    }
    return false;
}

static bool writes_first(Stmt *nest, Var *v, int pdims)
{
    Stmt *b = nest;
    for (int i = 0; i < pdims; i++)
        b = b->body;
    Stmt *one[1] = {b};
    Stmt **list = b->kind == S_BLOCK ? (Stmt **)b->list.data : one;
    int n = b->kind == S_BLOCK ? b->list.len : 1;
    for (int i = 0; i < n; i++) {
        Stmt *s = list[i];
        if (s->kind == S_ASSIGN && s->lhs->kind == E_INDEX && s->lhs->var == v && s->op == OP_ASSIGN)
            return !expr_reads(s->rhs, v);
        if (stmt_uses(s, v))
            return false;
    }
    return false;
}

static void find_register_temps(F *f)
{
    for (int i = 0; i < f->r->vars.len; i++) {
        Var *v = vec_at(&f->r->vars, i);
        if (!v->is_temp)
            continue;
        TempUse tu = {.v = v};
        count_uses(f, &f->plan->steps, &tu);
        /* an atomically updated temporary is shared by all threads */
        if (tu.host || tu.kernels != 1 || tu.k->kind == K_ROW || tu.k->pdims == 0 || tu.k->lib ||
            in_set(&tu.k->atomics, v))
            continue;
        Kernel *k = tu.k;
        bool ok = true, first = true;
        for (int j = 0; j < k->nests.len && ok; j++) {
            Stmt *nest = vec_at(&k->nests, j);
            if (!stmt_uses(nest, v))
                continue;
            /* indices of this nest's own parallel loops */
            Stmt *loops[3];
            Stmt *l = nest;
            for (int d = 0; d < k->pdims; d++) {
                loops[d] = l;
                l = sole_loop(l->body);
            }
            int pd = k->pdims;
            const void *arg[3] = {v, loops, &pd};
            if (ir_stmt_any(nest, is_point_access, arg))
                ok = false;
            if (first && !writes_first(nest, v, k->pdims))
                ok = false;
            first = false;
        }
        if (!ok)
            continue;
        vec_push(f->a, &k->reg_temps, v);
        vec_push(f->a, &f->plan->dead_temps, v);
    }
}

/* ---- traffic estimate for the report ------------------------------------------------------ */

static bool collect_arrays(const Expr *e, const void *arg)
{
    Vec *seen = (Vec *)((void *const *)arg)[0];
    Arena *a = (Arena *)((void *const *)arg)[1];
    if (e->kind == E_INDEX) {
        for (int i = 0; i < seen->len; i++)
            if (vec_at(seen, i) == e->var)
                return false;
        vec_push(a, seen, e->var);
    }
    return false;
}

static double bytes_of(Vec *vars, Kernel *k)
{
    double b = 0;
    for (int i = 0; i < vars->len; i++) {
        Var *v = vec_at(vars, i);
        if (v->is_private)
            continue;            /* registers and local memory of the thread */
        bool reg = false;
        for (int j = 0; k && j < k->reg_temps.len; j++)
            if (vec_at(&k->reg_temps, j) == v)
                reg = true;
        if (reg)
            continue;
        Type *t = type_elem(v->ty);
        int size = t->kind == TY_DOUBLE || t->kind == TY_LONG || t->kind == TY_ULONG || t->kind == TY_LLONG ||
                   t->kind == TY_ULLONG ? 8 : t->kind <= TY_UCHAR ? 1 : t->kind <= TY_USHORT ? 2 : 4;
        if (t->kind == TY_STRUCT)
            size = 4 * t->nfields;
        /* read-write arrays move twice */
        b += size * ((v->read || !v->written) && v->written ? 2 : 1);
    }
    return b;
}

/* Unfused: what an array library does, each statement a pass that reads
 * its arrays and writes its target.  Fused: each kernel reads and writes
 * each of its arrays once, registers excepted. */
static void estimate_stmts(F *f, Stmt *s)
{
    if (!s)
        return;
    switch (s->kind) {
    case S_BLOCK:
        for (int i = 0; i < s->list.len; i++)
            estimate_stmts(f, vec_at(&s->list, i));
        return;
    case S_FOR:
    case S_WHILE:
        estimate_stmts(f, s->body);
        return;
    case S_IF:
        estimate_stmts(f, s->then);
        estimate_stmts(f, s->els);
        return;
    case S_DECL:
    case S_ASSIGN: {
        Vec one = {0};
        void *arg[2] = {&one, f->a};
        ir_stmt_any(s, collect_arrays, arg);
        f->plan->bytes_unfused += bytes_of(&one, NULL);
        return;
    }
    default: return;
    }
}

static void estimate(F *f)
{
    for (int i = 0; i < f->plan->kernels.len; i++) {
        Kernel *k = vec_at(&f->plan->kernels, i);
        Vec all = {0};
        for (int j = 0; j < k->nests.len; j++) {
            estimate_stmts(f, vec_at(&k->nests, j));
            void *arg[2] = {&all, f->a};
            ir_stmt_any(vec_at(&k->nests, j), collect_arrays, arg);
        }
        f->plan->bytes_fused += bytes_of(&all, k);
    }
}

static void mark_vec4(Kernel *k)
{
    /* atomic updates go to memory one element at a time */
    if (k->pdims != 1 || k->kind == K_ROW || k->loops[0]->step != 1 || k->atomics.len)
        return;
    for (int i = 0; i < k->nests.len; i++) {
        Stmt *nest = vec_at(&k->nests, i);
        if (has_inner_control(nest->body) || ir_stmt_any(nest->body, is_private_use, NULL))
            return;
        if (ir_stmt_any(nest->body, unit_stride, nest->iv))
            return;
        if (!ir_stmt_any(nest->body, is_index, NULL))
            return;
    }
    /* every array of the kernel is accessed at [i] only, 4-byte elements */
    k->vec4 = true;
}

/* ---- where reduction results live ------------------------------------------------------------
 * A reduction's result stays in device memory; kernels that read it take a
 * pointer; it is copied to the host only before a host statement reads it,
 * and around sequential loops (so every iteration starts the same way). */

static bool reads_scalar(const Expr *e, const void *v)
{
    return e->kind == E_VAR && e->var == v;
}

static void move_all(F *f, Vec *from, Vec *to)
{
    for (int i = 0; i < from->len; i++)
        vec_push(f->a, to, vec_at(from, i));
    from->len = 0;
}

static void drop(Vec *set, const Var *v)
{
    for (int i = 0; i < set->len; i++)
        if (vec_at(set, i) == v) {
            set->data[i] = set->data[--set->len];
            return;
        }
}

typedef struct Place {
    Vec dev;                     /* Var*: results whose latest value is on the device */
    Vec derived;                 /* Stmt*: deferred scalar declarations, in order */
    bool in_loop;
} Place;

static Var *derived_var(Place *p, const Var *v)
{
    for (int i = 0; i < p->derived.len; i++) {
        Stmt *s = vec_at(&p->derived, i);
        if (s->var == v)
            return s->var;
    }
    return NULL;
}

/* Scalars an expression reads (E_VAR only). */
static void scalars_of(F *f, const Expr *e, Vec *out)
{
    if (!e)
        return;
    if (e->kind == E_VAR && !in_set(out, e->var))
        vec_push(f->a, out, e->var);
    for (int i = 0; i < e->nkids; i++)
        scalars_of(f, e->kids[i], out);
}

/* A scalar declaration computed only from parameters, constants and values
 * on the device can run in the kernels that need it instead of the host. */
static bool deferrable(F *f, Place *p, Stmt *s)
{
    if (p->in_loop || s->kind != S_DECL || s->var->is_array || !s->rhs)
        return false;
    Vec vars = {0};
    scalars_of(f, s->rhs, &vars);
    bool needs_device = false;
    for (int i = 0; i < vars.len; i++) {
        Var *v = vec_at(&vars, i);
        if (in_set(&p->dev, v) || derived_var(p, v))
            needs_device = true;
        else if (v->kind != V_PARAM)
            return false;
    }
    return needs_device;
}

/* What reading v needs: device results to copy back or pass, and deferred
 * statements to run first (in order). */
static void needs_of(F *f, Place *p, const Var *v, Vec *dev, Vec *stmts)
{
    if (in_set(&p->dev, v)) {
        if (!in_set(dev, v))
            vec_push(f->a, dev, (void *)v);
        return;
    }
    for (int i = 0; i < p->derived.len; i++) {
        Stmt *s = vec_at(&p->derived, i);
        if (s->var != v)
            continue;
        Vec vars = {0};
        scalars_of(f, s->rhs, &vars);
        for (int j = 0; j < vars.len; j++)
            needs_of(f, p, vec_at(&vars, j), dev, stmts);
        if (!in_set(stmts, s))
            vec_push(f->a, stmts, s);
    }
}

/* Sorts deferred statements back into program order. */
static void in_order(Place *p, Vec *stmts)
{
    int k = 0;
    for (int i = 0; i < p->derived.len; i++)
        if (in_set(stmts, vec_at(&p->derived, i)))
            stmts->data[k++] = vec_at(&p->derived, i);
    stmts->len = k;
}

/* Makes everything the host needs available before step st. */
static void materialise(F *f, Place *p, Vec *vars, Vec *sync, Vec *prelude)
{
    for (int i = 0; i < vars->len; i++)
        needs_of(f, p, vec_at(vars, i), sync, prelude);
    in_order(p, prelude);
    for (int i = 0; i < sync->len; i++)
        drop(&p->dev, vec_at(sync, i));
    for (int i = 0; i < prelude->len; i++) {
        Stmt *s = vec_at(prelude, i);
        for (int j = 0; j < p->derived.len; j++)
            if (vec_at(&p->derived, j) == s)
                p->derived.data[j] = NULL;
    }
    int k = 0;
    for (int j = 0; j < p->derived.len; j++)
        if (p->derived.data[j])
            p->derived.data[k++] = p->derived.data[j];
    p->derived.len = k;
}

static void place_scalars(F *f, Vec *steps, Place *p)
{
    for (int i = 0; i < steps->len; i++) {
        Step *st = vec_at(steps, i);
        switch (st->kind) {
        case P_KERNEL: {
            Kernel *k = st->kernel;
            /* reduced again: its starting value comes from the host */
            Vec again = {0};
            for (int m = 0; m < k->red_vars.len; m++) {
                Var *v = vec_at(&k->red_vars, m);
                if (in_set(&p->dev, v) || derived_var(p, v))
                    vec_push(f->a, &again, v);
            }
            materialise(f, p, &again, &st->sync_before, &st->host_prelude);
            /* what the kernel reads from the device, and recomputes */
            Vec vars = {0};
            for (int m = 0; m < k->nests.len; m++) {
                for (int j = 0; j < p->dev.len; j++)
                    if (ir_stmt_any(vec_at(&k->nests, m), reads_scalar, vec_at(&p->dev, j)) &&
                        !in_set(&vars, vec_at(&p->dev, j)))
                        vec_push(f->a, &vars, vec_at(&p->dev, j));
                for (int j = 0; j < p->derived.len; j++) {
                    Var *d = ((Stmt *)vec_at(&p->derived, j))->var;
                    if (ir_stmt_any(vec_at(&k->nests, m), reads_scalar, d) && !in_set(&vars, d))
                        vec_push(f->a, &vars, d);
                }
            }
            for (int j = 0; j < vars.len; j++)
                needs_of(f, p, vec_at(&vars, j), &k->dev_in, &k->dev_prelude);
            in_order(p, &k->dev_prelude);
            for (int m = 0; m < k->red_vars.len; m++)
                vec_push(f->a, &p->dev, vec_at(&k->red_vars, m));
            break;
        }
        case P_HOST:
        case P_LIB: {
            if (deferrable(f, p, st->stmt)) {
                st->deferred = true;
                vec_push(f->a, &p->derived, st->stmt);
                break;
            }
            Vec vars = {0};
            for (int j = 0; j < p->dev.len; j++)
                if (ir_stmt_any(st->stmt, reads_scalar, vec_at(&p->dev, j)) || host_target(st->stmt) == vec_at(&p->dev, j))
                    vec_push(f->a, &vars, vec_at(&p->dev, j));
            for (int j = 0; j < p->derived.len; j++) {
                Var *d = ((Stmt *)vec_at(&p->derived, j))->var;
                if (ir_stmt_any(st->stmt, reads_scalar, d) || host_target(st->stmt) == d)
                    vec_push(f->a, &vars, d);
            }
            materialise(f, p, &vars, &st->sync_before, &st->host_prelude);
            break;
        }
        case P_LOOP: {
            /* every iteration starts with everything on the host */
            Vec all = {0};
            for (int j = 0; j < p->dev.len; j++)
                vec_push(f->a, &all, vec_at(&p->dev, j));
            for (int j = 0; j < p->derived.len; j++)
                vec_push(f->a, &all, ((Stmt *)vec_at(&p->derived, j))->var);
            materialise(f, p, &all, &st->sync_before, &st->host_prelude);
            Place inner = {.in_loop = true};
            place_scalars(f, &st->body, &inner);
            move_all(f, &inner.dev, &st->sync_end);
            break;
        }
        }
    }
}

/* A matrix product followed by a kernel that only applies bias and/or ReLU
 * to its result: one cuBLASLt call does both (the kernel stays for when
 * the library cannot be used). */
static void fold_epilogues(F *f, Vec *steps)
{
    for (int i = 0; i < steps->len; i++) {
        Step *st = vec_at(steps, i);
        if (st->kind == P_LOOP)
            fold_epilogues(f, &st->body);
        if (st->kind != P_KERNEL || !st->kernel->lib || i + 1 >= steps->len)
            continue;
        Step *nx = vec_at(steps, i + 1);
        if (nx->kind != P_KERNEL || nx->sync_before.len || nx->host_prelude.len || nx->kernel->dev_in.len ||
            nx->kernel->dev_prelude.len)
            continue;
        if (lib_fold_epilogue(f->a, st->kernel->lib, nx->kernel))
            nx->kernel->folded_into = st->kernel;
    }
}

static void note_interchanges(F *f, Stmt *s)
{
    if (!s)
        return;
    if (s->kind == S_BLOCK) {
        for (int i = 0; i < s->list.len; i++)
            note_interchanges(f, vec_at(&s->list, i));
        return;
    }
    if (s->kind != S_FOR)
        return;
    if (s->interchanged) {
        Stmt *in = sole_loop(s->body);
        if (in && in->interchanged) {
            vec_push(f->a, &f->plan->notes,
                     arena_printf(f->a, "line %d: loops interchanged: '%s' runs outside (parallel), '%s' inside it "
                                  "(sequential, per element, in the original order)",
                                  s->loc.line, s->iv->name, in->iv->name));
            note_interchanges(f, in->body);
            return;
        }
    }
    note_interchanges(f, s->body);
}

static void note_libs(F *f)
{
    for (int i = 0; i < f->plan->kernels.len; i++) {
        Kernel *k = vec_at(&f->plan->kernels, i);
        if (!k->lib)
            continue;
        Stmt *nest = vec_at(&k->nests, 0);
        vec_push(f->a, &f->plan->notes, arena_printf(f->a, "line %d: kernel %s is a matrix product: %s%s", nest->loc.line,
                                                     k->name, lib_describe(f->a, k->lib),
                                                     k->lib->epilogue ? arena_printf(f->a, "; kernel %s (line %d) is its epilogue",
                                                                                     k->lib->epilogue->name,
                                                                                     k->lib->epilogue->first_line)
                                                                      : ""));
    }
}

void fuse_region(Unit *u, Region *r)
{
    F f = {u, r, u->arena, arena_alloc(u->arena, sizeof(Plan))};
    r->plan = f.plan;
    for (int i = 0; i < r->notes.len; i++)
        vec_push(f.a, &f.plan->notes, vec_at(&r->notes, i));
    plan_block(&f, r->body, &f.plan->steps);
    find_register_temps(&f);
    for (int i = 0; i < f.plan->kernels.len; i++)
        mark_vec4(vec_at(&f.plan->kernels, i));
    Place place = {0};
    place_scalars(&f, &f.plan->steps, &place);
    fold_epilogues(&f, &f.plan->steps);
    note_interchanges(&f, r->body);
    note_libs(&f);
    estimate(&f);
}
