/* emit_cuda.c - the CUDA back end's printers: one __global__ kernel per planned kernel
 * (grid-stride map, 128-bit vector map, map-reduce with a deterministic
 * finish, row kernels with the row in registers), and per region an
 * extern "C" launcher that replaces the C function at link time.  What each
 * kernel is comes from lower.c (KernelLow); the printers only print it, through
 * the table of shapes at the end. */
#include "lower.h"

#include <stdlib.h>
#include <string.h>

#define in(v, x) vec_has(v, x)

typedef struct CudaCx {
    EmitCtx base;
    Unit *u;
    Region *r;
    RegionLow *low;              /* the region's decisions (lower.c) */
    Kernel *k;
    KernelLow *kl;               /* the kernel being printed */
    int vec;                     /* inside the 4-wide body */
    int row;                     /* inside a row kernel */
    Stmt *coop;                  /* the cooperative loop being emitted */
    Vec cached;                  /* Var*: rows held in registers, in the body being printed */
    Vec red_private;             /* Var*: row accumulators renamed inside a coop loop */
    Vec vstores;                 /* Var*: row stores buffered for 16-byte writes */
    Vec vloads;                  /* Expr*: row reads loaded 16 bytes at a time (gf_l<n>[gf_v]) */
    Vec rot;                     /* Rot*: loads rotated through registers along rows, in the body being printed */
    const Expr *rowval_def;      /* the row value being emitted as written (not replaced by itself) */
    bool launcher;               /* host code of the launcher */
    Vec slots;                   /* launcher: what scratch piece k holds (Var* result or temporary, Kernel* partials) */
    int loops;                   /* launcher: host loops emitted (their gf_ran flags) */
    bool graph;                  /* launcher: launches go through gf_launch (a CUDA graph may replay them) */
    bool tile_body;              /* inside a tiled kernel's k chunk: staged operands read shared memory */
    const Stmt *acc_open;        /* the loop whose element seq_hook is printing it around */
    Vec accs_live;               /* RegAcc*: elements in registers in the loop being printed */
    const Stmt *carry_open;      /* the loop whose carried values seq_hook is printing it around */
    const Stmt *last_open;       /* the last statement of such a loop's body, being printed */
    Vec carried_live;            /* Carried*: values handed over in the loops being printed */
    bool carry_mem;              /* printing a carried read as the memory access it replaces */
    bool pro_live;               /* the absorbed serial kernel's elements read their registers (gf_q<id>) */
} CudaCx;

static Arena *A(CudaCx *c)
{
    return c->u->arena;
}

/* ---- expression overrides in kernels -------------------------------------------------- */

static const char *rowval_override(CudaCx *c, const Expr *e);

/* Records that the unit launches kernel instance `kern` ("@I@", the index
 * type, stands for both: int and long long). */
static void unit_launches(Unit *u, const char *kern)
{
    const char *at = strstr(kern, "@I@");
    if (at) {
        for (int t = 0; t < 2; t++)
            unit_launches(u, arena_printf(u->arena, "%.*s%s%s", (int)(at - kern), kern, t ? "long long" : "int", at + 3));
        return;
    }
    for (int i = 0; i < u->launched.n; i++)
        if (!strcmp(u->launched.v[i], kern))
            return;
    strvec_push(&u->launched, kern);
}

/* One launch statement's call of kernel `kern` (k->name `name`): a plain
 * launch, or in a launcher that may replay a CUDA graph, gf_launch
 * (templates/device.cuh), which hands it to the runtime while it records or
 * replays a graph. */
static const char *kcall(CudaCx *c, const char *name, const char *kern, const char *grid, const char *block,
                         const char *args)
{
    args = args ? args : "";
    unit_launches(c->u, kern);
    if (c->graph)
        return arena_printf(A(c), "gf_launch(gf_c, \"%s\", %s, %s, %s, 0, gf_s%s%s)", name, kern, grid, block,
                            *args ? ", " : "", args);
    return arena_printf(A(c), "%s<<<%s, %s, 0, gf_s>>>(%s)", kern, grid, block, args);
}

static const char *cuda_override(EmitCtx *cx, const Expr *e)
{
    CudaCx *c = (CudaCx *)cx;
    if (e->kind == E_CALL)
        return rowval_override(c, e);
    if (e->kind == E_VAR) {
        if (c->coop && in(&c->red_private, e->var))
            return arena_printf(A(c), "%s_p", e->var->cname);
        return NULL;
    }
    if (e->kind != E_INDEX)
        return NULL;
    for (int i = 0; c->pro_live && i < c->kl->pro.len; i++) {
        const Pro *p = vec_at(&c->kl->pro, i);
        if (expr_equal(p->elem, e))
            return arena_printf(A(c), "gf_q%d", p->id);
    }
    for (int i = 0; c->tile_body && i < c->kl->staged.len; i++) {
        Staged *st = vec_at(&c->kl->staged, i);
        if (expr_equal(st->e, e) && lower_tile_blocked(c->kl))
            return arena_printf(A(c), "gf_v%d[gf_r%c]", st->id, st->side ? 'j' : 'i');
        if (expr_equal(st->e, e))
            return arena_printf(A(c), "gf_s%d[threadIdx.%c][gf_kk]", st->id, st->side ? 'x' : 'y');
    }
    if (lower_reg_temp(c->k, e->var))
        return arena_printf(A(c), "%s_r", e->var->cname);
    for (int i = 0; i < c->accs_live.len; i++) {
        const RegAcc *ra = vec_at(&c->accs_live, i);
        if (expr_equal(ra->elem, e))
            return arena_printf(A(c), "gf_a%d", ra->id);
    }
    for (int i = 0; !c->carry_mem && i < c->carried_live.len; i++) {
        const Carried *cr = vec_at(&c->carried_live, i);
        for (int j = 0; j < cr->reads.len; j++) {
            if (!expr_equal(vec_at(&cr->reads, j), e))
                continue;
            /* the first step reads memory, as the loop did */
            Buf m = {0}, lb = {0};
            c->carry_mem = true;
            emit_expr(&m, cx, e);
            c->carry_mem = false;
            emit_expr(&lb, cx, cr->loop->lb);
            const char *t = arena_printf(A(c), "(%s == %s ? %s : gf_p%d)", cr->loop->iv->cname, lb.data, m.data,
                                         cr->id);
            buf_free(&m);
            buf_free(&lb);
            return t;
        }
    }
    for (int i = 0; i < c->rot.len; i++) {
        Rot *r = vec_at(&c->rot, i);
        bool ok;
        if (e->var != r->v || e->nkids != 2 || !expr_equal(e->kids[1], r->col))
            continue;
        long long off = lower_row_offset(e, c->k->loops[0]->iv, &ok);
        if (ok && off >= r->lo && off <= r->hi)
            return arena_printf(A(c), "gf_r%d_%lld", r->id, off - r->lo);
    }
    if (c->vec)
        return arena_printf(A(c), "%s_v[gf_k]", e->var->cname);
    if (c->coop && in(&c->vstores, e->var))
        return arena_printf(A(c), "%s_w[gf_v]", e->var->cname);
    for (int i = 0; c->coop && i < c->vloads.len; i++)
        if (expr_equal(vec_at(&c->vloads, i), e))
            return arena_printf(A(c), "gf_l%d[gf_v]", i);
    if (c->coop && in(&c->cached, e->var))
        return arena_printf(A(c), "%s_c[gf_k * GF_VEC + gf_v]", e->var->cname);
    return NULL;
}

/* ---- kernel signatures ---------------------------------------------------------------------- */

/* A scalar a serial kernel assigns before reading it: declared inside, no argument. */
static bool is_fresh(Kernel *k, Var *v)
{
    return in(&k->fresh, v) && !in(&k->dev_in, v);
}

/* Whether a kernel reads an array it also writes.  Such a kernel declares
 * its read-only arrays without __restrict__: NVVM (nvcc 13, sm_90) merges
 * two reads that are alternatives (`cond ? t[k] : c[i]`, an if and its
 * else) into one load from a select of the addresses, and when one of them
 * is a const __restrict__ parameter it loads through the non-coherent
 * read-only path (ld.global.nc) even where the select takes the written
 * array: an element this thread has just stored comes back stale
 * (docs/testing.md G8).  Without __restrict__ on the read-only side no
 * load is read-only; the written arrays keep theirs, so the compiler still
 * knows the read-only arrays do not alias them. */
static bool reads_own_writes(const Vec *loaded, const Vec *stored)
{
    for (int i = 0; i < stored->len; i++)
        if (in(loaded, vec_at(stored, i)))
            return true;
    return false;
}

static void kernel_params(Buf *b, const KernelLow *kl)
{
    Kernel *k = kl->k;
    const Uses *u = &kl->uses;
    const bool rerd = reads_own_writes(&u->loaded, &u->stored);
    int n = 0;
    for (int i = 0; i < u->scalars.len; i++) {
        Var *v = vec_at(&u->scalars, i);
        if (is_fresh(k, v))
            continue;
        if (in(&k->dev_in, v))   /* a result still on the device */
            buf_printf(b, "%sconst %s *gf_dev_%s", n++ ? ", " : "", type_c_name(v->ty), v->cname);
        else
            buf_printf(b, "%s%s %s", n++ ? ", " : "", type_c_name(v->ty), v->cname);
    }
    for (int i = 0; i < u->arrays.len; i++) {
        Var *v = vec_at(&u->arrays, i);
        if (lower_reg_temp(k, v))
            continue;
        Type *et = type_elem(v->ty);
        bool ro = !in(&u->stored, v);   /* read-only in this kernel */
        /* arguments that may legally be the same pointer are not restrict;
         * nor are read-only arrays beside a written array read back */
        bool rst = !v->alias_class && !(ro && rerd);
        buf_printf(b, "%s%s%s *%s%s", n++ ? ", " : "", ro ? "const " : "", type_c_name(et),
                   rst ? "__restrict__ " : "", v->cname);
    }
    for (int i = 0; i < k->results.len; i++) {
        Var *v = vec_at(&k->results, i);
        buf_printf(b, "%s%s *gf_out_%s", n++ ? ", " : "", type_c_name(v->ty), v->cname);
    }
    for (int i = 0; i < k->red_vars.len; i++) {
        Var *v = vec_at(&k->red_vars, i);
        const char *t = type_c_name(v->ty);
        /* the starting value: an argument, or the result slot itself */
        if (!in(&k->red_dev_init, v))
            buf_printf(b, "%s%s %s_init", n++ ? ", " : "", t, v->cname);
        if (!kl->red_atomic)
            buf_printf(b, "%s%s *gf_part_%s", n++ ? ", " : "", t, v->cname);
        buf_printf(b, "%s%s *gf_out_%s", n++ ? ", " : "", t, v->cname);
    }
    if (lower_ticket(kl))
        buf_printf(b, "%sunsigned *gf_ticket", n++ ? ", " : "");
    if (k->pdims >= 1)
        buf_printf(b, "%sGF_I gf_n0", n++ ? ", " : "");
    if (k->pdims >= 2 || kl->tri)
        buf_printf(b, ", GF_I gf_n1");
    if (k->pdims >= 3)
        buf_printf(b, ", GF_I gf_n2");
}

static void kernel_args(Buf *b, const KernelLow *kl)
{
    Kernel *k = kl->k;
    const Uses *u = &kl->uses;
    int n = 0;
    for (int i = 0; i < u->scalars.len; i++) {
        Var *v = vec_at(&u->scalars, i);
        if (!is_fresh(k, v))
            buf_printf(b, "%s%s%s", n++ ? ", " : "", in(&k->dev_in, v) ? "gf_out_" : "", v->cname);
    }
    for (int i = 0; i < u->arrays.len; i++) {
        Var *v = vec_at(&u->arrays, i);
        if (lower_reg_temp(k, v))
            continue;
        buf_printf(b, "%sgf_d_%s", n++ ? ", " : "", v->cname);
    }
    for (int i = 0; i < k->results.len; i++)
        buf_printf(b, "%sgf_out_%s", n++ ? ", " : "", ((Var *)vec_at(&k->results, i))->cname);
    for (int i = 0; i < k->red_vars.len; i++) {
        Var *v = vec_at(&k->red_vars, i);
        if (!in(&k->red_dev_init, v))
            buf_printf(b, "%s%s", n++ ? ", " : "", v->cname);
        if (!kl->red_atomic)
            buf_printf(b, "%sgf_part_%s", n++ ? ", " : "", v->cname);
        buf_printf(b, "%sgf_out_%s", n++ ? ", " : "", v->cname);
    }
    if (lower_ticket(kl))
        buf_printf(b, "%sgf_ticket", n++ ? ", " : "");
    if (k->pdims >= 1)
        buf_printf(b, "%sgf_n0", n++ ? ", " : "");
    if (k->pdims >= 2 || kl->tri)
        buf_printf(b, ", gf_n1");
    if (k->pdims >= 3)
        buf_printf(b, ", gf_n2");
}

static const char *red_functor(RedOp r)
{
    switch (r) {
    case RED_ADD: return "gf_add";
    case RED_MUL: return "gf_mul";
    case RED_MIN: return "gf_minop";
    case RED_MAX: return "gf_maxop";
    case RED_AND: return "gf_land";
    case RED_OR: return "gf_lor";
    case RED_BAND: return "gf_band";
    case RED_BOR: return "gf_bor";
    case RED_BXOR: return "gf_bxor";
    default: unreachable();
    }
}

/* ---- bodies ---------------------------------------------------------------------------------------- */

/* Reduction results an earlier kernel left in device memory. */
static void emit_dev_loads(Buf *b, CudaCx *c, Kernel *k)
{
    for (int i = 0; i < k->dev_in.len; i++) {
        Var *v = vec_at(&k->dev_in, i);
        /* not const: a kernel may assign it too (a loop of one trip that
         * updates it, run as a row kernel) */
        buf_line(b, "%s %s = *gf_dev_%s; /* computed on the device by an earlier kernel */", type_c_name(v->ty),
                 v->cname, v->cname);
    }
    if (k->dev_prelude.len)
        buf_line(b, "/* scalar statements of the source recomputed here instead of on the host */");
    for (int i = 0; i < k->dev_prelude.len; i++)
        emit_stmt(b, &c->base, vec_at(&k->dev_prelude, i));
}

static void emit_ivs(Buf *b, CudaCx *c, Kernel *k, const char *const *t)
{
    for (int d = 0; d < k->pdims; d++) {
        Stmt *l = k->loops[d];
        Buf lb = {0};
        emit_expr(&lb, &c->base, l->lb);
        if (l->step == 1)
            buf_line(b, "const %s %s = (%s)(%s + %s);", type_c_name(l->iv->ty), l->iv->cname,
                     type_c_name(l->iv->ty), lb.data, t[d]);
        else
            buf_line(b, "const %s %s = (%s)(%s + %s * %lld);", type_c_name(l->iv->ty), l->iv->cname,
                     type_c_name(l->iv->ty), lb.data, t[d], l->step);
        buf_free(&lb);
    }
}

/* A sequential loop with an element in a register (KernelLow.reg_accs):
 * loaded before it, the loop reading and updating gf_a<id>, stored after
 * it; all of it only when the loop runs. */
static void regacc_loop(Buf *b, CudaCx *c, const Stmt *s, const RegAcc *ra)
{
    EmitCtx *cx = &c->base;
    Buf lb = {0}, ub = {0}, el = {0};
    emit_expr(&lb, cx, s->lb);
    emit_expr(&ub, cx, s->ub);
    emit_expr(&el, cx, ra->elem);
    buf_line(b, "if (%s < %s) { /* %s in a register over the loop of line %d */", lb.data, ub.data, el.data,
             s->loc.line);
    b->indent++;
    buf_line(b, "%s gf_a%d = %s;", type_c_name(type_elem(ra->elem->var->ty)), ra->id, el.data);
    const Stmt *open = c->acc_open;
    c->acc_open = s;
    vec_push(A(c), &c->accs_live, (void *)ra);
    emit_stmt(b, cx, s);
    c->accs_live.len--;
    c->acc_open = open;
    buf_line(b, "%s = gf_a%d;", el.data, ra->id);
    b->indent--;
    buf_line(b, "}");
    buf_free(&lb);
    buf_free(&ub);
    buf_free(&el);
}

/* A sequential loop that hands stored values to its next step
 * (KernelLow.carried): gf_p<id> (the step before's) and gf_w<id> (this
 * step's) declared before it. */
static void carried_loop(Buf *b, CudaCx *c, const Stmt *s)
{
    const int live = c->carried_live.len;
    for (int i = 0; i < c->kl->carried.len; i++) {
        Carried *cr = vec_at(&c->kl->carried, i);
        if (cr->loop != s)
            continue;
        Buf w = {0};
        emit_expr(&w, &c->base, cr->write->lhs);
        buf_line(b, "%s gf_p%d = 0, gf_w%d = 0; /* %s handed to the next step of the loop of line %d */",
                 type_c_name(type_elem(cr->write->lhs->var->ty)), cr->id, cr->id, w.data, s->loc.line);
        buf_free(&w);
        vec_push(A(c), &c->carried_live, cr);
    }
    const Stmt *open = c->carry_open;
    c->carry_open = s;
    emit_stmt(b, &c->base, s);
    c->carry_open = open;
    c->carried_live.len = live;
}

static const Stmt *last_stmt(const Stmt *s)
{
    while (s->kind == S_BLOCK && s->list.len)
        s = vec_at(&s->list, s->list.len - 1);
    return s;
}

/* Sequential loops in map kernels: elements in registers over them
 * (regacc_loop), values handed from step to step (carried_loop: the store
 * goes through gf_w<id>, which the body's last statement passes on to
 * gf_p<id>). */
static bool seq_hook(Buf *b, EmitCtx *cx, const Stmt *s)
{
    CudaCx *c = (CudaCx *)cx;
    const Stmt *ends = NULL;     /* the loop whose body s ends */
    for (int i = 0; i < c->carried_live.len && !ends; i++) {
        const Carried *cr = vec_at(&c->carried_live, i);
        if (s != c->last_open && last_stmt(cr->loop->body) == s)
            ends = cr->loop;
    }
    if (ends) {
        const Stmt *open = c->last_open;
        c->last_open = s;
        emit_stmt(b, cx, s);
        c->last_open = open;
        for (int i = 0; i < c->carried_live.len; i++) {
            const Carried *cr = vec_at(&c->carried_live, i);
            if (cr->loop == ends)
                buf_line(b, "gf_p%d = gf_w%d;", cr->id, cr->id);
        }
        return true;
    }
    for (int i = 0; i < c->carried_live.len; i++) {
        const Carried *cr = vec_at(&c->carried_live, i);
        if (cr->write == s) {
            emit_assign_via(b, cx, s, arena_printf(A(c), "gf_w%d", cr->id));
            return true;
        }
    }
    if (s->kind != S_FOR)
        return false;
    for (int i = 0; i < c->kl->reg_accs.len && s != c->acc_open; i++) {
        const RegAcc *ra = vec_at(&c->kl->reg_accs, i);
        if (ra->loop == s) {
            regacc_loop(b, c, s, ra);
            return true;
        }
    }
    for (int i = 0; i < c->kl->carried.len && s != c->carry_open; i++)
        if (((const Carried *)vec_at(&c->kl->carried, i))->loop == s) {
            carried_loop(b, c, s);
            return true;
        }
    return false;
}

static void emit_nest_bodies(Buf *b, CudaCx *c, Kernel *k)
{
    bool (*hook)(Buf *, EmitCtx *, const Stmt *) = c->base.stmt_hook;
    if (!hook && (c->kl->reg_accs.len || c->kl->carried.len))
        c->base.stmt_hook = seq_hook;
    for (int i = 0; i < k->reg_temps.len; i++) {
        Var *v = vec_at(&k->reg_temps, i);
        buf_line(b, "%s %s_r; /* temporary '%s' lives in a register */", type_c_name(type_elem(v->ty)), v->cname,
                 v->name);
    }
    for (int i = 0; i < k->nests.len; i++) {
        Stmt *nest = vec_at(&k->nests, i);
        if (k->nests.len > 1) {
            buf_line(b, "{ /* %s:%d */", c->u->gen_path, nest->loc.line);
            b->indent++;
        }
        emit_iv_aliases(b, k, nest);
        emit_stmt(b, &c->base, nest_inner_body(nest, k->pdims));
        if (k->nests.len > 1) {
            b->indent--;
            buf_line(b, "}");
        }
    }
    c->base.stmt_hook = hook;
}

