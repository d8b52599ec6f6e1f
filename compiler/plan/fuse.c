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
    Vec on_device;               /* Var*: scalars a kernel may compute (reductions, and
                                    what statements touching arrays assign) */
    Vec returns;                 /* Stmt*: triples (a return reading arrays, the
                                    declaration computing its value, the return of it) */
    int host_loops;              /* host loops around the block being planned */
} F;

/* ---- small queries -------------------------------------------------------------- */

static bool is_var_use(const Expr *e, const void *v)
{
    return (e->kind == E_VAR || e->kind == E_INDEX) && e->var == v;
}

static bool expr_reads(const Expr *e, const Var *v)
{
    return ir_expr_any(e, is_var_use, v);
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

/* A for loop, at any depth (inside while loops too). */
static IrFind is_for(const Stmt *s, const void *arg)
{
    (void)arg;
    return s->kind == S_FOR ? IR_FOUND : IR_NEXT;
}

static bool has_loop(const Stmt *s)
{
    return ir_stmt_find(s, is_for, NULL);
}

/* ---- kernels ------------------------------------------------------------------------- */

typedef struct RedCx {
    IrVisitor v;
    F *f;
    Kernel *k;
    int nest_depth;
} RedCx;

/* Atomic updates and reductions (none inside a while loop: one statement to the model). */
static bool red_at(IrVisitor *v, Stmt *s)
{
    RedCx *c = (RedCx *)v;
    F *f = c->f;
    Kernel *k = c->k;
    if (s->kind != S_ASSIGN)
        return s->kind != S_WHILE;
    if (s->atomic && !vec_has(&k->atomics, s->lhs->var))
        vec_push(f->a, &k->atomics, s->lhs->var);
    if (s->red && s->red_var->depth <= c->nest_depth) {
        vec_push(f->a, &k->reds, s);
        bool seen = false;
        for (int i = 0; i < k->red_vars.len; i++)
            if (vec_at(&k->red_vars, i) == s->red_var)
                seen = true;
        if (!seen)
            vec_push(f->a, &k->red_vars, s->red_var);
    }
    return false;
}

static void red_collect(F *f, Kernel *k, Stmt *s, int nest_depth)
{
    RedCx c = {{.stmt = red_at}, f, k, nest_depth};
    ir_visit_stmt(&c.v, s);
}

static bool loop_depends_on(const Stmt *l, const Var *iv)
{
    return expr_reads(l->lb, iv) || expr_reads(l->ub, iv);
}

/* An array private to each iteration declared in s outside its loops: in a
 * row kernel the row's threads would each have their own copy. */
static IrFind is_private_decl(const Stmt *s, const void *arg)
{
    (void)arg;
    if (s->kind == S_FOR)
        return IR_SKIP;
    return s->kind == S_DECL && s->var->is_private ? IR_FOUND : IR_NEXT;
}

static bool private_outside_loops(const Stmt *s)
{
    return ir_stmt_find(s, is_private_decl, NULL);
}

static bool is_private_use(const Expr *e, const void *arg)
{
    (void)arg;
    return e->kind == E_INDEX && e->var->is_private;
}

/* The trips of loop s when a constant (its bounds of macros: 7, -(7 / 2)),
 * else -1. */
static long long const_trips(Arena *a, Stmt *s)
{
    Aff *lo = aff_of(a, s->lb), *hi = aff_of(a, s->ub);
    if (!lo || !hi || lo->nterms || hi->nterms || s->step <= 0)
        return -1;
    return hi->c <= lo->c ? 0 : (hi->c - lo->c + s->step - 1) / s->step;
}

/* A row kernel's threads share a row: a warp per row at least.  Inner loops
 * of a few constant trips each (a filter's 7 taps, a 3x3 window) leave most
 * of its lanes idle; a thread per row runs them faster. */
#define ROW_MIN_TRIPS 32

/* Inner loops of a row body: all parallel or reductions into row scalars,
 * with bounds that do not move with the row, each a statement of the body
 * (none under an if, in a while loop or in a nested block), one of them
 * longer than ROW_MIN_TRIPS or of a length known only at run time. */
static bool row_shaped(Arena *a, Stmt *outer)
{
    bool long_one = false;
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
            long long t = const_trips(a, s);
            long_one |= t < 0 || t > ROW_MIN_TRIPS;
        } else if (has_loop(s)) {
            /* a loop under an if, a while loop or a nested block: the
             * row's threads would each run it whole (per-thread partials
             * of a row scalar never combined) */
            return false;
        }
    }
    return any && long_one;
}

static bool unit_stride(const Expr *e, const void *iv)
{
    if (e->kind != E_INDEX)
        return false;
    /* true when NOT x[iv] with an element the vector form moves: 8 bytes
     * (double, long, long long, float _Complex), 4 (float, int), 2
     * (_Float16, __bf16, short) or 1 (char, _Bool); a double _Complex is
     * already one 16-byte access */
    if (e->nkids != 1 || !e->aff || !e->aff[0])
        return true;
    const Aff *a = e->aff[0];
    if (a->c != 0 || a->nterms != 1 || a->terms[0].var != iv || a->terms[0].coef != 1)
        return true;
    switch (e->ty->kind) {
    case TY_DOUBLE: case TY_LONG: case TY_ULONG: case TY_LLONG: case TY_ULLONG: case TY_CF:
    case TY_FLOAT: case TY_INT: case TY_UINT:
    case TY_F16: case TY_BF16: case TY_SHORT: case TY_USHORT:
    case TY_BOOL: case TY_CHAR: case TY_SCHAR: case TY_UCHAR:
        return false;
    default:
        return true;
    }
}

/* Widens the range [lo, hi] of element sizes, int[2] at arg, by e's. */
static bool elem_sizes(const Expr *e, const void *arg)
{
    int *r = (int *)arg;
    if (e->kind == E_INDEX) {
        int size = type_size(e->ty);
        r[0] = !r[0] || size < r[0] ? size : r[0];
        r[1] = size > r[1] ? size : r[1];
    }
    return false;
}

static IrFind is_loop(const Stmt *s, const void *arg)
{
    (void)arg;
    return s->kind == S_FOR || s->kind == S_WHILE ? IR_FOUND : IR_NEXT;
}

static bool has_inner_control(const Stmt *s)
{
    return ir_stmt_find(s, is_loop, NULL);
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
    k->pdims = ir_map_loops(nest, k->loops);
    vec_push(f->a, &f->plan->kernels, k);
    kernel_add_nest(f, k, nest);
    if (k->kind == K_MAP && k->pdims == 1 && row_shaped(f->a, nest))
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
        l = i + 1 < k->pdims ? ir_sole_loop(l->body) : NULL;
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
    if (ir_hides_parallel(vec_at(&k->nests, 0), nest))
        return "one of them has a parallel loop more (it would run in each thread of the other's)";
    Kernel probe = {.kind = K_MAP};
    red_collect(f, &probe, nest, nest->depth);
    if (k->pdims == 1 && row_shaped(f->a, nest))
        return "it is row-wise";
    for (int i = 0; i < k->nests.len; i++)
        if (!deps_fusable(f->r, vec_at(&k->nests, i), nest, k->pdims))
            return "a dependence between the nests crosses iterations (a stencil read, an anti-dependence or a reduction result)";
    return NULL;
}

