/* emit_verify.c - the entry point every launcher is called through: the
 * extern "C" function with the C function's name (gpufuse/entry.h).
 * Profiling: it times the whole call, host paths included.  GPUFUSE_VERIFY:
 * it has the runtime copy the pointer arguments, runs the launcher, runs
 * the C body gf_seq_<f> on the copies and has the results compared.
 * Otherwise it only calls the launcher. */
#include "gfc.h"

#include <stdlib.h>
#include <string.h>

/* A struct element is compared field by field, at most this many scalars;
 * a larger one is compared as bytes. */
#define MAX_FIELDS 256

static const char *vkind(const Type *t)
{
    switch (t->kind) {
    case TY_BOOL: return "GF_VK_BOOL";
    case TY_CHAR:
    case TY_SCHAR:
    case TY_SHORT:
    case TY_INT:
    case TY_LONG:
    case TY_LLONG: return "GF_VK_INT";
    case TY_UCHAR:
    case TY_USHORT:
    case TY_UINT:
    case TY_ULONG:
    case TY_ULLONG: return "GF_VK_UINT";
    case TY_FLOAT:
    case TY_DOUBLE: return "GF_VK_FLOAT";
    default: return "GF_VK_BYTES";
    }
}

/* The scalars of a struct element, depth first: ".pos.x", ".v[2]".
 * Returns false when there are more than MAX_FIELDS. */
static bool flatten(Buf *b, Arena *a, const char *st, const Type *t, const char *path, int *n)
{
    if (t->kind == TY_STRUCT) {
        for (int i = 0; i < t->nfields; i++)
            if (!flatten(b, a, st, t->fields[i].ty, arena_printf(a, "%s.%s", path, t->fields[i].name), n))
                return false;
        return true;
    }
    if (t->kind == TY_ARRAY && t->clen > 0) {
        for (long long k = 0; k < t->clen; k++)
            if (!flatten(b, a, st, t->base, arena_printf(a, "%s[%lld]", path, k), n))
                return false;
        return true;
    }
    if (++*n > MAX_FIELDS)
        return false;
    /* path starts with '.': offsetof takes the designator without it */
    buf_printf(b, "{\"%s\", offsetof(%s, %s), sizeof(%s), %s}, ", path, st, path + 1, type_c_name(t), vkind(t));
    return true;
}

/* static const gf_vfield gf_vf_<x>[] = {...}; returns the count (0: bytes). */
static int emit_fields(Buf *b, Arena *a, Var *v)
{
    Type *et = type_elem(v->ty);
    if (type_is_complex(et)) {   /* the two parts, as floating values */
        const char *pt = et->kind == TY_CF ? "float" : "double";
        buf_line(b, "static const gf_vfield gf_vf_%s[] = {{\".real\", 0, sizeof(%s), GF_VK_FLOAT}, {\".imag\", "
                 "sizeof(%s), sizeof(%s), GF_VK_FLOAT}};", v->cname, pt, pt, pt);
        return 2;
    }
    if (et->kind != TY_STRUCT) {
        buf_line(b, "static const gf_vfield gf_vf_%s[] = {{\"\", 0, sizeof(%s), %s}};", v->cname, type_c_name(et),
                 vkind(et));
        return 1;
    }
    Buf f = {0};
    int n = 0;
    if (!flatten(&f, a, type_c_name(et), et, "", &n) || !n) {
        buf_free(&f);
        buf_line(b, "static const gf_vfield *const gf_vf_%s = NULL; /* compared as bytes */", v->cname);
        return 0;
    }
    buf_line(b, "static const gf_vfield gf_vf_%s[] = {%s};", v->cname, f.data);
    buf_free(&f);
    return n;
}

/* Whether statement s updates v (or, v NULL, anything) by a reduction, an
 * atomic update or a library call, or accumulates into an element of array
 * v across the iterations of a loop whose index its subscript does not use
 * (`y[j] += a[i][j] * w[i]` in a loop over i): its values are sums, in
 * another order or with each step contracted into one rounding (a fused
 * multiply-add) on the GPU, and compare with the reductions' tolerance. */