static void emit_red_init(Buf *b, Kernel *k)
{
    for (int i = 0; i < k->red_vars.len; i++) {
        Var *v = vec_at(&k->red_vars, i);
        buf_line(b, "%s %s = %s<%s>::id(); /* this thread's share of the reduction */", type_c_name(v->ty),
                 v->cname, red_functor(lower_red_of(k, v)), type_c_name(v->ty));
    }
}

/* The value accumulator v started with: its argument, or its device slot
 * (an earlier kernel's result, read only by the block that finishes). */
static const char *red_init(CudaCx *c, Kernel *k, Var *v)
{
    if (in(&k->red_dev_init, v))
        return arena_printf(A(c), "*gf_out_%s", v->cname);
    return arena_printf(A(c), "%s_init", v->cname);
}

static void emit_red_finish(Buf *b, CudaCx *c, Kernel *k)
{
    if (c->kl->red_atomic) {
        /* --atomic-reductions: each block adds its share into the result,
         * zeroed by the launcher (block 0 brings the starting value) or
         * already holding the starting value (an earlier kernel's result) */
        for (int i = 0; i < k->red_vars.len; i++) {
            Var *v = vec_at(&k->red_vars, i);
            const char *t = type_c_name(v->ty), *f = red_functor(lower_red_of(k, v));
            buf_line(b, "%s = gf_block_reduce(%s, %s<%s>());", v->cname, v->cname, f, t);
            buf_line(b, "if (threadIdx.x == 0)");
            if (in(&k->red_dev_init, v))
                buf_line(b, "    %s(gf_out_%s, %s);", lower_atomic_fn(lower_red_of(k, v), v->ty), v->cname, v->cname);
            else
                buf_line(b, "    %s(gf_out_%s, gf_block_id() == 0 ? %s<%s>()(%s_init, %s) : %s);",
                         lower_atomic_fn(lower_red_of(k, v), v->ty), v->cname, f, t, v->cname, v->cname, v->cname);
        }
        return;
    }
    for (int i = 0; i < k->red_vars.len; i++) {
        Var *v = vec_at(&k->red_vars, i);
        const char *t = type_c_name(v->ty), *f = red_functor(lower_red_of(k, v));
        buf_line(b, "%s = gf_block_reduce(%s, %s<%s>());", v->cname, v->cname, f, t);
        buf_line(b, "if (threadIdx.x == 0)");
        buf_line(b, "    gf_part_%s[gf_block_id()] = %s;", v->cname, v->cname);
    }
    buf_line(b, "if (gf_last_block(gf_ticket)) {");
    b->indent++;
    for (int i = 0; i < k->red_vars.len; i++) {
        Var *v = vec_at(&k->red_vars, i);
        const char *t = type_c_name(v->ty), *f = red_functor(lower_red_of(k, v));
        buf_line(b, "const %s gf_total_%s = gf_finish(gf_part_%s, (int)gf_grid_blocks(), %s<%s>());", t, v->cname, v->cname, f, t);
        buf_line(b, "if (threadIdx.x == 0)");
        buf_line(b, "    *gf_out_%s = %s<%s>()(%s, gf_total_%s);", v->cname, f, t, red_init(c, k, v), v->cname);
    }
    b->indent--;
    buf_line(b, "}");
}

/* The 16-byte vector type an element type travels in (the vec4 form):
 * float4 for float and float _Complex, int4 for int, double2 for double,
 * longlong2 and ulonglong2 for the 8-byte integers, uint4 for the rest
 * (unsigned; gf_f16, gf_bf16, shorts, chars and bool as raw bits). */
static const char *vec_type(const Type *t)
{
    switch (t->kind) {
    case TY_FLOAT: case TY_CF:
        return "float4";
    case TY_INT:
        return "int4";
    case TY_DOUBLE:
        return "double2";
    case TY_LONG: case TY_LLONG:
        return "longlong2";
    case TY_ULONG: case TY_ULLONG:
        return "ulonglong2";
    default:
        return "uint4";
    }
}

/* The 16-byte accesses of array v per thread of the vector form: k->vecw
 * elements of the kernel's smallest size take one, larger ones 2 or 4. */
static int vec_accesses(const Kernel *k, const Var *v)
{
    return type_size(type_elem(v->ty)) * k->vecw / 16;
}

/* The loop body of a 1-D map's element gf_t: its index and the nests'
 * statements, and the loop's closing brace. */
static void flat_elements(Buf *b, CudaCx *c)
{
    const char *t0[] = {"gf_t"};
    b->indent++;
    emit_ivs(b, c, c->k, t0);
    emit_nest_bodies(b, c, c->k);
    b->indent--;
    buf_line(b, "}");
}

/* The statements of the serial kernel absorbed into this one
 * (KernelLow.absorbed), run by every thread into registers: each element
 * they store starts as memory holds it (gf_q<id>), the statements update
 * the registers, and the kernel's reads of those elements read them
 * (cuda_override, while c->pro_live). */
static void emit_absorbed_start(Buf *b, CudaCx *c)
{
    const KernelLow *kl = c->kl;
    if (!kl->absorbed)
        return;
    buf_line(b, "/* %s: %s lines %d-%d, run by every thread into registers; the last block stores them */",
             kl->absorbed->name, c->u->gen_path, kl->absorbed->first_line, kl->absorbed->last_line);
    for (int i = 0; i < kl->pro.len; i++) {
        const Pro *p = vec_at(&kl->pro, i);
        Buf e = {0};
        emit_expr(&e, &c->base, p->elem);
        buf_line(b, "%s gf_q%d = %s;", type_c_name(p->elem->ty), p->id, e.data);
        buf_free(&e);
    }
    c->pro_live = true;
    for (int i = 0; i < kl->absorbed->nests.len; i++)
        emit_stmt(b, &c->base, vec_at(&kl->absorbed->nests, i));
}

/* After every element: the last block to finish stores the registers. */
static void emit_absorbed_end(Buf *b, CudaCx *c)
{
    const KernelLow *kl = c->kl;
    if (!kl->absorbed)
        return;
    c->pro_live = false;
    buf_line(b, "if (gf_last_block(gf_ticket) && threadIdx.x == 0) { /* every block has read what it needs */");
    for (int i = 0; i < kl->pro.len; i++) {
        const Pro *p = vec_at(&kl->pro, i);
        Buf e = {0};
        emit_expr(&e, &c->base, p->elem);
        buf_line(b, "    %s = gf_q%d;", e.data, p->id);
        buf_free(&e);
    }
    buf_line(b, "}");
}

/* The 1-D grid-stride map or map-reduce kernel; `vec` = the 16-byte form. */
static void emit_flat_form(Buf *b, CudaCx *c, bool vec)
{
    Kernel *k = c->k;
    const Uses *u = &c->kl->uses;
    buf_printf(b, "template <typename GF_I>\n__global__ void __launch_bounds__(GF_THREADS) %s%s(", k->name, vec ? "_v4" : "");
    kernel_params(b, c->kl);
    buf_puts(b, ")\n{\n");
    b->indent = 1;
    emit_dev_loads(b, c, k);
    emit_absorbed_start(b, c);
    if (k->red_vars.len)
        emit_red_init(b, k);
    buf_line(b, "const GF_I gf_stride = (GF_I)gridDim.x * blockDim.x;");
    buf_line(b, "const GF_I gf_tid = (GF_I)blockIdx.x * blockDim.x + threadIdx.x;");
    const char *t0[] = {"gf_t"};
    if (vec) {
        /* 16-byte loads and stores of w consecutive elements (2 doubles,
         * 8-byte integers or float _Complex, 4 floats or ints, 8 halves or
         * shorts, 16 chars: 16 bytes of
         * the smallest element, 2 or 4 accesses of the larger ones), moved
         * as bits into an array of the element type that the scalar body
         * then reads and writes (a half is still read through gf_h2f and
         * rounded by gf_to_f16 at its store); the launcher checked the
         * alignment of every array at the first index */
        const int w = k->vecw;
        Stmt *l = k->loops[0];
        Buf lb = {0};
        emit_expr(&lb, &c->base, l->lb);
        buf_line(b, "const GF_I gf_n4 = gf_n0 / %d;", w);
        buf_line(b, "for (GF_I gf_q = gf_tid; gf_q < gf_n4; gf_q += gf_stride) {");
        b->indent++;
        for (int i = 0; i < u->arrays.len; i++) {
            Var *v = vec_at(&u->arrays, i);
            if (lower_reg_temp(k, v))
                continue;
            const char *et = type_c_name(type_elem(v->ty));
            const char *vt = vec_type(type_elem(v->ty));
            const int nv = vec_accesses(k, v);
            buf_line(b, "%s%s %s_v[%d];", w == 4 && nv == 1 ? "" : "__align__(16) ", et, v->cname, w);
            if (!in(&c->kl->vec_loads, v))
                continue;
            const char *ld = in(&u->stored, v) ? "*" : "__ldcs";
            if (nv == 1)
                buf_line(b, "*(%s *)%s_v = %s((const %s *)(%s + (%s)) + gf_q);", vt, v->cname, ld, vt, v->cname,
                         lb.data);
            for (int j = 0; nv > 1 && j < nv; j++)
                buf_line(b, "((%s *)%s_v)[%d] = %s((const %s *)(%s + (%s)) + gf_q * %d + %d);", vt, v->cname, j, ld,
                         vt, v->cname, lb.data, nv, j);
        }
        buf_line(b, "#pragma unroll");
        buf_line(b, "for (int gf_k = 0; gf_k < %d; gf_k++) {", w);
        b->indent++;
        buf_line(b, "const GF_I gf_t = gf_q * %d + gf_k;", w);
        emit_ivs(b, c, k, t0);
        buf_line(b, "(void)%s;", k->loops[0]->iv->cname);
        c->vec = 1;
        emit_nest_bodies(b, c, k);
        c->vec = 0;
        b->indent--;
        buf_line(b, "}");
        for (int i = 0; i < u->arrays.len; i++) {
            Var *v = vec_at(&u->arrays, i);
            if (!in(&u->stored, v) || lower_reg_temp(k, v))
                continue;
            const char *vt = vec_type(type_elem(v->ty));
            const int nv = vec_accesses(k, v);
            if (nv == 1)
                buf_line(b, "__stcs((%s *)(%s + (%s)) + gf_q, *(%s *)%s_v);", vt, v->cname, lb.data, vt, v->cname);
            for (int j = 0; nv > 1 && j < nv; j++)
                buf_line(b, "__stcs((%s *)(%s + (%s)) + gf_q * %d + %d, ((%s *)%s_v)[%d]);", vt, v->cname, lb.data, nv, j,
                         vt, v->cname, j);
        }
        b->indent--;
        buf_line(b, "}");
        buf_line(b, "for (GF_I gf_t = gf_n4 * %d + gf_tid; gf_t < gf_n0; gf_t += gf_stride) { /* the tail */", w);
        buf_free(&lb);
    } else {
        buf_line(b, "for (GF_I gf_t = gf_tid; gf_t < gf_n0; gf_t += gf_stride) {");
    }
    flat_elements(b, c);
    if (k->red_vars.len)
        emit_red_finish(b, c, k);
    emit_absorbed_end(b, c);
    b->indent = 0;
    buf_puts(b, "}\n\n");
}

static void print_flat(Buf *b, CudaCx *c)
{
    if (c->k->vec4)
        emit_flat_form(b, c, true);
    emit_flat_form(b, c, false);
}

/* ---- a region in one block (RegionLow.block) ------------------------------------------ */

static void trip_count(Buf *b, CudaCx *c, Stmt *l, const char *name);

/* The parameters of <region>_blk: every kernel's scalars and arrays once,
 * an array const when no kernel stores it. */
static void block_vars(CudaCx *c, Vec *scalars, Vec *arrays, Vec *stored, Vec *loaded)
{
    for (int i = 0; i < c->low->kernels.len; i++) {
        const KernelLow *kl = vec_at(&c->low->kernels, i);
        for (int j = 0; j < kl->uses.scalars.len; j++) {
            Var *v = vec_at(&kl->uses.scalars, j);
            if (!is_fresh(kl->k, v) && !in(scalars, v))
                vec_push(A(c), scalars, v);
        }
        for (int j = 0; j < kl->uses.arrays.len; j++) {
            Var *v = vec_at(&kl->uses.arrays, j);
            if (lower_reg_temp(kl->k, v))
                continue;
            if (!in(arrays, v))
                vec_push(A(c), arrays, v);
            if (in(&kl->uses.stored, v) && !in(stored, v))
                vec_push(A(c), stored, v);
            if (in(&kl->uses.loaded, v) && !in(loaded, v))
                vec_push(A(c), loaded, v);
        }
    }
}

static void serial_body(Buf *b, CudaCx *c);

static const char *block_name(CudaCx *c)
{
    return arena_printf(A(c), "%s_blk", c->r->cname);
}

/* <region>_blk: the region's maps one after the other in one block, each
 * striding over its elements with the block's threads. */
static void print_block(Buf *b, CudaCx *c)
{
    Vec scalars = {0}, arrays = {0}, stored = {0}, loaded = {0};
    block_vars(c, &scalars, &arrays, &stored, &loaded);
    const bool rerd = reads_own_writes(&loaded, &stored);
    const Vec *ks = &c->low->kernels;
    const Kernel *k0 = ((KernelLow *)vec_at(ks, 0))->k, *kn = ((KernelLow *)vec_at(ks, ks->len - 1))->k;
    buf_printf(b, "/* %s: the %d kernels of %s() in one thread block (%s lines %d-%d), __syncthreads() between them;\n"
                  " * launched instead of them when each has at most GF_BLOCK_ELEMS elements */\n",
               block_name(c), ks->len, c->r->name, c->u->gen_path, k0->first_line, kn->last_line);
    buf_printf(b, "template <typename GF_I>\n__global__ void __launch_bounds__(GF_BLOCK_THREADS) %s(", block_name(c));
    int n = 0;
    for (int i = 0; i < scalars.len; i++) {
        Var *v = vec_at(&scalars, i);
        buf_printf(b, "%s%s %s", n++ ? ", " : "", type_c_name(v->ty), v->cname);
    }
    for (int i = 0; i < arrays.len; i++) {
        Var *v = vec_at(&arrays, i);
        bool ro = !in(&stored, v);
        buf_printf(b, "%s%s%s *%s%s", n++ ? ", " : "", ro ? "const " : "", type_c_name(type_elem(v->ty)),
                   v->alias_class || (ro && rerd) ? "" : "__restrict__ ", v->cname);
    }
    for (int i = 0; i < ks->len; i++)
        if (((KernelLow *)vec_at(ks, i))->shape == SH_FLAT)
            buf_printf(b, "%sGF_I gf_b%d", n++ ? ", " : "", i);
    buf_puts(b, ")\n{\n");
    b->indent = 1;
    buf_line(b, "const GF_I gf_stride = blockDim.x;");
    buf_line(b, "const GF_I gf_tid = threadIdx.x;");
    for (int i = 0; i < ks->len; i++) {
        c->kl = vec_at(ks, i);
        c->k = c->kl->k;
        if (i)
            buf_line(b, "__syncthreads(); /* what the kernels before wrote is seen from here on */");
        if (c->kl->shape == SH_SERIAL) {
            buf_line(b, "if (threadIdx.x == 0) { /* %s: %s lines %d-%d, one thread in order */", c->k->name,
                     c->u->gen_path, c->k->first_line, c->k->last_line);
            b->indent++;
            serial_body(b, c);
            b->indent--;
            buf_line(b, "}");
            continue;
        }
        buf_line(b, "{ /* %s: %s lines %d-%d */", c->k->name, c->u->gen_path, c->k->first_line, c->k->last_line);
        b->indent++;
        buf_line(b, "const GF_I gf_n0 = gf_b%d;", i);
        buf_line(b, "for (GF_I gf_t = gf_tid; gf_t < gf_n0; gf_t += gf_stride) {");
        flat_elements(b, c);
        b->indent--;
        buf_line(b, "}");
    }
    c->k = NULL;
    c->kl = NULL;
    b->indent = 0;
    buf_puts(b, "}\n\n");
}

/* The launcher's choice: the region in one block when every kernel fits,
 * else (the caller prints them) its kernels; closed by block_launch_end. */
static void block_launch_begin(Buf *b, CudaCx *c)
{
    const Vec *ks = &c->low->kernels;
    buf_line(b, "{ /* %s: the region in one launch when every kernel has at most GF_BLOCK_ELEMS elements */",
             block_name(c));
    b->indent++;
    Buf most = {0}, args = {0};
    for (int i = 0; i < ks->len; i++) {
        const KernelLow *kl = vec_at(ks, i);
        const char *t = arena_printf(A(c), "gf_b%d", i);
        if (kl->shape == SH_SERIAL)
            buf_line(b, "const long long %s = 1; /* %s: one thread */", t, kl->k->name);
        else
            trip_count(b, c, kl->k->loops[0], t);
        Buf m = {0};
        if (i)
            buf_printf(&m, "gf_max(%s, %s)", most.data, t);
        else
            buf_puts(&m, t);
        buf_free(&most);
        most = m;
    }
    Vec scalars = {0}, arrays = {0}, stored = {0}, loaded = {0};
    block_vars(c, &scalars, &arrays, &stored, &loaded);
    int n = 0;
    for (int i = 0; i < scalars.len; i++)
        buf_printf(&args, "%s%s", n++ ? ", " : "", ((Var *)vec_at(&scalars, i))->cname);
    for (int i = 0; i < arrays.len; i++)
        buf_printf(&args, "%sgf_d_%s", n++ ? ", " : "", ((Var *)vec_at(&arrays, i))->cname);
    for (int i = 0; i < ks->len; i++)
        if (((KernelLow *)vec_at(ks, i))->shape == SH_FLAT)
            buf_printf(&args, "%s(int)gf_b%d", n++ ? ", " : "", i);
    buf_line(b, "const long long gf_bmax = %s;", most.data);
    buf_line(b, "if (gf_bmax <= GF_BLOCK_ELEMS && gf_big < GF_I32_LIMIT) {");
    b->indent++;
    buf_line(b, "if (gf_bmax > 0)");
    buf_line(b, "    %s;", kcall(c, block_name(c), arena_printf(A(c), "%s<int>", block_name(c)), "1",
                                "gf_block_threads(gf_bmax)", args.data));
    buf_line(b, "gf_call_check(gf_c, cudaGetLastError(), \"%s\");", block_name(c));
    b->indent--;
    buf_line(b, "} else {");
    b->indent++;
    buf_free(&most);
    buf_free(&args);
}

static void block_launch_end(Buf *b)
{
    b->indent--;
    buf_line(b, "}");
    b->indent--;
    buf_line(b, "}");
}

static void emit_one_iv(Buf *b, CudaCx *c, Stmt *l, const char *t)
{
    Buf lb = {0};
    emit_expr(&lb, &c->base, l->lb);
    buf_line(b, "const %s %s = (%s)(%s + (%s) * %lld);", type_c_name(l->iv->ty), l->iv->cname, type_c_name(l->iv->ty),
             lb.data, t, l->step);
    buf_free(&lb);
}