/* ---- steps ------------------------------------------------------------------------------------ */

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

/* ---- serial kernels ----------------------------------------------------------------------
 * What runs outside every parallel loop and touches arrays runs on the
 * device in one thread, in order: a maximal run of consecutive such
 * statements (sequential loops with no parallel loop inside included) is
 * ONE kernel (K_SERIAL), so that a sequential loop is never a host loop
 * launching a kernel per statement per iteration.  A scalar statement
 * between two of them joins the run when it depends on what the run did
 * so far, else runs on the host before the kernel.  Scalars the kernel
 * assigns and the rest of the region uses are its results: they stay in
 * device memory like reduction results (place_scalars). */

/* What a statement of a block becomes in the plan. */
typedef enum Role {
    R_NEST,                      /* a parallel loop nest: a kernel */
    R_LIB,                       /* a library call */
    R_LOOP,                      /* a sequential loop around kernels: on the host */
    R_IF,                        /* an if around kernels (or a return): on the host */
    R_HOST,                      /* return, free, a temporary's allocation */
    R_SERIAL,                    /* touches arrays outside parallel loops: a serial kernel */
    R_SCALAR,                    /* scalars only: on the host, or in a serial run */
    R_NONE                       /* an empty statement */
} Role;

/* Whether s needs the host: a parallel loop (a kernel of its own), a
 * library call, a temporary's allocation or release, a return. */
static IrFind host_only(const Stmt *s, const void *arg)
{
    (void)arg;
    if (s->kind == S_FOR)
        return s->parallel ? IR_FOUND : IR_NEXT;
    if (s->kind == S_DECL)
        return s->var->is_array && !s->var->is_private ? IR_FOUND : IR_NEXT;
    return s->kind == S_LIB || s->kind == S_RETURN || s->kind == S_FREE ? IR_FOUND : IR_NEXT;
}

static bool needs_host(const Stmt *s)
{
    return ir_stmt_find(s, host_only, NULL);
}

static Role role_of(const Stmt *s)
{
    switch (s->kind) {
    case S_BLOCK: return s->list.len ? R_SCALAR : R_NONE;   /* flattened before */
    case S_FOR:
        if (s->parallel)
            return R_NEST;
        /* fall through */
    case S_WHILE:
        /* the host evaluates the head: it must not read arrays */
        if (needs_host(s->body) && !ir_own_any(s, is_index, NULL))
            return R_LOOP;
        break;
    case S_IF:
        if (needs_host(s) && !ir_own_any(s, is_index, NULL))
            return R_IF;
        break;
    case S_LIB: return R_LIB;
    case S_RETURN:
    case S_FREE: return R_HOST;
    case S_DECL:
        if (s->var->is_array)
            return R_HOST;
        break;
    default: break;
    }
    return ir_stmt_any(s, is_index, NULL) ? R_SERIAL : R_SCALAR;
}

/* The statements of a block, nested blocks flattened (every variable has
 * its own name in generated code: a block's scope does not matter). */
static void flatten(F *f, Stmt *s, Vec *out)
{
    if (s && s->kind == S_BLOCK) {
        for (int i = 0; i < s->list.len; i++)
            flatten(f, vec_at(&s->list, i), out);
        return;
    }
    for (int i = 0; s && i < f->returns.len; i += 3)
        if (vec_at(&f->returns, i) == s) {
            /* split_returns: the value where the arrays are, then the return */
            vec_push(f->a, out, vec_at(&f->returns, i + 1));
            vec_push(f->a, out, vec_at(&f->returns, i + 2));
            return;
        }
    if (s)
        vec_push(f->a, out, s);
}

static bool collect_scalar(const Expr *e, const void *arg)
{
    void *const *a = arg;
    if (e->kind == E_VAR && !e->var->is_array && e->var->kind != V_IV && !vec_has(a[1], e->var))
        vec_push(a[0], a[1], e->var);
    return false;
}

/* Scalars s mentions (reads or writes), added to out. */
static void scalars_mentioned(F *f, const Stmt *s, Vec *out)
{
    void *arg[2] = {f->a, out};
    ir_stmt_any(s, collect_scalar, arg);
    if (s->kind == S_DECL && !s->var->is_array && !vec_has(out, s->var))
        vec_push(f->a, out, s->var);
}

/* Scalars s assigns (declarations, assignments), added to out.  Loop
 * indices are not: each loop sets its own, and none is read after its loop
 * (C89 code declares 'int i, k;' once and reuses them in every loop). */
typedef struct Collect {
    IrVisitor v;
    F *f;
    Vec *out;
} Collect;

static void add_once(F *f, Vec *out, Var *v)
{
    if (v && !vec_has(out, v))
        vec_push(f->a, out, v);
}

static bool assigned_at(IrVisitor *v, Stmt *s)
{
    Collect *c = (Collect *)v;
    if (s->kind == S_DECL && !s->var->is_array)
        add_once(c->f, c->out, s->var);
    if (s->kind == S_ASSIGN) {
        const Expr *l = s->lhs;
        while (l->kind == E_FIELD)  /* a field of a struct scalar */
            l = l->kids[0];
        add_once(c->f, c->out, l->kind == E_VAR ? l->var : NULL);
    }
    return true;
}

static void scalars_assigned(F *f, const Stmt *s, Vec *out)
{
    Collect c = {{.stmt = assigned_at}, f, out};
    ir_visit_stmt(&c.v, (Stmt *)s);
}

static bool meets(const Vec *a, const Vec *b)
{
    for (int i = 0; i < a->len; i++)
        if (vec_has(b, vec_at(a, i)))
            return true;
    return false;
}

static Kernel *serial_kernel(F *f)
{
    Kernel *k = arena_alloc(f->a, sizeof *k);
    k->id = f->plan->kernels.len;
    k->name = arena_printf(f->a, "%s_k%d", f->r->cname, k->id);
    k->kind = K_SERIAL;
    vec_push(f->a, &f->plan->kernels, k);
    return k;
}

static void serial_add(F *f, Kernel *k, Stmt *s, Vec *mentioned, Vec *assigned)
{
    vec_push(f->a, &k->nests, s);
    if (!k->first_line || s->loc.line < k->first_line)
        k->first_line = s->loc.line;
    if (s->end_line > k->last_line)
        k->last_line = s->end_line;
    scalars_mentioned(f, s, mentioned);
    scalars_assigned(f, s, assigned);
}

