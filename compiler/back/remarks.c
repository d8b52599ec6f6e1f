/* remarks.c - optimisation remarks (-Rgpufuse), in the spirit of clang's
 * -Rpass and OpenACC's -Minfo=accel: at each loop nest, the kernel it went
 * into, the other lines fused with it, the kernel's shape and block size;
 * at the function, what its launcher copies in and out, with the extents. */
#include "lower.h"

#include <string.h>

#define GF_THREADS 256 /* templates/device.cuh */

static const char *shape(Arena *a, Region *r, const Kernel *k, bool atomic_reductions)
{
    if (k->lib)
        return k->lib->epi ? "a matrix product: one cuBLASLt call with its epilogue"
                           : arena_printf(a, "library calls: %s", lib_describe(a, k->lib));
    if (k->folded_into)
        return k->folded_into->lib->init == k ? arena_printf(a, "the beta of %s's library calls", k->folded_into->name)
                                              : arena_printf(a, "the epilogue of %s's cuBLASLt call", k->folded_into->name);
    if (k->pdims == 0)
        return "a single thread";
    const char *tiled = lower_tiled_text(r->unit, r, k);
    if (tiled)
        return arena_printf(a, "%s, 2-D, %s, blocks of %dx%d threads", kernel_kind_names[k->kind], tiled, GF_TILE_SIDE,
                            GF_TILE_SIDE);
    const char *threads = k->kind == K_ROW ? "a warp per row up to 512 columns, else a block of 256 threads"
                                           : lower_spread(k)
                                               ? arena_printf(a, "blocks of %d threads or fewer, down to a warp, to cover "
                                                              "the SMs (its loops access across rows), grid-stride",
                                                              GF_THREADS)
                                               : arena_printf(a, "blocks of %d threads, grid-stride", GF_THREADS);
    int x = lower_grid_x(k);
    return arena_printf(a, "%s, %d-D%s%s%s, %s", kernel_kind_names[k->kind], k->pdims,
                        x != k->pdims - 1 ? arena_printf(a, ", threads along '%s' (contiguous)", k->loops[x]->iv->name) : "",
                        k->vec4 ? ", 128-bit vector loads" : "",
                        k->kind == K_REDUCE ? (lower_red_atomic(k, atomic_reductions) ? ", finished with atomics" : ", deterministic finish") : "",
                        threads);
}

/* "lines 12-13 and 15-16" of the kernel's nests other than `self`. */
static const char *others(Arena *a, const Kernel *k, const Stmt *self)
{
    Buf b = {0};
    int n = 0;
    for (int i = 0; i < k->nests.len; i++) {
        const Stmt *s = vec_at(&k->nests, i);
        if (s != self)
            buf_printf(&b, "%s%d-%d", n++ ? ", " : "", s->loc.line, s->end_line);
    }
    const char *out = n ? arena_printf(a, "fused with lines %s", b.data) : "alone";
    buf_free(&b);
    return out;
}

static void remark_kernels(Region *r, bool atomic_reductions)
{
    Arena *a = r->unit->arena;
    for (int i = 0; i < r->plan->kernels.len; i++) {
        Kernel *k = vec_at(&r->plan->kernels, i);
        for (int j = 0; j < k->nests.len; j++) {
            Stmt *s = vec_at(&k->nests, j);
            diag_at(DIAG_REMARK, s->loc, "-Rgpufuse", "loop nest of lines %d-%d runs in kernel %s, %s: %s",
                    s->loc.line, s->end_line, k->name, others(a, k, s), shape(a, r, k, atomic_reductions));
        }
    }
}

/* An extent (deps_extent) as a person reads it: a copy without the casts
 * that widen its parameters to long long. */