typedef struct {
    IrVisitor vis;
    const Var *v;
    Vec loops; /* Var * of the enclosing loops */
    Arena *a;
} RedWalk;

/* An element of v updated by a compound assignment in a loop whose index no
 * subscript uses (a non-affine subscript counts as not using it). */
static bool accumulates(RedWalk *w, const Stmt *s)
{
    const Expr *l = s->lhs;
    if (op_assign_base(s->op) == OP_NONE || !l || l->kind != E_INDEX || (w->v && l->var != w->v))
        return false;
    for (int k = 0; k < w->loops.len; k++) {
        const Var *iv = vec_at(&w->loops, k);
        bool used = false;
        for (int d = 0; d < l->nkids && !used; d++)
            used = l->aff && l->aff[d] && aff_uses(l->aff[d], iv);
        if (!used)
            return true;
    }
    return false;
}

static bool red_stmt(IrVisitor *vis, Stmt *s)
{
    RedWalk *w = (RedWalk *)vis;
    const Var *v = w->v;
    switch (s->kind) {
    case S_FOR:
        vec_push(w->a, &w->loops, s->iv);
        return true;
    case S_ASSIGN:
        if (s->red != RED_NONE || s->atomic != RED_NONE)
            vis->done = !v || s->red_var == v || (s->lhs && s->lhs->kind == E_INDEX && s->lhs->var == v);
        else
            vis->done = accumulates(w, s);
        return false;
    case S_LIB:
        for (int i = 0; s->rhs && i < s->rhs->nkids && !vis->done; i++)
            vis->done = !v || (s->rhs->kids[i]->kind == E_VAR && s->rhs->kids[i]->var == v);
        return false;
    default: return true;
    }
}

static void red_stmt_after(IrVisitor *vis, Stmt *s)
{
    RedWalk *w = (RedWalk *)vis;
    if (s->kind == S_FOR)
        w->loops.len--;
}

static bool reduced_into(Region *r, Stmt *s, const Var *v)
{
    RedWalk w = {.vis = {.stmt = red_stmt, .stmt_after = red_stmt_after}, .v = v, .a = r->unit->arena};
    ir_visit_stmt(&w.vis, s);
    return w.vis.done;
}

/* The sizes of v's inner dimensions, for printing indices as [i][j]. */
static int emit_dims(Buf *b, Region *r, Var *v)
{
    if (v->ndims < 2)
        return 0;
    EmitCtx cx = {.r = r};
    Buf d = {0};
    for (int k = 1; k < v->ndims; k++) {
        buf_puts(&d, k > 1 ? ", (long long)(" : "(long long)(");
        emit_expr(&d, &cx, v->dims[k]);
        buf_puts(&d, ")");
    }
    buf_line(b, "const long long gf_ed_%s[] = {%s};", v->cname, d.data);
    buf_free(&d);
    return v->ndims - 1;
}

static void emit_verify_args(Buf *b, Region *r)
{
    Arena *a = r->unit->arena;
    int idx = 0;
    emit_extents(b, r, "NULL");
    for (int i = 0; i < r->params.len; i++) {
        Var *v = vec_at(&r->params, i);
        if (!v->is_array)
            continue;
        char *lo = arena_printf(a, "gf_lo_%s", v->cname), *hi = arena_printf(a, "gf_hi_%s", v->cname);
        int nf = emit_fields(b, a, v);
        int nd = emit_dims(b, r, v);
        const char *mode = emit_arg_mode(r, v);
        buf_line(b, "gf_entry_arg(gf_e, %d, \"%s\", %s, %s, %s, %s, sizeof(%s), gf_vf_%s, %d, %s, %d, %s%s);", idx++,
                 v->name, v->cname, lo, hi, mode, type_c_name(type_elem(v->ty)), v->cname, nf,
                 reduced_into(r, r->body, v) ? "GF_VTOL_REDUCED" : "GF_VTOL_ELEMENT", nd, nd ? "gf_ed_" : "NULL",
                 nd ? v->cname : "");
    }
}

