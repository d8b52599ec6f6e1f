/* emit_host.c - the host side of generated code: the file prelude (the
 * types, constants and helpers the regions name, from decls.c), each region's sequential body (the
 * reference semantics, used when arguments overlap), and the fused plan as
 * C with OpenMP: the CPU fallback, and the whole output of --target=host. */
#include "gfc.h"
#include "templates.h"

#include <string.h>

/* ---- prelude ------------------------------------------------------------------
 * The templates, then the declarations the accepted regions name (decls.c:
 * types, constants, helpers rebuilt from the AST), each once and in
 * definition order; never the source's headers or macros, so the file
 * compiles with none of the user's -I flags, as C++ as well as C. */

static void need(Unit *u, Decl *x, bool *mark)
{
    if (mark[x->id])
        return;
    mark[x->id] = true;
    for (int i = 0; i < x->deps.len; i++)
        need(u, vec_at(&x->deps, i), mark);
}

/* sizeof, alignof and every named field's offset as the C compiler has them */
static void emit_layout_check(Buf *b, const Decl *x, bool cuda)
{
    buf_printf(b, "%s(sizeof(%s) == %lld && %s(%s) == %lld", cuda ? "static_assert" : "_Static_assert", x->name,
               x->size, cuda ? "alignof" : "_Alignof", x->name, x->align);
    for (int i = 0; i < x->offsets.len; i++) {
        DeclField *f = vec_at(&x->offsets, i);
        buf_printf(b, " &&\n              offsetof(%s, %s) == %lld", x->name, f->name, f->offset);
    }
    buf_printf(b, ",\n              \"gpufuse: %s (%s) is laid out differently than in the C compiler: "
                  "regenerate for this target\");\n", x->name, x->where);
}

static void emit_decls(Buf *b, Unit *u, bool cuda)
{
    bool *mark = arena_alloc(u->arena, sizeof(bool) * (size_t)(u->decls.len + 1));
    bool any = false;
    for (int i = 0; i < u->regions.len; i++) {
        Region *r = vec_at(&u->regions, i);
        for (int j = 0; j < r->decls.len; j++)
            need(u, vec_at(&r->decls, j), mark);
    }
    for (int i = 0; i < u->decls.len; i++)
        any |= mark[i];
    if (!any)
        return;
    buf_printf(b, "\n/* ---- types, constants and helpers of %s, from its syntax tree ---- */\n", u->gen_path);
    for (int i = 0; i < u->decls.len; i++) {
        Decl *x = vec_at(&u->decls, i);
        if (mark[i] && x->fwd)
            buf_printf(b, "%s\n", x->fwd);
    }
    for (int i = 0; i < u->decls.len; i++) {
        Decl *x = vec_at(&u->decls, i);
        if (!mark[i])
            continue;
        if (cuda && x->kind == D_HELPER)  /* C's math prototypes first (templates/common.h) */
            buf_printf(b, "/* %s: %s */\nnamespace gf_c {\n%s\n} /* namespace gf_c */\nusing gf_c::%s;\n", x->name,
                       x->where, x->text_cuda ? x->text_cuda : x->text, x->name);
        else
            buf_printf(b, "/* %s: %s */\n%s\n", x->name, x->where, cuda && x->text_cuda ? x->text_cuda : x->text);
        if (x->kind == D_RECORD)
            emit_layout_check(b, x, cuda);
        if (x->kind == D_HELPER)
            buf_puts(b, "\n");
    }
}

/* The host plan's helpers (after the templates, in both targets): its
 * threads, the cost model host_cost.c's gf_host_wins_<f> ask
 * (docs/performance.md, "The host plan against the C body") and the block
 * size of a column-blocked loop (emit_blocked). */
static const char host_helpers[] =
    "\n/* ---- the host plan: threads, cost model, column blocks (docs/performance.md) ---- */\n"
    "#if defined(GF_HOST_CHOICE) /* -DGF_HOST_CHOICE=fn: fn(\"f\", ran_the_plan) at each call */\n"
    "void GF_HOST_CHOICE(const char *, int);\n"
    "#endif\n"
    "#if defined(_OPENMP)\n"
    "#include <omp.h>\n"
    "#endif\n"
    "/* The threads a parallel loop of the host plan gets (1 inside a parallel region). */\n"
    "GF_UNUSED static inline int gf_host_threads(void)\n"
    "{\n"
    "#if defined(_OPENMP)\n"
    "    return omp_in_parallel() ? 1 : omp_get_max_threads();\n"
    "#else\n"
    "    return 1;\n"
    "#endif\n"
    "}\n"
    "/* The threads the cost model counts on: the plan's threads (OpenMP's,\n"
    " * OMP_NUM_THREADS), or GPUFUSE_HOST_THREADS=N.  Not the machine's load:\n"
    " * the choice, and so the last bits of a float sum, must not depend on\n"
    " * what else runs. */\n"
    "GF_UNUSED static inline double gf_host_free_threads(void)\n"
    "{\n"
    "    double t = gf_host_threads();\n"
    "#if defined(_OPENMP)\n"
    "    const char *e = getenv(\"GPUFUSE_HOST_THREADS\");\n"
    "    if (e && atoi(e) > 0)\n"
    "        return atoi(e) < t ? atoi(e) : t;\n"
    "#endif\n"
    "    return t;\n"
    "}\n"
    "/* GPUFUSE_COST_MODEL=0: always the plan (tests that run plans at small sizes). */\n"
    "GF_UNUSED static inline int gf_host_model_on(void)\n"
    "{\n"
    "    static int on = -1;\n"
    "    int v = __atomic_load_n(&on, __ATOMIC_RELAXED);\n"
    "    if (v < 0) {\n"
    "        const char *e = getenv(\"GPUFUSE_COST_MODEL\");\n"
    "        v = !(e && e[0] == '0' && !e[1]);\n"
    "        __atomic_store_n(&on, v, __ATOMIC_RELAXED);\n"
    "    }\n"
    "    return v;\n"
    "}\n"
    "#define GF_HOST_FORK_NS 5000.0 /* an OpenMP parallel loop: waking the threads, the join */\n"
    "#define GF_HOST_START_NS 500000.0 /* the first parallel loop of a process: OpenMP creates its threads */\n"
    "/* Whether a plan of this unit has run its parallel loops (OpenMP's threads\n"
    " * exist): set by the plans themselves, whoever chose them. */\n"
    "GF_UNUSED static int gf_host_started;\n"
    "#define GF_HOST_ATOMIC_NS 20.0 /* an atomic update among threads (a locked instruction or a CAS loop) */\n"
    "#define GF_HOST_CPU_NS 1.0     /* a statement instance on one core */\n"
    "/* The host plan wins when its parallel loops' forks, their statement\n"
    " * instances spread over the threads and their atomic updates cost less\n"
    " * than the C body running every instance on one core; statements outside\n"
    " * parallel loops cost the same either way.  The first plan of the unit to\n"
    " * fork also pays for OpenMP's threads (a program that calls once, as\n"
    " * PolyBench does, pays it every time).  Without OpenMP the plan runs the\n"
    " * same instances on one core without atomics: never worse. */\n"
    "GF_UNUSED static inline double gf_host_plan_ns(double forks, double par, double atom)\n"
    "{\n"
    "#if defined(_OPENMP)\n"
    "    const int started = __atomic_load_n(&gf_host_started, __ATOMIC_RELAXED);\n"
    "    return (forks > 0 && !started ? GF_HOST_START_NS : 0) + forks * GF_HOST_FORK_NS +\n"
    "           ((par - atom) * GF_HOST_CPU_NS + atom * GF_HOST_ATOMIC_NS) / gf_host_free_threads();\n"
    "#else\n"
    "    (void)forks, (void)atom;\n"
    "    return par * GF_HOST_CPU_NS;\n"
    "#endif\n"
    "}\n"
    "GF_UNUSED static inline int gf_host_plan_wins(double forks, double par, double atom)\n"
    "{\n"
    "    if (!gf_host_model_on())\n"
    "        return 1;\n"
    "#if defined(_OPENMP)\n"
    "    return gf_host_plan_ns(forks, par, atom) < par * GF_HOST_CPU_NS;\n"
    "#else\n"
    "    (void)forks, (void)par, (void)atom;\n"
    "    return 1;\n"
    "#endif\n"
    "}\n"
    "/* The work of a call of the host plan (host_cost.c's gf_host_work_<f>):\n"
    " * its forks, the statement instances of its parallel loops and the atomic\n"
    " * updates among them, and the instances that run in order either way\n"
    " * (serial kernels, scalar statements). */\n"
    "typedef struct gf_host_work {\n"
    "    double forks, par, atom, seq;\n"
    "} gf_host_work;\n"
    "/* The CPU's time for a call, ns: the host plan or the C body, whichever\n"
    " * the model above picks (*plan: the host plan), and the statements both\n"
    " * run in order.  The CUDA launcher weighs it against the GPU's time and\n"
    " * the copies (gf_call_weigh). */\n"
    "GF_UNUSED static inline double gf_host_cpu_ns(gf_host_work w, int *plan)\n"
    "{\n"
    "    const double body = w.par * GF_HOST_CPU_NS, p = gf_host_plan_ns(w.forks, w.par, w.atom);\n"
    "#if defined(_OPENMP)\n"
    "    *plan = !gf_host_model_on() || p < body;\n"
    "#else\n"
    "    *plan = 1; /* the same statements on one core, without atomics */\n"
    "#endif\n"
    "    return (*plan ? p : body) + w.seq * GF_HOST_CPU_NS;\n"
    "}\n"
    "GF_UNUSED static inline double gf_host_trips(double lb, double ub, double step) { return ub > lb ? (ub - lb) / step : 0; }\n"
    "GF_UNUSED static inline double gf_host_half(double trips) { return trips > 1 ? (trips - 1) / 2 : 0; }\n"
    "/* Iterations per block of a column-blocked loop: a share per thread, a\n"
    " * multiple of 16 (whole cache lines), at most 1024 (the block's elements\n"
    " * of a row stay in the first-level cache). */\n"
    "GF_UNUSED static inline long long gf_host_block(double trips)\n"
    "{\n"
    "    long long n = (long long)trips, t = gf_host_threads();\n"
    "    long long bs = (n + t - 1) / t;\n"
    "    bs = (bs + 15) / 16 * 16;\n"
    "    return bs < 16 ? 16 : bs > 1024 ? 1024 : bs;\n"
    "}\n";

