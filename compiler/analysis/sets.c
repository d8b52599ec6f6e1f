/* sets.c - integer sets over [r, c, s] for plan/libcall.c, which compares
 * the domains of a nest's terms with the shapes a BLAS routine covers (isl
 * stays in analysis/).  Built through isl's API from the IR's affine forms,
 * never from text: a parameter is an isl_id carrying its Var, so no user
 * name can meet a dimension, another parameter or anything isl reads.
 *
 * Every set lives in its GfSets (one isl context) and is freed with it.
 * isl's failures are seen in one place, `bad`: from the first NULL or
 * isl_bool_error on, every set is NULL and every answer false, so the nest
 * stays a kernel. */
#include "gfc.h"

#include <isl/aff.h>
#include <isl/constraint.h>
#include <isl/ctx.h>
#include <isl/id.h>
#include <isl/local_space.h>
#include <isl/options.h>
#include <isl/set.h>
#include <isl/space.h>
#include <stdlib.h>

struct GfSets {
    isl_ctx *ctx;
    isl_set **own;               /* every set handed out, freed with the GfSets */
    int n, cap;
    bool failed;                 /* an isl operation failed: NULL and false from now on */
};

GfSets *sets_new(void)
{
    GfSets *S = calloc(1, sizeof *S);
    if (!S)
        return NULL;
    S->ctx = isl_ctx_alloc();
    if (!S->ctx) {
        free(S);
        return NULL;
    }
    /* errors come back as NULL and isl_bool_error, seen by bad() */
    isl_options_set_on_error(S->ctx, ISL_ON_ERROR_CONTINUE);
    return S;
}

void sets_free(GfSets *S)
{
    if (!S)
        return;
    for (int i = 0; i < S->n; i++)
        isl_set_free(S->own[i]);
    free(S->own);
    isl_ctx_free(S->ctx);
    free(S);
}

void sets_max_operations(GfSets *S, unsigned long n)
{
    if (S)
        isl_ctx_set_max_operations(S->ctx, n);
}

/* ---- isl errors ------------------------------------------------------------------
 * The one place where isl's failures are seen (a NULL object, an
 * isl_bool_error), passed as `b`; S is failed from then on.  Returns whether
 * it has failed (a NULL S: it has). */
static bool bad(GfSets *S, bool b)
{
    if (!S)
        return true;             /* sets_new ran out of memory */
    if (b)
        S->failed = true;
    return S->failed;
}

static isl_set *set_of(const GfSet *s) { return (isl_set *)s; }

/* s handed out: owned by S.  NULL when s is, or S has failed. */
static GfSet *keep(GfSets *S, isl_set *s)
{
    if (bad(S, !s)) {
        isl_set_free(s);
        return NULL;
    }
    if (S->n == S->cap) {
        int cap = S->cap ? 2 * S->cap : 32;
        isl_set **own = realloc(S->own, sizeof *own * (size_t)cap);
        if (!own) {
            isl_set_free(s);
            bad(S, true);
            return NULL;
        }
        S->own = own, S->cap = cap;
    }
    S->own[S->n++] = s;
    return (GfSet *)s;
}

/* A question's answer: true only when isl says true. */
static bool holds(GfSets *S, isl_bool b) { return !bad(S, b == isl_bool_error) && b == isl_bool_true; }

/* A copy of s for an isl operation; NULL when s is NULL or S has failed. */
static isl_set *use(GfSets *S, const GfSet *s) { return bad(S, !s) ? NULL : isl_set_copy(set_of(s)); }

/* ---- affine constraints ---------------------------------------------------------- */

static int frame_dim(const SetFrame *f, const Var *v)
{
    for (int d = 0; f && d < 3; d++)
        if (f->dim[d] == v)
            return d;
    return -1;
}

/* [params] -> { [r, c, s] } with a parameter for each Var of e outside the
 * frame, in the order of e's terms (a Var twice: its first place). */
static isl_space *aff_space(GfSets *S, const SetFrame *f, const Aff *e, int *pos)
{
    int np = 0;
    for (int i = 0; i < e->nterms; i++) {
        pos[i] = -1;
        if (frame_dim(f, e->terms[i].var) >= 0)
            continue;
        for (int j = 0; j < i && pos[i] < 0; j++)
            if (e->terms[j].var == e->terms[i].var)
                pos[i] = pos[j];
        if (pos[i] < 0)
            pos[i] = np++;
    }
    isl_space *sp = isl_space_set_alloc(S->ctx, (unsigned)np, 3);
    for (int i = 0; i < e->nterms; i++) {
        Var *v = e->terms[i].var;
        if (pos[i] >= 0)
            sp = isl_space_set_dim_id(sp, isl_dim_param, (unsigned)pos[i],
                                      isl_id_alloc(S->ctx, v->name ? v->name : "v", v));
    }
    return sp;
}

/* k * dim + sgn * e + c over [r, c, s]: e's Vars in the frame are
 * dimensions, the others parameters.  NULL when e is NULL. */