/* The C body's arguments: the copies instead of the pointers. */
static void emit_seq_args(Buf *b, Region *r)
{
    int idx = 0;
    for (int i = 0; i < r->params.len; i++) {
        Var *v = vec_at(&r->params, i);
        if (i)
            buf_puts(b, ", ");
        if (!v->is_array) {
            buf_puts(b, v->cname);
            continue;
        }
        Type *et = type_elem(v->ty);
        buf_printf(b, "(%s%s *)gf_entry_copy(gf_e, %d)", et->is_const ? "const " : "", type_c_name(et), idx++);
    }
}

void emit_verify_entry(Buf *b, Region *r, const char *name, const char *launcher)
{
    Arena *a = r->unit->arena;
    const char *ret = type_c_name(r->ret);
    bool is_void = r->ret->kind == TY_VOID;
    Buf args = {0}, seq = {0};
    emit_params(&args, r, true, true);
    emit_seq_args(&seq, r);
    int nargs = 0;
    for (int i = 0; i < r->params.len; i++)
        nargs += ((Var *)vec_at(&r->params, i))->is_array;
    const char *call = arena_printf(a, "%s(%s)", launcher, args.data ? args.data : "");
    buf_printf(b, "static %s %s(", ret, launcher);
    emit_params(b, r, true, false);
    buf_puts(b, ");\n\n");
    buf_printf(b, "/* %s() (%s:%d), replaced at link time: the launcher below, timed whole for the profile;\n"
                  " * with GPUFUSE_VERIFY set also the C body on copies of the arguments, results compared. */\n"
                  "extern \"C\" %s %s(",
               r->name, r->unit->gen_path, r->loc.line, ret, name);
    emit_params(b, r, true, false);
    buf_puts(b, ")\n{\n");
    b->indent = 1;
    buf_line(b, "static gf_site gf_esite_ = {\"%s\", \"%s\", %d, -1};", r->name, r->unit->gen_path,
             r->loc.line);
    buf_line(b, "gf_entry *gf_e = gf_entry_begin(&gf_esite_, %d);", nargs);
    buf_line(b, "if (!gf_e)");
    buf_line(b, "    return %s;", call);
    emit_verify_args(b, r);
    buf_line(b, "if (!gf_entry_snapshot(gf_e)) { /* only timed (or the copies failed: reported) */");
    buf_line(b, "    %s%s;", is_void ? "" : arena_printf(a, "%s gf_r = ", ret), call);
    buf_line(b, "    gf_entry_end(gf_e);");
    buf_line(b, "    return%s;", is_void ? "" : " gf_r");
    buf_line(b, "}");
    buf_line(b, "%s%s;", is_void ? "" : arena_printf(a, "%s gf_got = ", ret), call);
    buf_line(b, "gf_entry_ran(gf_e);");
    buf_line(b, "%sgf_seq_%s(%s);", is_void ? "" : arena_printf(a, "%s gf_ref = ", ret), r->cname,
             seq.data ? seq.data : "");
    const char *rtol = reduced_into(r, r->body, NULL) ? "GF_VTOL_REDUCED" : "GF_VTOL_ELEMENT";
    if (type_is_complex(r->ret)) {   /* the real part, then the imaginary part */
        const char *pt = r->ret->kind == TY_CF ? "float" : "double";
        buf_line(b, "gf_entry_return(gf_e, GF_VK_FLOAT, sizeof(%s), %s, &gf_got, &gf_ref);", pt, rtol);
        buf_line(b, "gf_entry_return(gf_e, GF_VK_FLOAT, sizeof(%s), %s, (const %s *)&gf_got + 1, (const %s *)&gf_ref "
                 "+ 1);", pt, rtol, pt, pt);
    } else if (!is_void) {
        buf_line(b, "gf_entry_return(gf_e, %s, sizeof(%s), %s, &gf_got, &gf_ref);", vkind(r->ret), ret, rtol);
    }
    buf_line(b, "gf_entry_end(gf_e);");
    if (!is_void)
        buf_line(b, "return gf_got;");
    b->indent = 0;
    buf_puts(b, "}\n\n");
    buf_free(&args);
    buf_free(&seq);
}