void emit_prelude(Buf *b, Unit *u, bool cuda)
{
    bool f16 = false, bf16 = false, cx = false;
    for (int i = 0; i < u->regions.len; i++) {
        cx |= ((Region *)vec_at(&u->regions, i))->uses_complex;
        f16 |= ((Region *)vec_at(&u->regions, i))->uses_f16;
        bf16 |= ((Region *)vec_at(&u->regions, i))->uses_bf16;
    }
    /* common.h's gf_f16 / gf_bf16 (docs/types.md) */
    if (f16)
        buf_puts(b, "#define GF_USES_F16 1\n");
    if (bf16)
        buf_puts(b, "#define GF_USES_BF16 1\n");
    if (cx)
        buf_puts(b, "#define GF_USES_COMPLEX 1\n");
    buf_printf(b, "%s", gf_tpl_common);
    if (cuda)
        buf_printf(b, "%s", gf_tpl_device);
    buf_puts(b, host_helpers);
    bool inspects = false;
    for (int i = 0; i < u->regions.len; i++)
        inspects |= ((Region *)vec_at(&u->regions, i))->inspect != NULL;
    if (inspects) {
        buf_puts(b, "/* Whether pointer q lies in [p + lo, p + hi) (a device block holding p). */\n"
                    "GF_UNUSED static inline int gf_inside(const void *q, const void *p, ptrdiff_t lo, ptrdiff_t hi)\n"
                    "{\n"
                    "    return (uintptr_t)q >= (uintptr_t)p + (uintptr_t)lo && (uintptr_t)q < (uintptr_t)p + (uintptr_t)hi;\n"
                    "}\n");
        buf_puts(b, "/* Extents found at run time (docs/language.md): the least and greatest subscript seen. */\n"
                    "GF_UNUSED static inline void gf_seen(long long *gf_mn, long long *gf_mx, long long *gf_n, int gf_k,\n"
                    "                                     long long gf_i)\n"
                    "{\n"
                    "    ++*gf_n; /* the accesses seen: the call's work, for the cost model */\n"
                    "    if (gf_i < gf_mn[gf_k])\n"
                    "        gf_mn[gf_k] = gf_i;\n"
                    "    if (gf_i > gf_mx[gf_k])\n"
                    "        gf_mx[gf_k] = gf_i;\n"
                    "}\n");
    }
    bool lib = false;
    for (int i = 0; i < u->regions.len; i++)
        lib |= ((Region *)vec_at(&u->regions, i))->plan->has_lib;
    if (lib && !cuda)
        buf_puts(b, "#include <gpufuse.h> /* library calls: link with libgpufuse */\n");
    emit_decls(b, u, cuda);
}

/* ---- shared host emission ------------------------------------------------------------ */

typedef struct HostCx {
    EmitCtx base;
    Kernel *k;                   /* fused kernel being emitted, for registers */
    Region *r;
    bool fused;
    bool openmp;                 /* the kernel's loops run in parallel threads */
} HostCx;

static const char *host_override(EmitCtx *cx, const Expr *e)
{
    HostCx *h = (HostCx *)cx;
    if (e->kind != E_INDEX || !h->k)
        return NULL;
    for (int i = 0; i < h->k->reg_temps.len; i++)
        if (vec_at(&h->k->reg_temps, i) == e->var)
            return arena_printf(h->r->unit->arena, "%s_r", e->var->cname);
    return NULL;
}

static bool is_dead_temp(Region *r, Var *v)
{
    for (int i = 0; r->plan && i < r->plan->dead_temps.len; i++)
        if (vec_at(&r->plan->dead_temps, i) == v)
            return true;
    return false;
}

/* The VLA temporaries a body declares, in order. */
typedef struct VlaSink {
    Vec *out;
    Arena *a;
} VlaSink;

static IrFind vla_decl(const Stmt *s, const void *arg)
{
    const VlaSink *k = arg;
    if (s->kind == S_DECL && s->var->is_temp && !s->is_malloc)
        vec_push(k->a, k->out, s->var);
    return IR_NEXT;
}

static void vla_decls(const Stmt *s, Vec *out, Arena *a)
{
    VlaSink k = {out, a};
    ir_stmt_find(s, vla_decl, &k);
}

/* Frees VLA temporaries (they have no free() of their own) before returns. */
static void free_vlas(Buf *b, Region *r, bool fused)
{
    Vec vlas = {0};
    vla_decls(fused || !r->seq_body ? r->body : r->seq_body, &vlas, r->unit->arena);
    for (int i = 0; i < vlas.len; i++) {
        Var *v = vec_at(&vlas, i);
        if (!(fused && is_dead_temp(r, v)))
            buf_line(b, "gf_tmp_free(%s);", v->cname);
    }
}

static void emit_for_head(Buf *b, const Stmt *l, const char *lb, const char *ub);

/* The C body: a pair of loops deps_interchange swapped (the parallel one
 * outside, for the kernels) printed in the order the C function has them,
 * which reads rows contiguously: the C body it stands for. */
