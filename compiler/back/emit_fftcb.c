/* emit_fftcb.c - the cuFFT LTO callbacks of kernels folded into a c2c FFT
 * builtin (plan/fftfold.c).  The generated .cu carries, per FFT, the
 * callbacks' CUDA source as a string (compiled at run time with NVRTC to
 * LTO-IR by runtime/fft.c: no extra build step), the caller-info struct
 * they read (the scalars and device pointers the nests use, filled by the
 * launcher at each call) and a gf_fft_cb descriptor.  A callback runs the
 * nest's body for the iteration owning the element: the loop indices are
 * decoded from cuFFT's offset (row-major over the loop extents), z's own
 * element is the pair gf_re/gf_im (the loaded input or the computed
 * spectrum), everything else is read as the kernel reads it. */
#include "gfc.h"

#include <string.h>

typedef struct Cb {
    Arena *a;
    Region *r;
    Var *z;
    Stmt **loops;
    int d;
    Vec fields;                  /* Var*: scalar parameters and arrays (not z), in first-use order */
} Cb;

static void add_field(Cb *c, Var *v)
{
    for (int i = 0; i < c->fields.len; i++)
        if (vec_at(&c->fields, i) == v)
            return;
    vec_push(c->a, &c->fields, v);
}

static bool collect(const Expr *e, const void *arg);

static void collect_var(Cb *c, Var *v)
{
    if (v->kind != V_PARAM && !(v->is_array && v->is_temp))
        return;
    if (v == c->z)
        return;
    add_field(c, v);
    for (int i = 0; v->is_array && i < v->ndims; i++)
        if (v->dims[i])
            ir_expr_any(v->dims[i], collect, c);
}

static bool collect(const Expr *e, const void *arg)
{
    Cb *c = (Cb *)arg;
    if ((e->kind == E_VAR || e->kind == E_INDEX) && e->var)
        collect_var(c, e->var);
    return false;
}

static void collect_kernel(Cb *c, Kernel *k, Stmt *const *loops, int d)
{
    for (int i = 0; i < d; i++)
        ir_expr_any(loops[i]->ub, collect, c);
    ir_stmt_any(vec_at(&k->nests, 0), collect, c);
    for (int i = 0; i < c->z->ndims; i++)
        if (c->z->dims[i])
            ir_expr_any(c->z->dims[i], collect, c);
}

static Stmt *inner_body(Stmt *const *loops, int d)
{
    Stmt *b = loops[d - 1]->body;
    return b;
}

static const char *override(EmitCtx *cx, const Expr *e)
{
    Cb *c = cx->user;
    if (e->kind == E_INDEX && e->var == c->z) {
        int part = fft_own_part(c->a, c->z, c->loops, c->d, (Expr *)e);
        gfc_assert(part >= 0);   /* fftfold.c checked every access */
        return part ? "gf_im" : "gf_re";
    }
    return NULL;
}

static bool is_z(const Expr *e, const void *z) { return e->kind == E_INDEX && e->var == z; }

/* Whether the load callback needs the element in memory: the nest reads z
 * (its own element) or leaves a part unwritten. */
static bool load_reads_memory(Cb *c, Stmt *body)
{
    Vec one = {0};
    Vec *list = body->kind == S_BLOCK ? &body->list : &one;
    if (body->kind != S_BLOCK)
        vec_push(c->a, &one, body);
    bool wrote[2] = {false, false};
    for (int i = 0; i < list->len; i++) {
        Stmt *s = vec_at(list, i);
        if (s->rhs && ir_expr_any(s->rhs, is_z, c->z))
            return true;
        if (s->kind == S_ASSIGN && is_z(s->lhs, c->z)) {
            if (s->op != OP_ASSIGN)
                return true;
            wrote[fft_own_part(c->a, c->z, c->loops, c->d, s->lhs)] = true;
        }
    }
    return !wrote[0] || !wrote[1];
}

