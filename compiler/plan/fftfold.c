/* fftfold.c - element-wise kernels folded into cuFFT callbacks.
 *
 * A c2c FFT builtin (gf_fft_c2c_n) at the top level of a plan may take the
 * kernel just before it into its load callback (the kernel computes the
 * transform's input, element by element: a window) and the kernel just
 * after it into its store callback (the kernel consumes the spectrum
 * element by element: |X|^2, a scale, a product with another spectrum).
 * The callback runs the nest's body for the one iteration that owns the
 * element cuFFT loads or stores, so each value is computed as the C body
 * computes it.  An iteration owns a complex element e when the nest is a
 * perfect nest of parallel loops from 0 with step 1 and it reads/writes the
 * FFT array z only at z[i0]..[2*i_last] (re) and [2*i_last + 1] (im): with
 * z's dims equal to the loop extents (last one doubled, checked by the
 * launcher), e is the row-major number of (i0, ..., i_last).  The kernels
 * stay for when the runtime cannot use callbacks. */
#include "gfc.h"

#include <string.h>

typedef struct Fold {
    Arena *a;
    Region *r;
    Var *z;                      /* the transform's array the nest shares */
    Var *in, *out;               /* the transform's input and output */
    Stmt *load_nest;             /* checking a store kernel: the nest already in the load callback */
    Stmt **loops;
    int d;
    bool load;                   /* checking for the load callback */
    const char *why;
} Fold;

static const char *fail(Fold *f, const char *why)
{
    if (!f->why)
        f->why = why;
    return why;
}

/* 0: e is z's real part of the iteration's own element, 1: its imaginary
 * part, -1: another element. */
int fft_own_part(Arena *a, Var *z, Stmt *const *loops, int d, Expr *e)
{
    if (e->kind != E_INDEX || e->var != z || e->nkids != d || z->ndims != d)
        return -1;
    for (int k = 0; k < d; k++) {
        Aff *f = e->aff && e->aff[k] ? e->aff[k] : aff_of(a, e->kids[k]);
        if (!f || f->nterms != 1)
            return -1;
        long long want = k == d - 1 ? 2 : 1;
        if (aff_coef(f, loops[k]->iv) != want)
            return -1;
        if (k < d - 1 ? f->c != 0 : f->c != 0 && f->c != 1)
            return -1;
        if (k == d - 1)
            return (int)f->c;
    }
    return -1;
}

static bool is_loop_iv(Fold *f, const Var *v)
{
    for (int k = 0; k < f->d; k++)
        if (f->loops[k]->iv == v)
            return true;
    return false;
}

static bool local_in(const Stmt *body, const Var *v)
{
    for (const Stmt *s = v->decl; s; s = s->parent)
        if (s == body)
            return true;
    return false;
}

static void check_expr(Fold *f, Stmt *body, Expr *e)
{
    if (!e || f->why)
        return;
    switch (e->kind) {
    case E_INDEX:
        if (e->var == f->z) {
            if (fft_own_part(f->a, f->z, f->loops, f->d, e) < 0)
                fail(f, arena_printf(f->a, "the nest reads or writes '%s' at another element than the one cuFFT "
                                           "loads or stores (an iteration may only touch its own complex "
                                           "element, %s[...][2 * i] and [2 * i + 1])",
                                     f->z->name, f->z->name));
        } else if (e->var->is_private) {
            fail(f, "the nest uses an array private to each iteration");
        } else if (type_is_half(type_elem(e->var->ty)) || !type_is_arith(type_elem(e->var->ty))) {
            fail(f, arena_printf(f->a, "'%s' is not an array of a plain arithmetic type", e->var->name));
        }
        break;
    case E_VAR:
        if (e->var->kind == V_IV ? !is_loop_iv(f, e->var)
            : e->var->kind == V_LOCAL ? !local_in(body, e->var)
                                      : e->var->is_array || !type_is_arith(e->var->ty) || type_is_half(e->var->ty))
            fail(f, arena_printf(f->a, "the nest reads '%s', which a callback cannot take through its caller info",
                                 e->var->name));
        break;
    case E_CALL:
        if (e->callee)
            fail(f, arena_printf(f->a, "the nest calls the helper '%s'", e->text));
        break;
    case E_FIELD:
    case E_SIZEOF:
        fail(f, "the nest uses structures or sizeof");
        break;
    default: break;
    }
    if (e->ty && type_is_half(e->ty))
        fail(f, "the nest computes in half precision");
    for (int i = 0; i < e->nkids; i++)
        check_expr(f, body, e->kids[i]);
}

static bool var_is(const Expr *e, const void *v) { return (e->kind == E_VAR || e->kind == E_INDEX) && e->var == v; }

/* Whether s reads v (its right side, the subscripts of its left side, or
 * the element a compound assignment updates). */