static bool emit_unswapped(Buf *b, EmitCtx *cx, const Stmt *s)
{
    const Stmt *in = s->body;
    while (in->kind == S_BLOCK && in->list.len == 1)
        in = vec_at(&in->list, 0);
    if (in->kind != S_FOR || !in->interchanged)
        return false;
    const Stmt *order[2] = {in, s};
    for (int i = 0; i < 2; i++) {
        Buf lb = {0}, ub = {0};
        emit_expr(&lb, cx, order[i]->lb);
        emit_expr(&ub, cx, order[i]->ub);
        emit_for_head(b, order[i], lb.data, ub.data);
        buf_free(&lb);
        buf_free(&ub);
        b->indent++;
    }
    emit_stmt(b, cx, in->body);
    for (int i = 0; i < 2; i++) {
        b->indent--;
        buf_line(b, "}");
    }
    return true;
}

/* Whether s is one of the parallel loops the plan's kernel opens itself. */
static bool kernel_loop(const HostCx *h, const Stmt *s)
{
    for (int d = 0; h->k && d < h->k->pdims; d++)
        if (h->k->loops[d] == s)
            return true;
    return false;
}

static bool host_stmt_hook(Buf *b, EmitCtx *cx, const Stmt *s)
{
    HostCx *h = (HostCx *)cx;
    /* A pair swapped for the GPU below the plan's parallel loops (gemm's
     * `for k for j` as `for j for k` in a row kernel: B read by columns) runs
     * in the C body's order: each element gets the same operations in the
     * same order either way (the loop over the sum stays in order). */
    if (s->kind == S_FOR && s->interchanged && !kernel_loop(h, s))
        return emit_unswapped(b, cx, s);
    if (s->kind == S_RETURN) {
        free_vlas(b, h->r, h->fused);
        return false;
    }
    if (h->fused && ((s->kind == S_DECL && s->var->is_array) || s->kind == S_FREE) && is_dead_temp(h->r, s->var))
        return true;             /* never allocated */
    if (s->kind == S_ASSIGN && s->atomic && h->openmp && h->k && h->k->pdims > 0) {
        /* a colliding update (deps.c): atomic among the threads; one thread
         * without OpenMP, which needs no compare-and-swap */
        buf_puts(b, "#if defined(_OPENMP)\n");
        emit_atomic_update(b, cx, s);
        buf_puts(b, "#else\n");
        h->openmp = false;
        emit_stmt(b, cx, s);
        h->openmp = true;
        buf_puts(b, "#endif\n");
        return true;
    }
    return false;
}

static void host_cx(HostCx *h, Region *r, bool fused)
{
    memset(h, 0, sizeof *h);
    h->base.r = r;
    h->base.override = host_override;
    h->base.stmt_hook = host_stmt_hook;
    h->r = r;
    h->fused = fused;
}

static bool ends_in_return(Region *r)
{
    Stmt *b = r->body;
    return b->list.len && ((Stmt *)vec_at(&b->list, b->list.len - 1))->kind == S_RETURN;
}

/* The body of one nest below its first `pdims` loops. */
Stmt *nest_inner_body(Stmt *nest, int pdims)
{
    Stmt *b = nest;
    for (int i = 0; i < pdims; i++) {
        b = b->body;
        while (i + 1 < pdims && b->kind == S_BLOCK && b->list.len == 1)
            b = vec_at(&b->list, 0);
    }
    return b;
}

/* `const int i_1 = i;` for a later nest's indices. */
void emit_iv_aliases(Buf *b, Kernel *k, Stmt *nest)
{
    Stmt *l = nest;
    for (int d = 0; d < k->pdims; d++) {
        if (l->iv != k->loops[d]->iv)
            buf_line(b, "GF_UNUSED const %s %s = %s;", type_c_name(l->iv->ty), l->iv->cname, k->loops[d]->iv->cname);
        if (d + 1 < k->pdims) {
            Stmt *x = l->body;
            while (x->kind == S_BLOCK && x->list.len == 1)
                x = vec_at(&x->list, 0);
            l = x;
        }
    }
}

static const char *omp_red_op(RedOp r)
{
    switch (r) {
    case RED_ADD: return "+";
    case RED_MUL: return "*";
    case RED_MIN: return "min";
    case RED_MAX: return "max";
    case RED_AND: return "&&";
    case RED_OR: return "||";
    case RED_BAND: return "&";
    case RED_BOR: return "|";
    case RED_BXOR: return "^";
    default: return "+";
    }
}

void emit_source_comment(Buf *b, Unit *u, Kernel *k)
{
    if (k->kind == K_SERIAL) {
        buf_line(b, "/* serial %s: %s lines %d-%d, %d statement%s in order */", k->name, u->gen_path, k->first_line,
                 k->last_line, k->nests.len, k->nests.len == 1 ? "" : "s");
        return;
    }
    buf_line(b, "/* %s %s: %s lines %d-%d, %d nest%s fused */", kernel_kind_names[k->kind], k->name, u->gen_path,
             k->first_line, k->last_line, k->nests.len, k->nests.len == 1 ? "" : "s");
}

/* ---- column blocks -------------------------------------------------------------------
 * A kernel whose innermost parallel loop p has one sequential loop q as its
 * whole body, where the accesses are contiguous along p and a row apart
 * along q, reads one element per cache line at each step of q on the CPU:
 * column_sums after deps_interchange moved the column loop outside
 * (for j { for i { y[j] += a[i][j] * w[i]; } }), right for the GPU, where
 * neighbouring threads read neighbouring columns.  The host plan runs p by
 * blocks instead: each block (the blocks in parallel), q, and inside q the
 * block's iterations of p, so that every step of q reads a contiguous piece
 * of a row.  Each iteration of p still runs its iterations of q in order,
 * the same operations in the same order per element; legal because p
 * carries no dependence, so its iterations may interleave. */

typedef struct StrideCx {
    IrVisitor v;
    const Var *p, *q;
    int along_p, along_q;        /* accesses contiguous along p (a row apart along q), and the reverse */
} StrideCx;

/* Whether subscripts [0, n) of e use v. */
static bool lead_uses(const Expr *e, int n, const Var *v)
{
    for (int d = 0; d < n; d++)
        if (!e->aff[d] || aff_uses(e->aff[d], v))
            return true;
    return false;
}

static Expr *stride_expr(IrVisitor *v, Expr *e, Stmt *owner)
{
    (void)owner;
    StrideCx *x = (StrideCx *)v;
    if (e->kind != E_INDEX || !e->aff || e->nkids < 2 || !e->aff[e->nkids - 1])
        return e;
    const Aff *last = e->aff[e->nkids - 1];
    long long cp = aff_coef(last, x->p), cq = aff_coef(last, x->q);
    if ((cp == 1 || cp == -1) && !cq && lead_uses(e, e->nkids - 1, x->q))
        x->along_p++;
    if ((cq == 1 || cq == -1) && !cp && lead_uses(e, e->nkids - 1, x->p))
        x->along_q++;
    return e;
}

static bool uses_var(const Expr *e, const void *v)
{
    return (e->kind == E_VAR || e->kind == E_INDEX) && e->var == v;
}

/* A statement before or after the q loop of a blocked body: an array
 * element assigned, no loop, nothing declared (it runs in a loop over the
 * block's iterations of its own). */
static bool block_side_stmt(const Stmt *s)
{
    return s->kind == S_ASSIGN && s->lhs->kind == E_INDEX && !s->atomic && !s->red;
}

/* The one loop of body (a loop, or a block of it and statements around it
 * that block_side_stmt allows), or NULL. */