static void emit_rot_load(Buf *b, CudaCx *c, Rot *r, long long off, const char *dst)
{
    /* r->v[i + off][col] */
    Var *iv = c->k->loops[0]->iv;
    Expr ive = {.kind = E_VAR, .var = iv, .ty = iv->ty};
    Expr ce = {.kind = E_INT, .text = arena_printf(A(c), "%lld", off < 0 ? -off : off), .ty = iv->ty};
    Expr sum = {.kind = E_BINARY, .op = off < 0 ? OP_SUB : OP_ADD, .ty = iv->ty, .nkids = 2};
    Expr *sk[2] = {&ive, &ce};
    sum.kids = sk;
    Expr ix = {.kind = E_INDEX, .var = r->v, .ty = type_elem(r->v->ty), .nkids = 2};
    Expr *ik[2] = {off ? &sum : &ive, r->col};
    ix.kids = ik;
    Vec save = c->rot;
    c->rot.len = 0;
    Buf t = {0};
    emit_expr(&t, &c->base, &ix);
    c->rot = save;
    buf_line(b, "%s = %s;", dst, t.data);
    buf_free(&t);
}

/* 2-D and 3-D maps: x over the innermost dimension (coalesced, one index
 * per thread when the grid is wide enough), y over consecutive outer indices. */
static void print_grid(Buf *b, CudaCx *c)
{
    Kernel *k = c->k;
    c->rot = c->kl->rots;
    buf_printf(b, "template <typename GF_I>\n__global__ void __launch_bounds__(GF_THREADS) %s(", k->name);
    kernel_params(b, c->kl);
    buf_puts(b, ")\n{\n");
    b->indent = 1;
    emit_dev_loads(b, c, k);
    if (k->red_vars.len)
        emit_red_init(b, k);
    const char *in = k->pdims == 2 ? "gf_n1" : "gf_n2";
    buf_line(b, "const GF_I gf_outer = %s;", k->pdims == 2 ? "gf_n0" : "gf_n0 * gf_n1");
    buf_line(b, "for (GF_I gf_x = (GF_I)blockIdx.x * blockDim.x + threadIdx.x; gf_x < %s; gf_x += (GF_I)gridDim.x * blockDim.x) {", in);
    b->indent++;
    /* a small constant start (a stencil's 1) would put every warp across two
     * cache lines: threads start at the aligned column below and idle there */
    int skew = c->kl->skew;
    if (skew) {
        buf_line(b, "if (gf_x < %d) continue; /* aligned start: the first %d threads of the row idle */", skew, skew);
        emit_one_iv(b, c, c->kl->grid[k->pdims - 1], arena_printf(A(c), "gf_x - %d", skew));
    } else {
        emit_one_iv(b, c, c->kl->grid[k->pdims - 1], "gf_x");
    }
    buf_line(b, "/* each block walks gf_rows consecutive outer indices (GF_ROWS, fewer on a taller grid) */");
    buf_line(b, "const GF_I gf_rows = gf_strip_rows(gf_outer);");
    buf_line(b, "for (GF_I gf_c = (GF_I)blockIdx.y * gf_rows; gf_c < gf_outer; gf_c += (GF_I)gridDim.y * gf_rows) {");
    b->indent++;
    for (int i = 0; i < c->rot.len; i++) {
        Rot *r = vec_at(&c->rot, i);
        buf_line(b, "%s gf_r%d_0 /* %s[%s %+lld .. %+lld][...] */;", type_c_name(type_elem(r->v->ty)), r->id, r->v->name,
                 k->loops[0]->iv->cname, r->lo, r->hi);
        for (long long o = 1; o <= r->hi - r->lo; o++)
            buf_line(b, "%s gf_r%d_%lld;", type_c_name(type_elem(r->v->ty)), r->id, o);
    }
    buf_line(b, "for (GF_I gf_y = gf_c; gf_y < gf_c + gf_rows && gf_y < gf_outer; gf_y++) {");
    b->indent++;
    if (k->pdims == 2) {
        emit_one_iv(b, c, c->kl->grid[0], "gf_y");
    } else {
        emit_one_iv(b, c, c->kl->grid[0], "gf_y / gf_n1");
        emit_one_iv(b, c, c->kl->grid[1], "gf_y % gf_n1");
    }
    if (c->rot.len) {
        /* the first row loads the window inside the walk: on the H200 the
         * window loaded before the walk (a straight loop) and a bound
         * computed once made Jacobi 8192^2 slower (3170 and 3370 GB/s
         * against 3525 with nvcc 13, 28-40 registers against 32) */
        buf_line(b, "if (gf_y == gf_c) { /* the first row of the walk loads the whole window */");
        b->indent++;
        for (int i = 0; i < c->rot.len; i++) {
            Rot *r = vec_at(&c->rot, i);
            for (long long o = 0; o <= r->hi - r->lo; o++)
                emit_rot_load(b, c, r, r->lo + o, arena_printf(A(c), "gf_r%d_%lld", r->id, o));
        }
        b->indent--;
        buf_line(b, "} else { /* later rows shift the window and load one value */");
        b->indent++;
        for (int i = 0; i < c->rot.len; i++) {
            Rot *r = vec_at(&c->rot, i);
            for (long long o = 0; o < r->hi - r->lo; o++)
                buf_line(b, "gf_r%d_%lld = gf_r%d_%lld;", r->id, o, r->id, o + 1);
            emit_rot_load(b, c, r, r->hi, arena_printf(A(c), "gf_r%d_%lld", r->id, r->hi - r->lo));
        }
        b->indent--;
        buf_line(b, "}");
    }
    emit_nest_bodies(b, c, k);
    b->indent--;
    buf_line(b, "}");
    b->indent--;
    buf_line(b, "}");
    b->indent--;
    buf_line(b, "}");
    c->rot.len = 0;
    if (k->red_vars.len)
        emit_red_finish(b, c, k);
    b->indent = 0;
    buf_puts(b, "}\n\n");
}

/* ---- tiled kernels (SH_TILED) ------------------------------------------------------ */

static const char *expr_text(CudaCx *c, const Expr *e)
{
    Buf t = {0};
    emit_expr(&t, &c->base, e);
    const char *r = arena_printf(A(c), "%s", t.data ? t.data : "");
    buf_free(&t);
    return r;
}

/* The first column of the grid and the end of the box (a triangular column
 * loop: its bounds over every row of the row loop). */
static const char *tile_jlo(CudaCx *c, const KernelLow *kl)
{
    if (kl->lo_i)
        return arena_printf(A(c), "((long long)(%s) + %lld)", expr_text(c, kl->tile_i->lb), kl->lo_c);
    return arena_printf(A(c), "((long long)(%s))", expr_text(c, kl->tile_j->lb));
}

static const char *tile_jhi(CudaCx *c, const KernelLow *kl)
{
    if (kl->hi_i)
        return arena_printf(A(c), "((long long)(%s) - 1 + %lld)", expr_text(c, kl->tile_i->ub), kl->hi_c);
    return arena_printf(A(c), "((long long)(%s))", expr_text(c, kl->tile_j->ub));
}

/* const T iv = lb + t * step (or the box's first column + t). */
static void tile_iv(Buf *b, CudaCx *c, const KernelLow *kl, int side, const char *t)
{
    Stmt *l = side ? kl->tile_j : kl->tile_i;
    const char *ty = type_c_name(l->iv->ty);
    if (side && kl->tri)
        buf_line(b, "const %s %s = (%s)(gf_jlo + %s);", ty, l->iv->cname, ty, t);
    else
        buf_line(b, "const %s %s = (%s)(%s + (%s) * %lld);", ty, l->iv->cname, ty, expr_text(c, l->lb), t, l->step);
}

/* Each staged operand's chunk: gf_s<id>[tile index][k - gf_k0], every
 * thread of the block loading one element (threadIdx.x along the operand's
 * unit-stride subscript), in range of the grid and of k only. */
static void tile_stage(Buf *b, CudaCx *c, const KernelLow *kl)
{
    const char *kty = type_c_name(kl->kloop->iv->ty);
    for (int i = 0; i < kl->staged.len; i++) {
        Staged *st = vec_at(&kl->staged, i);
        buf_line(b, "{ /* %s */", expr_text(c, st->e));
        b->indent++;
        buf_line(b, "const int gf_a = threadIdx.%c, gf_b = threadIdx.%c;", st->along_x ? 'x' : 'y', st->along_x ? 'y' : 'x');
        buf_line(b, "const GF_I gf_t = %s * GF_TILE + gf_a;", st->side ? "(GF_I)blockIdx.x" : "gf_by");
        tile_iv(b, c, kl, st->side, "gf_t");
        buf_line(b, "const %s %s = (%s)(gf_k0 + gf_b);", kty, kl->kloop->iv->cname, kty);
        buf_line(b, "if (gf_t < gf_n%d && %s < gf_khi)", st->side, kl->kloop->iv->cname);
        buf_line(b, "    gf_s%d[gf_a][gf_b] = %s;", st->id, expr_text(c, st->e));
        b->indent--;
        buf_line(b, "}");
    }
}

static bool loads_or_calls(const Expr *e, const void *arg)
{
    (void)arg;
    return e->kind == E_INDEX || e->kind == E_CALL || e->kind == E_FIELD;
}

/* Statements of the column body around the k loop, only in the iteration
 * domain; a scalar declared before it is declared by every thread (the k
 * loop's statements name it), its value computed in the domain only. */
static void tile_stmts(Buf *b, CudaCx *c, const Vec *list)
{
    for (int i = 0; i < list->len; i++) {
        Stmt *x = vec_at(list, i);
        if (x->kind == S_DECL && (!x->rhs || !ir_expr_any(x->rhs, loads_or_calls, NULL))) {
            emit_stmt(b, &c->base, x);
            continue;
        }
        if (x->kind == S_DECL) {
            buf_line(b, "%s %s = {};", type_c_name(x->var->ty), x->var->cname);
            if (x->rhs)
                buf_line(b, "if (gf_in) %s = %s;", x->var->cname, expr_text(c, x->rhs));
            continue;
        }
        buf_line(b, "if (gf_in) {");
        b->indent++;
        emit_stmt(b, &c->base, x);
        b->indent--;
        buf_line(b, "}");
    }
}

/* ---- register blocks (tile_r > 1): each thread computes tile_r[0] x
 * tile_r[1] outputs, rows and columns GF_TILE apart ---------------------------------- */

static int tile_ext(const KernelLow *kl, int side)
{
    return GF_TILE_SIDE * kl->tile_r[side];
}

/* The indices of the output (gf_ri, gf_rj) of the thread, its loop indices
 * and whether it is in the iteration domain. */
static void rb_point(Buf *b, CudaCx *c, const KernelLow *kl)
{
    buf_line(b, "const GF_I gf_ti = gf_ti0 + gf_ri * GF_TILE + (GF_I)threadIdx.y;");
    buf_line(b, "const GF_I gf_tj = gf_tj0 + gf_rj * GF_TILE + (GF_I)threadIdx.x;");
    tile_iv(b, c, kl, 0, "gf_ti");
    tile_iv(b, c, kl, 1, "gf_tj");
    if (kl->tri)
        buf_line(b, "const bool gf_in = gf_ti < gf_n0 && gf_tj < gf_n1 && %s >= (%s) && %s < (%s);", kl->tile_j->iv->cname,
                 expr_text(c, kl->tile_j->lb), kl->tile_j->iv->cname, expr_text(c, kl->tile_j->ub));
    else
        buf_line(b, "const bool gf_in = gf_ti < gf_n0 && gf_tj < gf_n1;");
    buf_line(b, "(void)%s, (void)%s, (void)gf_in;", kl->tile_i->iv->cname, kl->tile_j->iv->cname);
}

/* for (gf_ri) for (gf_rj) {, unrolled */
static void rb_open(Buf *b, const KernelLow *kl)
{
    buf_line(b, "#pragma unroll");
    buf_line(b, "for (int gf_ri = 0; gf_ri < %d; gf_ri++)", kl->tile_r[0]);
    buf_line(b, "    #pragma unroll");
    buf_line(b, "    for (int gf_rj = 0; gf_rj < %d; gf_rj++) {", kl->tile_r[1]);
    b->indent += 2;
}

static void rb_close(Buf *b)
{
    b->indent -= 2;
    buf_line(b, "    }");
}

/* Each staged operand's chunk, gf_s<id>[tile side][tile_kc + 1], loaded by
 * the whole block, consecutive threads along the operand's unit-stride
 * subscript, in range of the grid and of k only. */
static void rb_stage(Buf *b, CudaCx *c, const KernelLow *kl)
{
    const char *kty = type_c_name(kl->kloop->iv->ty);
    int kc = kl->tile_kc;
    for (int i = 0; i < kl->staged.len; i++) {
        Staged *st = vec_at(&kl->staged, i);
        int ext = tile_ext(kl, st->side);
        buf_line(b, "#pragma unroll");
        buf_line(b, "for (int gf_e = threadIdx.y * GF_TILE + threadIdx.x; gf_e < %d; gf_e += GF_TILE * GF_TILE) { /* %s */",
                 ext * kc, expr_text(c, st->e));
        b->indent++;
        if (st->along_x)
            buf_line(b, "const int gf_a = gf_e %% %d, gf_b = gf_e / %d;", ext, ext);
        else
            buf_line(b, "const int gf_a = gf_e / %d, gf_b = gf_e %% %d;", kc, kc);
        buf_line(b, "const GF_I gf_t = %s + gf_a;", st->side ? "gf_tj0" : "gf_ti0");
        tile_iv(b, c, kl, st->side, "gf_t");
        buf_line(b, "const %s %s = (%s)(gf_k0 + gf_b);", kty, kl->kloop->iv->cname, kty);
        buf_line(b, "if (gf_t < gf_n%d && %s < gf_khi)", st->side, kl->kloop->iv->cname);
        buf_line(b, "    gf_s%d[gf_a][gf_b] = %s;", st->id, expr_text(c, st->e));
        b->indent--;
        buf_line(b, "}");
    }
}

/* One k value of the chunk: the staged values into registers, then every
 * output of the thread updated in C's way (masked: only in the domain). */
static void rb_kstep(Buf *b, CudaCx *c, const KernelLow *kl, bool masked)
{
    const char *kty = type_c_name(kl->kloop->iv->ty);
    buf_line(b, "GF_UNUSED const %s %s = (%s)(gf_k0 + gf_kk);", kty, kl->kloop->iv->cname, kty);
    for (int i = 0; i < kl->staged.len; i++) {
        Staged *st = vec_at(&kl->staged, i);
        int r = kl->tile_r[st->side];
        buf_line(b, "%s gf_v%d[%d];", type_c_name(type_elem(st->e->var->ty)), st->id, r);
        buf_line(b, "#pragma unroll");
        buf_line(b, "for (int gf_r = 0; gf_r < %d; gf_r++)", r);
        buf_line(b, "    gf_v%d[gf_r] = gf_s%d[gf_r * GF_TILE + threadIdx.%c][gf_kk];", st->id, st->id, st->side ? 'x' : 'y');
    }
    rb_open(b, kl);
    rb_point(b, c, kl);
    c->tile_body = true;
    buf_line(b, "%sgf_acc[gf_ri][gf_rj] %s %s;", masked ? "if (gf_in) " : "", op_spelling(kl->acc->op),
             expr_text(c, kl->acc->rhs));
    c->tile_body = false;
    rb_close(b);
}

/* The k loop over the chunk: a full tile with a full chunk runs a fixed
 * trip count without masks. */
static void rb_kloop(Buf *b, CudaCx *c, const KernelLow *kl)
{
    int kc = kl->tile_kc;
    buf_line(b, "const int gf_kn = gf_khi - gf_k0 < %d ? (int)(gf_khi - gf_k0) : %d;", kc, kc);
    buf_line(b, "if (gf_full && gf_kn == %d) {", kc);
    buf_line(b, "    #pragma unroll");
    buf_line(b, "    for (int gf_kk = 0; gf_kk < %d; gf_kk++) {", kc);
    b->indent += 2;
    rb_kstep(b, c, kl, false);
    b->indent -= 2;
    buf_line(b, "    }");
    buf_line(b, "} else {");
    buf_line(b, "    for (int gf_kk = 0; gf_kk < gf_kn; gf_kk++) {");
    b->indent += 2;
    rb_kstep(b, c, kl, true);
    b->indent -= 2;
    buf_line(b, "    }");
    buf_line(b, "}");
}

/* The tile's last row and column in range, whether it is full (every
 * output in the domain), and over a triangle, tiles with no output in it
 * skipped (the same for the whole block: before any barrier). */
static void rb_corners(Buf *b, CudaCx *c, const KernelLow *kl)
{
    int ei = tile_ext(kl, 0), ej = tile_ext(kl, 1);
    buf_line(b, "const GF_I gf_ti1 = (gf_ti0 + %d < gf_n0 ? gf_ti0 + %d : gf_n0) - 1;", ei, ei);
    buf_line(b, "const GF_I gf_tj1 = (gf_tj0 + %d < gf_n1 ? gf_tj0 + %d : gf_n1) - 1;", ej, ej);
    buf_line(b, "bool gf_full = gf_ti1 == gf_ti0 + %d && gf_tj1 == gf_tj0 + %d;", ei - 1, ej - 1);
    if (!kl->tri)
        return;
    const char *lb = expr_text(c, kl->tile_i->lb);
    buf_line(b, "const long long gf_i0 = (long long)(%s) + gf_ti0, gf_i1 = (long long)(%s) + gf_ti1;", lb, lb);
    buf_line(b, "const long long gf_j0 = gf_jlo + gf_tj0, gf_j1 = gf_jlo + gf_tj1;");
    buf_line(b, "(void)gf_i0, (void)gf_i1, (void)gf_j0, (void)gf_j1;");
    if (kl->lo_i) {
        buf_line(b, "if (gf_j1 < gf_i0 + %lld) /* every column before its row's first */", kl->lo_c);
        buf_line(b, "    continue;");
        buf_line(b, "gf_full = gf_full && gf_j0 >= gf_i1 + %lld;", kl->lo_c);
    }
    if (kl->hi_i) {
        buf_line(b, "if (gf_j0 >= gf_i1 + %lld) /* every column past its row's last */", kl->hi_c);
        buf_line(b, "    continue;");
        buf_line(b, "gf_full = gf_full && gf_j1 < gf_i0 + %lld;", kl->hi_c);
    }
}

/* The row's own statements, once per row (the block column 0's thread x 0). */
static void rb_outer(Buf *b, CudaCx *c, const KernelLow *kl)
{
    if (!kl->outer.len)
        return;
    buf_line(b, "#pragma unroll");
    buf_line(b, "for (int gf_ri = 0; gf_ri < %d; gf_ri++) { /* the row's own statements, once per row */", kl->tile_r[0]);
    b->indent++;
    buf_line(b, "const GF_I gf_ti = gf_ti0 + gf_ri * GF_TILE + (GF_I)threadIdx.y;");
    buf_line(b, "if (gf_tj0 == 0 && threadIdx.x == 0 && gf_ti < gf_n0) {");
    b->indent++;
    tile_iv(b, c, kl, 0, "gf_ti");
    for (int i = 0; i < kl->outer.len; i++)
        emit_stmt(b, &c->base, vec_at(&kl->outer, i));
    b->indent--;
    buf_line(b, "}");
    b->indent--;
    buf_line(b, "}");
}