static const char *ctype(const Var *v) { return type_c_name(v->is_array ? type_elem(v->ty) : v->ty); }

static void emit_struct(Buf *b, Cb *c, const char *tag)
{
    buf_printf(b, "struct %s {", tag);
    for (int i = 0; i < c->fields.len; i++) {
        Var *v = vec_at(&c->fields, i);
        buf_printf(b, " %s %s%s;", ctype(v), v->is_array ? "*" : "", v->cname);
    }
    if (!c->fields.len)
        buf_puts(b, " int gf_unused;");
    buf_puts(b, " };\n");
}

/* A callback's head: load (returns the element) or store.  C++ linkage, not
 * extern "C": cuFFT 12.0 (CUDA 13) finds the symbol named in
 * cufftXtSetJITCallback as a C++ function of the callback's signature (the
 * name is mangled), so an extern "C" definition is never found and
 * cufftMakePlan* fails with CUFFT_INTERNAL_ERROR (seen on the H200 with
 * tests/runtime/fft_lto_probe.cu: every extern "C" variant failed, every C++
 * one ran and matched; NVIDIA's samples in CUDALibrarySamples
 * cuFFT/lto_callback_window_1d use C++ linkage too). */
static void emit_callback(Buf *b, Cb *c, bool load, bool memory, const char *tag, const char *sym,
                          const char *real)
{
    const char *v2 = !strcmp(real, "float") ? "float2" : "double2";
    if (load)
        buf_printf(b, "__device__ %s %s(void *gf_data, unsigned long long gf_off, void *gf_info, "
                      "void *gf_shared)\n{\n", v2, sym);
    else
        buf_printf(b, "__device__ void %s(void *gf_data, unsigned long long gf_off, %s gf_el, "
                      "void *gf_info, void *gf_shared)\n{\n", sym, v2);
    buf_printf(b, "    const struct %s *gf_p = (const struct %s *)gf_info;\n    (void)gf_shared; (void)gf_p;\n", tag, tag);
    if (load && memory)
        buf_printf(b, "    const %s gf_el = ((const %s *)gf_data)[gf_off];\n", v2, v2);
    if (load && !memory)
        buf_printf(b, "    %s gf_re, gf_im; /* the nest writes both parts first */\n    (void)gf_data;\n", real);
    else
        buf_printf(b, "    %s gf_re = gf_el.x, gf_im = gf_el.y;\n", real);
    for (int i = 0; i < c->fields.len; i++) {
        Var *v = vec_at(&c->fields, i);
        buf_printf(b, "    %s %s%s = gf_p->%s; (void)%s;\n", ctype(v), v->is_array ? "*" : "", v->cname, v->cname,
                   v->cname);
    }
}

static void emit_body(Buf *b, Cb *c, Kernel *k, Stmt **loops, int d, bool load, bool keep, const char *real)
{
    c->loops = loops;
    c->d = d;
    EmitCtx cx = {.r = c->r, .device = true, .k = k, .override = override, .user = c};
    Buf ub = {0};
    buf_puts(b, "    unsigned long long gf_r = gf_off;\n");
    for (int i = d - 1; i >= 0; i--) {
        buf_free(&ub);
        emit_cond(&ub, &cx, loops[i]->ub);
        const Var *iv = loops[i]->iv;
        if (i)
            buf_printf(b, "    %s %s = (%s)(gf_r %% (unsigned long long)(%s)); gf_r /= (unsigned long long)(%s);\n",
                       type_c_name(iv->ty), iv->cname, type_c_name(iv->ty), ub.data, ub.data);
        else
            buf_printf(b, "    %s %s = (%s)gf_r;\n", type_c_name(iv->ty), iv->cname, type_c_name(iv->ty));
    }
    buf_free(&ub);
    buf_puts(b, "    {\n");
    Buf body = {0};
    body.indent = 2;
    emit_stmt(&body, &cx, inner_body(loops, d));
    buf_puts(b, body.data ? body.data : "");
    buf_free(&body);
    buf_puts(b, "    }\n");
    if (load)
        buf_printf(b, "    return {gf_re, gf_im};\n");
    else if (keep)
        buf_printf(b, "    ((%s2 *)gf_data)[gf_off] = {gf_re, gf_im};\n", real);
    else
        buf_puts(b, "    (void)gf_data; (void)gf_re; (void)gf_im;\n");
    buf_puts(b, "}\n");
}