static Stmt *block_body_loop(Stmt *body)
{
    while (body->kind == S_BLOCK && body->list.len == 1)
        body = vec_at(&body->list, 0);
    if (body->kind == S_FOR)
        return body;
    if (body->kind != S_BLOCK)
        return NULL;
    Stmt *q = NULL;
    for (int i = 0; i < body->list.len; i++) {
        Stmt *x = vec_at(&body->list, i);
        if (x->kind == S_FOR && !q)
            q = x;
        else if (!block_side_stmt(x))
            return NULL;
    }
    return q;
}

/* The sequential loop to run outside blocks of kernel k's innermost
 * parallel loop, or NULL when k's loops stay as they are.  Array stores
 * before and after it in the body (gemm's `C[i][j] *= beta` once
 * deps_fuse_siblings put it there) run in loops over the block of their
 * own, before and after it. */
Stmt *host_block_loop(Kernel *k)
{
    if (k->kind == K_SERIAL || k->pdims < 1 || k->nests.len != 1 || k->reg_temps.len)
        return NULL;
    Stmt *q = block_body_loop(nest_inner_body(vec_at(&k->nests, 0), k->pdims));
    if (!q || q->brk || q->parallel)
        return NULL;
    for (int d = 0; d < k->pdims; d++)
        if (ir_expr_any(q->lb, uses_var, k->loops[d]->iv) || ir_expr_any(q->ub, uses_var, k->loops[d]->iv))
            return NULL;
    Stmt *p = k->loops[k->pdims - 1];
    for (int d = 0; d + 1 < k->pdims; d++) /* the block size is taken before the loops: p rectangular */
        if (ir_expr_any(p->lb, uses_var, k->loops[d]->iv) || ir_expr_any(p->ub, uses_var, k->loops[d]->iv))
            return NULL;
    StrideCx x = {{.expr = stride_expr}, k->loops[k->pdims - 1]->iv, q->iv, 0, 0};
    ir_visit_stmt(&x.v, q->body);
    return x.along_p > x.along_q ? q : NULL;
}

static void emit_for_head(Buf *b, const Stmt *l, const char *lb, const char *ub)
{
    if (l->step == 1)
        buf_line(b, "for (%s %s = %s; %s < %s; %s++) {", type_c_name(l->iv->ty), l->iv->cname, lb, l->iv->cname, ub,
                 l->iv->cname);
    else
        buf_line(b, "for (%s %s = %s; %s < %s; %s += %lld) {", type_c_name(l->iv->ty), l->iv->cname, lb,
                 l->iv->cname, ub, l->iv->cname, l->step);
}

/* The innermost parallel loop p of k by blocks, q (host_block_loop) around
 * the block's iterations; the caller opened the outer parallel loops. */
static void emit_blocked(Buf *b, HostCx *h, Kernel *k, Stmt *q)
{
    Stmt *p = k->loops[k->pdims - 1];
    Buf lb = {0}, ub = {0}, qlb = {0}, qub = {0};
    emit_expr(&lb, &h->base, p->lb);
    emit_expr(&ub, &h->base, p->ub);
    emit_expr(&qlb, &h->base, q->lb);
    emit_expr(&qub, &h->base, q->ub);
    const char *span = p->step == 1 ? "gf_bs" : arena_printf(h->r->unit->arena, "gf_bs * %lld", p->step);
    buf_line(b, "for (long long gf_blk = %s; gf_blk < (long long)(%s); gf_blk += %s) {", lb.data, ub.data, span);
    b->indent++;
    buf_line(b, "const long long gf_blk_end = gf_min(gf_blk + %s, (long long)(%s));", span, ub.data);
    Stmt *body = nest_inner_body(vec_at(&k->nests, 0), k->pdims);
    while (body->kind == S_BLOCK && body->list.len == 1)
        body = vec_at(&body->list, 0);
    /* the statements before q, q, the statements after it: each part with
     * the block's iterations of p inside (q) or around it (the others) */
    int n = body->kind == S_BLOCK ? body->list.len : 1;
    int at = 0;
    while (at < n && (body->kind == S_BLOCK ? vec_at(&body->list, at) : body) != q)
        at++;
    for (int part = 0; part < 3; part++) {
        int from = part == 0 ? 0 : part == 1 ? at : at + 1, to = part == 0 ? at : part == 1 ? at + 1 : n;
        if (from >= to)
            continue;
        if (part == 1) {
            emit_for_head(b, q, qlb.data, qub.data);
            b->indent++;
        }
        if (p->step == 1)
            buf_line(b, "for (%s %s = (%s)gf_blk; %s < gf_blk_end; %s++) {", type_c_name(p->iv->ty), p->iv->cname,
                     type_c_name(p->iv->ty), p->iv->cname, p->iv->cname);
        else
            buf_line(b, "for (%s %s = (%s)gf_blk; %s < gf_blk_end; %s += %lld) {", type_c_name(p->iv->ty),
                     p->iv->cname, type_c_name(p->iv->ty), p->iv->cname, p->iv->cname, p->step);
        b->indent++;
        if (part == 1)
            emit_stmt(b, &h->base, q->body);
        for (int i = from; part != 1 && i < to; i++)
            emit_stmt(b, &h->base, vec_at(&body->list, i));
        for (int i = 0; i < (part == 1 ? 2 : 1); i++) {
            b->indent--;
            buf_line(b, "}");
        }
    }
    b->indent--;
    buf_line(b, "}");
    buf_free(&lb);
    buf_free(&ub);
    buf_free(&qlb);
    buf_free(&qub);
}

/* `#pragma omp parallel for` over k's parallel loops, with its reductions.
 * The innermost parallel loop stays out of the collapse unless it is run by
 * blocks (then the loop over the blocks is collapsed and each block's loop
 * stays inside): a collapsed loop is one flattened loop, which gcc and clang
 * do not vectorise, and the innermost loop is the one that reads memory
 * contiguously (samples/basic heat on 2 threads: 0.5x its C body with
 * collapse(2), 1.7x without).  `blocked`: the innermost is run by blocks. */
static void emit_omp_for(Buf *b, Kernel *k, bool blocked)
{
    Buf clause = {0};
    int collapse = blocked ? k->pdims : k->pdims - 1;
    if (collapse > 1)
        buf_printf(&clause, " collapse(%d)", collapse);
    for (int i = 0; i < k->reds.len; i++) {
        Stmt *s = vec_at(&k->reds, i);
        bool dup = false;
        for (int j = 0; j < i; j++)
            if (((Stmt *)vec_at(&k->reds, j))->red_var == s->red_var)
                dup = true;
        if (!dup)
            buf_printf(&clause, " reduction(%s:%s)", omp_red_op(s->red), s->red_var->cname);
    }
    buf_puts(b, "#if defined(_OPENMP)\n");
    buf_line(b, "#pragma omp parallel for%s", clause.data ? clause.data : "");
    buf_puts(b, "#endif\n");
    buf_free(&clause);
}