static void print_tiled_blocked(Buf *b, CudaCx *c)
{
    Kernel *k = c->k;
    KernelLow *kl = c->kl;
    Stmt *kloop = kl->kloop, *acc = kl->acc;
    const char *kty = type_c_name(kloop->iv->ty);
    bool scalar = kl->acc_decl;
    const Type *at = scalar ? acc->lhs->var->ty : type_elem(acc->lhs->var->ty);
    buf_printf(b, "template <typename GF_I>\n__global__ void __launch_bounds__(GF_TILE * GF_TILE) %s(", k->name);
    kernel_params(b, kl);
    buf_puts(b, ")\n{\n");
    b->indent = 1;
    emit_dev_loads(b, c, k);
    buf_line(b, "/* a %dx%d tile per block, %dx%d outputs per thread, k in chunks of %d */", tile_ext(kl, 0),
             tile_ext(kl, 1), kl->tile_r[0], kl->tile_r[1], kl->tile_kc);
    for (int i = 0; i < kl->staged.len; i++) {
        Staged *st = vec_at(&kl->staged, i);
        buf_line(b, "__shared__ %s gf_s%d[%d][%d]; /* %s: %s of the tile by a chunk of %s */",
                 type_c_name(type_elem(st->e->var->ty)), st->id, tile_ext(kl, st->side), kl->tile_kc + 1,
                 expr_text(c, st->e), st->side ? "columns" : "rows", kloop->iv->cname);
    }
    if (kl->tri)
        buf_line(b, "const long long gf_jlo = %s; /* the first column of the box */", tile_jlo(c, kl));
    buf_line(b, "const GF_I gf_tj0 = (GF_I)blockIdx.x * %d;", tile_ext(kl, 1));
    buf_line(b, "for (GF_I gf_by = blockIdx.y; gf_by * %d < gf_n0; gf_by += gridDim.y) {", tile_ext(kl, 0));
    b->indent++;
    buf_line(b, "const GF_I gf_ti0 = gf_by * %d;", tile_ext(kl, 0));
    rb_outer(b, c, kl);
    rb_corners(b, c, kl);
    buf_line(b, "%s gf_acc[%d][%d]; /* %s over the k loop, per output */", type_c_name(at), kl->tile_r[0], kl->tile_r[1],
             expr_text(c, acc->lhs));
    rb_open(b, kl);
    rb_point(b, c, kl);
    tile_stmts(b, c, &kl->pre);
    if (scalar)
        buf_line(b, "gf_acc[gf_ri][gf_rj] = %s;", acc->lhs->var->cname);
    else {
        buf_line(b, "gf_acc[gf_ri][gf_rj] = {};");
        buf_line(b, "if (gf_in) gf_acc[gf_ri][gf_rj] = %s;", expr_text(c, acc->lhs));
    }
    rb_close(b);
    buf_line(b, "const %s gf_khi = %s;", kty, expr_text(c, kloop->ub));
    buf_line(b, "for (%s gf_k0 = %s; gf_k0 < gf_khi; gf_k0 += %d) { /* chunks of %s, in order */", kty,
             expr_text(c, kloop->lb), kl->tile_kc, kloop->iv->cname);
    b->indent++;
    rb_stage(b, c, kl);
    buf_line(b, "__syncthreads();");
    rb_kloop(b, c, kl);
    buf_line(b, "__syncthreads();");
    b->indent--;
    buf_line(b, "}");
    rb_open(b, kl);
    rb_point(b, c, kl);
    if (scalar)
        buf_line(b, "%s %s = gf_acc[gf_ri][gf_rj];", type_c_name(at), acc->lhs->var->cname);
    else
        buf_line(b, "if (gf_in) %s = gf_acc[gf_ri][gf_rj];", expr_text(c, acc->lhs));
    tile_stmts(b, c, &kl->post);
    rb_close(b);
    b->indent--;
    buf_line(b, "}");
    b->indent = 0;
    buf_puts(b, "}\n\n");
}

static void print_tiled(Buf *b, CudaCx *c)
{
    if (lower_tile_blocked(c->kl)) {
        print_tiled_blocked(b, c);
        return;
    }
    Kernel *k = c->k;
    KernelLow *kl = c->kl;
    Stmt *kloop = kl->kloop;
    const char *kty = type_c_name(kloop->iv->ty);
    buf_printf(b, "template <typename GF_I>\n__global__ void __launch_bounds__(GF_TILE * GF_TILE) %s(", k->name);
    kernel_params(b, kl);
    buf_puts(b, ")\n{\n");
    b->indent = 1;
    emit_dev_loads(b, c, k);
    for (int i = 0; i < kl->staged.len; i++) {
        Staged *st = vec_at(&kl->staged, i);
        buf_line(b, "__shared__ %s gf_s%d[GF_TILE][GF_TILE + 1]; /* %s: %s of the tile by a chunk of %s */",
                 type_c_name(type_elem(st->e->var->ty)), st->id, expr_text(c, st->e), st->side ? "columns" : "rows",
                 kloop->iv->cname);
    }
    if (kl->tri)
        buf_line(b, "const long long gf_jlo = %s; /* the first column of the box */", tile_jlo(c, kl));
    buf_line(b, "const GF_I gf_tj = (GF_I)blockIdx.x * GF_TILE + threadIdx.x;");
    buf_line(b, "for (GF_I gf_by = blockIdx.y; gf_by * GF_TILE < gf_n0; gf_by += gridDim.y) {");
    b->indent++;
    buf_line(b, "const GF_I gf_ti = gf_by * GF_TILE + threadIdx.y;");
    tile_iv(b, c, kl, 0, "gf_ti");
    tile_iv(b, c, kl, 1, "gf_tj");
    if (kl->tri)
        buf_line(b, "const bool gf_in = gf_ti < gf_n0 && gf_tj < gf_n1 && %s >= (%s) && %s < (%s);", kl->tile_j->iv->cname,
                 expr_text(c, kl->tile_j->lb), kl->tile_j->iv->cname, expr_text(c, kl->tile_j->ub));
    else
        buf_line(b, "const bool gf_in = gf_ti < gf_n0 && gf_tj < gf_n1;");
    buf_line(b, "(void)%s, (void)%s;", kl->tile_i->iv->cname, kl->tile_j->iv->cname);
    if (kl->outer.len) {
        buf_line(b, "if (gf_tj == 0 && gf_ti < gf_n0) { /* the row's own statements, once per row */");
        b->indent++;
        for (int i = 0; i < kl->outer.len; i++)
            emit_stmt(b, &c->base, vec_at(&kl->outer, i));
        b->indent--;
        buf_line(b, "}");
    }
    buf_line(b, "{");
    b->indent++;
    tile_stmts(b, c, &kl->pre);
    Stmt *acc = kl->acc_decl ? NULL : kl->acc;   /* a scalar accumulator is a register already */
    if (acc) {
        const char *at = type_c_name(type_elem(acc->lhs->var->ty));
        buf_line(b, "%s gf_acc = {}; /* %s over the k loop, in a register */", at, expr_text(c, acc->lhs));
        buf_line(b, "if (gf_in) gf_acc = %s;", expr_text(c, acc->lhs));
    }
    buf_line(b, "const %s gf_khi = %s;", kty, expr_text(c, kloop->ub));
    buf_line(b, "for (%s gf_k0 = %s; gf_k0 < gf_khi; gf_k0 += GF_TILE) { /* chunks of %s, in order */", kty,
             expr_text(c, kloop->lb), kloop->iv->cname);
    b->indent++;
    tile_stage(b, c, kl);
    buf_line(b, "__syncthreads();");
    buf_line(b, "if (gf_in)");
    buf_line(b, "    for (int gf_kk = 0; gf_kk < GF_TILE && gf_k0 + gf_kk < gf_khi; gf_kk++) {");
    b->indent += 2;
    buf_line(b, "GF_UNUSED const %s %s = (%s)(gf_k0 + gf_kk);", kty, kloop->iv->cname, kty);
    c->tile_body = true;
    if (acc)
        buf_line(b, "gf_acc %s %s;", op_spelling(acc->op), expr_text(c, acc->rhs));
    else
        emit_stmt(b, &c->base, kloop->body);
    c->tile_body = false;
    b->indent -= 2;
    buf_line(b, "    }");
    buf_line(b, "__syncthreads();");
    b->indent--;
    buf_line(b, "}");
    if (acc)
        buf_line(b, "if (gf_in) %s = gf_acc;", expr_text(c, acc->lhs));
    tile_stmts(b, c, &kl->post);
    b->indent--;
    buf_line(b, "}");
    b->indent--;
    buf_line(b, "}");
    b->indent = 0;
    buf_puts(b, "}\n\n");
}

/* A serial kernel: one thread runs the statements in order.  Results start
 * from their current value (an argument, or their device slot) unless
 * assigned before any read, and are stored to their slot at the end. */
/* A serial kernel's statements: its scalars assigned before they are read,
 * then its nests in order. */
static void serial_body(Buf *b, CudaCx *c)
{
    Kernel *k = c->k;
    const Uses *u = &c->kl->uses;
    for (int i = 0; i < u->scalars.len; i++) {
        Var *v = vec_at(&u->scalars, i);
        if (is_fresh(k, v))
            buf_line(b, "%s %s; /* assigned before it is read */", type_c_name(v->ty), v->cname);
    }
    for (int i = 0; i < k->nests.len; i++) {
        Stmt *s = vec_at(&k->nests, i);
        if (s->end_line > s->loc.line)
            buf_line(b, "/* %s:%d-%d */", c->u->gen_path, s->loc.line, s->end_line);
        else
            buf_line(b, "/* %s:%d */", c->u->gen_path, s->loc.line);
        emit_stmt(b, &c->base, s);
    }
}

static void print_serial(Buf *b, CudaCx *c)
{
    Kernel *k = c->k;
    buf_printf(b, "template <typename GF_I>\n__global__ void __launch_bounds__(1) %s(", k->name);
    kernel_params(b, c->kl);
    buf_puts(b, ")\n{\n");
    b->indent = 1;
    emit_dev_loads(b, c, k);
    serial_body(b, c);
    for (int i = 0; i < k->results.len; i++) {
        Var *v = vec_at(&k->results, i);
        buf_line(b, "*gf_out_%s = %s; /* '%s' stays on the device for what follows */", v->cname, v->cname, v->name);
    }
    b->indent = 0;
    buf_puts(b, "}\n\n");
}

/* ---- row kernels ------------------------------------------------------------------------------------- */

static bool row_hook(Buf *b, EmitCtx *cx, const Stmt *s);

/* An inner loop of the row, shared by the group (lower.c's RowLoop). */
static void emit_coop_loop(Buf *b, CudaCx *c, const RowLoop *rl)
{
    Stmt *l = rl->loop;
    Vec reds = rl->reds;
    for (int i = 0; i < reds.len; i++) {
        Var *v = vec_at(&reds, i);
        buf_line(b, "%s %s_p = %s<%s>::id();", type_c_name(v->ty), v->cname, red_functor(rl->ops[i]),
                 type_c_name(v->ty));
    }
    Buf lb = {0}, ub = {0};
    emit_expr(&lb, &c->base, l->lb);
    emit_expr(&ub, &c->base, l->ub);
    const char *iv = l->iv->cname, *ty = type_c_name(l->iv->ty);
    Stmt *save = c->coop;
    Vec save_red = c->red_private;
    c->coop = l;
    c->red_private = reds;
    buf_line(b, "/* %s:%d: shared by the block */", c->u->gen_path, l->loc.line);
    buf_line(b, "if (GF_ITEMS > 0) {");
    b->indent++;
    /* stores of this loop that can be gathered into 16-byte writes */
    Vec vst = rl->vstores;
    buf_line(b, "#pragma unroll");
    buf_line(b, "for (int gf_k = 0; gf_k < (GF_ITEMS > 0 ? GF_ITEMS : 1); gf_k++) {");
    b->indent++;
    buf_line(b, "const GF_I gf_jb = %s + ((GF_I)gf_lane + (GF_I)gf_k * gf_gsz) * GF_VEC * %lld;", lb.data,
             l->step);
    for (int i = 0; i < vst.len; i++) {
        Var *v = vec_at(&vst, i);
        buf_line(b, "%s %s_w[GF_VEC];", type_c_name(type_elem(v->ty)), v->cname);
    }
    for (int i = 0; i < rl->vloads.len; i++) {
        const Expr *e = vec_at(&rl->vloads, i);
        Var *v = e->var;
        Buf at = {0};   /* the group's first element */
        if (e->nkids == 2) {
            Buf d = {0};
            emit_expr(&d, &c->base, v->dims[1]);
            buf_printf(&at, "%s[(GF_I)%s * (%s) + gf_jb", v->cname, c->kl->row->cname, d.data);
            buf_free(&d);
            buf_line(b, "float gf_l%d[GF_VEC]; /* %s[%s][%s] of the group's columns */", i, v->name, c->kl->row->name,
                     l->iv->name);
        } else {
            buf_printf(&at, "%s[gf_jb", v->cname);
            buf_line(b, "float gf_l%d[GF_VEC]; /* %s[%s] of the group's columns */", i, v->name, l->iv->name);
        }
        buf_line(b, "if (GF_VEC == 4 && gf_jb + 3 < %s && ((unsigned long long)&%s] & 15) == 0)", ub.data, at.data);
        buf_line(b, "    *(float4 *)gf_l%d = *(const float4 *)&%s];", i, at.data);
        buf_line(b, "else");
        buf_line(b, "    for (int gf_v = 0; gf_v < GF_VEC; gf_v++)");
        buf_line(b, "        if (gf_jb + gf_v < %s)", ub.data);
        buf_line(b, "            gf_l%d[gf_v] = %s + gf_v];", i, at.data);
        buf_free(&at);
    }
    /* a group of GF_VEC columns all below the bound (every group but the
     * row's last, when the row is long) runs its columns with no test each:
     * on the H200 the tests cost softmax 2-4% of its bandwidth */
    c->vstores = vst;
    c->vloads = rl->vloads;
    for (int whole = 1; whole >= 0; whole--) {
        if (whole)
            buf_line(b, "if (GF_VEC > 1 && gf_jb + (GF_VEC - 1) * %lld < %s) { /* the group's columns all in the row */",
                     l->step, ub.data);
        else
            buf_line(b, "} else {");
        b->indent++;
        buf_line(b, "#pragma unroll");
        buf_line(b, "for (int gf_v = 0; gf_v < GF_VEC; gf_v++) {");
        b->indent++;
        buf_line(b, "const %s %s = (%s)(gf_jb + gf_v * %lld);", ty, iv, ty, l->step);
        if (!whole) {
            buf_line(b, "if (%s < %s) {", iv, ub.data);
            b->indent++;
        }
        emit_stmt(b, &c->base, l->body);
        if (!whole) {
            b->indent--;
            buf_line(b, "}");
        }
        b->indent--;
        buf_line(b, "}");
        b->indent--;
    }
    buf_line(b, "}");
    c->vstores.len = 0;
    c->vloads.len = 0;
    for (int i = 0; i < vst.len; i++) {
        Var *v = vec_at(&vst, i);
        Buf d = {0};
        emit_expr(&d, &c->base, v->dims[1]);
        const char *row = c->kl->row->cname;
        buf_line(b, "if (GF_VEC == 4 && gf_jb + 3 < %s)", ub.data);
        buf_line(b, "    __stcs((float4 *)&%s[(GF_I)%s * (%s) + gf_jb], *(float4 *)%s_w);", v->cname, row, d.data,
                 v->cname);
        buf_line(b, "else");
        buf_line(b, "    for (int gf_v = 0; gf_v < GF_VEC; gf_v++)");
        buf_line(b, "        if (gf_jb + gf_v < %s)", ub.data);
        buf_line(b, "            %s[(GF_I)%s * (%s) + gf_jb + gf_v] = %s_w[gf_v];", v->cname, row, d.data, v->cname);
        buf_free(&d);
    }
    b->indent--;
    buf_line(b, "}");
    b->indent--;
    buf_line(b, "} else {");
    b->indent++;
    Vec cached = c->cached;
    c->cached.len = 0;           /* the general form reads memory */
    buf_line(b, "for (%s %s = (%s)(%s + (GF_I)gf_lane * %lld); %s < %s; %s += (%s)(gf_gsz * %lld)) {",
             ty, iv, ty, lb.data, l->step, iv, ub.data, iv, ty, l->step);
    b->indent++;
    emit_stmt(b, &c->base, l->body);
    b->indent--;
    buf_line(b, "}");
    c->cached = cached;
    b->indent--;
    buf_line(b, "}");
    c->coop = save;
    c->red_private = save_red;
    for (int i = 0; i < reds.len; i++) {
        Var *v = vec_at(&reds, i);
        const char *f = red_functor(rl->ops[i]), *t = type_c_name(v->ty);
        buf_line(b, "%s = %s<%s>()(%s, gf_group_reduce<GF_G>(%s_p, %s<%s>()));", v->cname, f, t, v->cname, v->cname, f, t);
    }
    buf_free(&lb);
    buf_free(&ub);
}

static bool row_hook(Buf *b, EmitCtx *cx, const Stmt *s)
{
    CudaCx *c = (CudaCx *)cx;
    if (c->coop || !c->row)
        return false;
    if (s->kind == S_FOR) {
        const RowLoop *rl = lower_row_loop(c->kl, s);
        emit_coop_loop(b, c, rl);
        if (rl->sync_after)
            buf_line(b, "gf_group_sync<GF_G>(); /* a later inner loop reads what this one wrote */");
        return true;
    }
    if (s->kind == S_ASSIGN && s->lhs->kind != E_VAR) {
        buf_line(b, "if (gf_lane == 0) { /* a row-level store: once per row */");
        b->indent++;
        c->row = 0;
        emit_stmt(b, cx, s);
        c->row = 1;
        b->indent--;
        buf_line(b, "}");
        buf_line(b, "gf_group_sync<GF_G>();");
        return true;
    }
    return false;
}

/* ---- values reused across a row's inner loops ------------------------------------------------ */

/* e as written (not replaced by its kept value), in the arena. */
static const char *rowval_plain(CudaCx *c, const Expr *e)
{
    Buf d = {0};
    const Expr *save = c->rowval_def;
    c->rowval_def = e;
    emit_expr(&d, &c->base, e);
    c->rowval_def = save;
    const char *s = arena_printf(A(c), "%s", d.data);
    buf_free(&d);
    return s;
}

/* The definition stores its value, a use reads it; both fall back to
 * computing it where gf_reuse is off (more than 8 values per thread). */
static const char *rowval_override(CudaCx *c, const Expr *e)
{
    if (!c->coop || !c->cached.len || e == c->rowval_def)
        return NULL;
    for (int i = 0; i < c->kl->rowvals.len; i++) {
        RowVal *rv = vec_at(&c->kl->rowvals, i);
        if (rv->slot) { /* in place of the row it was computed from: always kept */
            if (rv->def == e)
                return arena_printf(A(c), "(%s_c[gf_k * GF_VEC + gf_v] = %s)", rv->slot->cname, rowval_plain(c, e));
            if (in(&rv->uses, (void *)e))
                return arena_printf(A(c), "%s_c[gf_k * GF_VEC + gf_v]", rv->slot->cname);
            continue;
        }
        if (rv->def == e) {
            const char *x = rowval_plain(c, e);
            return arena_printf(A(c), "(gf_reuse ? (gf_val%d_c[gf_k * GF_VEC + gf_v] = %s) : %s)", rv->id, x, x);
        }
        if (in(&rv->uses, (void *)e))
            return arena_printf(A(c), "(gf_reuse ? gf_val%d_c[gf_k * GF_VEC + gf_v] : %s)", rv->id,
                                rowval_plain(c, e));
    }
    return NULL;
}