/* A scalar statement next to a serial statement: in the serial kernel when
 * it depends on what the run did so far (it must follow it), or when it
 * mentions a scalar a kernel may compute (on the device, it needs no copy
 * back); else on the host, before the kernel. */
static bool joins_run(F *f, Stmt *s, const Vec *mentioned, const Vec *assigned)
{
    if (s->kind == S_DECL && !s->rhs)
        return false;            /* no value: the host declares it */
    Vec mine = {0}, set = {0};
    scalars_mentioned(f, s, &mine);
    scalars_assigned(f, s, &set);
    return meets(&mine, assigned) || meets(&set, mentioned) || meets(&mine, &f->on_device);
}

/* A serial run's kernel step, after the scalar statements right after
 * list[last] that depend on the run (in it too: on the host they would
 * wait for its results).  Returns the index of its last statement. */
static int end_run(F *f, Kernel *k, Stmt **list, int n, int last, Vec *mentioned, Vec *assigned, Vec *steps)
{
    while (last + 1 < n && role_of(list[last + 1]) == R_SCALAR && joins_run(f, list[last + 1], mentioned, assigned))
        serial_add(f, k, list[++last], mentioned, assigned);
    Step *st = new_step(f, P_KERNEL);
    st->kernel = k;
    vec_push(f->a, steps, st);
    return last;
}

/* The serial run starting at list[i] (a serial statement, or scalar ones
 * before one): one kernel step, after the host steps of the scalar
 * statements that do not join it.  Returns the index of its last
 * statement. */
static int plan_run(F *f, Stmt **list, int n, int i, Vec *steps)
{
    Kernel *k = serial_kernel(f);
    Vec mentioned = {0}, assigned = {0};
    int last = i - 1;
    for (int j = i; j < n; j++) {
        Role r = role_of(list[j]);
        if (r == R_NONE || r == R_SCALAR)
            continue;
        if (r != R_SERIAL)
            break;
        for (int m = last + 1; m < j; m++) {
            Stmt *s = list[m];
            if (role_of(s) == R_NONE)
                continue;
            if (joins_run(f, s, &mentioned, &assigned)) {
                serial_add(f, k, s, &mentioned, &assigned);
                continue;
            }
            Step *st = new_step(f, P_HOST);
            st->stmt = s;
            vec_push(f->a, steps, st);
        }
        serial_add(f, k, list[j], &mentioned, &assigned);
        last = j;
    }
    return end_run(f, k, list, n, last, &mentioned, &assigned, steps);
}

/* Whether the scalar statements from list[i] lead to a serial statement
 * and one of them mentions a scalar a kernel may compute: the run starts
 * at list[i] (those that do not join it still run on the host first). */
static bool leads_run(F *f, Stmt **list, int n, int i)
{
    bool dev = false;
    for (int j = i; j < n; j++) {
        Role r = role_of(list[j]);
        if (r == R_SERIAL)
            return dev;
        if (r != R_SCALAR && r != R_NONE)
            return false;
        Vec mine = {0};
        scalars_mentioned(f, list[j], &mine);
        dev |= meets(&mine, &f->on_device);
    }
    return false;
}

/* A scalar statement in a host loop that reads a scalar a kernel may
 * compute, leading to no serial statement (`float inv = 1.0f / (s + 1.0f);`
 * after each step's reduction of s, before the map that reads inv): a
 * serial kernel of its own, with the scalar statements after it that join
 * it; on the host it would wait for the device and copy the value back at
 * every iteration (outside loops a declaration may instead be recomputed
 * by the kernels that read it: place_host).  Returns the index of its last
 * statement. */
static int plan_scalar_run(F *f, Stmt **list, int n, int i, Vec *steps)
{
    Kernel *k = serial_kernel(f);
    Vec mentioned = {0}, assigned = {0};
    serial_add(f, k, list[i], &mentioned, &assigned);
    return end_run(f, k, list, n, i, &mentioned, &assigned, steps);
}

/* Whether s reads a scalar a kernel may compute (a plain assignment or an
 * initialiser: its value; any other statement: every scalar it mentions). */
static bool reads_on_device(F *f, Stmt *s)
{
    Vec mine = {0};
    if (s->kind == S_DECL || (s->kind == S_ASSIGN && s->op == OP_ASSIGN && s->lhs->kind == E_VAR)) {
        void *arg[2] = {f->a, &mine};
        if (s->rhs)
            ir_expr_any(s->rhs, collect_scalar, arg);
    } else {
        scalars_mentioned(f, s, &mine);
    }
    return meets(&mine, &f->on_device);
}

/* Through blocks, host loops and host ifs to the serial statements. */
static bool candidates_at(IrVisitor *v, Stmt *s)
{
    Collect *c = (Collect *)v;
    if (s->kind == S_BLOCK)
        return true;
    Role r = role_of(s);
    if (r == R_SERIAL)
        scalars_assigned(c->f, s, c->out);
    return r == R_LOOP || r == R_IF;
}

/* Scalars a kernel may compute: reduction accumulators, and what the
 * statements touching arrays outside parallel loops assign. */
static void find_on_device(F *f)
{
    for (int i = 0; i < f->r->stmts.len; i++) {
        Stmt *s = vec_at(&f->r->stmts, i);
        if (s && s->kind == S_ASSIGN && s->red && s->red_var && !vec_has(&f->on_device, s->red_var))
            vec_push(f->a, &f->on_device, s->red_var);
    }
    Collect c = {{.stmt = candidates_at}, f, &f->on_device};
    ir_visit_stmt(&c.v, f->r->body);
}

/* A return whose value reads arrays: in the plan the value is computed
 * where the arrays are (`T gf_result = value;`, a serial statement) and the
 * host returns it.  The region's body stays as written (gf_seq_, --emit=ir);
 * flatten() puts the pair in place of the return. */
static bool split_return(IrVisitor *vis, Stmt *s)
{
    F *f = ((Collect *)vis)->f;
    if (s->kind != S_RETURN || !ir_expr_any(s->rhs, is_index, NULL))
        return true;
    Var *v = arena_alloc(f->a, sizeof *v);
    v->name = "gf_result";
    v->ty = f->r->ret;
    v->kind = V_LOCAL;
    v->loc = s->loc;
    v->id = f->r->vars.len;
    v->cname = v->name;
    for (int j = 0, n = 1; j < f->r->vars.len; j++)
        if (!strcmp(((Var *)vec_at(&f->r->vars, j))->cname, v->cname)) {
            v->cname = arena_printf(f->a, "gf_result_%d", n++);
            j = -1;
        }
    vec_push(f->a, &f->r->vars, v);
    Stmt *d = arena_alloc(f->a, sizeof *d), *ret = arena_alloc(f->a, sizeof *ret);
    *d = *s;
    d->kind = S_DECL;
    d->id = -1;
    d->var = v;
    v->decl = d;
    *ret = *s;
    ret->id = -1;
    ret->rhs = arena_alloc(f->a, sizeof(Expr));
    *ret->rhs = (Expr){.kind = E_VAR, .var = v, .ty = v->ty, .loc = s->loc};
    vec_push(f->a, &f->returns, s);
    vec_push(f->a, &f->returns, d);
    vec_push(f->a, &f->returns, ret);
    return true;
}