static void emit_host_kernel(Buf *b, Unit *u, Region *r, Kernel *k, bool openmp)
{
    HostCx h;
    host_cx(&h, r, true);
    h.k = k;
    h.openmp = openmp;
    emit_source_comment(b, u, k);
    if (k->kind == K_SERIAL) {
        /* in order, in the enclosing scope: what it declares is used after it */
        for (int i = 0; i < k->nests.len; i++)
            emit_stmt(b, &h.base, vec_at(&k->nests, i));
        return;
    }
    Stmt *q = host_block_loop(k);
    if (q) {
        Stmt *p = k->loops[k->pdims - 1];
        Buf lb = {0}, ub = {0};
        emit_expr(&lb, &h.base, p->lb);
        emit_expr(&ub, &h.base, p->ub);
        buf_line(b, "{ /* '%s' by blocks, the loop over '%s' around each block's '%s': rows read contiguously */",
                 p->iv->name, q->iv->name, p->iv->name);
        b->indent++;
        buf_line(b, "const long long gf_bs = gf_host_block(gf_host_trips(%s, %s, %lld));", lb.data, ub.data, p->step);
        buf_free(&lb);
        buf_free(&ub);
    }
    if (openmp)
        emit_omp_for(b, k, q != NULL);
    int open = q ? k->pdims - 1 : k->pdims;
    for (int d = 0; d < open; d++) {
        Stmt *l = k->loops[d];
        Buf lb = {0}, ub = {0};
        emit_expr(&lb, &h.base, l->lb);
        emit_expr(&ub, &h.base, l->ub);
        emit_for_head(b, l, lb.data, ub.data);
        buf_free(&lb);
        buf_free(&ub);
        b->indent++;
    }
    if (q) {
        emit_blocked(b, &h, k, q);
        for (int d = 0; d < open; d++) {
            b->indent--;
            buf_line(b, "}");
        }
        b->indent--;
        buf_line(b, "}");
        return;
    }
    for (int i = 0; i < k->reg_temps.len; i++) {
        Var *v = vec_at(&k->reg_temps, i);
        buf_line(b, "%s %s_r; /* temporary '%s' kept in a register */", type_c_name(type_elem(v->ty)), v->cname,
                 v->name);
    }
    for (int i = 0; i < k->nests.len; i++) {
        Stmt *nest = vec_at(&k->nests, i);
        if (k->nests.len > 1) {
            buf_line(b, "{ /* line %d */", nest->loc.line);
            b->indent++;
        }
        emit_iv_aliases(b, k, nest);
        emit_stmt(b, &h.base, nest_inner_body(nest, k->pdims));
        if (k->nests.len > 1) {
            b->indent--;
            buf_line(b, "}");
        }
    }
    for (int d = 0; d < k->pdims; d++) {
        b->indent--;
        buf_line(b, "}");
    }
}

/* The head of a host loop (for or while) around planned steps, with `what`
 * and its line in a comment; the caller closes it. */
void emit_loop_head(Buf *b, EmitCtx *cx, const Stmt *l, const char *what)
{
    Buf c = {0};
    if (l->kind == S_WHILE) {
        emit_cond(&c, cx, l->cond);
        buf_line(b, "while (%s) { /* %s loop, line %d */", c.data, what, l->loc.line);
        buf_free(&c);
        return;
    }
    Buf lb = {0};
    emit_expr(&lb, cx, l->lb);
    emit_expr(&c, cx, l->ub);
    buf_line(b, "for (%s %s = %s; %s < %s; %s += %lld) { /* %s loop, line %d */", type_c_name(l->iv->ty), l->iv->cname,
             lb.data, l->iv->cname, c.data, l->iv->cname, l->step, what, l->loc.line);
    buf_free(&lb);
    buf_free(&c);
}

static void emit_steps(Buf *b, Unit *u, Region *r, Vec *steps, bool openmp)
{
    HostCx h;
    host_cx(&h, r, true);
    for (int i = 0; i < steps->len; i++) {
        Step *st = vec_at(steps, i);
        switch (st->kind) {
        case P_HOST:
        case P_LIB: emit_stmt(b, &h.base, st->stmt); break;
        case P_KERNEL: emit_host_kernel(b, u, r, st->kernel, openmp); break;
        case P_LOOP:
            emit_loop_head(b, &h.base, st->stmt, "sequential");
            b->indent++;
            emit_steps(b, u, r, &st->body, openmp);
            b->indent--;
            buf_line(b, "}");
            break;
        case P_IF: {
            Buf c = {0};
            emit_cond(&c, &h.base, st->stmt->cond);
            buf_line(b, "if (%s) { /* line %d */", c.data, st->stmt->loc.line);
            buf_free(&c);
            b->indent++;
            emit_steps(b, u, r, &st->body, openmp);
            b->indent--;
            if (st->els.len) {
                buf_line(b, "} else {");
                b->indent++;
                emit_steps(b, u, r, &st->els, openmp);
                b->indent--;
            }
            buf_line(b, "}");
            break;
        }
        }
    }
}

static bool is_var_use(const Expr *e, const void *v)
{
    return (e->kind == E_VAR || e->kind == E_INDEX) && e->var == v;
}

void emit_host_region(Buf *b, Unit *u, Region *r, const char *name, bool fused, bool openmp)
{
    buf_printf(b, "%s %s(", type_c_name(r->ret), name);
    emit_params(b, r, false, false);
    buf_puts(b, ")\n{\n");
    b->indent = 1;
    /* a size used only in an array parameter's type (float h[nbins]) is
     * unused once arrays are flat pointers */
    for (int i = 0; i < r->params.len; i++) {
        Var *v = vec_at(&r->params, i);
        if (!v->is_array && !ir_stmt_any(r->body, is_var_use, v))
            buf_line(b, "(void)%s;", v->cname);
    }
    if (fused) {
        bool forks = false;
        for (int i = 0; i < r->plan->kernels.len; i++) {
            Kernel *k = vec_at(&r->plan->kernels, i);
            forks |= k->kind != K_SERIAL && !k->lib;
        }
        if (openmp && forks)
            buf_puts(b, "#if defined(_OPENMP)\n"
                        "    __atomic_store_n(&gf_host_started, 1, __ATOMIC_RELAXED); /* its loops make OpenMP's threads */\n"
                        "#endif\n");
        emit_steps(b, u, r, &r->plan->steps, openmp);
    } else {
        HostCx h;
        host_cx(&h, r, false);
        emit_stmt(b, &h.base, r->seq_body ? r->seq_body : r->body);
    }
    if (!ends_in_return(r))
        free_vlas(b, r, fused);
    b->indent = 0;
    buf_puts(b, "}\n\n");
}

/* ---- argument extents and overlap ------------------------------------------------------ */

/* Emits `lo`/`hi` byte offsets of the elements of v the call touches. */
void emit_extent(Buf *b, Region *r, Var *v, const char *lo, const char *hi)
{
    EmitCtx cx = {.r = r};
    const char *et = type_c_name(type_elem(v->ty));
    if (!v->ext_lo && !v->ext_whole) {
        buf_line(b, "const long long %s = 0, %s = 0; /* '%s' is not touched */", lo, hi, v->name);
        return;
    }
    Buf l = {0}, h = {0};
    if (v->ext_whole) {
        buf_puts(&l, "0");
        buf_puts(&h, "(long long)");
        for (int d = 0; d < v->ndims; d++) {
            if (d)
                buf_puts(&h, " * ");
            buf_puts(&h, "(");
            emit_expr(&h, &cx, v->dims[d]);
            buf_puts(&h, ")");
        }
    } else {
        for (int d = 0; d < v->ndims; d++) {
            Buf stride = {0};
            for (int k = d + 1; k < v->ndims; k++) {
                buf_puts(&stride, " * (long long)(");
                emit_expr(&stride, &cx, v->dims[k]);
                buf_puts(&stride, ")");
            }
            buf_printf(&l, "%s(long long)(", d ? " + " : "");
            emit_expr(&l, &cx, v->ext_lo[d]);
            buf_printf(&l, ")%s", stride.data ? stride.data : "");
            buf_printf(&h, "%s(long long)(", d ? " + " : "");
            emit_expr(&h, &cx, v->ext_hi[d]);
            buf_printf(&h, ")%s", stride.data ? stride.data : "");
            buf_free(&stride);
        }
        buf_puts(&h, " + 1");
    }
    buf_line(b, "long long %s = (%s) * (long long)sizeof(%s);", lo, l.data, et);
    buf_line(b, "long long %s = (%s) * (long long)sizeof(%s);", hi, h.data, et);
    buf_line(b, "if (%s < %s) %s = %s; /* empty iteration space */", hi, lo, hi, lo);
    buf_free(&l);
    buf_free(&h);
}