static void print_row(Buf *b, CudaCx *c)
{
    Kernel *k = c->k;
    const KernelLow *kl = c->kl;
    Stmt *nest = vec_at(&k->nests, 0);
    Stmt *first = kl->cached.len ? kl->inner : NULL;   /* the loop whose j the registers hold */
    c->cached = kl->cached;
    buf_printf(b, "template <typename GF_I, int GF_ITEMS, int GF_VEC, int GF_G>\n__global__ void __launch_bounds__(1024) %s(", k->name);
    kernel_params(b, kl);
    buf_puts(b, ")\n{\n");
    b->indent = 1;
    emit_dev_loads(b, c, k);
    buf_line(b, "/* a row per group of threads: the block (GF_G = 0) or a warp (GF_G = 32, short rows) */");
    buf_line(b, "const int gf_lane = GF_G ? (int)(threadIdx.x %% GF_G) : (int)threadIdx.x;");
    buf_line(b, "const int gf_gsz = GF_G ? GF_G : (int)blockDim.x;");
    buf_line(b, "const GF_I gf_groups = GF_G ? (GF_I)(blockDim.x / GF_G) : (GF_I)1;");
    buf_line(b, "for (GF_I gf_t = (GF_I)blockIdx.x * gf_groups + (GF_I)(threadIdx.x / gf_gsz); gf_t < gf_n0; gf_t += (GF_I)gridDim.x * gf_groups) {");
    b->indent++;
    const char *t0[] = {"gf_t"};
    emit_ivs(b, c, k, t0);
    if (c->cached.len && first) {
        Buf lb = {0}, ub = {0};
        emit_expr(&lb, &c->base, first->lb);
        emit_expr(&ub, &c->base, first->ub);
        buf_line(b, "/* the row in registers: read once, used by every inner loop */");
        for (int i = 0; i < c->cached.len; i++) {
            Var *v = vec_at(&c->cached, i);
            buf_line(b, "%s %s_c[GF_ITEMS > 0 ? GF_ITEMS * GF_VEC : 1];", type_c_name(type_elem(v->ty)), v->cname);
        }
        buf_line(b, "if (GF_ITEMS > 0) {");
        b->indent++;
        buf_line(b, "#pragma unroll");
        buf_line(b, "for (int gf_k = 0; gf_k < (GF_ITEMS > 0 ? GF_ITEMS : 1); gf_k++) {");
        b->indent++;
        buf_line(b, "const GF_I gf_jb = %s + ((GF_I)gf_lane + (GF_I)gf_k * gf_gsz) * GF_VEC * %lld;", lb.data,
                 first->step);
        for (int i = 0; i < c->cached.len; i++) {
            Var *v = vec_at(&c->cached, i);
            Buf d = {0};
            emit_expr(&d, &c->base, v->dims[1]);
            const char *row = nest->iv->cname;
            if (kl->row_vec) {
                buf_line(b, "if (GF_VEC == 4 && gf_jb + 3 < %s) {", ub.data);
                buf_line(b, "    const float4 gf_q = __ldcs((const float4 *)&%s[(GF_I)%s * (%s) + gf_jb]);", v->cname, row,
                         d.data);
                buf_line(b, "    %s_c[gf_k * GF_VEC] = gf_q.x;", v->cname);
                buf_line(b, "    %s_c[gf_k * GF_VEC + (GF_VEC > 1)] = gf_q.y;", v->cname);
                buf_line(b, "    %s_c[gf_k * GF_VEC + 2 * (GF_VEC > 2)] = gf_q.z;", v->cname);
                buf_line(b, "    %s_c[gf_k * GF_VEC + 3 * (GF_VEC > 3)] = gf_q.w;", v->cname);
                buf_line(b, "} else");
            }
            buf_line(b, "#pragma unroll");
            buf_line(b, "for (int gf_v = 0; gf_v < GF_VEC; gf_v++)");
            /* (T)0: a class element type (__half) has no common type with int */
            buf_line(b, "    %s_c[gf_k * GF_VEC + gf_v] = gf_jb + gf_v * %lld < %s ? __ldcs(&%s[(GF_I)%s * (%s) + gf_jb + gf_v * %lld]) : (%s)0;",
                     v->cname, first->step, ub.data, v->cname, row, d.data, first->step, type_c_name(type_elem(v->ty)));
            buf_free(&d);
        }
        b->indent--;
        buf_line(b, "}");
        b->indent--;
        buf_line(b, "}");
        buf_free(&lb);
        buf_free(&ub);
    }
    bool own = false;
    for (int i = 0; i < kl->rowvals.len; i++)
        own |= !((RowVal *)vec_at(&kl->rowvals, i))->slot;
    if (own)
        /* past 8 values per thread the kept values cost more registers,
         * and so occupancy, than computing them again saves (softmax
         * 16384x4096 on the H200: 44 -> 57 registers, 3499 -> 3377 GB/s) */
        buf_line(b, "constexpr bool gf_reuse = GF_ITEMS * GF_VEC <= 8;");
    for (int i = 0; i < kl->rowvals.len; i++) {
        RowVal *rv = vec_at(&kl->rowvals, i);
        if (rv->slot)
            buf_line(b, "/* computed by the loop of line %d into %s_c (its last read of '%s'), reused by %d later */",
                     rv->loop->loc.line, rv->slot->cname, rv->slot->name, rv->uses.len);
        else
            buf_line(b, "%s gf_val%d_c[gf_reuse && GF_ITEMS > 0 ? GF_ITEMS * GF_VEC : 1]; /* computed by the loop of line %d, reused by %d later */",
                     type_c_name(rv->def->ty), rv->id, rv->loop->loc.line, rv->uses.len);
    }
    c->row = 1;
    c->base.stmt_hook = row_hook;
    emit_stmt(b, &c->base, nest->body);
    c->base.stmt_hook = NULL;
    c->row = 0;
    b->indent--;
    buf_line(b, "}");
    b->indent = 0;
    buf_puts(b, "}\n\n");
    c->cached.len = 0;
}

/* ---- launchers ------------------------------------------------------------------------------------------ */

/* The number of the scratch piece reserved for `key` (gf_call_reserve): a
 * reduction result or a temporary (its Var), or a kernel's partials, one per
 * accumulator, followed by its ticket (the Kernel); -1 when none. */
static int slot_of(CudaCx *c, const void *key)
{
    for (int i = 0; i < c->slots.len; i++)
        if (vec_at(&c->slots, i) == key)
            return i;
    return -1;
}

/* The launcher's return statement when the call could not run (reported
 * through the error handler): NaN rather than a plausible number. */
static const char *failed_return(const Type *t)
{
    return t->kind == TY_VOID ? "return;" : type_is_float(t) ? "return NAN;" : "return 0;";
}

/* Declares the call's device scratch before gf_call_map, which allocates it
 * with the staging: out of memory is then found before any kernel runs, and
 * the call can still go to the host.  A temporary whose size reads locals is
 * left to gf_call_scratch at its declaration. */
/* The scalars that live in device memory during the call: reduction
 * results and serial kernels' results, one slot each. */
static void device_scalars(CudaCx *c, Region *r, Vec *out)
{
    for (int i = 0; i < r->plan->kernels.len; i++) {
        Kernel *k = vec_at(&r->plan->kernels, i);
        Vec *lists[2] = {&k->red_vars, &k->results};
        for (int l = 0; l < 2; l++)
            for (int j = 0; j < lists[l]->len; j++)
                if (!in(out, vec_at(lists[l], j)))
                    vec_push(A(c), out, vec_at(lists[l], j));
    }
}

static void emit_reservations(Buf *b, CudaCx *c, Region *r)
{
    Vec lines = {0}, scalars = {0};
    device_scalars(c, r, &scalars);
    for (int i = 0; i < scalars.len; i++) {
        Var *v = vec_at(&scalars, i);
        vec_push(A(c), &lines, arena_printf(A(c), "gf_call_reserve(gf_c, sizeof(%s)); /* %d: '%s' on the device */",
                                             type_c_name(v->ty), c->slots.len, v->name));
        vec_push(A(c), &c->slots, v);
    }
    for (int i = 0; i < r->plan->kernels.len; i++) {
        Kernel *k = vec_at(&r->plan->kernels, i);
        if (lower_of(c->low, k)->red_atomic)
            continue;            /* no partials, no ticket */
        for (int j = 0; j < k->red_vars.len; j++) {
            Var *v = vec_at(&k->red_vars, j);
            vec_push(A(c), &lines, arena_printf(A(c), "gf_call_reserve(gf_c, sizeof(%s) * GF_PARTS); /* %d: %s partials of '%s' */",
                                                 type_c_name(v->ty), c->slots.len, k->name, v->name));
            vec_push(A(c), &c->slots, j ? NULL : (void *)k);
        }
        if (lower_ticket(lower_of(c->low, k))) {
            vec_push(A(c), &lines, arena_printf(A(c), "gf_call_reserve(gf_c, sizeof(unsigned)); /* %d: %s ticket */",
                                                 c->slots.len, k->name));
            vec_push(A(c), &c->slots, k->red_vars.len ? NULL : (void *)k);
        }
    }
    for (int i = 0; i < c->low->temps.len; i++) {
        Var *v = vec_at(&c->low->temps, i);
        if (!lower_temp_early(v))
            continue;
        Buf n = {0};
        for (int d = 0; d < v->ndims; d++) {
            buf_puts(&n, "(size_t)gf_max(0, (long long)(");
            emit_expr(&n, &c->base, v->dims[d]);
            buf_puts(&n, ")) * ");
        }
        vec_push(A(c), &lines, arena_printf(A(c), "gf_call_reserve(gf_c, %ssizeof(%s)); /* %d: temporary '%s' */", n.data,
                                             type_c_name(type_elem(v->ty)), c->slots.len, v->name));
        vec_push(A(c), &c->slots, v);
        buf_free(&n);
    }
    if (!lines.len)
        return;
    buf_line(b, "/* device scratch: gf_call_map allocates it with the staging, so no kernel runs unless all fits */");
    for (int i = 0; i < lines.len; i++)
        buf_line(b, "%s", (char *)vec_at(&lines, i));
}

/* The grid reductions' tickets, zeroed once per call: the last block of
 * each launch sets its ticket back to zero (gf_last_block), so a reduction
 * in a host loop costs no memset per iteration (gramschmidt's norm: 1200
 * of them). */
static void emit_tickets(Buf *b, CudaCx *c, Region *r)
{
    for (int i = 0; i < r->plan->kernels.len; i++) {
        Kernel *k = vec_at(&r->plan->kernels, i);
        if (!lower_ticket(lower_of(c->low, k)))
            continue;
        buf_line(b, "gf_call_check(gf_c, cudaMemsetAsync(gf_call_reserved(gf_c, %d), 0, sizeof(unsigned), gf_s), "
                    "\"cudaMemsetAsync\"); /* %s's ticket */",
                 slot_of(c, k) + k->red_vars.len, k->name);
    }
}

static void trip_count(Buf *b, CudaCx *c, Stmt *l, const char *name)
{
    Buf lb = {0}, ub = {0};
    emit_expr(&lb, &c->base, l->lb);
    emit_expr(&ub, &c->base, l->ub);
    if (l->step == 1)
        buf_line(b, "const long long %s = gf_max(0, (long long)(%s) - (long long)(%s));", name, ub.data, lb.data);
    else
        buf_line(b, "const long long %s = gf_max(0, ((long long)(%s) - (long long)(%s) + %lld) / %lld);", name,
                 ub.data, lb.data, l->step - 1, l->step);
    buf_free(&lb);
    buf_free(&ub);
}

/* A serial kernel: one thread.  What it declares and leaves on the device
 * for the host to read is declared here first. */
static void launch_serial(Buf *b, CudaCx *c, KernelLow *kl)
{
    Kernel *k = kl->k;
    for (int i = 0; i < k->nests.len; i++) {
        Stmt *s = vec_at(&k->nests, i);
        if (s->kind == S_DECL && in(&k->results, s->var))
            buf_line(b, "GF_UNUSED %s %s; /* line %d: computed on the device by %s */", type_c_name(s->var->ty), s->var->cname,
                     s->loc.line, k->name);
    }
    buf_line(b, "{ /* %s: %s lines %d-%d, one thread in order */", k->name, c->u->gen_path, k->first_line, k->last_line);
    Buf args = {0};
    kernel_args(&args, kl);
    buf_line(b, "    if (gf_big < GF_I32_LIMIT) /* 32-bit index arithmetic when every extent allows it */");
    buf_line(b, "        %s;", kcall(c, k->name, arena_printf(A(c), "%s<int>", k->name), "1", "1", args.data));
    buf_line(b, "    else");
    buf_line(b, "        %s;", kcall(c, k->name, arena_printf(A(c), "%s<long long>", k->name), "1", "1", args.data));
    buf_line(b, "    gf_call_check(gf_c, cudaGetLastError(), \"%s\");", k->name);
    buf_line(b, "}");
    buf_free(&args);
}

/* The geometry of a parallel shape: the sizes it needs (printed to b), the
 * guard it opens, and its launch statements ("@I@": the index type) in `launch`. */
static void geometry_row(Buf *b, CudaCx *c, KernelLow *kl, const char *args, Buf *launch)
{
    Kernel *k = kl->k;
    trip_count(b, c, kl->inner, "gf_cols");
    buf_line(b, "/* a warp per row of up to GF_WARP_ROW_MAX elements, else a block (gf_row_geometry) */");
    buf_line(b, "const gf_row_geom gf_rg = gf_row_geometry(gf_n0, gf_cols);");
    buf_line(b, "const bool gf_warp = gf_rg.warp;");
    buf_line(b, "const int gf_threads = gf_rg.threads;");
    buf_line(b, "const long long gf_per = gf_rg.per, gf_blocks = gf_rg.blocks;");
    const char *vec_ok = "";
    if (kl->row_vec) {
        /* 16-byte loads when every row starts on a 16-byte boundary */
        Buf al = {0};
        for (int i = 0; i < kl->align16.len; i++) {
            Var *v = vec_at(&kl->align16, i);
            Buf d = {0};
            emit_expr(&d, &c->base, v->dims[1]);
            buf_printf(&al, " && gf_aligned16(gf_d_%s) && (long long)(%s) %% 4 == 0", v->cname, d.data);
            buf_free(&d);
        }
        buf_line(b, "const bool gf_vec = gf_per >= 4%s;", al.data ? al.data : "");
        buf_free(&al);
        vec_ok = "gf_vec && ";
    }
    /* the same choice of ITEMS and VEC for both group sizes; a warp
     * never needs the general form (at most 16 elements per thread) */
    for (int g = 0; g < 2; g++) {
        const int gs = g ? 0 : 32;
        buf_printf(launch, "%s {\n", g ? "} else" : "if (gf_warp)");
        if (kl->row_vec) {
            static const int vitems[] = {1, 2, 4};
            for (int i = 0; i < 3; i++)
                buf_printf(launch, "    %sif (%sgf_per <= %d) %s;\n", i ? "else " : "", vec_ok, 4 * vitems[i],
                           kcall(c, k->name, arena_printf(A(c), "%s<@I@, %d, 4, %d>", k->name, vitems[i], gs),
                                 "(unsigned)gf_blocks", "gf_threads", args));
        }
        static const int items[] = {1, 2, 4, 8, 16};
        for (int i = 0; i < 5; i++)
            buf_printf(launch, "    %sif (gf_per <= %d) %s;\n", i || kl->row_vec ? "else " : "", items[i],
                       kcall(c, k->name, arena_printf(A(c), "%s<@I@, %d, 1, %d>", k->name, items[i], gs),
                             "(unsigned)gf_blocks", "gf_threads", args));
        if (g)
            buf_printf(launch, "    else %s;\n", kcall(c, k->name, arena_printf(A(c), "%s<@I@, 0, 1, 0>", k->name),
                                                     "(unsigned)gf_blocks", "gf_threads", args));
    }
    buf_puts(launch, "}\n");
    buf_line(b, "if (gf_blocks > 0) {");
}

/* Grid-stride loops: a map covers its elements with the whole grid at once,
 * a reduction takes as many blocks as stay resident. */
static void geometry_flat(Buf *b, CudaCx *c, KernelLow *kl, const char *args, Buf *launch)
{
    Kernel *k = kl->k;
    bool cover = kl->geom == GEOM_COVER;
    if (k->vec4) {
        Buf lb = {0};
        emit_expr(&lb, &c->base, k->loops[0]->lb);
        Buf al = {0};
        for (int i = 0; i < kl->align16.len; i++)
            buf_printf(&al, " && gf_aligned16(gf_d_%s + (%s))", ((Var *)vec_at(&kl->align16, i))->cname, lb.data);
        buf_line(b, "const bool gf_vec = gf_n0 >= %d%s;", k->vecw, al.data ? al.data : "");
        buf_line(b, "const long long gf_need = gf_blocks_for(gf_vec ? gf_n0 / %d : gf_n0);", k->vecw);
        if (cover) {
            /* a map: a thread per float4 */
            buf_printf(launch, "if (gf_vec) %s;\n", kcall(c, k->name, arena_printf(A(c), "%s_v4<@I@>", k->name),
                                                          "gf_cover_1d(gf_need)", "GF_THREADS", args));
            buf_printf(launch, "else %s;\n", kcall(c, k->name, arena_printf(A(c), "%s<@I@>", k->name),
                                                   "gf_cover_1d(gf_need)", "GF_THREADS", args));
        } else {
            buf_printf(launch, "if (gf_vec) { static int gf_cap = 0; if (!gf_cap) gf_cap = gf_resident(%s_v4<@I@>, GF_THREADS, gf_sms); "
                       "%s; }\n", k->name, kcall(c, k->name, arena_printf(A(c), "%s_v4<@I@>", k->name),
                                                  "gf_resident_1d(gf_need, gf_cap)", "GF_THREADS", args));
            buf_printf(launch, "else { static int gf_cap = 0; if (!gf_cap) gf_cap = gf_resident(%s<@I@>, GF_THREADS, gf_sms); "
                       "%s; }\n", k->name, kcall(c, k->name, arena_printf(A(c), "%s<@I@>", k->name),
                                                  "gf_resident_1d(gf_need, gf_cap)", "GF_THREADS", args));
        }
        buf_free(&lb);
        buf_free(&al);
    } else {
        const char *kern = arena_printf(A(c), "%s<@I@>", k->name);
        if (cover && kl->spread) {
            /* threads that access across rows: blocks spread over the SMs (lower.c) */
            buf_line(b, "const unsigned gf_bt = gf_cover_threads(gf_n0, gf_sms);");
            if (kl->absorbed) /* at least one block: the statements it took in run even over no element */
                buf_line(b, "const long long gf_need = gf_max(1LL, gf_blocks_for(gf_n0, gf_bt));");
            else
                buf_line(b, "const long long gf_need = gf_blocks_for(gf_n0, gf_bt);");
            buf_printf(launch, "%s;\n", kcall(c, k->name, kern, "gf_cover_1d(gf_need)", "gf_bt", args));
        } else if (cover && kl->absorbed) {
            /* at least one block: the statements it took in run even over no element */
            buf_line(b, "const long long gf_need = gf_max(1LL, gf_blocks_for(gf_n0));");
            buf_printf(launch, "%s;\n", kcall(c, k->name, kern, "gf_cover_1d(gf_need)", "GF_THREADS", args));
        } else if (cover) {
            buf_line(b, "const long long gf_need = gf_blocks_for(gf_n0);");
            buf_printf(launch, "%s;\n", kcall(c, k->name, kern, "gf_cover_1d(gf_need)", "GF_THREADS", args));
        } else {
            buf_line(b, "const long long gf_need = gf_blocks_for(gf_n0);");
            buf_printf(launch, "{ static int gf_cap = 0; if (!gf_cap) gf_cap = gf_resident(%s, GF_THREADS, gf_sms); "
                       "%s; }\n", kern, kcall(c, k->name, kern, "gf_resident_1d(gf_need, gf_cap)", "GF_THREADS", args));
        }
    }
    /* a reduction runs even over nothing: it writes its result; so do the statements a map took in */
    buf_line(b, "if (gf_n0 > 0%s) {", cover && !kl->absorbed ? "" : " || 1");
}

/* x over the innermost loop, y over strips of GF_ROWS outer indices (shorter
 * strips when those leave the GPU idle: gf_strips_2d). */
static void geometry_grid(Buf *b, CudaCx *c, KernelLow *kl, const char *args, Buf *launch)
{
    Kernel *k = kl->k;
    bool cover = kl->geom == GEOM_COVER;
    const char *kern = arena_printf(A(c), "%s<@I@>", k->name);
    const char *inner = k->pdims == 2 ? "gf_n1" : "gf_n2";
    const char *outer = k->pdims == 2 ? "gf_n0" : "gf_n0 * gf_n1";
    buf_line(b, "const long long gf_gx = gf_blocks_for(%s);", inner);
    buf_line(b, "const long long gf_chunks = gf_strips_2d(%s, gf_gx, gf_sms);", outer);
    if (cover)
        /* a map: every strip of GF_ROWS rows its own block, as for 1-D maps */
        buf_printf(launch, "%s;\n", kcall(c, k->name, kern, "gf_cover_2d(gf_gx, gf_chunks)", "GF_THREADS", args));
    else
        buf_printf(launch, "{ static int gf_cap = 0; if (!gf_cap) gf_cap = gf_resident(%s, GF_THREADS, gf_sms); %s; }\n",
                   kern, kcall(c, k->name, kern, "gf_resident_2d(gf_gx, gf_chunks, gf_cap)", "GF_THREADS", args));
    buf_line(b, "if ((%s > 0 && %s > 0)%s) {", inner, outer, cover ? "" : " || 1");
}