static void split_returns(F *f, Stmt *s)
{
    Collect c = {{.stmt = split_return}, f, NULL};
    ir_visit_stmt(&c.v, s);
}

/* ---- the plan ------------------------------------------------------------------------------ */

static void plan_block(F *f, Stmt *block, Vec *steps);

/* A nest: a kernel of its own, or joined to the open one.  Returns the new
 * open step. */
static int plan_nest(F *f, Stmt *s, Vec *steps, int open)
{
    f->plan->nests++;
    Kernel *ok = open >= 0 ? ((Step *)vec_at(steps, open))->kernel : NULL;
    const char *lwhy = NULL;
    LibCall *lc = lib_match(f->a, f->r, s, &lwhy);
    if (lwhy)
        note(f, s->loc, "not a library call: %s%s", lwhy, "");
    if (lc) {
        /* library calls: their own kernel (the fallback) */
        if (ok)
            note(f, s->loc, "not fused with kernel %s: %s", ok->name, "library calls compute it (cuBLAS)");
        Step *st = new_step(f, P_KERNEL);
        st->kernel = new_kernel(f, s);
        st->kernel->lib = lc;
        vec_push(f->a, steps, st);
        return -1;
    }
    const char *why = ok ? why_not_fuse(f, ok, s) : NULL;
    if (ok && !why) {
        /* rotate: host steps first, then the growing kernel */
        Step *kst = vec_at(steps, open);
        for (int j = open; j < steps->len - 1; j++)
            steps->data[j] = steps->data[j + 1];
        steps->data[steps->len - 1] = kst;
        kernel_add_nest(f, ok, s);
        return steps->len - 1;
    }
    if (ok)
        note(f, s->loc, "not fused with kernel %s: %s", ok->name, why);
    Step *st = new_step(f, P_KERNEL);
    st->kernel = new_kernel(f, s);
    vec_push(f->a, steps, st);
    return steps->len - 1;
}

/* A host statement after the open kernel: whether a later nest may still
 * join that kernel (moved after this statement). */
static bool keeps_open(Kernel *k, Stmt *s)
{
    Var *t = host_target(s);
    if (s->kind == S_RETURN || s->kind == S_FREE || (s->kind == S_DECL && s->var->is_array) || s->kind == S_IF ||
        s->kind == S_WHILE || s->kind == S_FOR)
        return false;
    for (int j = 0; j < k->red_vars.len; j++)
        if (stmt_uses(s, vec_at(&k->red_vars, j)))
            return false;
    for (int j = 0; t && j < k->nests.len; j++)
        if (stmt_uses(vec_at(&k->nests, j), t))
            return false;
    return true;
}

/* Plans a statement list.  `open` is the index of the kernel step that a
 * later nest may still join; the host steps after it are independent of
 * it and are moved before it when a nest joins. */