/* ---- extents found at run time (plan/inspect.c) ---------------------------------------- */

typedef struct InspCx {
    EmitCtx base;
    const InspectPass *p;
} InspCx;

/* gf_seen for each access of e the pass records, under the conditions that
 * decide whether C evaluates it (&&, ||, ?:). */
static void emit_sites(Buf *b, InspCx *ic, const Expr *e)
{
    if (!e || !ir_expr_any(e, inspect_site, ic->p))
        return;
    if (inspect_site(e, ic->p)) {
        for (int i = 0; i < e->nkids; i++)
            emit_sites(b, ic, e->kids[i]);
        Buf x = {0};
        emit_expr(&x, &ic->base, e->kids[0]);
        buf_line(b, "gf_seen(gf_mn, gf_mx, &gf_n, %d, (long long)(%s)); /* %s, line %d */", e->var->ext_slot, x.data,
                 e->var->name, e->loc.line);
        buf_free(&x);
        return;
    }
    bool lazy = e->kind == E_COND || (e->kind == E_BINARY && (e->op == OP_LAND || e->op == OP_LOR));
    for (int i = 0; i < e->nkids; i++) {
        if (!lazy || i == 0) {
            emit_sites(b, ic, e->kids[i]);
            continue;
        }
        if (!ir_expr_any(e->kids[i], inspect_site, ic->p))
            continue;
        Buf c = {0};
        emit_cond(&c, &ic->base, e->kids[0]);
        bool holds = e->kind == E_COND ? i == 1 : e->op == OP_LAND;
        buf_line(b, holds ? "if (%s) {" : "if (!(%s)) {", c.data);
        buf_free(&c);
        b->indent++;
        emit_sites(b, ic, e->kids[i]);
        b->indent--;
        buf_line(b, "}");
    }
}

/* The pass prints what it keeps as the C body does, and of the rest only
 * the accesses it records. */
static bool inspect_hook(Buf *b, EmitCtx *cx, const Stmt *s)
{
    InspCx *ic = (InspCx *)cx;
    bool kept = inspect_keeps(ic->p, s);
    switch (s->kind) {
    case S_FOR:
        emit_sites(b, ic, s->lb);
        emit_sites(b, ic, s->ub);
        if (inspect_ends(ic->p, s)) {
            /* what it records is monotone in the index: the first and the last iteration */
            Buf lb = {0}, ub = {0};
            emit_expr(&lb, cx, s->lb);
            emit_expr(&ub, cx, s->ub);
            const char *t = type_c_name(s->iv->ty), *iv = s->iv->cname;
            buf_line(b, "if (%s < %s) { /* line %d: '%s' at its first and last iterations */", lb.data, ub.data,
                     s->loc.line, s->iv->name);
            buf_line(b, "    gf_n += (long long)(%s) - (long long)(%s) - 2; /* the iterations not run */", ub.data, lb.data);
            buf_line(b, "    for (int gf_end = 0; gf_end < 2; gf_end++) {");
            if (s->step == 1)
                buf_line(b, "        const %s %s = gf_end ? %s - 1 : %s;", t, iv, ub.data, lb.data);
            else
                buf_line(b, "        const %s %s = gf_end ? %s + (%s - 1 - %s) / %lld * %lld : %s;", t, iv, lb.data,
                         ub.data, lb.data, s->step, s->step, lb.data);
            b->indent += 2;
            emit_stmt(b, cx, s->body);
            b->indent -= 2;
            buf_line(b, "    }");
            buf_line(b, "}");
            buf_free(&lb);
            buf_free(&ub);
            return true;
        }
        if (inspect_parallel(ic->p, s)) {
            /* minima and maxima in any order: OpenMP's threads when there are many iterations */
            int n = cx->r->inspect->nslots;
            Buf lb = {0}, ub = {0};
            emit_expr(&lb, cx, s->lb);
            emit_expr(&ub, cx, s->ub);
            buf_puts(b, "#if defined(_OPENMP)\n");
            buf_line(b, "__atomic_store_n(&gf_host_started, 1, __ATOMIC_RELAXED);");
            buf_line(b, "#pragma omp parallel for reduction(min : gf_mn[:%d]) reduction(max : gf_mx[:%d]) reduction(+ : gf_n) "
                        "if ((long long)(%s) - (long long)(%s) >= 4096)", n, n, ub.data, lb.data);
            buf_puts(b, "#endif\n");
            buf_free(&lb);
            buf_free(&ub);
        }
        break;
    case S_IF:
        emit_sites(b, ic, s->cond);
        break;
    case S_DECL:
    case S_RETURN:
        emit_sites(b, ic, s->rhs);
        break;
    case S_ASSIGN:
        emit_sites(b, ic, s->lhs);
        emit_sites(b, ic, s->rhs);
        break;
    case S_BLOCK:
    case S_WHILE:
    case S_FREE:
    case S_LIB:
        break;
    }
    return !kept || s->kind == S_RETURN;
}

/* The passes that find extents at run time, as static functions. */
void emit_inspectors(Buf *b, Region *r)
{
    Inspect *in = r->inspect;
    for (int l = 0; in && l < in->npasses; l++) {
        InspectPass *p = &in->passes[l];
        Buf names = {0};
        for (int i = 0; i < p->targets.len; i++)
            buf_printf(&names, "%s'%s'", i ? ", " : "", ((Var *)vec_at(&p->targets, i))->name);
        buf_printf(b, "/* Which elements of %s %s() touches, found before the call (pass %d): its loops\n"
                      " * (%s:%d-%d) with only the bounds, conditions, integer locals and subscripts that\n"
                      " * decide it; gf_rx[2k], gf_rx[2k + 1]: the least and greatest subscript. */\n",
                   names.data, r->name, l + 1, r->unit->gen_path, r->first_line, r->last_line);
        buf_printf(b, "static void gf_extents_%s_%d(", r->cname, l + 1);
        for (int i = 0; i < r->params.len; i++) {
            Var *v = vec_at(&r->params, i);
            if (!v->is_array)
                buf_printf(b, "%s %s, ", type_c_name(v->ty), v->cname);
            else if (vec_has(&p->reads, v))
                buf_printf(b, "const %s *%s, ", type_c_name(type_elem(v->ty)), v->cname);
        }
        buf_puts(b, "long long *gf_rx)\n{\n");
        b->indent = 1;
        for (int i = 0; i < r->params.len; i++) {
            Var *v = vec_at(&r->params, i);
            if (!v->is_array)
                buf_line(b, "(void)%s;", v->cname);
        }
        buf_line(b, "long long gf_mn[%d], gf_mx[%d], gf_n = 0;", in->nslots, in->nslots);
        buf_line(b, "for (int gf_k = 0; gf_k < %d; gf_k++) {", in->nslots);
        buf_line(b, "    gf_mn[gf_k] = gf_rx[2 * gf_k];");
        buf_line(b, "    gf_mx[gf_k] = gf_rx[2 * gf_k + 1];");
        buf_line(b, "}");
        InspCx ic = {{.r = r, .stmt_hook = inspect_hook}, p};
        emit_stmt(b, &ic.base, r->seq_body ? r->seq_body : r->body);
        buf_line(b, "for (int gf_k = 0; gf_k < %d; gf_k++) {", in->nslots);
        buf_line(b, "    gf_rx[2 * gf_k] = gf_mn[gf_k];");
        buf_line(b, "    gf_rx[2 * gf_k + 1] = gf_mx[gf_k];");
        buf_line(b, "}");
        buf_line(b, "if (gf_n > gf_rx[%d])", 2 * in->nslots);
        buf_line(b, "    gf_rx[%d] = gf_n; /* the most accesses a pass saw */", 2 * in->nslots);
        b->indent = 0;
        buf_puts(b, "}\n\n");
        buf_free(&names);
    }
}