/* A GF_TILE x GF_TILE block per output tile (x: columns, y: rows). */
static void geometry_tiled(Buf *b, CudaCx *c, KernelLow *kl, const char *args, Buf *launch)
{
    (void)c;
    if (lower_tile_blocked(kl))
        buf_printf(launch, "%s<@I@><<<gf_tile_grid(gf_n0, gf_n1, %d, %d), gf_tile_block(), 0, gf_s>>>(%s);\n",
                   kl->k->name, GF_TILE_SIDE * kl->tile_r[0], GF_TILE_SIDE * kl->tile_r[1], args);
    else
        buf_printf(launch, "%s<@I@><<<gf_tile_grid(gf_n0, gf_n1), gf_tile_block(), 0, gf_s>>>(%s);\n", kl->k->name, args);
    /* the row's own statements run even where no column does (one block column) */
    buf_line(b, "if (gf_n0 > 0 && %s) {", kl->outer.len ? "1 /* the rows' own statements */" : "gf_n1 > 0");
}

static void geometry_none(Buf *b, CudaCx *c, KernelLow *kl, const char *args, Buf *launch)
{
    (void)b, (void)c, (void)kl, (void)args, (void)launch;
    unreachable();               /* a serial kernel has its own launch */
}

/* The partials and ticket of a grid reduction, or the zeroed results its atomics add into. */
static void launch_reduction(Buf *b, CudaCx *c, KernelLow *kl)
{
    Kernel *k = kl->k;
    if (kl->red_atomic) {
        for (int i = 0; i < k->red_vars.len; i++) {
            Var *v = vec_at(&k->red_vars, i);
            if (in(&k->red_dev_init, v))
                continue;        /* atomics add into the earlier result */
            buf_line(b, "gf_call_check(gf_c, cudaMemsetAsync(gf_out_%s, 0, sizeof *gf_out_%s, gf_s), \"cudaMemsetAsync\"); "
                        "/* atomics add into it */", v->cname, v->cname);
        }
    } else if (k->red_vars.len) {
        int slot = slot_of(c, k);
        for (int i = 0; i < k->red_vars.len; i++) {
            Var *v = vec_at(&k->red_vars, i);
            const char *t = type_c_name(v->ty);
            buf_line(b, "%s *gf_part_%s = (%s *)gf_call_reserved(gf_c, %d);", t, v->cname, t, slot + i);
        }
        /* zeroed once per call (emit_tickets); each launch's last block leaves it at zero */
        buf_line(b, "unsigned *gf_ticket = (unsigned *)gf_call_reserved(gf_c, %d);", slot + k->red_vars.len);
    } else if (kl->absorbed) {
        /* zeroed once per call (emit_tickets); each launch's last block leaves it at zero */
        buf_line(b, "unsigned *gf_ticket = (unsigned *)gf_call_reserved(gf_c, %d); /* its last block stores %s's elements */",
                 slot_of(c, k), kl->absorbed->name);
    }
}

static void launch_parallel(Buf *b, CudaCx *c, KernelLow *kl);

/* The printers of each shape: the kernel, its launch, and (parallel shapes)
 * the launch geometry. */
typedef struct ShapePrinter {
    void (*kernel)(Buf *b, CudaCx *c);
    void (*launch)(Buf *b, CudaCx *c, KernelLow *kl);
    void (*geometry)(Buf *b, CudaCx *c, KernelLow *kl, const char *args, Buf *launch);
} ShapePrinter;

static const ShapePrinter shape_printers[SH_COUNT] = {
    [SH_SERIAL] = {print_serial, launch_serial, geometry_none},
    [SH_FLAT] = {print_flat, launch_parallel, geometry_flat},
    [SH_GRID] = {print_grid, launch_parallel, geometry_grid},
    [SH_ROW] = {print_row, launch_parallel, geometry_row},
    [SH_TILED] = {print_tiled, launch_parallel, geometry_tiled},
};

/* A parallel kernel: its trip counts, reduction scratch and index width,
 * then its shape's geometry, launched once per index type. */
static void launch_parallel(Buf *b, CudaCx *c, KernelLow *kl)
{
    Kernel *k = kl->k;
    buf_line(b, "{ /* %s: %s lines %d-%d */", k->name, c->u->gen_path, k->first_line, k->last_line);
    b->indent++;
    for (int d = 0; d < k->pdims; d++) {
        bool skewed = d == k->pdims - 1 && kl->skew;
        trip_count(b, c, kl->shape == SH_GRID ? kl->grid[d] : k->loops[d],
                   arena_printf(A(c), skewed ? "gf_n%d_" : "gf_n%d", d));
        if (skewed)
            buf_line(b, "const long long gf_n%d = gf_n%d_ ? gf_n%d_ + %d : 0; /* threads start aligned */", d, d, d,
                     kl->skew);
    }
    if (kl->tri)
        buf_line(b, "const long long gf_n1 = gf_max(0, %s - %s); /* the columns' box over every row */", tile_jhi(c, kl),
                 tile_jlo(c, kl));
    launch_reduction(b, c, kl);
    Buf args = {0};
    kernel_args(&args, kl);
    /* 32-bit index arithmetic when every extent allows it */
    buf_line(b, "const bool gf_i32 = gf_big < GF_I32_LIMIT%s%s%s;", k->pdims >= 1 ? " && gf_n0 < GF_I32_LIMIT" : "",
             k->pdims >= 2 || kl->tri ? " && gf_n0 * gf_n1 < GF_I32_LIMIT" : "",
             k->pdims >= 3 ? " && gf_n0 * gf_n1 * gf_n2 < GF_I32_LIMIT" : "");
    Buf launch = {0};            /* the launch statements, "@I@" = index type */
    shape_printers[kl->shape].geometry(b, c, kl, args.data, &launch);
    b->indent++;
    /* the launch, once per index type */
    for (int t = 0; t < 2; t++) {
        buf_line(b, t ? "} else {" : "if (gf_i32) {");
        b->indent++;
        for (char *line = launch.data; line && *line;) {
            char *nl = strchr(line, '\n');
            Buf one = {0};
            for (char *p = line; p < nl; p++) {
                if (!strncmp(p, "@I@", 3)) {
                    buf_puts(&one, t ? "long long" : "int");
                    p += 2;
                } else {
                    buf_printf(&one, "%c", *p);
                }
            }
            buf_line(b, "%s", one.data);
            buf_free(&one);
            line = nl + 1;
        }
        b->indent--;
    }
    buf_line(b, "}");
    buf_free(&launch);
    b->indent--;
    buf_line(b, "}");
    buf_line(b, "gf_call_check(gf_c, cudaGetLastError(), \"%s\");", k->name);
    buf_free(&args);
    b->indent--;
    buf_line(b, "}");
}

static void emit_launch(Buf *b, CudaCx *c, Kernel *k)
{
    KernelLow *kl = lower_of(c->low, k);
    shape_printers[kl->shape].launch(b, c, kl);
}

/* ---- library calls (libcall.c) ------------------------------------------------------ */

/* (long long)(e) */
static const char *lib_ll(CudaCx *c, Expr *e)
{
    Buf t = {0};
    emit_expr(&t, &c->base, e);
    const char *r = arena_printf(A(c), "(long long)(%s)", t.data);
    buf_free(&t);
    return r;
}

/* A scale as a double expression. */
static const char *lib_coef(CudaCx *c, const LibCoef *k)
{
    const char *s = k->nf && k->num == 1 ? "" : arena_printf(A(c), "%.17g", k->num);
    for (int i = 0; i < k->nf; i++) {
        Buf t = {0};
        emit_expr(&t, &c->base, k->f[i]);
        s = arena_printf(A(c), "%s%s(double)(%s)", s, *s ? " * " : "", t.data);
        buf_free(&t);
    }
    return k->nf ? s : arena_printf(A(c), "(double)%s", s);
}

/* gf_blas_fits for an r x c row-major operand with row stride ld (NULL: a
 * vector of c elements). */
static const char *lib_fits(CudaCx *c, const char *r, const char *cols, Expr *ld)
{
    return arena_printf(A(c), "gf_blas_fits(%s, %s, %s)", r, cols, ld ? lib_ll(c, ld) : cols);
}

/* What the launcher's kernel k costs beyond the library calls it stands for,
 * in ns, as a C expression (gf_blas_use rents against cuBLAS's first use
 * with it): per call, its multiply-adds times the difference of the two
 * rates.  Matrix-vector forms (GEMV, GER, GEAM) are bound by memory either
 * way: nothing.  Rates (ns per multiply-add, H200, docs/performance.md
 * "BLAS forms before cuBLAS is loaded"): cuBLAS's products 4e-5 (50
 * TFLOP/s); a register-blocked tile (SH_TILED) 2.1e-4 in double and 1.5e-4
 * in float (9.65 and 13.4 TFLOP/s measured); a thread per element (SH_GRID)
 * or a warp per row (SH_ROW) 1e-3 (PolyBench 2mm, gemm: 1.1e-3 measured);
 * a thread per row (SH_FLAT, SH_SERIAL: a matrix product's rows run one
 * thread each) 0.1 (PolyBench symm, trmm, syrk, syr2k at LARGE: 0.04-0.13
 * measured, so cuBLAS takes them from the first call). */
static const char *lib_extra_ns(CudaCx *c, Kernel *k)
{
    LibCall *lc = k->lib;
    const KernelLow *kl = lower_of(c->low, k);
    Shape shape = kl->shape;
    bool tiled = shape == SH_TILED;
    const char *s = NULL;
    for (int i = 0; i < lc->ops.len; i++) {
        LibOp *op = vec_at(&lc->ops, i);
        const char *m = lib_ll(c, op->m), *n = op->n ? lib_ll(c, op->n) : "1LL", *kk = op->k ? lib_ll(c, op->k) : "1LL";
        const char *macs = NULL;
        switch (op->kind) {
        case L_GEMM: macs = arena_printf(A(c), "(double)%s * %s * %s", m, n, kk); break;
        case L_SYRK: macs = arena_printf(A(c), "0.5 * %s * %s * %s", n, n, kk); break;
        case L_SYR2K: macs = arena_printf(A(c), "(double)%s * %s * %s", n, n, kk); break;
        case L_SYMM:
        case L_TRMM: macs = arena_printf(A(c), "(double)%s * %s * %s", m, n, op->right ? n : m); break;
        case L_GEMV:
        case L_GER:
        case L_GEAM: break;
        }
        if (!macs)
            continue;
        /* ns per multiply-add of the kernel, measured on the H200 (PolyBench LARGE):
         * tiles; a thread per element or a warp per row; a thread per column
         * walking its rows with the updated element in a register (trmm: 38 ms
         * for m * n * m = 1.2e9, 0.032); a thread per row or column otherwise */
        /* gf_symm_tiled: about half the generated tile's rate (an estimate) */
        double kern = lower_symm_tiled(k) ? 4e-4
                      : tiled ? (type_elem(op->c->ty)->kind == TY_FLOAT ? 1.5e-4 : 2.1e-4)
                      : shape == SH_GRID || shape == SH_ROW ? 1e-3
                      : kl->reg_accs.len                    ? 0.032
                                                            : 0.1;
        const char *t = arena_printf(A(c), "%s * %.3g", macs, kern - 4e-5);
        s = s ? arena_printf(A(c), "%s + %s", s, t) : t;
    }
    return s ? s : "0.0";
}

/* Whether the library calls run at this call: cuBLAS can take every one
 * (sizes and strides) and gf_blas_use says so (GPUFUSE_BLAS, and by
 * default whether cuBLAS is loaded or now pays); the kernel runs otherwise. */
static const char *lib_condition(CudaCx *c, Kernel *k)
{
    LibCall *lc = k->lib;
    const char *s = "";
    for (int i = 0; i < lc->ops.len; i++) {
        LibOp *op = vec_at(&lc->ops, i);
        const char *m = lib_ll(c, op->m), *n = op->n ? lib_ll(c, op->n) : "1LL", *k = op->k ? lib_ll(c, op->k) : "1LL";
        const char *t = "";
        switch (op->kind) {
        case L_GEMM:
            t = arena_printf(A(c), "%s && %s && %s", lib_fits(c, op->ta ? k : m, op->ta ? m : k, op->lda),
                             lib_fits(c, op->tb ? n : k, op->tb ? k : n, op->ldb), lib_fits(c, m, n, op->ldc));
            break;
        case L_GEMV:
            t = arena_printf(A(c), "%s && %s && %s", lib_fits(c, m, n, op->lda), lib_fits(c, "1LL", op->ta ? m : n, NULL),
                             lib_fits(c, "1LL", op->ta ? n : m, NULL));
            break;
        case L_GER:
            t = arena_printf(A(c), "%s && %s && %s", lib_fits(c, m, n, op->ldc), lib_fits(c, "1LL", m, NULL),
                             lib_fits(c, "1LL", n, NULL));
            break;
        case L_SYRK:
        case L_SYR2K:
            t = arena_printf(A(c), "%s && %s", lib_fits(c, n, n, op->ldc), lib_fits(c, op->ta ? k : n, op->ta ? n : k, op->lda));
            if (op->kind == L_SYR2K)
                t = arena_printf(A(c), "%s && %s", t, lib_fits(c, op->ta ? k : n, op->ta ? n : k, op->ldb));
            break;
        case L_SYMM:
        case L_TRMM:
            t = arena_printf(A(c), "%s && %s && %s", lib_fits(c, m, n, op->ldc), lib_fits(c, m, n, op->ldb),
                             lib_fits(c, op->right ? n : m, op->right ? n : m, op->lda));
            break;
        case L_GEAM:
            t = op->n ? arena_printf(A(c), "%s && %s", lib_fits(c, m, n, op->ldc), lib_fits(c, m, n, op->lda))
                      : lib_fits(c, "1LL", m, NULL);
            break;
        }
        s = arena_printf(A(c), "%s%s && ", s, t);
    }
    return arena_printf(A(c), "%sgf_blas_use(gf_c, %s)", s, lib_extra_ns(c, k));
}

/* One cuBLAS call of the launcher, on the call's stream. */
static void lib_call(Buf *b, CudaCx *c, Kernel *k, LibOp *op)
{
    const char *t = type_elem(op->c->ty)->kind == TY_FLOAT ? "GF_F32" : "GF_F64";
    const char *m = lib_ll(c, op->m), *n = op->n ? lib_ll(c, op->n) : "1LL", *kk = op->k ? lib_ll(c, op->k) : "0LL";
    const char *al = lib_coef(c, &op->alpha), *be = lib_coef(c, &op->beta);
    const char *pa = op->a ? arena_printf(A(c), "gf_d_%s", op->a->cname) : "NULL";
    const char *pb = op->b ? arena_printf(A(c), "gf_d_%s", op->b->cname) : "NULL";
    const char *pc = arena_printf(A(c), "gf_d_%s", op->c->cname);
    const char *lda = op->lda ? lib_ll(c, op->lda) : "0LL", *ldb = op->ldb ? lib_ll(c, op->ldb) : "0LL";
    const char *ldc = op->ldc ? lib_ll(c, op->ldc) : "0LL";
    const char *ta = op->ta ? "GF_OP_T" : "GF_OP_N", *tb = op->tb ? "GF_OP_T" : "GF_OP_N";
    LibCall plain = *k->lib;
    plain.epi = 0;               /* the epilogue, if any, is the kernel's then */
    buf_line(b, "/* %s */", lib_describe_op(A(c), &plain, op));
    switch (op->kind) {
    case L_GEMM:
        buf_line(b, "gf_call_gemm(gf_c, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, \"%s\");", ta, tb, m, n,
                 kk, al, pa, lda, pb, ldb, be, pc, ldc, t, k->name);
        break;
    case L_GEMV:
        buf_line(b, "gf_call_gemv(gf_c, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, \"%s\");", ta, m, n, al, pa, lda, pb, be, pc,
                 t, k->name);
        break;
    case L_GER:
        buf_line(b, "gf_call_ger(gf_c, %s, %s, %s, %s, %s, %s, %s, %s, \"%s\");", m, n, al, pa, pb, pc, ldc, t, k->name);
        break;
    case L_SYRK:
        buf_line(b, "gf_call_syrk(gf_c, %d, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, \"%s\");", op->upper, ta, n, kk, al,
                 pa, lda, be, pc, ldc, t, k->name);
        break;
    case L_SYR2K:
        buf_line(b, "gf_call_syr2k(gf_c, %d, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, \"%s\");", op->upper, ta,
                 n, kk, al, pa, lda, pb, ldb, be, pc, ldc, t, k->name);
        break;
    case L_SYMM:
        buf_line(b, "gf_call_symm(gf_c, %d, %d, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, \"%s\");", op->right,
                 op->upper, m, n, al, pa, lda, pb, ldb, be, pc, ldc, t, k->name);
        break;
    case L_TRMM:
        buf_line(b, "gf_call_trmm(gf_c, %d, %d, %s, %d, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, \"%s\");", op->right,
                 op->upper, ta, op->unit, m, n, al, pa, lda, pb, ldb, pc, ldc, t, k->name);
        break;
    case L_GEAM:
        if (op->n)
            buf_line(b, "gf_call_geam(gf_c, %s, %s, %s, %s, %s, %s, %s, %s, %s, \"%s\");", m, n, al, pa, lda, be, pc, ldc,
                     t, k->name);
        else
            buf_line(b, "gf_call_geam(gf_c, 1LL, %s, %s, %s, %s, %s, %s, %s, %s, \"%s\");", m, al, pa, m, be, pc, m, t,
                     k->name);
        break;
    }
}

/* The SYMM form without cuBLAS: the tiled symmetric product of
 * templates/device.cuh (lower_symm_tiled), k's own kernel when the grid
 * would not fit (more than 65535 tiles of rows). */
static void emit_symm_tiled(Buf *b, CudaCx *c, Kernel *k)
{
    LibOp *op = vec_at(&k->lib->ops, 0);
    const char *t = type_c_name(type_elem(op->c->ty));
    const char *m = lib_ll(c, op->m), *n = lib_ll(c, op->n);
    const char *inst = arena_printf(A(c), "gf_symm_tiled<%s>", t);
    unit_launches(c->u, inst);
    buf_line(b, "if ((%s + GF_SY_TILE - 1) / GF_SY_TILE <= 65535) { /* %s as a tiled product */", m,
             lib_describe_op(A(c), k->lib, op));
    buf_line(b, "    %s<<<gf_symm_grid(%s, %s), 256, 0, gf_s>>>(%s, %s, %s, gf_d_%s, %s, gf_d_%s, %s, %s, gf_d_%s, %s, %d, %d);",
             inst, m, n, m, n, lib_coef(c, &op->alpha), op->a->cname, lib_ll(c, op->lda), op->b->cname,
             lib_ll(c, op->ldb), lib_coef(c, &op->beta), op->c->cname, lib_ll(c, op->ldc), op->right, op->upper);
    buf_line(b, "    gf_call_check(gf_c, cudaGetLastError(), \"%s\");", k->name);
    buf_line(b, "} else {");
    b->indent++;
    emit_launch(b, c, k);
    b->indent--;
    buf_line(b, "}");
}

