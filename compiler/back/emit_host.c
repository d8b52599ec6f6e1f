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
        buf_printf(b, "/* %s: %s */\n%s\n", x->name, x->where, cuda && x->text_cuda ? x->text_cuda : x->text);
        if (x->kind == D_RECORD)
            emit_layout_check(b, x, cuda);
        if (x->kind == D_HELPER)
            buf_puts(b, "\n");
    }
}

void emit_prelude(Buf *b, Unit *u, bool cuda)
{
    buf_printf(b, "%s", gf_tpl_common);
    if (cuda)
        buf_printf(b, "%s", gf_tpl_device);
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

static bool host_stmt_hook(Buf *b, EmitCtx *cx, const Stmt *s)
{
    HostCx *h = (HostCx *)cx;
    if (s->kind == S_RETURN) {
        free_vlas(b, h->r, h->fused);
        return false;
    }
    if (h->fused && ((s->kind == S_DECL && s->var->is_array) || s->kind == S_FREE) && is_dead_temp(h->r, s->var))
        return true;             /* never allocated */
    if (s->kind == S_ASSIGN && s->atomic && h->openmp && h->k && h->k->pdims > 0) {
        /* a colliding update (deps.c): atomic among the threads */
        emit_atomic_update(b, cx, s);
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
    if (openmp) {
        Buf clause = {0};
        if (k->pdims > 1)
            buf_printf(&clause, " collapse(%d)", k->pdims);
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
    for (int d = 0; d < k->pdims; d++) {
        Stmt *l = k->loops[d];
        Buf lb = {0}, ub = {0};
        emit_expr(&lb, &h.base, l->lb);
        emit_expr(&ub, &h.base, l->ub);
        if (l->step == 1)
            buf_line(b, "for (%s %s = %s; %s < %s; %s++) {", type_c_name(l->iv->ty), l->iv->cname, lb.data,
                     l->iv->cname, ub.data, l->iv->cname);
        else
            buf_line(b, "for (%s %s = %s; %s < %s; %s += %lld) {", type_c_name(l->iv->ty), l->iv->cname, lb.data,
                     l->iv->cname, ub.data, l->iv->cname, l->step);
        buf_free(&lb);
        buf_free(&ub);
        b->indent++;
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
        emit_expr(&c, cx, l->cond);
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
            emit_expr(&c, &h.base, st->stmt->cond);
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

/* Host target: true when arguments overlap in a way the plan does not allow. */
static void emit_host_hazard(Buf *b, Region *r)
{
    int n = 0;
    for (int i = 0; i < r->params.len; i++)
        if (((Var *)vec_at(&r->params, i))->is_array)
            n++;
    if (n < 2)
        return;
    for (int i = 0; i < r->params.len; i++) {
        Var *v = vec_at(&r->params, i);
        if (!v->is_array)
            continue;
        emit_extent(b, r, v, arena_printf(r->unit->arena, "gf_lo_%s", v->cname),
                    arena_printf(r->unit->arena, "gf_hi_%s", v->cname));
    }
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
        /* the fused plan, with the hazard check first */
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