static void plan_block(F *f, Stmt *block, Vec *steps)
{
    Vec flat = {0};
    flatten(f, block, &flat);
    Stmt **list = (Stmt **)flat.data;
    int n = flat.len;
    int open = -1;
    for (int i = 0; i < n; i++) {
        Stmt *s = list[i];
        Step *st;
        switch (role_of(s)) {
        case R_NONE: continue;
        case R_NEST: open = plan_nest(f, s, steps, open); continue;
        case R_LOOP:
            /* a sequential loop around parallel work: runs on the host */
            st = new_step(f, P_LOOP);
            st->stmt = s;
            f->host_loops++;
            plan_block(f, s->body, &st->body);
            f->host_loops--;
            vec_push(f->a, steps, st);
            open = -1;
            continue;
        case R_IF:
            st = new_step(f, P_IF);
            st->stmt = s;
            plan_block(f, s->then, &st->body);
            if (s->els)
                plan_block(f, s->els, &st->els);
            vec_push(f->a, steps, st);
            open = -1;
            continue;
        case R_LIB:
            /* a library call between the kernels: nothing fuses across it */
            st = new_step(f, P_LIB);
            st->stmt = s;
            f->plan->has_lib = true;
            vec_push(f->a, steps, st);
            note(f, s->loc, "%s: a library call (%s), between the kernels before and after it", s->rhs->text,
                 lib_builtin_library(s->rhs->text));
            open = -1;
            continue;
        case R_SERIAL:
            i = plan_run(f, list, n, i, steps);
            open = -1;
            continue;
        case R_SCALAR:
            if (leads_run(f, list, n, i)) {
                i = plan_run(f, list, n, i, steps);
                open = -1;
                continue;
            }
            if (f->host_loops && reads_on_device(f, s)) {
                i = plan_scalar_run(f, list, n, i, steps);
                open = -1;
                continue;
            }
            /* fall through */
        case R_HOST:
            /* a host statement: scalar work, temporaries, return */
            st = new_step(f, P_HOST);
            st->stmt = s;
            vec_push(f->a, steps, st);
            if (open >= 0 && !keeps_open(((Step *)vec_at(steps, open))->kernel, s))
                open = -1;
            continue;
        }
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
        if (st->kind == P_LOOP || st->kind == P_IF) {
            count_uses(f, &st->body, tu);
            count_uses(f, &st->els, tu);
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
            vec_has(&tu.k->atomics, v))
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
                l = ir_sole_loop(l->body);
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
        if (v->is_private || v->kind == V_TABLE)
            continue;            /* registers and local memory of the thread; a table stays in the cache */
        bool reg = false;
        for (int j = 0; k && j < k->reg_temps.len; j++)
            if (vec_at(&k->reg_temps, j) == v)
                reg = true;
        if (reg)
            continue;
        Type *t = type_elem(v->ty);
        int size = type_size(t);
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
static bool estimate_at(IrVisitor *v, Stmt *s)
{
    F *f = ((Collect *)v)->f;
    if (s->kind != S_DECL && s->kind != S_ASSIGN)
        return true;
    Vec one = {0};
    void *arg[2] = {&one, f->a};
    ir_stmt_any(s, collect_arrays, arg);
    f->plan->bytes_unfused += bytes_of(&one, NULL);
    return false;
}

static void estimate_stmts(F *f, Stmt *s)
{
    Collect c = {{.stmt = estimate_at}, f, NULL};
    ir_visit_stmt(&c.v, s);
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
    /* every array of the kernel is accessed at [i] only; a thread takes 16
     * bytes of the smallest element (2 doubles, 8-byte integers or float
     * _Complex, 4 floats or ints, 8 halves or shorts, 16 chars) and as many
     * elements of the others, in one to four 16-byte accesses per array */
    int size[2] = {0, 0};
    for (int i = 0; i < k->nests.len; i++)
        ir_stmt_any(vec_at(&k->nests, i), elem_sizes, size);
    if (size[0] < 1 || 16 % size[0] || size[1] > 4 * size[0])
        return;
    k->vec4 = true;
    k->vecw = 16 / size[0];
}

/* ---- where scalar results live ----------------------------------------------------------------
 * A reduction's result, and a scalar a serial kernel computes, stays in
 * device memory (its slot gf_out_<name>); kernels that read it take a
 * pointer, a reduction or serial kernel that updates it starts from the
 * slot; it is copied to the host only before a host statement reads it,
 * before a sequential host loop (every iteration starts the same way), at
 * the end of an iteration when the next one reads it, and after the loop
 * when the rest of the region reads it. */

static bool reads_scalar(const Expr *e, const void *v)
{
    return e->kind == E_VAR && e->var == v;
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
static Expr *scalar_at(IrVisitor *v, Expr *e, Stmt *owner)
{
    (void)owner;
    Collect *c = (Collect *)v;
    if (e->kind == E_VAR)
        add_once(c->f, c->out, e->var);
    return e;
}

static void scalars_of(F *f, Expr *e, Vec *out)
{
    Collect c = {{.expr = scalar_at}, f, out};
    ir_visit_expr(&c.v, e, NULL);
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
        if (vec_has(&p->dev, v) || derived_var(p, v))
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
    if (vec_has(&p->dev, v)) {
        if (!vec_has(dev, v))
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
        if (!vec_has(stmts, s))
            vec_push(f->a, stmts, s);
    }
}

/* Sorts deferred statements back into program order. */
static void in_order(Place *p, Vec *stmts)
{
    int k = 0;
    for (int i = 0; i < p->derived.len; i++)
        if (vec_has(stmts, vec_at(&p->derived, i)))
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

/* Whether the deferred statement d reads v, directly or through another
 * deferred statement. */
static bool derived_reads(F *f, Place *p, Stmt *d, const Var *v)
{
    Vec vars = {0};
    scalars_of(f, d->rhs, &vars);
    for (int i = 0; i < vars.len; i++) {
        Var *w = vec_at(&vars, i);
        if (w == v)
            return true;
        for (int j = 0; j < p->derived.len; j++) {
            Stmt *e = vec_at(&p->derived, j);
            if (e->var == w && e != d && derived_reads(f, p, e, v))
                return true;
        }
    }
    return false;
}

/* v is about to be overwritten: the deferred statements computed from its
 * current value must be computed now, on the host (added to out). */
static void before_write(F *f, Place *p, const Var *v, Vec *out)
{
    for (int i = 0; i < p->derived.len; i++) {
        Stmt *d = vec_at(&p->derived, i);
        if ((d->var == v || derived_reads(f, p, d, v)) && !vec_has(out, d->var))
            vec_push(f->a, out, d->var);
    }
}

/* s assigns v whole before reading it (v = e, e not reading v). */
static bool overwrites(const Stmt *s, const Var *v)
{
    if (s->kind == S_DECL)
        return s->var == v;
    return s->kind == S_ASSIGN && s->op == OP_ASSIGN && s->lhs->kind == E_VAR && s->lhs->var == v &&
           !expr_reads(s->rhs, v);
}

/* Whether, among statements list[0..n), the first that mentions v reads
 * it (or may, under a condition or a loop) before assigning it whole. */
static bool read_first(Stmt *const *list, int n, const Var *v)
{
    for (int i = 0; i < n; i++) {
        if (overwrites(list[i], v))
            return false;
        if (stmt_uses(list[i], v))
            return true;
    }
    return false;
}

typedef struct Outside {
    IrVisitor v;
    const Vec *skip;
    const Var *var;
} Outside;

static bool outside_at(IrVisitor *v, Stmt *s)
{
    return !vec_has(((Outside *)v)->skip, s);
}

static Expr *outside_use(IrVisitor *v, Expr *e, Stmt *owner)
{
    (void)owner;
    if (is_var_use(e, ((Outside *)v)->var))
        v->done = true;
    return e;
}

/* Whether v is mentioned in s outside the statements of `skip`. */
static bool used_outside(Stmt *s, const Vec *skip, const Var *v)
{
    Outside c = {{.stmt = outside_at, .expr = outside_use}, skip, v};
    ir_visit_stmt(&c.v, s);
    return c.v.done;
}

/* Variables declared inside s (declarations and loop indices). */
static bool declared_at(IrVisitor *v, Stmt *s)
{
    Collect *c = (Collect *)v;
    if (s->kind == S_FOR)
        vec_push(c->f->a, c->out, s->iv);
    if (s->kind == S_DECL)
        vec_push(c->f->a, c->out, s->var);
    return true;
}

static void declared_in(F *f, Stmt *s, Vec *out)
{
    Collect c = {{.stmt = declared_at}, f, out};
    ir_visit_stmt(&c.v, s);
}

/* A serial kernel's results (scalars it assigns that the rest of the
 * region mentions) and the scalars declared outside it that it assigns
 * before reading (no starting value). */
static void serial_results(F *f, Kernel *k)
{
    Vec set = {0}, decl = {0};
    for (int i = 0; i < k->nests.len; i++) {
        scalars_assigned(f, vec_at(&k->nests, i), &set);
        declared_in(f, vec_at(&k->nests, i), &decl);
    }
    for (int i = 0; i < set.len; i++) {
        Var *v = vec_at(&set, i);
        bool used = used_outside(f->r->body, &k->nests, v);
        for (int j = 2; j < f->returns.len; j += 3)
            used |= stmt_uses(vec_at(&f->returns, j), v);
        if (used)
            vec_push(f->a, &k->results, v);
        if (!vec_has(&decl, v) && !read_first((Stmt **)k->nests.data, k->nests.len, v))
            vec_push(f->a, &k->fresh, v);
    }
}

static void serial_results_all(F *f)
{
    for (int i = 0; i < f->plan->kernels.len; i++) {
        Kernel *k = vec_at(&f->plan->kernels, i);
        if (k->kind == K_SERIAL)
            serial_results(f, k);
    }
}

/* What kernel k reads from where scalars live now: device results by
 * pointer (k->dev_in), deferred statements recomputed at its start. */
static void kernel_reads(F *f, Place *p, Kernel *k, bool (*reads)(Kernel *, const Var *))
{
    Vec vars = {0};
    for (int j = 0; j < p->dev.len; j++)
        if (reads(k, vec_at(&p->dev, j)))
            vec_push(f->a, &vars, vec_at(&p->dev, j));
    for (int j = 0; j < p->derived.len; j++) {
        Var *d = ((Stmt *)vec_at(&p->derived, j))->var;
        if (reads(k, d) && !vec_has(&vars, d))
            vec_push(f->a, &vars, d);
    }
    for (int j = 0; j < vars.len; j++)
        needs_of(f, p, vec_at(&vars, j), &k->dev_in, &k->dev_prelude);
    in_order(p, &k->dev_prelude);
}

static bool nests_read(Kernel *k, const Var *v)
{
    for (int m = 0; m < k->nests.len; m++)
        if (ir_stmt_any(vec_at(&k->nests, m), reads_scalar, v))
            return true;
    return false;
}

/* A parallel kernel reads v (its accumulators start from their slot or an
 * argument: not read as values). */
static bool reduce_reads(Kernel *k, const Var *v)
{
    return nests_read(k, v) && !vec_has(&k->red_vars, v);
}

/* A serial kernel needs v's value: it mentions v and does not assign it
 * before reading it. */
static bool serial_needs(Kernel *k, const Var *v)
{
    return nests_read(k, v) && !vec_has(&k->fresh, v);
}

static void place_reduce(F *f, Place *p, Step *st)
{
    Kernel *k = st->kernel;
    /* reduced again: it starts from its device slot, or from the host */
    Vec again = {0};
    for (int m = 0; m < k->red_vars.len; m++) {
        Var *v = vec_at(&k->red_vars, m);
        before_write(f, p, v, &again);
        if (vec_has(&p->dev, v) && !vec_has(&again, v))
            vec_push(f->a, &k->red_dev_init, v);
    }
    materialise(f, p, &again, &st->sync_before, &st->host_prelude);
    kernel_reads(f, p, k, reduce_reads);
    for (int m = 0; m < k->red_vars.len; m++)
        if (!vec_has(&p->dev, vec_at(&k->red_vars, m)))
            vec_push(f->a, &p->dev, vec_at(&k->red_vars, m));
}

static void place_serial(F *f, Place *p, Step *st)
{
    Kernel *k = st->kernel;
    Vec set = {0}, again = {0};
    for (int i = 0; i < k->nests.len; i++)
        scalars_assigned(f, vec_at(&k->nests, i), &set);
    for (int i = 0; i < set.len; i++)
        before_write(f, p, vec_at(&set, i), &again);
    materialise(f, p, &again, &st->sync_before, &st->host_prelude);
    kernel_reads(f, p, k, serial_needs);
    for (int i = 0; i < set.len; i++) {
        Var *v = vec_at(&set, i);
        if (!vec_has(&k->results, v))
            drop(&p->dev, v);
        else if (!vec_has(&p->dev, v))
            vec_push(f->a, &p->dev, v);
    }
}

static void place_host(F *f, Place *p, Step *st)
{
    if (deferrable(f, p, st->stmt)) {
        st->deferred = true;
        vec_push(f->a, &p->derived, st->stmt);
        return;
    }
    Vec set = {0}, vars = {0};
    scalars_assigned(f, st->stmt, &set);
    for (int j = 0; j < set.len; j++)
        before_write(f, p, vec_at(&set, j), &vars);
    /* what it reads; a scalar it overwrites whole needs no copy */
    for (int j = 0; j < p->dev.len; j++) {
        Var *v = vec_at(&p->dev, j);
        if (stmt_uses(st->stmt, v) && !overwrites(st->stmt, v) && !vec_has(&vars, v))
            vec_push(f->a, &vars, v);
    }
    for (int j = 0; j < p->derived.len; j++) {
        Var *d = ((Stmt *)vec_at(&p->derived, j))->var;
        if (stmt_uses(st->stmt, d) && !vec_has(&vars, d))
            vec_push(f->a, &vars, d);
    }
    materialise(f, p, &vars, &st->sync_before, &st->host_prelude);
    for (int j = 0; j < set.len; j++)
        drop(&p->dev, vec_at(&set, j));
}

static void place_scalars(F *f, Vec *steps, Place *p);

/* Scalars the kernels of steps compute (results and accumulators). */
static void device_written(F *f, Vec *steps, Vec *out)
{
    for (int i = 0; i < steps->len; i++) {
        Step *st = vec_at(steps, i);
        if (st->kind == P_LOOP || st->kind == P_IF) {
            device_written(f, &st->body, out);
            device_written(f, &st->els, out);
        }
        if (st->kind != P_KERNEL)
            continue;
        Vec *lists[2] = {&st->kernel->results, &st->kernel->red_vars};
        for (int l = 0; l < 2; l++)
            for (int j = 0; j < lists[l]->len; j++)
                if (!vec_has(out, vec_at(lists[l], j)))
                    vec_push(f->a, out, vec_at(lists[l], j));
    }
}

/* A host loop.  What a kernel of the body computes and the next iteration
 * reads first (not the loop's own condition or bounds) lives on the device
 * from one iteration to the next: every iteration starts with it there
 * (uploaded before the loop, and at the end of an iteration that left it
 * on the host), so that no iteration waits for the device.  Everything
 * else starts on the host.  A result the loop's head reads is copied back
 * at the end of each iteration; one only the rest of the region reads,
 * once after the loop. */
static void place_loop(F *f, Place *p, Step *st)
{
    Stmt *l = st->stmt;
    Vec body = {0}, self = {0}, dw = {0}, carry = {0}, rest = {0}, local = {0};
    flatten(f, l->body, &body);
    vec_push(f->a, &self, l);
    device_written(f, &st->body, &dw);
    declared_in(f, l->body, &local);
    for (int i = 0; i < dw.len; i++) {
        Var *v = vec_at(&dw, i);
        if (vec_has(&local, v))   /* declared in the body: no value survives an iteration */
            continue;
        bool head = ir_own_any(l, is_var_use, v);   /* bounds, condition, break flag */
        if (!head && read_first((Stmt **)body.data, body.len, v))
            vec_push(f->a, &carry, v);
    }
    /* everything else on the host; the carried values on the device */
    for (int j = 0; j < p->dev.len; j++)
        if (!vec_has(&carry, vec_at(&p->dev, j)))
            vec_push(f->a, &rest, vec_at(&p->dev, j));
    for (int j = 0; j < p->derived.len; j++)
        vec_push(f->a, &rest, ((Stmt *)vec_at(&p->derived, j))->var);
    materialise(f, p, &rest, &st->sync_before, &st->host_prelude);
    for (int i = 0; i < carry.len; i++)
        if (!vec_has(&p->dev, vec_at(&carry, i))) {
            vec_push(f->a, &st->upload_before, vec_at(&carry, i));
            vec_push(f->a, &p->dev, vec_at(&carry, i));
        }
    Place inner = {.in_loop = true};
    for (int i = 0; i < carry.len; i++)
        vec_push(f->a, &inner.dev, vec_at(&carry, i));
    place_scalars(f, &st->body, &inner);
    for (int i = 0; i < carry.len; i++)
        if (!vec_has(&inner.dev, vec_at(&carry, i)))
            vec_push(f->a, &st->upload_end, vec_at(&carry, i));
    for (int i = 0; i < inner.dev.len; i++) {
        Var *v = vec_at(&inner.dev, i);
        if (vec_has(&carry, v) || vec_has(&local, v))
            continue;
        if (read_first((Stmt **)body.data, body.len, v) || ir_own_any(l, is_var_use, v))
            vec_push(f->a, &st->sync_end, v);
        else if (used_outside(f->r->body, &self, v))
            vec_push(f->a, &st->sync_after, v);
    }
}

/* A host if: its condition on the host, each branch from where the values
 * live before it; a result only one branch leaves on the device is copied
 * back at that branch's end. */
static void place_if(F *f, Place *p, Step *st)
{
    Vec cond = {0};
    for (int j = 0; j < p->derived.len; j++)
        vec_push(f->a, &cond, ((Stmt *)vec_at(&p->derived, j))->var);
    for (int j = 0; j < p->dev.len; j++)
        if (ir_expr_any(st->stmt->cond, is_var_use, vec_at(&p->dev, j)))
            vec_push(f->a, &cond, vec_at(&p->dev, j));
    materialise(f, p, &cond, &st->sync_before, &st->host_prelude);
    Place a = {.in_loop = true}, b = {.in_loop = true};
    for (int j = 0; j < p->dev.len; j++) {
        vec_push(f->a, &a.dev, vec_at(&p->dev, j));
        vec_push(f->a, &b.dev, vec_at(&p->dev, j));
    }
    place_scalars(f, &st->body, &a);
    place_scalars(f, &st->els, &b);
    /* what is declared inside a branch is not read after it */
    Vec self = {0};
    vec_push(f->a, &self, st->stmt);
    p->dev.len = 0;
    for (int j = 0; j < a.dev.len; j++) {
        Var *v = vec_at(&a.dev, j);
        if (vec_has(&b.dev, v))
            vec_push(f->a, &p->dev, v);
        else if (used_outside(f->r->body, &self, v))
            vec_push(f->a, &st->sync_end, v);
    }
    for (int j = 0; j < b.dev.len; j++) {
        Var *v = vec_at(&b.dev, j);
        if (!vec_has(&a.dev, v) && used_outside(f->r->body, &self, v))
            vec_push(f->a, &st->sync_els, v);
    }
}

static void place_scalars(F *f, Vec *steps, Place *p)
{
    for (int i = 0; i < steps->len; i++) {
        Step *st = vec_at(steps, i);
        switch (st->kind) {
        case P_KERNEL:
            if (st->kernel->kind == K_SERIAL)
                place_serial(f, p, st);
            else
                place_reduce(f, p, st);
            break;
        case P_HOST:
        case P_LIB: place_host(f, p, st); break;
        case P_LOOP: place_loop(f, p, st); break;
        case P_IF: place_if(f, p, st); break;
        }
    }
}

static bool var_is(const Expr *e, const void *v) { return (e->kind == E_VAR || e->kind == E_INDEX) && e->var == v; }

/* Whether a step reads or writes v. */
static bool step_touches(Step *st, Var *v)
{
    if (st->kernel) {
        for (int i = 0; i < st->kernel->nests.len; i++)
            if (ir_stmt_any(vec_at(&st->kernel->nests, i), var_is, v))
                return true;
        for (int i = 0; i < st->kernel->dev_prelude.len; i++)
            if (ir_stmt_any(vec_at(&st->kernel->dev_prelude, i), var_is, v))
                return true;
    }
    return st->stmt && ir_stmt_any(st->stmt, var_is, v);
}

/* A kernel that only clears or scales what library calls then add to,
 * with nothing between touching it: the first call's beta takes it (the
 * kernel runs when the calls cannot). */
static void fold_init(F *f, Vec *steps, int i)
{
    LibCall *lc = ((Step *)vec_at(steps, i))->kernel->lib;
    for (int j = i - 1; j >= 0; j--) {
        Step *st = vec_at(steps, j);
        if (st->kind == P_KERNEL && st->kernel->nests.len == 1 && !st->sync_before.len && !st->kernel->dev_in.len &&
            lib_fold_init(f->a, f->r, lc, st->kernel)) {
            st->kernel->folded_into = ((Step *)vec_at(steps, i))->kernel;
            return;
        }
        /* what lies between must leave the outputs alone */
        for (int k = 0; k < lc->ops.len; k++)
            if (step_touches(st, ((LibOp *)vec_at(&lc->ops, k))->c))
                return;
    }
}

/* A matrix product followed by a kernel that only applies bias and/or ReLU
 * to its result: one cuBLASLt call does both (the kernel stays for when
 * the library cannot be used).  Before library calls, a kernel that only
 * clears or scales their output. */
static void fold_epilogues(F *f, Vec *steps)
{
    for (int i = 0; i < steps->len; i++) {
        Step *st = vec_at(steps, i);
        if (st->kind == P_LOOP || st->kind == P_IF) {
            fold_epilogues(f, &st->body);
            fold_epilogues(f, &st->els);
        }
        if (st->kind == P_KERNEL && st->kernel->lib)
            fold_init(f, steps, i);
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

typedef struct Interchanged {
    IrVisitor v;
    F *f;
    const Stmt *inner;           /* the inner loop of the pair just noted */
} Interchanged;

/* Through blocks and loops (not ifs or while loops): each pair of loops
 * swapped by deps_interchange, noted at the outer one, and each loop that
 * deps_fuse_siblings fused its next sibling into. */
static bool note_interchange(IrVisitor *v, Stmt *s)
{
    Interchanged *c = (Interchanged *)v;
    F *f = c->f;
    if (s->kind != S_FOR)
        return s->kind == S_BLOCK;
    if (s->fused_line)
        vec_push(f->a, &f->plan->notes,
                 arena_printf(f->a, "line %d: the loop of line %d fused into it: one loop over '%s' runs both bodies, "
                              "each element's statements in the original order", s->loc.line, s->fused_line,
                              s->iv->name));
    if (s == c->inner || !s->interchanged)
        return true;
    Stmt *in = ir_sole_loop(s->body);
    if (in && in->interchanged) {
        vec_push(f->a, &f->plan->notes,
                 arena_printf(f->a, "line %d: loops interchanged: '%s' runs outside (parallel), '%s' inside it "
                              "(sequential, per element, in the original order)",
                              s->loc.line, s->iv->name, in->iv->name));
        c->inner = in;
    }
    return true;
}

static void note_interchanges(F *f, Stmt *s)
{
    Interchanged c = {{.stmt = note_interchange}, f, NULL};
    ir_visit_stmt(&c.v, s);
}

static void note_libs(F *f)
{
    for (int i = 0; i < f->plan->kernels.len; i++) {
        Kernel *k = vec_at(&f->plan->kernels, i);
        if (!k->lib)
            continue;
        Stmt *nest = vec_at(&k->nests, 0);
        LibCall *lc = k->lib;
        const char *more = "";
        if (lc->epilogue)
            more = arena_printf(f->a, "; kernel %s (line %d) is its epilogue", lc->epilogue->name, lc->epilogue->first_line);
        if (lc->init)
            more = arena_printf(f->a, "%s; kernel %s (line %d) is its beta", more, lc->init->name, lc->init->first_line);
        vec_push(f->a, &f->plan->notes,
                 arena_printf(f->a, "line %d: kernel %s (lines %d-%d) is %s: %s%s", nest->loc.line, k->name,
                              lc->first_line, lc->last_line,
                              lc->ops.len == 1 ? "a library call" : arena_printf(f->a, "%d library calls", lc->ops.len),
                              lib_describe(f->a, lc), more));
    }
}

/* ---- the cost model --------------------------------------------------------------------------
 * A kernel launched in every iteration of a host loop costs a launch
 * (about 4 us) each time whatever its work, and a serial kernel's loops run
 * in one GPU thread.  When the plan has either, the launcher weighs them
 * against the work at each call, from the loop bounds (emit_cuda.c,
 * docs/performance.md), and runs the C body when the GPU cannot win.  The
 * bounds must be affine in the parameters and the loop indices around
 * them (a while loop counts once); a library call (its work unknown)
 * leaves the choice to the GPU. */

static int kernels_in(Vec *steps)
{
    int n = 0;
    for (int i = 0; i < steps->len; i++) {
        Step *st = vec_at(steps, i);
        n += st->kind == P_KERNEL || st->kind == P_LIB;
        if (st->kind == P_LOOP || st->kind == P_IF)
            n += kernels_in(&st->body) + kernels_in(&st->els);
    }
    return n;
}

static void kernels_of(Arena *a, Vec *steps, Vec *out)
{
    for (int i = 0; i < steps->len; i++) {
        Step *st = vec_at(steps, i);
        if (st->kind == P_KERNEL)
            vec_push(a, out, st->kernel);
        if (st->kind == P_LOOP || st->kind == P_IF) {
            kernels_of(a, &st->body, out);
            kernels_of(a, &st->els, out);
        }
    }
}

static bool has_lib_step(Vec *steps)
{
    for (int i = 0; i < steps->len; i++) {
        Step *st = vec_at(steps, i);
        if (st->kind == P_LIB || ((st->kind == P_LOOP || st->kind == P_IF) &&
                                  (has_lib_step(&st->body) || has_lib_step(&st->els))))
            return true;
    }
    return false;
}

/* The first loop in s (s included) whose bounds the cost model cannot
 * count (bound_print: affine, or isl's min, max and floor divisions of
 * affine forms). */
static const Stmt *not_counted(F *f, const Stmt *s)
{
    return bound_uncounted(f->a, s);
}

/* Notes the host loops that launch kernels per iteration; whether any does. */
static bool note_host_loops(F *f, Vec *steps)
{
    bool any = false;
    for (int i = 0; i < steps->len; i++) {
        Step *st = vec_at(steps, i);
        if (st->kind == P_IF)
            any |= note_host_loops(f, &st->body) | note_host_loops(f, &st->els);
        if (st->kind != P_LOOP)
            continue;
        int n = kernels_in(&st->body);
        if (!n)
            continue;
        any = true;
        Stmt *l = st->stmt;
        HostLoop *hl = arena_alloc(f->a, sizeof *hl);
        memset(hl, 0, sizeof *hl);
        hl->loop = l;
        hl->note = f->plan->notes.len;
        hl->launches = n;
        kernels_of(f->a, &st->body, &hl->kernels);
        vec_push(f->a, &f->plan->host_loops, hl);
        vec_push(f->a, &f->plan->notes,
                 arena_printf(f->a, "line %d: the %s runs on the host, %d kernel%s in each iteration: each call "
                              "weighs the launches against their work and runs the C body when the GPU cannot win",
                              l->loc.line, l->kind == S_WHILE ? "while loop" : arena_printf(f->a, "loop over '%s'", l->iv->name),
                              n, n == 1 ? "" : "s"));
    }
    return any;
}

static void plan_cost_model(F *f)
{
    bool serial_loops = false;
    for (int i = 0; i < f->plan->kernels.len; i++) {
        Kernel *k = vec_at(&f->plan->kernels, i);
        for (int j = 0; k->kind == K_SERIAL && j < k->nests.len; j++)
            serial_loops |= has_inner_control(vec_at(&k->nests, j));
    }
    if (!note_host_loops(f, &f->plan->steps) && !serial_loops)
        return;
    if (has_lib_step(&f->plan->steps)) {
        vec_push(f->a, &f->plan->notes, arena_strdup(f->a, "no cost model: a library call's work is not known "
                                                           "ahead: the plan always runs on the GPU"));
        return;
    }
    const Stmt *bad = not_counted(f, f->r->body);
    if (bad) {
        vec_push(f->a, &f->plan->notes,
                 arena_printf(f->a, "line %d: no cost model: the bounds of loop '%s' are not affine in the parameters "
                              "and loop indices (nor their minimum, maximum or floor division): the plan always runs "
                              "on the GPU", bad->loc.line, bad->iv->name));
        return;
    }
    f->plan->cost_model = true;
    if (serial_loops)
        vec_push(f->a, &f->plan->notes, arena_strdup(f->a, "loops in a serial kernel run in one GPU thread: each call "
                                                           "weighs their work against the C body's"));
}

void fuse_region(Unit *u, Region *r)
{
    F f = {u, r, u->arena, arena_alloc(u->arena, sizeof(Plan)), {0}, {0}, 0};
    r->plan = f.plan;
    for (int i = 0; i < r->notes.len; i++)
        vec_push(f.a, &f.plan->notes, vec_at(&r->notes, i));
    split_returns(&f, r->body);
    find_on_device(&f);
    plan_block(&f, r->body, &f.plan->steps);
    serial_results_all(&f);
    find_register_temps(&f);
    for (int i = 0; i < f.plan->kernels.len; i++)
        mark_vec4(vec_at(&f.plan->kernels, i));
    Place place = {0};
    place_scalars(&f, &f.plan->steps, &place);
    fold_epilogues(&f, &f.plan->steps);
    fft_fold(f.a, r, f.plan);
    note_interchanges(&f, r->body);
    note_libs(&f);
    plan_cost_model(&f);
    estimate(&f);
}