/* Library calls when cuBLAS can take them, otherwise the kernel. */
static void emit_lib(Buf *b, CudaCx *c, Kernel *k)
{
    LibCall *lc = k->lib;
    if (lc->epilogue)
        buf_line(b, "bool gf_epi_%s = false; /* %s is done by the cuBLASLt call */", k->name, lc->epilogue->name);
    if (!lc->init)
        buf_line(b, "const bool gf_lib_%s = %s;", k->name, lib_condition(c, k));
    buf_line(b, "{ /* %s: %s lines %d-%d: %s */", k->name, c->u->gen_path, k->first_line, k->last_line,
             lc->ops.len == 1 ? "a library call" : arena_printf(A(c), "%d library calls", lc->ops.len));
    b->indent++;
    if (lc->epi) {
        /* cuBLASLt takes packed, untransposed operands */
        LibOp *op = vec_at(&lc->ops, 0);
        const char *m = lib_ll(c, op->m), *n = lib_ll(c, op->n), *kk = lib_ll(c, op->k);
        Expr *dims[3] = {op->k, op->n, op->n}, *lds[3] = {op->lda, op->ldb, op->ldc};
        const char *packed = "";
        for (int i = 0; i < 3; i++)
            if (!expr_equal(lds[i], dims[i]))
                packed = arena_printf(A(c), "%s && %s == %s", packed, lib_ll(c, lds[i]), lib_ll(c, dims[i]));
        buf_line(b, "if (gf_lib_%s%s) {", k->name, packed);
        b->indent++;
        buf_line(b, "gf_call_gemm_epilogue(gf_c, %s, %s, %s, gf_d_%s, gf_d_%s, %s%s, gf_d_%s, %s%s, \"%s\");", m, n, kk,
                 op->a->cname, op->b->cname, lc->bias ? "gf_d_" : "NULL", lc->bias ? lc->bias->cname : "", op->c->cname,
                 (lc->epi & 1) ? "GF_EPI_BIAS" : "0", (lc->epi & 2) ? " | GF_EPI_RELU" : (lc->epi & 4) ? " | GF_EPI_GELU" : "",
                 k->name);
        if (lc->epilogue)
            buf_line(b, "gf_epi_%s = true;", k->name);
        b->indent--;
        buf_line(b, "} else%s", lc->epilogue ? arena_printf(A(c), " if (gf_lib_%s) {", k->name) : " {");
    } else {
        buf_line(b, "if (gf_lib_%s) {", k->name);
    }
    if (!lc->epi || lc->epilogue) {
        b->indent++;
        for (int i = 0; i < lc->ops.len; i++)
            lib_call(b, c, k, vec_at(&lc->ops, i));
        b->indent--;
        buf_line(b, "} else {");
    }
    b->indent++;
    if (lower_symm_tiled(k))
        emit_symm_tiled(b, c, k);
    else
        emit_launch(b, c, k);
    b->indent--;
    buf_line(b, "}");
    b->indent--;
    buf_line(b, "}");
}

/* A kernel a library call takes in: its epilogue (run when the call did
 * not take it), or the scaling before it (run when the calls cannot be
 * made: the decision is taken here, before it). */
static void emit_lib_folded(Buf *b, CudaCx *c, Kernel *k)
{
    Kernel *lk = k->folded_into;
    if (lk->lib->init == k) {
        buf_line(b, "const bool gf_lib_%s = %s;", lk->name, lib_condition(c, lk));
        buf_line(b, "if (!gf_lib_%s) /* %s: the beta of %s's library calls */", lk->name, k->name, lk->name);
    } else {
        buf_line(b, "if (!gf_epi_%s) /* the matrix product did not take its epilogue */", lk->name);
    }
    emit_launch(b, c, k);
}

/* A library builtin in the region: the launcher's own call on its stream
 * with the device pointers (gpufuse/launch.h). */
static void emit_lib_call(Buf *b, CudaCx *c, const Stmt *s)
{
    const Expr *call = s->rhs;
    Buf a[13] = {{0}};
    for (int i = 0; i < call->nkids && i < 13; i++) {
        const Expr *x = call->kids[i];
        if (x->kind == E_VAR && x->var->is_array)
            buf_printf(&a[i], "gf_d_%s", x->var->cname);
        else if (x->kind == E_INT && !strcmp(x->text, "0") && lib_builtin_roles(call->text)[i] == 'N')
            buf_puts(&a[i], "NULL");
        else
            emit_expr(&a[i], &c->base, x);
    }
    const char *what = arena_printf(A(c), "%s at line %d", call->text, s->loc.line);
    buf_line(b, "/* line %d: %s, on the call's stream */", s->loc.line, call->text);
    if (!strcmp(call->text, "gf_fft_c2c_n")) {
        buf_line(b, "gf_call_fft(gf_c, 0, %s, %s, %s, %s, %s, %s, %s, %s, (gf_dtype)(%s), \"%s\");", a[0].data, a[1].data,
                 a[2].data, a[3].data, a[4].data, a[5].data, a[6].data, a[7].data, a[8].data, what);
    } else if (!strcmp(call->text, "gf_fft_r2c_n")) {
        buf_line(b, "gf_call_fft(gf_c, 1, %s, %s, %s, %s, %s, %s, %s, GF_FFT_FORWARD, (gf_dtype)(%s), \"%s\");", a[0].data,
                 a[1].data, a[2].data, a[3].data, a[4].data, a[5].data, a[6].data, a[7].data, what);
    } else if (!strcmp(call->text, "gf_gemm_epilogue")) {
        buf_line(b, "gf_call_gemm_epilogue(gf_c, %s, %s, %s, %s, %s, %s, %s, %s, \"%s\");", a[0].data, a[1].data,
                 a[2].data, a[3].data, a[4].data, a[5].data, a[6].data, a[7].data, what);
    } else {
        buf_line(b, "gf_call_gemm(gf_c, (gf_op)(%s), (gf_op)(%s), %s, %s, %s, (double)(%s), %s, %s, %s, %s, (double)(%s), "
                    "%s, %s, %s, \"%s\");",
                 a[0].data, a[1].data, a[2].data, a[3].data, a[4].data, a[5].data, a[6].data, a[7].data, a[8].data,
                 a[9].data, a[10].data, a[11].data, a[12].data, strcmp(call->text, "gf_sgemm") ? "GF_F64" : "GF_F32",
                 what);
    }
    for (int i = 0; i < 13; i++)
        buf_free(&a[i]);
}

/* A serial kernel the next kernel's threads run (lower_absorb): no launch. */
static void emit_absorbed(Buf *b, CudaCx *c, Kernel *k)
{
    buf_line(b, "/* %s (%s lines %d-%d): run by the next kernel's threads */", k->name, c->u->gen_path, k->first_line,
             k->last_line);
}

/* How a launcher reaches a kernel (KernelLow.via). */
static void (*const via_printers[])(Buf *, CudaCx *, Kernel *) = {
    [VIA_KERNEL] = emit_launch,
    [VIA_LIBRARY] = emit_lib,
    [VIA_FOLDED] = emit_lib_folded,
    [VIA_ABSORBED] = emit_absorbed,
};

/* An FFT builtin with kernels folded into its cuFFT callbacks (fftfold.c):
 * the FFT with callbacks, or, when the runtime cannot (gf_call_fft_cb
 * returns 0), the kernels and the plain FFT. */
static void emit_fft_folded(Buf *b, CudaCx *c, Step *st)
{
    Buf cover = {0};
    buf_line(b, "{ /* line %d: kernels folded into the FFT's cuFFT callbacks */", st->stmt->loc.line);
    b->indent++;
    fftcb_emit_info(b, &c->base, A(c), c->r, st, c->r->cname, &cover);
    const Expr *call = st->stmt->rhs;
    Buf a[9] = {{0}};
    for (int i = 0; i < 9; i++) {
        const Expr *x = call->kids[i];
        if (x->kind == E_VAR && x->var->is_array)
            buf_printf(&a[i], "gf_d_%s", x->var->cname);
        else
            emit_expr(&a[i], &c->base, x);
    }
    buf_line(b, "if (!gf_call_fft_cb(gf_c, &gf_fftcb_%s_%d, %s, %s, %s, %s, %s, %s, %s, %s, (gf_dtype)(%s), &gf_ci, "
                "sizeof gf_ci, %s, \"gf_fft_c2c_n at line %d\")) {",
             c->r->cname, st->stmt->loc.line, a[0].data, a[1].data, a[2].data, a[3].data, a[4].data, a[5].data,
             a[6].data, a[7].data, a[8].data, cover.data, st->stmt->loc.line);
    b->indent++;
    if (st->fft_load)
        via_printers[lower_of(c->low, st->fft_load)->via](b, c, st->fft_load);
    emit_lib_call(b, c, st->stmt);
    if (st->fft_store)
        via_printers[lower_of(c->low, st->fft_store)->via](b, c, st->fft_store);
    b->indent--;
    buf_line(b, "}");
    b->indent--;
    buf_line(b, "}");
    for (int i = 0; i < 9; i++)
        buf_free(&a[i]);
    buf_free(&cover);
}

static bool launcher_hook(Buf *b, EmitCtx *cx, const Stmt *s)
{
    CudaCx *c = (CudaCx *)cx;
    if (s->kind == S_RETURN) {
        if (s->rhs) {
            Buf r = {0};
            emit_expr(&r, cx, s->rhs);
            buf_line(b, "const %s gf_ret = %s;", type_c_name(c->r->ret), r.data);
            buf_free(&r);
            buf_line(b, "gf_call_end(gf_c, (size_t)gf_bytes, 1);");
            buf_line(b, "return gf_ret;");
        } else {
            buf_line(b, "gf_call_end(gf_c, (size_t)gf_bytes, 0);");
            buf_line(b, "return;");
        }
        return true;
    }
    if (s->kind == S_DECL && s->var->is_array) {
        if (lower_reg_temp(NULL, s->var))
            return true;
        for (int i = 0; i < c->r->plan->dead_temps.len; i++)
            if (vec_at(&c->r->plan->dead_temps, i) == s->var)
                return true;
        Var *v = s->var;
        Buf n = {0};
        for (int i = 0; i < v->ndims; i++) {
            if (i)
                buf_puts(&n, " * ");
            buf_puts(&n, "(size_t)(");
            emit_expr(&n, cx, v->dims[i]);
            buf_puts(&n, ")");
        }
        const char *et = type_c_name(type_elem(v->ty));
        int slot = slot_of(c, v);
        if (slot >= 0) {
            buf_line(b, "%s *gf_d_%s = (%s *)gf_call_reserved(gf_c, %d); /* temporary '%s' */", et, v->cname, et, slot,
                     v->name);
        } else {
            /* its size is known only now: allocated here, and the call stops if that fails */
            buf_line(b, "%s *gf_d_%s = (%s *)gf_call_scratch(gf_c, %s * sizeof(%s)); /* temporary '%s' */", et, v->cname,
                     et, n.data, et, v->name);
            Buf args = {0};
            emit_params(&args, c->r, true, true);
            buf_line(b, "if (!gf_d_%s) { /* out of device memory (reported): no kernel may run */", v->cname);
            buf_line(b, "    if (gf_call_cancel(gf_c) == GF_PATH_HOST) { /* nothing ran yet */");
            if (c->r->ret->kind == TY_VOID) {
                buf_line(b, "        gf_host_%s(%s);", c->r->cname, args.data);
                buf_line(b, "        return;");
            } else {
                buf_line(b, "        return gf_host_%s(%s);", c->r->cname, args.data);
            }
            buf_line(b, "    }");
            buf_line(b, "    %s", failed_return(c->r->ret));
            buf_line(b, "}");
            buf_free(&args);
        }
        buf_line(b, "gf_big = gf_max(gf_big, (long long)(%s));", n.data);
        buf_free(&n);
        return true;
    }
    if (s->kind == S_FREE)
        return true;             /* scratch lives until the call ends */
    if (s->kind == S_DECL && !s->var->is_array) {
        /* kernels may compute it and the host never read it */
        Buf init = {0};
        if (s->rhs) {
            buf_puts(&init, " = ");
            emit_expr(&init, cx, s->rhs);
        }
        buf_line(b, "GF_UNUSED %s %s%s;", type_c_name(s->var->ty), s->var->cname, init.data ? init.data : "");
        buf_free(&init);
        return true;
    }
    return false;
}

/* Copies scalar results from their device slots to their host variables,
 * through the thread's pinned slot (offsets are sums of sizes). */
static void emit_copy_back(Buf *b, CudaCx *c, Vec *vars, const char *why)
{
    if (!vars->len)
        return;
    Buf total = {0};
    const char **off = arena_alloc(A(c), (size_t)vars->len * sizeof *off);
    for (int i = 0; i < vars->len; i++) {
        Var *v = vec_at(vars, i);
        off[i] = arena_strdup(A(c), total.data ? total.data : "0");
        buf_printf(&total, "%ssizeof %s", i ? " + " : "", v->cname);
    }
    buf_line(b, "/* %s, through pinned memory */", why);
    buf_line(b, "if (char *gf_pin = (char *)gf_call_host_slot(gf_c, %s)) {", total.data);
    b->indent++;
    for (int i = 0; i < vars->len; i++) {
        Var *v = vec_at(vars, i);
        buf_line(b, "gf_call_check(gf_c, cudaMemcpyAsync(gf_pin + %s, gf_out_%s, sizeof %s, cudaMemcpyDeviceToHost, gf_s), "
                    "\"reading %s\");", off[i], v->cname, v->cname, v->name);
    }
    buf_line(b, "gf_call_check(gf_c, cudaStreamSynchronize(gf_s), \"cudaStreamSynchronize\");");
    for (int i = 0; i < vars->len; i++) {
        Var *v = vec_at(vars, i);
        buf_line(b, "memcpy(&%s, gf_pin + %s, sizeof %s);", v->cname, off[i], v->cname);
    }
    b->indent--;
    buf_line(b, "} else {");
    b->indent++;
    for (int i = 0; i < vars->len; i++) {
        Var *v = vec_at(vars, i);
        buf_line(b, "gf_call_check(gf_c, cudaMemcpyAsync(&%s, gf_out_%s, sizeof %s, cudaMemcpyDeviceToHost, gf_s), "
                    "\"reading %s\");", v->cname, v->cname, v->cname, v->name);
    }
    buf_line(b, "gf_call_check(gf_c, cudaStreamSynchronize(gf_s), \"cudaStreamSynchronize\");");
    b->indent--;
    buf_line(b, "}");
    buf_free(&total);
}

static void launcher_steps(Buf *b, CudaCx *c, Vec *steps);

/* Stores host values into their device slots, in stream order. */
static void emit_upload(Buf *b, Vec *vars, const char *why)
{
    if (vars->len)
        buf_line(b, "/* %s */", why);
    for (int i = 0; i < vars->len; i++) {
        Var *v = vec_at(vars, i);
        buf_line(b, "gf_store<<<1, 1, 0, gf_s>>>(gf_out_%s, %s);", v->cname, v->cname);
        buf_line(b, "gf_call_check(gf_c, cudaGetLastError(), \"storing %s\");", v->name);
    }
}

/* A host loop around kernels.  Results the next iteration reads come back
 * at the end of each iteration; those only the rest of the region reads,
 * once after the loop (when it ran: else the host values are current). */
static void launcher_loop(Buf *b, CudaCx *c, Step *st)
{
    int ran = c->loops++;
    emit_upload(b, &st->upload_before, "every iteration finds these on the device");
    if (st->sync_after.len)
        buf_line(b, "bool gf_ran%d = false; /* whether the loop of line %d ran */", ran, st->stmt->loc.line);
    emit_loop_head(b, &c->base, st->stmt, "sequential");
    b->indent++;
    if (st->sync_after.len)
        buf_line(b, "gf_ran%d = true;", ran);
    launcher_steps(b, c, &st->body);
    emit_copy_back(b, c, &st->sync_end, "results the loop's head reads");
    emit_upload(b, &st->upload_end, "the next iteration finds these on the device");
    b->indent--;
    buf_line(b, "}");
    if (!st->sync_after.len)
        return;
    buf_line(b, "if (gf_ran%d) {", ran);
    b->indent++;
    emit_copy_back(b, c, &st->sync_after, "results of the loop read after it");
    b->indent--;
    buf_line(b, "}");
}

static void launcher_if(Buf *b, CudaCx *c, Step *st)
{
    Buf cond = {0};
    emit_cond(&cond, &c->base, st->stmt->cond);
    buf_line(b, "if (%s) { /* line %d */", cond.data, st->stmt->loc.line);
    buf_free(&cond);
    b->indent++;
    launcher_steps(b, c, &st->body);
    emit_copy_back(b, c, &st->sync_end, "results only this branch leaves on the device");
    b->indent--;
    if (st->els.len || st->sync_els.len) {
        buf_line(b, "} else {");
        b->indent++;
        launcher_steps(b, c, &st->els);
        emit_copy_back(b, c, &st->sync_els, "results only this branch leaves on the device");
        b->indent--;
    }
    buf_line(b, "}");
}

static void launcher_steps(Buf *b, CudaCx *c, Vec *steps)
{
    for (int i = 0; i < steps->len; i++) {
        Step *st = vec_at(steps, i);
        emit_copy_back(b, c, &st->sync_before, "results the host needs now");
        for (int j = 0; j < st->host_prelude.len; j++)
            emit_stmt(b, &c->base, vec_at(&st->host_prelude, j));
        switch (st->kind) {
        case P_HOST:
            if (c->low->block)
                break;           /* printed before the region's one launch (emit_launcher) */
            if (st->deferred)
                buf_line(b, "/* line %d runs in the kernels that read it */", st->stmt->loc.line);
            else
                emit_stmt(b, &c->base, st->stmt);
            break;
        case P_KERNEL:
            if (st->kernel->fft_step)
                buf_line(b, "/* kernel %s runs in the FFT's callbacks (line %d) */", st->kernel->name,
                         st->kernel->fft_step->stmt->loc.line);
            else
                via_printers[lower_of(c->low, st->kernel)->via](b, c, st->kernel);
            break;
        case P_LIB:
            if (st->fft_load || st->fft_store)
                emit_fft_folded(b, c, st);
            else
                emit_lib_call(b, c, st->stmt);
            break;
        case P_LOOP: launcher_loop(b, c, st); break;
        case P_IF: launcher_if(b, c, st); break;
        }
    }
}

/* ---- the cost model ------------------------------------------------------------------------
 * Emitted when the plan launches kernels in host loops or runs loops in a
 * serial kernel (Plan.cost_model): before anything is staged, the launcher
 * counts the launches the plan will make, the copies back that wait for
 * the device, and the statement instances of its parallel and serial
 * kernels, from the loop bounds: a loop's trip count is taken at the middle
 * of the ranges of the loops around it (exact for rectangular nests, about
 * right for triangular ones); a while loop counts once.  gf_gpu_wins
 * (templates/device.cuh) then decides, and gf_call_prefer_c_body sends the
 * call to the C body when the GPU cannot win.
 * Also emitted for every region with a host cost model and no library
 * builtin (host_cost_work_call): the GPU's time (gf_gpu_ns) and the CPU's
 * (gf_host_cpu_ns of gf_host_work_<f>) go to gf_call_weigh, and gf_call_map
 * adds the copies of host arguments to the GPU's side once it knows which
 * arguments need them: a call on host arrays that does little work per
 * byte runs on the CPU (docs/performance.md, "Copies against work"). */

typedef struct Cost {
    CudaCx *c;
    Buf *b;
    Vec loops;                   /* Stmt*: the loops around, innermost last */
    int *ids;                    /* their numbers (gf_ct<N> trips, gf_cm<N> middle index) */
    int cap, n;
} Cost;

static int cost_id_of(Cost *k, const Var *iv)
{
    for (int i = k->loops.len - 1; i >= 0; i--)
        if (((Stmt *)vec_at(&k->loops, i))->iv == iv)
            return k->ids[i];
    return -1;
}

/* A variable of a cost bound: a loop index at the middle of its range; an
 * index of no loop around (cannot happen in a plan) has an unknown middle, 0. */
static const char *cost_name(void *cx, const Var *v)
{
    Cost *k = cx;
    int id = v->kind == V_IV ? cost_id_of(k, v) : -2;
    return id >= 0 ? arena_printf(A(k->c), "gf_cm%d", id) : id == -1 ? "0.0"
                   : arena_printf(A(k->c), "(double)%s", v->cname);
}

/* A bound in doubles, loop indices at the middle of their range. */
static void cost_aff(Cost *k, Expr *e, Buf *out)
{
    bool ok = bound_print(A(k->c), e, cost_name, k, out);
    gfc_assert(ok);              /* fuse.c checked every bound */
}