/* The unit's link anchor: its file compiled with -DGPUFUSE_UNIT=<stem>
 * refers to it (gpufuse.h), so an archive that holds both objects pulls
 * this one, whose launchers replace the weak C bodies. */
const char *unit_symbol(Arena *a, const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 2 && !strcmp(base + n - 2, ".c"))
        n -= 2;
    char *id = arena_printf(a, "gpufuse_unit_%s%.*s", base[0] >= '0' && base[0] <= '9' ? "_" : "", (int)n, base);
    for (char *p = id + 13; *p; p++)
        if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
            *p = '_';
    return id;
}

void emit_abi_check(Buf *b, Unit *u)
{
    buf_printf(b, "\n/* Generated for launcher ABI %d: other headers stop the build here, another\n"
                  " * libgpufuse the link or the loader (gf_launch_abi_%d is missing there). */\n"
                  "#if !defined(GF_LAUNCH_ABI) || GF_LAUNCH_ABI != %d\n"
                  "#error \"generated by gpufuse %s for launcher ABI %d, but <gpufuse/launch.h> is another version: "
                  "regenerate this file with the gpufuse that belongs to these headers\"\n"
                  "#endif\n"
                  "extern \"C\" const int gf_launch_abi_%d;\n"
                  "__attribute__((used)) static const int *const gf_launch_abi_ref_ = &gf_launch_abi_%d;\n",
               GFC_LAUNCH_ABI, GFC_LAUNCH_ABI, GFC_LAUNCH_ABI, GFC_VERSION, GFC_LAUNCH_ABI, GFC_LAUNCH_ABI,
               GFC_LAUNCH_ABI);
    buf_printf(b, "/* Static libraries: %s compiled with -DGPUFUSE_UNIT refers to this, so the\n"
                  " * linker takes these launchers along with its weak C bodies (gpufuse.h). */\n"
                  "extern \"C\" __attribute__((weak)) const char %s = 0;\n\n",
               u->gen_path, unit_symbol(u->arena, u->path));
}

/* The warm-up flag (gpufuse.h's GF_WARM_*) of a library operation. */
static const char *warm_flag(LibKind k)
{
    switch (k) {
    case L_GEMM: return "GF_WARM_GEMM";
    case L_GEMV: return "GF_WARM_GEMV";
    case L_GER: return "GF_WARM_GER";
    case L_SYRK: return "GF_WARM_SYRK";
    case L_SYR2K: return "GF_WARM_SYR2K";
    case L_SYMM: return "GF_WARM_SYMM";
    case L_TRMM: return "GF_WARM_TRMM";
    case L_GEAM: return "GF_WARM_GEAM";
    }
    return "GF_WARM_CONTEXT";
}

/* The unit's kernel loader: the warm-up thread calls it once the context
 * exists, so that CUDA's lazy loading has loaded these kernels before the
 * first launch (cudaFuncGetAttributes loads the kernel it is asked about).
 * It is compiled here, not in the runtime, because the unit's CUDA runtime
 * (static by default) holds its kernels' registrations. */
static void emit_kernel_loader(Buf *b, StrVec *ks)
{
    buf_puts(b, "\n/* Loads this unit's kernels (every instance its launchers launch with\n"
                " * named template arguments) on the warm-up thread: CUDA loads a kernel at\n"
                " * its first use, cudaFuncGetAttributes included. */\n"
                "static void gf_load_kernels(void)\n{\n    static const void *const gf_k[] = {\n");
    for (int i = 0; i < ks->n; i++)
        buf_printf(b, "        (const void *)&%s,\n", ks->v[i]);
    buf_puts(b, "    };\n    cudaFuncAttributes gf_a;\n"
                "    for (unsigned gf_i = 0; gf_i < sizeof gf_k / sizeof *gf_k; gf_i++)\n"
                "        cudaFuncGetAttributes(&gf_a, gf_k[gf_i]);\n"
                "    cudaGetLastError(); /* the warm-up's errors are nobody's */\n}\n");
}