/* Every array parameter's gf_lo_/gf_hi_: those the analysis knows, then the
 * passes that find the others, each reading the arrays it needs through
 * gf_call_host_view(call, ...) (call NULL: the pointers themselves, the
 * host target). */
void emit_extents(Buf *b, Region *r, const char *call)
{
    Arena *a = r->unit->arena;
    for (int i = 0; i < r->params.len; i++) {
        Var *v = vec_at(&r->params, i);
        if (v->is_array && !v->ext_run)
            emit_extent(b, r, v, arena_printf(a, "gf_lo_%s", v->cname), arena_printf(a, "gf_hi_%s", v->cname));
    }
    Inspect *in = r->inspect;
    if (!in)
        return;
    buf_line(b, "long long gf_rx[%d]; /* the least and greatest subscript of each array found below, then the "
                "most accesses a pass saw */", 2 * in->nslots + 1);
    buf_line(b, "gf_rx[%d] = 0;", 2 * in->nslots);
    buf_line(b, "for (int gf_k = 0; gf_k < %d; gf_k++) {", in->nslots);
    buf_line(b, "    gf_rx[2 * gf_k] = 0x7fffffffffffffffLL;");
    buf_line(b, "    gf_rx[2 * gf_k + 1] = -0x7fffffffffffffffLL - 1;");
    buf_line(b, "}");
    /* the arrays the passes read, as the host can read them (gf_call_host_view) */
    Vec viewed = {0};
    for (int l = 0; call && l < in->npasses; l++)
        for (int i = 0; i < in->passes[l].reads.len; i++) {
            Var *v = vec_at(&in->passes[l].reads, i);
            if (!vec_has(&viewed, v)) {
                buf_line(b, "const %s *gf_v_%s = NULL;", type_c_name(type_elem(v->ty)), v->cname);
                vec_push(a, &viewed, v);
            }
        }
    for (int l = 0; l < in->npasses; l++) {
        InspectPass *p = &in->passes[l];
        Buf args = {0}, ok = {0}, dev = {0};
        for (int i = 0; i < r->params.len; i++) {
            Var *v = vec_at(&r->params, i);
            if (v->is_array && !vec_has(&p->reads, v))
                continue;
            if (v->is_array && call) {
                buf_printf(&ok, "%sgf_v_%s", ok.len ? " && " : "", v->cname);
                buf_printf(&args, "gf_v_%s, ", v->cname);
            } else {
                buf_printf(&args, "%s, ", v->cname);
            }
        }
        int depth = 0;
        if (call) {
            /* arrays in device memory used in place need no pass: their blocks */
            for (int i = 0; i < p->targets.len; i++) {
                Var *v = vec_at(&p->targets, i);
                buf_line(b, "ptrdiff_t gf_blo_%s = 0, gf_bhi_%s = 0;", v->cname, v->cname);
                buf_printf(&dev, "%sgf_call_arg_bounds(%s, %s, &gf_blo_%s, &gf_bhi_%s)", dev.len ? " & " : "",
                           call, v->cname, v->cname, v->cname);
            }
            /* a block that holds another argument too (arrays carved out of one
             * gf_malloc) would overlap it: the pass then finds the exact extent */
            Buf shared = {0};
            for (int i = 0; i < p->targets.len; i++) {
                Var *v = vec_at(&p->targets, i);
                for (int j = 0; j < r->params.len; j++) {
                    Var *w = vec_at(&r->params, j);
                    if (w == v || !w->is_array)
                        continue;
                    buf_printf(&shared, " ||\n    gf_inside(%s, %s, gf_blo_%s, gf_bhi_%s)", w->cname, v->cname, v->cname,
                               v->cname);
                }
            }
            buf_line(b, "const int gf_pass%d = !(%s)%s; /* 0: every one is device memory used in place, alone in its "
                        "block */", l + 1, dev.data, shared.len ? shared.data : "");
            buf_free(&shared);
            buf_line(b, "if (gf_pass%d) {", l + 1);
            b->indent++;
            depth++;
            for (int i = 0; i < p->reads.len; i++) {
                Var *v = vec_at(&p->reads, i);
                const char *et = type_c_name(type_elem(v->ty));
                buf_line(b, "if (!gf_v_%s)", v->cname);
                buf_line(b, "    gf_v_%s = (const %s *)gf_call_host_view(%s, %s, gf_lo_%s, gf_hi_%s);", v->cname, et,
                         call, v->cname, v->cname, v->cname);
            }
        }
        if (ok.len)
            buf_line(b, "if (%s) /* NULL: reported, and the call does nothing */", ok.data);
        buf_line(b, "%sgf_extents_%s_%d(%sgf_rx);", ok.len ? "    " : "", r->cname, l + 1, args.data ? args.data : "");
        for (; depth; depth--) {
            b->indent--;
            buf_line(b, "}");
        }
        buf_free(&args);
        buf_free(&ok);
        buf_free(&dev);
        for (int i = 0; i < p->targets.len; i++) {
            Var *v = vec_at(&p->targets, i);
            const char *et = type_c_name(type_elem(v->ty));
            int k = v->ext_slot;
            buf_line(b, "long long gf_lo_%s = 0, gf_hi_%s = 0; /* '%s': the subscripts pass %d saw */", v->cname,
                     v->cname, v->name, l + 1);
            if (call) {
                buf_line(b, "if (!gf_pass%d) {", l + 1);
                buf_line(b, "    gf_lo_%s = gf_blo_%s;", v->cname, v->cname);
                buf_line(b, "    gf_hi_%s = gf_bhi_%s;", v->cname, v->cname);
                buf_line(b, "} else if (gf_rx[%d] <= gf_rx[%d]) {", 2 * k, 2 * k + 1);
            } else {
                buf_line(b, "if (gf_rx[%d] <= gf_rx[%d]) {", 2 * k, 2 * k + 1);
            }
            buf_line(b, "    gf_lo_%s = gf_rx[%d] * (long long)sizeof(%s);", v->cname, 2 * k, et);
            buf_line(b, "    gf_hi_%s = (gf_rx[%d] + 1) * (long long)sizeof(%s);", v->cname, 2 * k + 1, et);
            buf_line(b, "}");
        }
    }
}

/* The staging mode of array parameter v: a pure output that is written
 * everywhere it is staged needs no copy-in; anything less is copied in so
 * that unwritten elements keep their values. */
const char *emit_arg_mode(Region *r, const Var *v)
{
    if (v->write_only)
        return "GF_ARG_WRITE";
    if (!v->written)
        return "GF_ARG_READ";
    if (!v->write_first)
        return "GF_ARG_READ | GF_ARG_WRITE";
    EmitCtx cx = {.r = r};
    Buf c = {0};
    emit_expr(&c, &cx, v->write_first);
    const char *mode = arena_printf(r->unit->arena, "(%s) ? GF_ARG_WRITE : GF_ARG_READ | GF_ARG_WRITE", c.data);
    buf_free(&c);
    return mode;
}

/* A launcher's opening: its site, gf_call_begin, and each array argument
 * with its extent, mode and bytes moved (with `big`, also gf_big, the
 * largest extent in elements, for the GPU cost model). */