static bool reads(const Stmt *s, const Var *v)
{
    if (s->rhs && ir_expr_any(s->rhs, var_is, v))
        return true;
    if (s->kind != S_ASSIGN)
        return false;
    if (s->op != OP_ASSIGN && var_is(s->lhs, v))
        return true;
    for (int i = 0; s->lhs->kind == E_INDEX && i < s->lhs->nkids; i++)
        if (ir_expr_any(s->lhs->kids[i], var_is, v))
            return true;
    return false;
}

/* What cuFFT runs concurrently with a callback: a load callback may run
 * while other blocks already write the output (out-of-place); a store
 * callback while the input is still read, and while the load callback of
 * the same transform still reads its arrays. */
static void check_races(Fold *f, Stmt *s)
{
    if (f->load && f->out != f->z && reads(s, f->out))
        fail(f, arena_printf(f->a, "the nest reads '%s', which the transform writes meanwhile", f->out->name));
    if (!f->load && f->in != f->z && reads(s, f->in))
        fail(f, arena_printf(f->a, "the nest reads '%s', the input of the out-of-place transform", f->in->name));
    if (!f->load && f->load_nest && s->kind == S_ASSIGN && s->lhs->kind == E_INDEX &&
        ir_stmt_any(f->load_nest, var_is, s->lhs->var))
        fail(f, arena_printf(f->a, "the nest writes '%s', which the load callback of the same transform reads",
                             s->lhs->var->name));
}

/* The straight-line body: assignments and scalar declarations. */
static void check_body(Fold *f, Stmt *body)
{
    Vec one = {0};
    Vec *list = body->kind == S_BLOCK ? &body->list : &one;
    if (body->kind != S_BLOCK)
        vec_push(f->a, &one, body);
    for (int i = 0; i < list->len && !f->why; i++) {
        Stmt *s = vec_at(list, i);
        if (s->kind == S_DECL) {
            if (s->var->is_array || !type_is_arith(s->var->ty))
                fail(f, "the nest declares an array");
            check_expr(f, body, s->rhs);
            continue;
        }
        if (s->kind != S_ASSIGN || s->red != RED_NONE || s->atomic) {
            fail(f, "the nest's body is not straight-line assignments (a branch, a loop or a reduction)");
            break;
        }
        check_expr(f, body, s->lhs);
        check_expr(f, body, s->rhs);
        check_races(f, s);
        bool own = s->lhs->kind == E_INDEX && s->lhs->var == f->z;
        if (f->load && !own)
            fail(f, arena_printf(f->a, "the nest writes '%s', not only the transform's input", s->lhs->var->name));
        if (!f->load && s->lhs->kind == E_INDEX && s->lhs->var == f->in && f->in != f->z)
            fail(f, arena_printf(f->a, "the nest writes '%s', the input of the out-of-place transform",
                                 s->lhs->var->name));
        if (!own && s->lhs->kind == E_VAR && !local_in(body, s->lhs->var))
            fail(f, arena_printf(f->a, "the nest assigns the scalar '%s'", s->lhs->var->name));
    }
}

/* The perfect nest of parallel loops from 0 with step 1 (at most 3) and
 * its innermost body. */
static Stmt *nest_loops(Fold *f, Stmt *nest, Stmt **loops)
{
    Stmt *s = nest;
    int d = 0;
    while (s && s->kind == S_FOR) {
        if (d == 3)
            return fail(f, "the nest is deeper than 3 loops"), NULL;
        if (!s->parallel || s->reduction || s->brk || s->step != 1 || s->lb->kind != E_INT || strcmp(s->lb->text, "0"))
            return fail(f, "the nest's loops are not parallel loops from 0 with step 1"), NULL;
        loops[d++] = s;
        Stmt *b = s->body;
        if (b->kind == S_BLOCK && b->list.len == 1 && ((Stmt *)vec_at(&b->list, 0))->kind == S_FOR)
            b = vec_at(&b->list, 0);
        if (b->kind != S_FOR) {
            f->d = d;
            return b;
        }
        s = b;
    }
    return fail(f, "not a loop nest"), NULL;
}

static bool step_uses(const Step *st, const Var *v)
{
    if (st->kernel)
        for (int i = 0; i < st->kernel->nests.len; i++)
            if (ir_stmt_any(vec_at(&st->kernel->nests, i), var_is, v))
                return true;
    if (st->kind == P_LOOP || st->kind == P_IF) {
        for (int i = 0; i < st->body.len; i++)
            if (step_uses(vec_at(&st->body, i), v))
                return true;
        for (int i = 0; i < st->els.len; i++)
            if (step_uses(vec_at(&st->els, i), v))
                return true;
    }
    if (st->kernel)
        return false;
    return st->stmt && ir_stmt_any(st->stmt, var_is, v);
}

/* Whether z's values after step i are never read: a temporary no later
 * step names. */
static bool dead_after(Plan *p, int i, Var *z)
{
    if (!z->is_temp)
        return false;
    for (int j = i + 1; j < p->steps.len; j++)
        if (step_uses(vec_at(&p->steps, j), z))
            return false;
    return true;
}