/* Declares loop l's trip count and middle index; the caller pops it. */
static int cost_loop(Cost *k, Stmt *l)
{
    Buf lb = {0}, ub = {0};
    cost_aff(k, l->lb, &lb);
    cost_aff(k, l->ub, &ub);
    int id = k->n++;
    buf_line(k->b, "const double gf_ct%d = gf_trips(%s, %s, %lld); /* trips of line %d */", id, lb.data, ub.data,
             l->step, l->loc.line);
    const char *from = strcmp(lb.data, "0") ? arena_printf(A(k->c), "%s + ", lb.data) : "";
    if (l->step == 1)
        buf_line(k->b, "GF_UNUSED const double gf_cm%d = %sgf_max(0.0, gf_ct%d - 1) / 2; /* its middle index */", id,
                 from, id);
    else
        buf_line(k->b, "GF_UNUSED const double gf_cm%d = %s%lld * gf_max(0.0, gf_ct%d - 1) / 2; /* its middle index */",
                 id, from, l->step, id);
    buf_free(&lb);
    buf_free(&ub);
    if (k->loops.len == k->cap) {
        k->cap = k->cap ? 2 * k->cap : 8;
        int *ids = arena_alloc(A(k->c), (size_t)k->cap * sizeof *ids);
        if (k->loops.len)
            memcpy(ids, k->ids, (size_t)k->loops.len * sizeof *ids);
        k->ids = ids;
    }
    k->ids[k->loops.len] = id;
    vec_push(A(k->c), &k->loops, l);
    return id;
}

/* The sum of the works w[0..n): constants added up. */
static const char *cost_add(Cost *k, void *const *w, int n)
{
    Buf sum = {0};
    long long c = 0;
    for (int i = 0; i < n; i++) {
        const char *x = w[i];
        char *end;
        long long v = strtoll(x, &end, 10);
        if (!*end)
            c += v;
        else
            buf_printf(&sum, "%s%s", sum.len ? " + " : "", x);
    }
    const char *r = !sum.len ? arena_printf(A(k->c), "%lld", c)
                    : c ? arena_printf(A(k->c), "%s + %lld", sum.data, c) : arena_strdup(A(k->c), sum.data);
    buf_free(&sum);
    return r;
}

/* The statement instances a statement runs, folded bottom-up: each
 * statement's work is pushed on `vals` after its children's, which it pops. */
typedef struct WorkCx {
    IrVisitor v;
    Cost *k;
    Vec vals;                    /* const char*: the works of the statements done */
} WorkCx;

static const char *work_pop(WorkCx *w, const Stmt *child)
{
    return child ? (const char *)vec_at(&w->vals, --w->vals.len) : "0";
}

static bool work_before(IrVisitor *v, Stmt *s)
{
    if (s->kind == S_FOR)
        cost_loop(((WorkCx *)v)->k, s);
    return true;
}

static const char *work_of_loop(Cost *k, const char *body)
{
    int id = k->ids[--k->loops.len];
    return strchr(body, ' ') ? arena_printf(A(k->c), "gf_ct%d * (%s)", id, body)
           : !strcmp(body, "1") ? arena_printf(A(k->c), "gf_ct%d", id)
           : arena_printf(A(k->c), "gf_ct%d * %s", id, body);
}

static void work_after(IrVisitor *v, Stmt *s)
{
    WorkCx *w = (WorkCx *)v;
    Cost *k = w->k;
    const char *r = s->kind == S_DECL || s->kind == S_ASSIGN ? "1" : "0";
    if (s->kind == S_BLOCK) {
        int n = 0;
        for (int i = 0; i < s->list.len; i++)
            n += vec_at(&s->list, i) != NULL;
        w->vals.len -= n;
        r = cost_add(k, w->vals.data + w->vals.len, n);
    } else if (s->kind == S_FOR) {
        r = work_of_loop(k, work_pop(w, s->body));
    } else if (s->kind == S_WHILE) {
        r = arena_printf(A(k->c), "(%s)", work_pop(w, s->body));
    } else if (s->kind == S_IF) {
        const char *els = work_pop(w, s->els), *then = work_pop(w, s->then);
        r = arena_printf(A(k->c), "(1 + %s + %s)", then, els);
    }
    vec_push(A(k->c), &w->vals, (void *)r);
}

/* The statement instances s runs, as an expression. */
static const char *cost_work(Cost *k, Stmt *s)
{
    WorkCx w = {{.stmt = work_before, .stmt_after = work_after}, k, {0}};
    ir_visit_stmt(&w.v, s);
    return work_pop(&w, s);
}

static const char *cost_sum(Cost *k, Stmt *const *list, int n)
{
    void **w = arena_alloc(A(k->c), sizeof *w * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
        w[i] = (void *)cost_work(k, list[i]);
    return cost_add(k, w, n);
}

/* x times the multiplier of the loops around (NULL: none). */
static const char *cost_times(Cost *k, const char *mult, const char *x)
{
    if (!mult)
        return x;
    if (!strcmp(x, "1"))
        return mult;
    return arena_printf(A(k->c), strchr(x, ' ') ? "%s * (%s)" : "%s * %s", mult, x);
}

static void cost_steps(Cost *k, Vec *steps, const char *mult)
{
    Buf *b = k->b;
    for (int i = 0; i < steps->len; i++) {
        Step *st = vec_at(steps, i);
        if (st->sync_before.len)
            buf_line(b, "gf_syncs += %s;", cost_times(k, mult, "1"));
        switch (st->kind) {
        case P_HOST:
        case P_LIB: break;
        case P_KERNEL: {
            Kernel *kn = st->kernel;
            const char *w = cost_sum(k, (Stmt **)kn->nests.data, kn->nests.len);
            /* a reduction's ticket is cleared by a memset of its own; a
             * kernel absorbed into the next one is not launched */
            if (lower_of(k->c->low, kn)->via == VIA_ABSORBED)
                buf_line(b, "gf_ser += %s; /* %s, run by the next kernel's threads */", cost_times(k, mult, w), kn->name);
            else
                buf_line(b, "gf_launches += %s; gf_%s += %s; /* %s */", cost_times(k, mult, kn->red_vars.len ? "2" : "1"),
                         lower_of(k->c->low, kn)->shape == SH_SERIAL ? "ser" : "par", cost_times(k, mult, w), kn->name);
            break;
        }
        case P_LOOP: {
            const char *inner = mult;
            int id = -1;
            if (st->upload_before.len)
                buf_line(b, "gf_launches += %s;", cost_times(k, mult, arena_printf(A(k->c), "%d", st->upload_before.len)));
            if (st->stmt->kind == S_FOR) {
                id = cost_loop(k, st->stmt);
                inner = cost_times(k, mult, arena_printf(A(k->c), "gf_ct%d", id));
            }
            cost_steps(k, &st->body, inner);
            if (st->sync_end.len)
                buf_line(b, "gf_syncs += %s;", cost_times(k, inner, "1"));
            if (st->upload_end.len)
                buf_line(b, "gf_launches += %s;", cost_times(k, inner, arena_printf(A(k->c), "%d", st->upload_end.len)));
            if (st->sync_after.len)
                buf_line(b, "gf_syncs += %s;", cost_times(k, mult, "1"));
            if (id >= 0)
                k->loops.len--;
            break;
        }
        case P_IF:
            cost_steps(k, &st->body, mult);
            cost_steps(k, &st->els, mult);
            if (st->sync_end.len || st->sync_els.len)
                buf_line(b, "gf_syncs += %s;", cost_times(k, mult, "1"));
            break;
        }
    }
}

static void emit_cost_model(Buf *b, CudaCx *c, Region *r)
{
    const char *work = host_cost_work_call(r);
    if (!r->plan->cost_model && !work && r->inspect) {
        /* bounds read from arrays: no count ahead, but the passes that found
         * the extents counted the accesses (0 when none ran: device memory) */
        bool atomic = false;
        for (int i = 0; i < r->stmts.len; i++) {
            Stmt *s = vec_at(&r->stmts, i);
            atomic |= s && s->kind == S_ASSIGN && s->atomic != RED_NONE;
        }
        int nk = r->plan->kernels.len;
        buf_line(b, "if (gf_have_device() && gf_rx[%d] > 0) { /* the cost model: the accesses the passes saw */",
                 2 * r->inspect->nslots);
        buf_line(b, "    const double gf_work = (double)gf_rx[%d];", 2 * r->inspect->nslots);
        buf_line(b, "    const gf_host_work gf_w = {%d, gf_work, %s, 0};", nk, atomic ? "gf_work" : "0");
        buf_line(b, "    int gf_cpu_plan = 0;");
        buf_line(b, "    const double gf_cpu_ns = gf_host_cpu_ns(gf_w, &gf_cpu_plan);");
        buf_line(b, "    gf_call_weigh(gf_c, gf_gpu_ns(%d, 0, gf_work, 0), gf_cpu_ns, gf_cpu_plan);", nk);
        buf_line(b, "}");
        return;
    }
    if (!r->plan->cost_model && !work)
        return;
    /* without a GPU the call takes the CPU fallback whatever this says: the
     * host plan's own choice (emit_host_choice) decides there */
    buf_line(b, "if (gf_have_device()) { /* the cost model: can the GPU win this call? (docs/performance.md) */");
    b->indent++;
    buf_line(b, "double gf_launches = 0, gf_syncs = 0, gf_par = 0, gf_ser = 0;");
    Cost k = {.c = c, .b = b};
    cost_steps(&k, &r->plan->steps, NULL);
    if (work) {
        /* the copies are known only when gf_call_map has looked at the
         * arguments: it adds them and decides */
        buf_line(b, "int gf_cpu_plan = 0;");
        buf_line(b, "const double gf_cpu_ns = gf_host_cpu_ns(%s, &gf_cpu_plan);", work);
        buf_line(b, "gf_call_weigh(gf_c, gf_gpu_ns(gf_launches, gf_syncs, gf_par, gf_ser), gf_cpu_ns, gf_cpu_plan);");
    }
    const char *host = host_cost_call(r);
    if (r->plan->cost_model && host) {
        /* the host plan when it beats the C body (a serial kernel's loops, or
         * launches in a host loop, can lose to both) */
        buf_line(b, "if (!gf_gpu_wins(gf_launches, gf_syncs, gf_par, gf_ser)) { /* the CPU: the host plan or the C body */");
        buf_line(b, "    if (%s)", host);
        buf_line(b, "        gf_call_prefer_host(gf_c);");
        buf_line(b, "    else");
        buf_line(b, "        gf_call_prefer_c_body(gf_c);");
        buf_line(b, "}");
    } else if (r->plan->cost_model) {
        buf_line(b, "if (!gf_gpu_wins(gf_launches, gf_syncs, gf_par, gf_ser))");
        buf_line(b, "    gf_call_prefer_c_body(gf_c); /* too little work for its launches: the C body */");
    }
    b->indent--;
    buf_line(b, "}");
}

/* ---- CUDA graphs (runtime/graph.c): lower.c decides (RegionLow.graph) -------------------- */

/* gf_graph_begin with the hash of the integer scalars (the runtime adds the
 * arguments' extents): what shapes the launches; other scalars and the
 * pointers only change the parameters of the graph's nodes. */
static void emit_graph_begin(Buf *b, Region *r)
{
    Buf key = {0};
    buf_puts(&key, "0ULL");
    for (int i = 0; i < r->params.len; i++) {
        Var *v = vec_at(&r->params, i);
        if (v->is_array || !type_is_integer(v->ty))
            continue;
        Buf k = {0};
        buf_printf(&k, "gf_kmix(%s, (unsigned long long)(%s))", key.data, v->cname);
        buf_free(&key);
        key = k;
    }
    buf_line(b, "gf_graph_begin(gf_c, %s); /* a repeated call may replay a CUDA graph (docs/runtime.md) */", key.data);
    buf_free(&key);
}

static void emit_launcher(Buf *b, CudaCx *c, Region *r, const char *name)
{
    Buf args = {0};
    emit_params(&args, r, true, true);
    buf_printf(b, "/* The launcher of %s() (%s:%d), called by the entry point above. */\nstatic %s %s(", r->name, c->u->gen_path,
               r->loc.line, type_c_name(r->ret), name);
    emit_params(b, r, true, false);
    buf_puts(b, ")\n{\n");
    b->indent = 1;
    emit_call_args(b, r, true);
    emit_reservations(b, c, r);
    emit_cost_model(b, c, r);
    emit_host_choice(b, r);
    buf_line(b, "switch (gf_call_map(gf_c)) {");
    buf_line(b, "case GF_PATH_DEVICE:");
    buf_line(b, "    break;");
    buf_line(b, "case GF_PATH_FAILED: /* device memory and no room on the GPU (reported): nothing runs */");
    buf_line(b, "    gf_call_end(gf_c, 0, 0);");
    buf_line(b, "    %s", failed_return(r->ret));
    buf_line(b, "case GF_PATH_HOST: /* no GPU, not enough device memory, or the cost model: the same plan on the CPU */");
    buf_line(b, "    gf_call_end(gf_c, 0, 0);");
    buf_line(b, "    %sgf_host_%s(%s);", r->ret->kind == TY_VOID ? "" : "return ", r->cname, args.data);
    if (r->ret->kind == TY_VOID)
        buf_line(b, "    return;");
    buf_line(b, "default: /* overlapping arguments, or too little work for the GPU: the original order */");
    buf_line(b, "    gf_call_end(gf_c, 0, 0);");
    buf_line(b, "    %sgf_seq_%s(%s);", r->ret->kind == TY_VOID ? "" : "return ", r->cname, args.data);
    if (r->ret->kind == TY_VOID)
        buf_line(b, "    return;");
    buf_line(b, "}");
    buf_line(b, "cudaStream_t gf_s = gf_call_stream(gf_c);");
    buf_line(b, "const int gf_sms = gf_call_sm_count(gf_c);");
    buf_line(b, "(void)gf_sms;");
    emit_device_ptrs(b, r, true);
    /* one device slot per scalar result, for the whole call */
    Vec outs = {0};
    device_scalars(c, r, &outs);
    for (int i = 0; i < outs.len; i++) {
        Var *v = vec_at(&outs, i);
        buf_line(b, "%s *gf_out_%s = (%s *)gf_call_reserved(gf_c, %d); /* '%s' on the device */", type_c_name(v->ty),
                 v->cname, type_c_name(v->ty), slot_of(c, v), v->name);
    }
    emit_tickets(b, c, r);
    c->graph = c->low->graph;
    if (c->graph)
        emit_graph_begin(b, r);
    c->launcher = true;
    c->base.stmt_hook = launcher_hook;
    if (c->low->block) {
        /* its host steps (temporaries' pointers into the scratch) first: both ways use them */
        for (int i = 0; i < r->plan->steps.len; i++) {
            Step *st = vec_at(&r->plan->steps, i);
            if (st->kind == P_HOST)
                emit_stmt(b, &c->base, st->stmt);
        }
        block_launch_begin(b, c);
    }
    launcher_steps(b, c, &r->plan->steps);
    if (c->low->block)
        block_launch_end(b);
    c->base.stmt_hook = NULL;
    c->launcher = false;
    c->graph = false;
    Stmt *last = r->body->list.len ? vec_at(&r->body->list, r->body->list.len - 1) : NULL;
    if (!last || last->kind != S_RETURN)
        buf_line(b, "gf_call_end(gf_c, (size_t)gf_bytes, 0);");
    b->indent = 0;
    buf_puts(b, "}\n\n");
    buf_free(&args);
}

void emit_cuda_unit(Buf *b, Unit *u, const EmitOptions *o)
{
    buf_printf(b, "/* %s.gf.cu - generated by gpufuse %s from %s.  Do not edit: regenerate.\n"
                  " * Build with nvcc -arch=sm_90 (or your GPU); link with libgpufuse. */\n",
               decls_gen_path(u->arena, o->input_name), GFC_VERSION, u->gen_path);
    if (o->fast_math)
        buf_puts(b, "/* --fast-math: expf, logf, sinf, cosf, tanf, powf, exp10f, log2f, log10f and float division\n"
                    " * use CUDA's fast intrinsics in kernels (host fallbacks stay exact). */\n");
    if (o->atomic_reductions)
        buf_puts(b, "/* --atomic-reductions: grid-wide +, | and ^ reductions finish with atomics (floating-point\n"
                    " * sums then depend on the blocks' timing in their last bits). */\n");
    buf_puts(b, "#define restrict __restrict__\n");
    buf_puts(b, "#define _Bool bool /* C's boolean type: the same ABI as C++'s bool */\n");
    emit_prelude(b, u, true);
    emit_abi_check(b, u); /* emit_verify.c: launcher ABI, static-library anchor */
    for (int i = 0; i < u->regions.len; i++) {
        Region *r = vec_at(&u->regions, i);
        if (r->cuda) {
            emit_user_kernel_region(b, u, r, o); /* emit_kernel.c: the user's own kernel */
            continue;
        }
        CudaCx c = {0};
        c.base.r = r;
        c.base.device = true;
        c.base.fast_math = o->fast_math;
        LowerOptions lo = {.atomic_reductions = o->atomic_reductions};
        c.low = lower_region(u, r, &lo);   /* every decision, before any text */
        c.base.override = cuda_override;
        c.u = u;
        c.r = r;
        buf_printf(b, "\n/* ==== %s (%s:%d): %d kernel%s ==== */\n\n", r->name, u->gen_path, r->loc.line,
                   r->plan->kernels.len, r->plan->kernels.len == 1 ? "" : "s");
        for (int j = 0; j < r->plan->kernels.len; j++) {
            Kernel *k = vec_at(&r->plan->kernels, j);
            c.k = k;
            c.kl = lower_of(c.low, k);
            if (c.kl->via == VIA_ABSORBED) {
                buf_printf(b, "/* %s: %s lines %d-%d, run by the threads of %s at its start (one launch fewer) */\n\n",
                           k->name, u->gen_path, k->first_line, k->last_line, c.kl->into->name);
                continue;
            }
            if (c.kl->shape == SH_SERIAL)
                buf_printf(b, "/* %s: serial kernel for %s lines %d-%d (%d statement%s, one thread in order) */\n",
                           k->name, u->gen_path, k->first_line, k->last_line, k->nests.len, k->nests.len == 1 ? "" : "s");
            else
                buf_printf(b, "/* %s: %s kernel for %s lines %d-%d (%d nest%s fused) */\n", k->name,
                           kernel_kind_names[k->kind], u->gen_path, k->first_line, k->last_line, k->nests.len,
                           k->nests.len == 1 ? "" : "s");
            shape_printers[c.kl->shape].kernel(b, &c);
        }
        c.k = NULL;
        c.kl = NULL;
        if (c.low->block)
            print_block(b, &c);
        emit_host_cost(b, r);
        buf_puts(b, "/* the CPU fallback: the same plan with OpenMP */\nstatic ");
        emit_host_region(b, u, r, arena_printf(u->arena, "gf_host_%s", r->cname), true, true);
        buf_puts(b, "/* the original body: for overlapping arguments */\nGF_UNUSED static ");
        emit_host_region(b, u, r, arena_printf(u->arena, "gf_seq_%s", r->cname), false, false);
        /* the entry point (emit_verify.c: GPUFUSE_VERIFY), then the launcher it calls; the
         * entry point keeps the C symbol of the function even where CUDA names it otherwise */
        const char *launcher = arena_printf(u->arena, "gf_launch_%s", r->cname);
        const char *entry = arena_printf(u->arena, "%s%s", o->prefix, r->cname);
        const char *sym = arena_printf(u->arena, "%s%s", o->prefix, r->name);
        if (strcmp(entry, sym)) {
            buf_printf(b, "extern \"C\" %s %s(", type_c_name(r->ret), entry);
            emit_params(b, r, true, false);
            buf_printf(b, ") __asm__(\"%s\");\n", sym);
        }
        emit_inspectors(b, r);
        emit_verify_entry(b, r, entry, launcher);
        fftcb_emit_descriptors(b, u->arena, r, r->cname);
        emit_launcher(b, &c, r, launcher);
    }
    emit_prewarm(b, u);
}