void emit_call_args(Buf *b, Region *r, bool big)
{
    Arena *a = r->unit->arena;
    int nargs = 0;
    for (int i = 0; i < r->params.len; i++)
        nargs += ((Var *)vec_at(&r->params, i))->is_array;
    buf_line(b, "static gf_site gf_site_ = {\"%s\", \"%s\", %d, -1};", r->name, r->unit->gen_path, r->loc.line);
    buf_line(b, "gf_call *gf_c = gf_call_begin(&gf_site_, %d);", nargs);
    buf_line(b, "GF_UNUSED long long gf_bytes = 0%s; /* bytes moved%s */", big ? ", gf_big = 0" : "",
             big ? "; the largest extent in elements" : ", by the C body");
    int idx = 0;
    emit_extents(b, r, "gf_c");
    for (int i = 0; i < r->params.len; i++) {
        Var *v = vec_at(&r->params, i);
        if (!v->is_array)
            continue;
        char *lo = arena_printf(a, "gf_lo_%s", v->cname), *hi = arena_printf(a, "gf_hi_%s", v->cname);
        buf_line(b, "gf_call_arg(gf_c, %d, %s, %s, %s, %s, %d);", idx++, v->cname, lo, hi, emit_arg_mode(r, v),
                 v->alias_class);
        buf_line(b, "gf_bytes += (%s - %s) * %d;", hi, lo, v->written && v->read ? 2 : 1);
        if (big)
            buf_line(b, "gf_big = gf_max(gf_big, %s / (long long)sizeof(%s));", hi, type_c_name(type_elem(v->ty)));
    }
}

/* The device pointers gf_call_map gave, gf_d_<name>: const where the region
 * does not write the array (by_written), or as the C parameter's type says
 * (a hand-written kernel is declared with the C function's types). */
void emit_device_ptrs(Buf *b, Region *r, bool by_written)
{
    int idx = 0;
    for (int i = 0; i < r->params.len; i++) {
        Var *v = vec_at(&r->params, i);
        if (!v->is_array)
            continue;
        Type *et = type_elem(v->ty);
        const char *cst = (by_written ? !v->written : et->is_const) ? "const " : "";
        buf_line(b, "%s%s *gf_d_%s = (%s%s *)gf_call_ptr(gf_c, %d);", cst, type_c_name(et), v->cname, cst,
                 type_c_name(et), idx++);
    }
}

/* Host target: true when arguments overlap in a way the plan does not allow. */
static void emit_host_hazard(Buf *b, Region *r)
{
    int n = 0;
    for (int i = 0; i < r->params.len; i++)
        if (((Var *)vec_at(&r->params, i))->is_array)
            n++;
    if (n < 2)
        return;
    emit_extents(b, r, NULL);
    Buf cond = {0};
    for (int i = 0; i < r->params.len; i++) {
        Var *v = vec_at(&r->params, i);
        if (!v->is_array)
            continue;
        for (int j = 0; j < r->params.len; j++) {
            Var *w = vec_at(&r->params, j);
            if (j <= i || !w->is_array || (!v->written && !w->written))
                continue;
            buf_printf(&cond, "%s\n        gf_overlap(%s, gf_lo_%s, gf_hi_%s, %s, gf_lo_%s, gf_hi_%s, %d)",
                       cond.len ? " ||" : "", v->cname, v->cname, v->cname, w->cname, w->cname, w->cname,
                       v->alias_class && v->alias_class == w->alias_class);
        }
    }
    if (cond.len) {
        buf_line(b, "if (%s) {", cond.data);
        buf_line(b, "    /* the arguments overlap: the sequential body is the only right answer */");
        Buf args = {0};
        emit_params(&args, r, false, true);
        buf_line(b, "    %sgf_seq_%s(%s);", r->ret->kind == TY_VOID ? "" : "return ", r->cname, args.data);
        if (r->ret->kind == TY_VOID)
            buf_line(b, "    return;");
        buf_free(&args);
        buf_line(b, "}");
    }
    buf_free(&cond);
}

/* Host target: the C body when the plan cannot beat it at this call
 * (host_cost.c).  Compiled with -DGF_HOST_CHOICE=fn, each call first calls
 * fn("name", ran_the_plan): how tests see which ran. */
static void emit_host_decision(Buf *b, Region *r)
{
    const char *wins = host_cost_call(r);
    if (wins)
        buf_line(b, "const int gf_plan = %s;", wins);
    buf_puts(b, "#if defined(GF_HOST_CHOICE)\n");
    buf_line(b, "GF_HOST_CHOICE(\"%s\", %s);%s", r->name, wins ? "gf_plan" : "1", wins ? "" : " /* no cost model */");
    buf_puts(b, "#endif\n");
    if (!wins)
        return;
    Buf args = {0};
    emit_params(&args, r, false, true);
    buf_line(b, "if (!gf_plan) { /* too little work for the plan's threads: the C body */");
    buf_line(b, "    %sgf_seq_%s(%s);", r->ret->kind == TY_VOID ? "" : "return ", r->cname, args.data);
    if (r->ret->kind == TY_VOID)
        buf_line(b, "    return;");
    buf_line(b, "}");
    buf_free(&args);
}

void emit_host_unit(Buf *b, Unit *u, const EmitOptions *o)
{
    buf_printf(b, "/* %s.gf.c - generated by gpufuse %s from %s (--target=host): the fused\n"
                  " * plan as C with OpenMP.  Do not edit: regenerate. */\n",
               decls_gen_path(u->arena, o->input_name), GFC_VERSION, u->gen_path);
    emit_prelude(b, u, false);
    for (int i = 0; i < u->regions.len; i++) {
        Region *r = vec_at(&u->regions, i);
        buf_printf(b, "\n/* ==== %s (%s:%d) ==== */\n\n", r->name, u->gen_path, r->loc.line);
        buf_puts(b, "/* the original body: used when arguments overlap */\nGF_UNUSED static ");
        emit_host_region(b, u, r, arena_printf(u->arena, "gf_seq_%s", r->cname), false, false);
        if (r->cuda) {
            /* a hand-written CUDA kernel: on the host, the C body is the function */
            const char *name = arena_printf(u->arena, "%s%s", o->prefix, r->cname);
            const char *sym = arena_printf(u->arena, "%s%s", o->prefix, r->name);
            Buf args = {0};
            emit_params(&args, r, false, true);
            if (strcmp(name, sym)) {
                emit_prototype(b, r, name);
                buf_printf(b, " __asm__(\"%s\");\n", sym);
            }
            emit_prototype(b, r, name);
            buf_printf(b, "\n{\n    gf_seq_%s(%s);\n}\n", r->cname, args.data);
            buf_free(&args);
            continue;
        }
        emit_host_cost(b, r);
        emit_inspectors(b, r);
        /* the fused plan, with the hazard check and the cost model first */
        Buf body = {0};
        const char *name = arena_printf(u->arena, "%s%s", o->prefix, r->cname);
        const char *sym = arena_printf(u->arena, "%s%s", o->prefix, r->name);
        if (strcmp(name, sym)) {
            /* renamed in generated code (decls_cname): the symbol stays the function's */
            emit_prototype(b, r, name);
            buf_printf(b, " __asm__(\"%s\");\n", sym);
        }
        emit_host_region(&body, u, r, name, true, o->openmp);
        char *brace = strstr(body.data, "\n{\n");
        gfc_assert(brace);
        buf_printf(b, "%.*s", (int)(brace - body.data + 3), body.data);
        b->indent = 1;
        emit_host_hazard(b, r);
        emit_host_decision(b, r);
        b->indent = 0;
        buf_puts(b, brace + 3);
        buf_free(&body);
    }
    /* the static-library anchor, as the CUDA target has it (emit_abi_check) */
    buf_printf(b, "\n/* Static libraries: %s compiled with -DGPUFUSE_UNIT refers to this, so the\n"
                  " * linker takes these functions along with its weak C bodies (gpufuse.h). */\n"
                  "__attribute__((weak)) const char %s = 0;\n",
               u->gen_path, unit_symbol(u->arena, u->path));
}