static const Expr *uncast(Arena *a, const Expr *e)
{
    if (e->kind == E_CAST && e->kids[0]->kind == E_VAR)
        return e->kids[0];
    Expr *x = arena_alloc(a, sizeof *x);
    *x = *e;
    if (e->nkids)
        x->kids = arena_alloc(a, sizeof(Expr *) * (size_t)e->nkids);
    for (int i = 0; i < e->nkids; i++)
        x->kids[i] = (Expr *)uncast(a, e->kids[i]);
    return x;
}

static void extent_bound(Buf *b, Region *r, const Expr *e)
{
    EmitCtx cx = {.r = r};
    emit_expr(b, &cx, uncast(r->unit->arena, e));
}

/* name[lo..hi][lo..hi] over the box the call touches. */
static const char *extent(Arena *a, Region *r, const Var *v)
{
    if (v->ext_whole)
        return arena_printf(a, "%s (all of it: the extent is not affine)", v->name);
    if (v->ext_run)
        return arena_printf(a, "%s (the subscripts the launcher's pass %d sees before the call)", v->name, v->ext_run);
    Buf b = {0};
    buf_puts(&b, v->name);
    for (int d = 0; d < v->ndims && v->ext_lo; d++) {
        buf_puts(&b, "[");
        extent_bound(&b, r, v->ext_lo[d]);
        buf_puts(&b, "..");
        extent_bound(&b, r, v->ext_hi[d]);
        buf_puts(&b, "]");
    }
    const char *out = arena_strdup(a, b.data);
    buf_free(&b);
    return out;
}

static void remark_copies(Region *r)
{
    Arena *a = r->unit->arena;
    Buf in = {0}, out = {0};
    for (int i = 0; i < r->params.len; i++) {
        Var *v = vec_at(&r->params, i);
        if (!v->is_array || (!v->ext_lo && !v->ext_whole && !v->ext_run))
            continue;
        if ((v->read || v->written) && !v->write_only) {
            buf_printf(&in, "%s%s", in.len ? ", " : "", extent(a, r, v));
            if (v->written && v->write_first) {
                /* deps_write_first: written before it is read when this holds */
                buf_puts(&in, " (not when ");
                extent_bound(&in, r, v->write_first);
                buf_puts(&in, ": the call writes all of it first)");
            }
        }
        if (v->written)
            buf_printf(&out, "%s%s", out.len ? ", " : "", extent(a, r, v));
    }
    if (r->cuda)
        diag_at(DIAG_REMARK, r->cuda->loc, "-Rgpufuse",
                "'%s': the hand-written kernel %s, %s; for host arrays the launcher copies in %s and out %s "
                "(device memory and data regions stay where they are)",
                r->name, r->cuda->kernel, cuda_rule_text(a, r->cuda), in.len ? in.data : "nothing",
                out.len ? out.data : "nothing");
    else
        diag_at(DIAG_REMARK, r->loc, "-Rgpufuse",
            "'%s': %d loop nest%s in %d kernel%s; for host arrays the launcher copies in %s and out %s "
            "(device memory and data regions stay where they are)",
            r->name, r->plan->nests, r->plan->nests == 1 ? "" : "s", r->plan->kernels.len,
            r->plan->kernels.len == 1 ? "" : "s", in.len ? in.data : "nothing", out.len ? out.data : "nothing");
    buf_free(&in);
    buf_free(&out);
}

/* Host steps: the sequential loops and statements the launcher runs. */
static void remark_steps(Vec *steps)
{
    for (int i = 0; i < steps->len; i++) {
        Step *st = vec_at(steps, i);
        if (st->kind == P_LOOP) {
            diag_at(DIAG_REMARK, st->stmt->loc, "-Rgpufuse",
                    "sequential loop: runs on the host, launching the kernels inside it each iteration");
            remark_steps(&st->body);
        }
    }
}

void remarks_region(Region *r, bool atomic_reductions)
{
    if (!gfc_diag.remarks || !r->plan)
        return;
    remark_copies(r);
    remark_steps(&r->plan->steps);
    remark_kernels(r, atomic_reductions);
}