static isl_aff *lin(GfSets *S, const SetFrame *f, long long k, int dim, long long sgn, const Aff *e, long long c)
{
    if (bad(S, !e || dim < 0 || dim > 2))
        return NULL;
    int *pos = malloc(sizeof *pos * (size_t)(e->nterms ? e->nterms : 1));
    if (bad(S, !pos))
        return NULL;
    isl_aff *a = isl_aff_zero_on_domain(isl_local_space_from_space(aff_space(S, f, e, pos)));
    a = isl_aff_set_constant_val(a, isl_val_int_from_si(S->ctx, (long)(sgn * e->c + c)));
    a = isl_aff_add_coefficient_val(a, isl_dim_in, dim, isl_val_int_from_si(S->ctx, (long)k));
    for (int i = 0; i < e->nterms; i++) {
        int d = frame_dim(f, e->terms[i].var);
        isl_val *v = isl_val_int_from_si(S->ctx, (long)(sgn * e->terms[i].coef));
        a = d >= 0 ? isl_aff_add_coefficient_val(a, isl_dim_in, d, v)
                   : isl_aff_add_coefficient_val(a, isl_dim_param, pos[i], v);
    }
    free(pos);
    bad(S, !a);
    return a;
}

/* { a >= 0 } (eq: a = 0) */
static GfSet *con(GfSets *S, isl_aff *a, bool eq)
{
    if (!a)
        return NULL;
    isl_constraint *c = eq ? isl_equality_from_aff(a) : isl_inequality_from_aff(a);
    return keep(S, isl_set_from_basic_set(isl_basic_set_from_constraint(c)));
}

/* ---- sets ------------------------------------------------------------------------ */

GfSet *sets_universe(GfSets *S)
{
    if (bad(S, false))
        return NULL;
    return keep(S, isl_set_universe(isl_space_set_alloc(S->ctx, 0, 3)));
}

GfSet *sets_below(GfSets *S, const SetFrame *f, int dim, const Aff *hi)
{
    return con(S, lin(S, f, -1, dim, 1, hi, -1), false);          /* hi - dim - 1 >= 0 */
}

GfSet *sets_above(GfSets *S, const SetFrame *f, int dim, const Aff *lo)
{
    return con(S, lin(S, f, 1, dim, -1, lo, 0), false);           /* dim - lo >= 0 */
}

GfSet *sets_range(GfSets *S, const SetFrame *f, const Aff *lo, int dim, const Aff *hi)
{
    return sets_meet(S, sets_above(S, f, dim, lo), sets_below(S, f, dim, hi));
}

GfSet *sets_fix(GfSets *S, const SetFrame *f, int dim, const Aff *e)
{
    return con(S, lin(S, f, 1, dim, -1, e, 0), true);             /* dim - e = 0 */
}

GfSet *sets_meet(GfSets *S, const GfSet *p, const GfSet *q)
{
    isl_set *x = use(S, p), *y = use(S, q);
    return keep(S, isl_set_intersect(x, y));
}

GfSet *sets_union(GfSets *S, const GfSet *p, const GfSet *q)
{
    isl_set *x = use(S, p), *y = use(S, q);
    return keep(S, isl_set_union(x, y));
}

bool sets_subset(GfSets *S, const GfSet *p, const GfSet *q)
{
    return !bad(S, !p || !q) && holds(S, isl_set_is_subset(set_of(p), set_of(q)));
}

bool sets_equal(GfSets *S, const GfSet *p, const GfSet *q)
{
    return !bad(S, !p || !q) && holds(S, isl_set_is_equal(set_of(p), set_of(q)));
}

/* s with dimension d free (projected out and put back unconstrained). */
static isl_set *free_dim(isl_set *s, int d)
{
    s = isl_set_project_out(s, isl_dim_set, (unsigned)d, 1);
    return isl_set_insert_dims(s, isl_dim_set, (unsigned)d, 1);
}

GfSet *sets_zero_dim(GfSets *S, const GfSet *s, int d)
{
    isl_set *x = use(S, s);
    return keep(S, x ? isl_set_fix_si(free_dim(x, d), isl_dim_set, (unsigned)d, 0) : NULL);
}

GfSet *sets_free_dim_meet(GfSets *S, const GfSet *s, int d, const GfSet *t)
{
    isl_set *x = use(S, s), *y = use(S, t);
    return keep(S, isl_set_intersect(x ? free_dim(x, d) : NULL, y));
}

bool sets_same_params(GfSets *S, const GfSet *p, const GfSet *q)
{
    isl_set *x = use(S, p), *y = use(S, q);
    isl_set *meet = isl_set_intersect(isl_set_copy(x), y);
    isl_set *px = isl_set_params(x), *pm = isl_set_params(meet);
    isl_bool same = px && pm ? isl_set_is_equal(px, pm) : isl_bool_error;
    isl_set_free(px);
    isl_set_free(pm);
    return holds(S, same);
}