static const char *real_of(const Step *st) { return !strcmp(st->stmt->rhs->kids[8]->text, "5") ? "float" : "double"; }

static Cb cb_of(Arena *a, Region *r, Step *st)
{
    Cb c = {a, r, NULL, NULL, 0, {0}};
    for (int side = 0; side < 2; side++) {
        Kernel *k = side ? st->fft_store : st->fft_load;
        if (!k)
            continue;
        c.z = st->stmt->rhs->kids[side ? 6 : 5]->var;
        collect_kernel(&c, k, st->fft_loops[side], st->fft_depth[side]);
    }
    return c;
}

static void c_string(Buf *b, const char *s)
{
    buf_puts(b, "    \"");
    for (; *s; s++) {
        if (*s == '\n') {
            buf_puts(b, "\\n\"\n");
            if (s[1])
                buf_puts(b, "    \"");
            continue;
        }
        if (*s == '"' || *s == '\\')
            buf_puts(b, "\\");
        buf_printf(b, "%c", *s);
    }
}

static const char *tag_of(Arena *a, const char *base, const Step *st)
{
    return arena_printf(a, "gf_fftcb_%s_%d", base, st->stmt->loc.line);
}

static const char *info_of(Arena *a, const char *base, const Step *st)
{
    return arena_printf(a, "%s_info", tag_of(a, base, st));
}

/* The callbacks' source of one FFT step. */
char *fftcb_source(Arena *a, Region *r, Step *st, const char *base)
{
    Cb c = cb_of(a, r, st);
    const char *tag = tag_of(a, base, st), *real = real_of(st);
    Buf src = {0};
    buf_printf(&src, "/* cuFFT LTO callbacks of %s() at line %d (generated by gpufuse) */\n", r->name,
               st->stmt->loc.line);
    buf_puts(&src, "#pragma nv_diag_suppress 550\ntypedef long long GF_I;\n");
    emit_struct(&src, &c, info_of(a, base, st));
    for (int side = 0; side < 2; side++) {
        Kernel *k = side ? st->fft_store : st->fft_load;
        if (!k)
            continue;
        c.z = st->stmt->rhs->kids[side ? 6 : 5]->var;
        const char *sym = arena_printf(a, "%s_%s", tag, side ? "store" : "load");
        c.loops = st->fft_loops[side];
        c.d = st->fft_depth[side];
        bool memory = !side && load_reads_memory(&c, st->fft_loops[side][c.d - 1]->body);
        /* each callback guarded: runtime/fft.c compiles one LTO-IR module per
         * callback (-DGF_FFTCB_LOAD, -DGF_FFTCB_STORE); a plan given both from
         * one module failed planning with CUFFT_INTERNAL_ERROR on the H200 */
        buf_printf(&src, "#ifdef %s\n", side ? "GF_FFTCB_STORE" : "GF_FFTCB_LOAD");
        emit_callback(&src, &c, !side, memory, info_of(a, base, st), sym, real);
        emit_body(&src, &c, k, st->fft_loops[side], st->fft_depth[side], !side, st->fft_keep, real);
        buf_puts(&src, "#endif\n");
    }
    char *out = arena_strdup(a, src.data);
    buf_free(&src);
    return out;
}

/* File scope, before the launcher: the caller-info struct, the callbacks'
 * source and the descriptor of each FFT step with folded kernels. */