/* Whether step j is a kernel the FFT could take at all (touching z). */
static Kernel *candidate(Plan *p, int j, Var *z)
{
    if (j < 0 || j >= p->steps.len)
        return NULL;
    Step *st = vec_at(&p->steps, j);
    if (st->kind != P_KERNEL || !step_uses(st, z))
        return NULL;
    return st->kernel;
}

static const char *kernel_why(Arena *a, const Step *st)
{
    Kernel *k = st->kernel;
    if (k->nests.len != 1)
        return arena_printf(a, "kernel %s fuses %d nests", k->name, k->nests.len);
    if (k->lib || k->folded_into || k->fft_step)
        return arena_printf(a, "kernel %s is already taken by a library call", k->name);
    if (k->kind != K_MAP || k->reds.len || k->atomics.len || k->reg_temps.len || k->results.len)
        return arena_printf(a, "kernel %s is not an element-wise map (a reduction, atomics or registers)", k->name);
    if (st->sync_before.len || st->host_prelude.len || k->dev_in.len || k->dev_prelude.len)
        return arena_printf(a, "kernel %s needs scalars the host or the device computes first", k->name);
    return NULL;
}

static const char *try_fold(Arena *a, Region *r, Plan *p, int i, int j, bool load, Var *z, Step *fft)
{
    Step *st = vec_at(&p->steps, j);
    const char *why = kernel_why(a, st);
    if (why)
        return why;
    Fold f = {a, r, z, fft->stmt->rhs->kids[5]->var, fft->stmt->rhs->kids[6]->var,
              fft->fft_load ? vec_at(&fft->fft_load->nests, 0) : NULL, fft->fft_loops[!load], 0, load, NULL};
    Stmt *body = nest_loops(&f, vec_at(&st->kernel->nests, 0), f.loops);
    if (body)
        check_body(&f, body);
    if (f.why)
        return f.why;
    if (load) {
        bool inplace = fft->stmt->rhs->kids[5]->var == fft->stmt->rhs->kids[6]->var;
        if (!inplace && !dead_after(p, i, z))
            return arena_printf(a, "the FFT is out of place and '%s' is read after it (a callback would not "
                                   "write it)", z->name);
        fft->fft_load = st->kernel;
    } else {
        fft->fft_store = st->kernel;
        fft->fft_keep = !dead_after(p, j, z);
    }
    fft->fft_depth[!load] = f.d;
    st->kernel->fft_step = fft;
    return NULL;
}

static void note(Arena *a, Plan *p, const char *msg) { vec_push(a, &p->notes, (void *)msg); }

static void fold_one(Arena *a, Region *r, Plan *p, int i)
{
    Step *fft = vec_at(&p->steps, i);
    Expr *call = fft->stmt->rhs;
    int line = fft->stmt->loc.line;
    bool c2c = !strcmp(call->text, "gf_fft_c2c_n");
    for (int side = 0; side < 2; side++) {
        bool load = side == 0;
        Var *z = call->kids[load ? 5 : 6]->var;
        int j = load ? i - 1 : i + 1;
        Kernel *k = candidate(p, j, z);
        if (!k || k->fft_step)
            continue;
        const char *why = NULL;
        Type *el = type_elem(z->ty);
        const char *t = call->kids[c2c ? 8 : 7]->text;
        if (!c2c)
            why = "callbacks are generated for gf_fft_c2c_n only";
        else if (call->kids[8]->kind != E_INT || (strcmp(t, "5") && strcmp(t, "6")))
            why = "the transform's type is not a constant GF_C32 or GF_C64";
        else if (!el || el->kind != (!strcmp(t, "5") ? TY_FLOAT : TY_DOUBLE))
            why = arena_printf(a, "'%s' is not an array of %s (interleaved re, im)", z->name,
                               !strcmp(t, "5") ? "float" : "double");
        else
            why = try_fold(a, r, p, i, j, load, z, fft);
        if (why)
            note(a, p, arena_printf(a, "not folded into the FFT at line %d: %s", line, why));
        else
            note(a, p, arena_printf(a, "line %d: kernel %s (lines %d-%d) folded into the %s callback of the FFT at "
                                       "line %d%s", k->first_line, k->name, k->first_line, k->last_line,
                                    load ? "load" : "store", line,
                                    load || fft->fft_keep ? "" : " (the spectrum itself is not stored)"));
    }
}

void fft_fold(Arena *a, Region *r, Plan *p)
{
    int notes = p->notes.len;
    for (int i = 0; i < p->steps.len; i++) {
        Step *st = vec_at(&p->steps, i);
        if (st->kind == P_LIB && !strncmp(st->stmt->rhs->text, "gf_fft_", 7))
            fold_one(a, r, p, i);
    }
    bool folded = false;
    for (int i = 0; i < p->steps.len; i++)
        folded |= ((Step *)vec_at(&p->steps, i))->kind == P_KERNEL && ((Step *)vec_at(&p->steps, i))->kernel->fft_step;
    if (folded && p->notes.len > notes)
        note(a, p, "the FFT callbacks run when GPUFUSE_FFT_CALLBACKS=1; by default the folded kernels run separately "
                   "(faster on the H200: docs/libraries.md)");
}
