/* sets.c - integer sets written as isl text, for plan/libcall.c, which
 * compares the domains of a nest's terms with the shapes a BLAS routine
 * covers (isl stays in analysis/).  A set that isl cannot read makes every
 * comparison false and every result NULL: the nest then stays a kernel.
 * One isl context serves them all; it is freed at exit. */
#include "gfc.h"

#include <isl/ctx.h>
#include <isl/options.h>
#include <isl/set.h>
#include <stdlib.h>

static isl_ctx *ictx;

static void free_ictx(void)
{
    isl_ctx_free(ictx);
    ictx = NULL;
}

static isl_set *iset(const char *s)
{
    if (!s)
        return NULL;
    if (!ictx) {
        ictx = isl_ctx_alloc();
        isl_options_set_on_error(ictx, ISL_ON_ERROR_CONTINUE);
        atexit(free_ictx);
    }
    return isl_set_read_from_str(ictx, s);
}

static const char *text(Arena *a, isl_set *s)
{
    char *t = s ? isl_set_to_str(s) : NULL;
    const char *r = t ? arena_strdup(a, t) : NULL;
    free(t);
    isl_set_free(s);
    return r;
}

bool sets_cmp(const char *p, const char *q, bool subset)
{
    isl_set *x = iset(p), *y = iset(q);
    bool r = x && y && (subset ? isl_set_is_subset(x, y) : isl_set_is_equal(x, y)) == isl_bool_true;
    isl_set_free(x);
    isl_set_free(y);
    return r;
}

const char *sets_union(Arena *a, const char *p, const char *q)
{
    return text(a, isl_set_union(iset(p), iset(q)));
}

/* s with dimension d free (projected out and put back unconstrained). */
static isl_set *free_dim(isl_set *s, int d)
{
    s = isl_set_project_out(s, isl_dim_set, (unsigned)d, 1);
    return isl_set_insert_dims(s, isl_dim_set, (unsigned)d, 1);
}

const char *sets_zero_dim(Arena *a, const char *s, int d)
{
    isl_set *x = iset(s);
    return x ? text(a, isl_set_fix_si(free_dim(x, d), isl_dim_set, (unsigned)d, 0)) : NULL;
}

const char *sets_free_dim_meet(Arena *a, const char *s, int d, const char *t)
{
    isl_set *x = iset(s);
    return x ? text(a, isl_set_intersect(free_dim(x, d), iset(t))) : NULL;
}

bool sets_same_params(const char *p, const char *q)
{
    isl_set *d = iset(p);
    isl_set *meet = isl_set_intersect(isl_set_copy(d), iset(q));
    isl_set *pd = isl_set_params(d), *pm = isl_set_params(meet);
    isl_bool same = isl_set_is_equal(pd, pm);
    isl_set_free(pd);
    isl_set_free(pm);
    return same == isl_bool_true;
}