void fftcb_emit_descriptors(Buf *b, Arena *a, Region *r, const char *base)
{
    for (int i = 0; r->plan && i < r->plan->steps.len; i++) {
        Step *st = vec_at(&r->plan->steps, i);
        if (st->kind != P_LIB || (!st->fft_load && !st->fft_store))
            continue;
        Cb c = cb_of(a, r, st);
        const char *tag = tag_of(a, base, st);
        buf_printf(b, "/* The FFT at line %d with kernels folded into its cuFFT callbacks: the caller info, the\n"
                      " * callbacks' CUDA source (runtime/fft.c compiles it once per process with NVRTC) */\n",
                   st->stmt->loc.line);
        emit_struct(b, &c, info_of(a, base, st));
        buf_printf(b, "static const char %s_src[] =\n", tag);
        c_string(b, fftcb_source(a, r, st, base));
        buf_puts(b, ";\n");
        buf_printf(b, "static const gf_fft_cb %s = {%s_src, %s, %s};\n\n", tag, tag,
                   st->fft_load ? arena_printf(a, "\"%s_load\"", tag) : "NULL",
                   st->fft_store ? arena_printf(a, "\"%s_store\"", tag) : "NULL");
    }
}

/* In the launcher: `struct tag gf_ci = {...};` and the condition under which
 * the folded nests cover exactly the transform (z's dims against the loop
 * extents), as C over the launcher's names. */
void fftcb_emit_info(Buf *b, EmitCtx *cx, Arena *a, Region *r, Step *st, const char *base, Buf *cover)
{
    Cb c = cb_of(a, r, st);
    buf_line(b, "struct %s gf_ci = {", info_of(a, base, st));
    b->indent++;
    for (int i = 0; i < c.fields.len; i++) {
        Var *v = vec_at(&c.fields, i);
        if (v->is_array)
            buf_line(b, "(%s *)gf_d_%s,", ctype(v), v->cname);
        else
            buf_line(b, "%s,", v->cname);
    }
    if (!c.fields.len)
        buf_line(b, "0");
    b->indent--;
    buf_line(b, "};");
    /* cover: the elements the nests own when z's dims match the loops, else -1 */
    Buf cond = {0}, prod[2] = {{0}};
    for (int side = 0; side < 2; side++) {
        Kernel *k = side ? st->fft_store : st->fft_load;
        if (!k)
            continue;
        Var *z = st->stmt->rhs->kids[side ? 6 : 5]->var;
        int d = st->fft_depth[side];
        Stmt *const *loops = st->fft_loops[side];
        for (int j = 0; j < d; j++) {
            Buf ub = {0}, dim = {0};
            emit_cond(&ub, cx, loops[j]->ub);
            emit_cond(&dim, cx, z->dims[j]);
            /* the same text on both sides is true: left out (no self-comparison for the C++ compiler) */
            const char *want = j == d - 1 ? arena_printf(a, "2 * %s", ub.data) : ub.data;
            const char *cmp = arena_printf(a, "(long long)(%s) == %s(long long)(%s)", dim.data,
                                           j == d - 1 ? "2 * " : "", ub.data);
            if (strcmp(dim.data, want) && !strstr(cond.data ? cond.data : "", cmp))
                buf_printf(&cond, "%s%s", cond.len ? " && " : "", cmp);
            buf_printf(&prod[side], "%s(long long)(%s)", j ? " * " : "", ub.data);
            buf_free(&ub);
            buf_free(&dim);
        }
    }
    if (st->fft_load && st->fft_store && strcmp(prod[0].data, prod[1].data))
        buf_printf(&cond, "%s%s == %s", cond.len ? " && " : "", prod[0].data, prod[1].data);
    if (cond.len)
        buf_printf(cover, "(%s) ? %s : -1LL", cond.data, prod[st->fft_load ? 0 : 1].data);
    else
        buf_puts(cover, prod[st->fft_load ? 0 : 1].data);
    buf_free(&prod[0]);
    buf_free(&prod[1]);
    buf_free(&cond);
}