void emit_prewarm(Buf *b, Unit *u)
{
    const char *flags[13];
    int n = 0, staged = 0;
    flags[n++] = "GF_WARM_CONTEXT";
    for (int i = 0; i < u->regions.len; i++) {
        Region *r = vec_at(&u->regions, i);
        for (int p = 0; p < r->params.len; p++)
            staged |= ((Var *)vec_at(&r->params, p))->is_array;
        for (int j = 0; j < r->plan->kernels.len; j++) {
            Kernel *k = vec_at(&r->plan->kernels, j);
            for (int o = 0; k->lib && o < k->lib->ops.len; o++) {
                LibOp *op = vec_at(&k->lib->ops, o);
                const char *f[2] = {warm_flag(op->kind),
                                    type_elem(op->c->ty)->kind == TY_FLOAT ? "GF_WARM_F32" : "GF_WARM_F64"};
                for (int x = 0; x < 2; x++) {
                    int seen = 0;
                    for (int y = 0; y < n; y++)
                        seen |= !strcmp(flags[y], f[x]);
                    if (!seen && n < (int)(sizeof flags / sizeof *flags) - 1)
                        flags[n++] = f[x];
                }
            }
        }
    }
    int blas = n > 1;
    if (staged)
        flags[n++] = "GF_WARM_STAGING";
    StrVec ks = u->launched;
    if (ks.n)
        emit_kernel_loader(b, &ks);
    buf_printf(b, "\n/* When the program starts, a thread of the runtime, while the program goes on\n"
                  " * (gf_prewarm_load; GPUFUSE_PREWARM=0 turns it off), creates the CUDA context%s%s%s. */\n",
               ks.n ? ",\n * loads the kernels above" : "", staged ? ",\n * allocates the staging ring for host arrays" : "",
               blas ? ",\n * loads the cuBLAS routines these launchers call" : "");
    if (staged)
        buf_puts(b, "#if defined(_OPENMP)\n"
                    "/* The program's OpenMP threads, lent to the runtime for the staging copies\n"
                    " * (gf_host_team): after a parallel region they spin on every core, and the\n"
                    " * runtime's own copying threads would wait for cores.  Not inside a parallel\n"
                    " * region, not for one thread, not when OpenMP's threads sleep when idle. */\n"
                    "static int gf_omp_team(void (*gf_part)(void *, int, int), void *gf_ctx)\n"
                    "{\n"
                    "    const char *gf_w = getenv(\"OMP_WAIT_POLICY\");\n"
                    "    if (omp_in_parallel() || omp_get_max_threads() < 2 || (gf_w && (*gf_w == 'p' || *gf_w == 'P')))\n"
                    "        return 0;\n"
                    "    #pragma omp parallel\n"
                    "    gf_part(gf_ctx, omp_get_thread_num(), omp_get_num_threads());\n"
                    "    return 1;\n"
                    "}\n"
                    "__attribute__((destructor)) static void gf_team_unit_end(void) { gf_host_team(gf_omp_team, 0); }\n"
                    "#endif\n");
    buf_puts(b, "__attribute__((constructor)) static void gf_prewarm_unit(void)\n{\n");
    if (staged)
        buf_puts(b, "#if defined(_OPENMP)\n    gf_host_team(gf_omp_team, 1);\n#endif\n");
    buf_puts(b, "    gf_prewarm_load(");
    for (int y = 0; y < n; y++)
        buf_printf(b, "%s%s", y ? " | " : "", flags[y]);
    buf_printf(b, ", %s);\n}\n", ks.n ? "gf_load_kernels" : "NULL");
}
