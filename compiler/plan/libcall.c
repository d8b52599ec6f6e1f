/* libcall.c - loop nests a library computes better than a generated
 * kernel: BLAS-shaped nests become cuBLAS calls (GEMM, GEMV, GER, SYRK,
 * SYR2K, SYMM, TRMM, GEAM), a product's element-wise epilogue a cuBLASLt
 * one.  docs/libraries.md lists the forms.
 *
 * A nest is read as what it computes for each element of each array it
 * writes, not as loops in some order:
 *   1. frames: the loops that index the element a statement writes are that
 *      element's row r and column c; one more loop around it is the index s
 *      it sums over; a scalar takes the frame of the statement that reads it;
 *   2. order: per element, the statements run in the order the dependence
 *      model gives (deps_before_on), which is the textual order when they
 *      share the element's loops;
 *   3. values: each element ends as beta * (its value before the nest) plus
 *      terms with loop-invariant coefficients: a sum over s of a product of
 *      two elements, a product of two elements, or one element;
 *   4. forms: the terms are matched by their access functions (which of r,
 *      c, s index each operand) and by their domains, compared as isl sets
 *      with the library's: a sum over a box is GEMM (GEMV for a vector), over
 *      a triangle of C with one operand read twice SYRK, with two operands
 *      swapped SYR2K; pieces of one sum split at s = r that read one triangle
 *      of a matrix are SYMM or TRMM; u[r] * v[c] is GER; one element GEAM.
 * An array the nest writes may be read at the element being computed, or
 * elsewhere only where it still holds its value from before the nest
 * (deps_reads_initial: TRMM in place).  Everything else stays a kernel;
 * lib_match says why when the nest looked like a product.  The kernel is
 * always kept: the launcher runs it when cuBLAS cannot take the sizes.
 *
 * The C loops sum in their order, cuBLAS in its own: results differ by the
 * reassociation of the sums (docs/libraries.md gives the tolerance). */
#include "gfc.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* GF_EPI_* of include/gpufuse.h */
enum { EPI_BIAS = 1, EPI_RELU = 2, EPI_GELU = 4 };

/* the roles of a statement's loops: the dimensions of its domain's set */
enum { R_ROW = SET_R, R_COL = SET_C, R_SUM = SET_S, R_NONE = -1 };

#define MAXL 8                   /* loops around a statement in the nest */
#define MAXI 48                  /* statements in a nest */
#define MAXO 8                   /* arrays a nest writes */
#define MAXF 8                   /* factors of a GELU product */

/* ---- small helpers ------------------------------------------------------------------ */

static Stmt *only(Stmt *s)
{
    while (s && s->kind == S_BLOCK && s->list.len == 1)
        s = vec_at(&s->list, 0);
    return s;
}

static bool lit_value(const Expr *e, double *v)
{
    while (e->kind == E_CAST)
        e = e->kids[0];
    if (e->kind != E_INT && e->kind != E_FLOAT)
        return false;
    char *end;
    *v = strtod(e->text, &end);
    return end != e->text;
}

static bool is_zero_lit(const Expr *e)
{
    double v;
    return e && lit_value(e, &v) && v == 0;
}

static bool plain_loop(const Stmt *l)
{
    return l && l->kind == S_FOR && l->step == 1 && !l->brk && is_zero_lit(l->lb);
}

static TypeKind elem_kind(Var *v) { return type_elem(v->ty)->kind; }

/* ---- the matcher's state ------------------------------------------------------------- */

/* An element read or written: v[sub0][sub1] (rank 2) or v[sub0], each
 * subscript one loop index, named by its role in the statement's frame. */
typedef struct Fac {
    Var *v;
    int rank;
    Stmt *loop[2];               /* the loops indexing it */
    int sub[2];                  /* their roles */
    Expr *ld;                    /* rank 2: the row stride */
    bool old;                    /* an array the nest writes, read where it still holds
                                    its value from before the nest */
} Fac;

struct Item;

/* sum over s in dom of f * g */
typedef struct Sum {
    Fac f, g;
    GfSet *dom;                  /* the statement's instances, over [r, c, s] */
    struct Item *src;
} Sum;

/* k * f[0] * f[1], or k * sum */
typedef struct Mono {
    LibCoef k;
    Fac f[2];
    int nf;
    Sum *sum;
} Mono;

typedef struct Poly {
    Mono *m;
    int n;
} Poly;

typedef struct Out {
    Var *v;
    int rank;
    Expr *ld;
    Poly cur;                    /* its value so far, per element */
    int epi;                     /* a cuBLASLt epilogue applied last */
    Var *bias;
    Vec resets;                  /* Item*: statements writing it outside a sum */
    Vec writers;                 /* Item* */
    int last;                    /* position of its last writer in the order */
    bool done;                   /* lowered */
    LibCoef ref_k;               /* lowering: ... */
} Out;

typedef struct Item {
    Stmt *s;
    Stmt *loops[MAXL];           /* the nest's loops around it, outermost first */
    int nloops;
    int role[MAXL];
    bool framed;
    int ord;                     /* textual position */
    Out *out;                    /* the array it writes; NULL: a scalar */
    Var *scalar;                 /* the scalar it writes */
    Fac w;                       /* the element it writes */
    int sum;                     /* index in loops of the loop with role R_SUM, -1 if none */
    bool acc;                    /* an update summed over that loop (arrays: it is around
                                    the statement; scalars: inside the declaration's loops) */
} Item;

typedef struct Cx {
    Arena *a;
    Region *r;
    Stmt *nest;
    Item items[MAXI];
    int nitems;
    Out outs[MAXO];
    int nouts;
    Item *order[MAXI];           /* the array writers, per element in this order */
    int norder;
    GfSets *sets;                /* the sets below, freed when the match ends */
    Var role_var[3];             /* r, c and s in the shapes' constraints */
    SetFrame shape;              /* the frame of role_var */
    Vec cands;                   /* Expr*: loop bounds free of the nest's indices */
    Item *at;                    /* the statement being evaluated */
    const char *why;             /* the first reason it is not a library call */
    LibCall *lc;
} Cx;

static bool fail(Cx *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static bool fail(Cx *x, const char *fmt, ...)
{
    if (!x->why) {
        va_list ap;
        va_start(ap, fmt);
        char buf[512];
        vsnprintf(buf, sizeof buf, fmt, ap);
        va_end(ap);
        x->why = arena_strdup(x->a, buf);
    }
    return false;
}

/* ---- sets (analysis/sets.c) ----------------------------------------------------------- */

static void sets_open(Cx *x)
{
    static const char *const names[] = {"r", "c", "s"};
    x->sets = sets_new();
    for (int k = 0; k < 3; k++) {
        x->role_var[k] = (Var){.name = names[k], .cname = names[k], .kind = V_IV};
        x->shape.dim[k] = &x->role_var[k];
    }
}

static Aff *num_aff(Cx *x, long long c)
{
    Aff *f = arena_alloc(x->a, sizeof *f);
    f->c = c;
    return f;
}

/* role + c, for the shapes' constraints */
static Aff *role_aff(Cx *x, int role, long long c)
{
    Aff *f = num_aff(x, c);
    f->terms = arena_alloc(x->a, sizeof *f->terms);
    f->terms[0] = (AffTerm){&x->role_var[role], 1};
    f->nterms = 1;
    return f;
}

/* f + c */
static Aff *aff_plus(Cx *x, const Aff *f, long long c)
{
    return f ? aff_add(x->a, f, num_aff(x, c), 1) : NULL;
}

/* The elements [r, c] a domain covers (s projected out, kept as 0). */
static GfSet *elems_of(Cx *x, const GfSet *dom) { return sets_zero_dim(x->sets, dom, R_SUM); }

/* ---- frames ------------------------------------------------------------------------- */

static int loop_index(const Item *it, const Var *iv)
{
    for (int i = 0; i < it->nloops; i++)
        if (it->loops[i]->iv == iv)
            return i;
    return -1;
}

static bool in_nest(Cx *x, const Var *iv)
{
    for (int i = 0; i < x->nitems; i++)
        if (loop_index(&x->items[i], iv) >= 0)
            return true;
    return false;
}

/* The statement's instances as a set over [r, c, s]: its loops by role,
 * a role without a loop 0 (NULL unless each loop has a role of its own). */
static GfSet *item_dom(Cx *x, const Item *it)
{
    SetFrame f = {{NULL, NULL, NULL}};
    for (int i = 0; i < it->nloops; i++) {
        if (it->role[i] == R_NONE || f.dim[it->role[i]])
            return NULL;
        f.dim[it->role[i]] = it->loops[i]->iv;
    }
    GfSet *d = sets_universe(x->sets);
    for (int i = 0; i < it->nloops; i++) {
        Stmt *l = it->loops[i];
        d = sets_meet(x->sets, d, sets_range(x->sets, &f, aff_of(x->a, l->lb), it->role[i], aff_of(x->a, l->ub)));
    }
    for (int k = 0; k < 3; k++)
        if (!f.dim[k])
            d = sets_meet(x->sets, d, sets_fix(x->sets, &f, k, num_aff(x, 0)));
    return d;
}

/* ---- collecting the nest ---------------------------------------------------------------- */

/* The loops around the visited statement (the visitor's `up`), outermost
 * first; returns their number. */
static int loops_around(const IrFrame *up, Stmt **loops)
{
    int n = 0;
    for (const IrFrame *f = up; f; f = f->up)
        n += f->s->kind == S_FOR;
    gfc_assert(n <= MAXL);
    int i = n;
    for (const IrFrame *f = up; f; f = f->up)
        if (f->s->kind == S_FOR)
            loops[--i] = f->s;
    return n;
}

typedef struct CollectCx {
    IrVisitor v;
    Cx *x;
} CollectCx;

/* One statement of the nest: a loop to enter or an item; anything else
 * fails (done). */
static bool collect_stmt_ok(Cx *x, Stmt *s, Stmt **loops, int n)
{
    switch (s->kind) {
    case S_BLOCK: return true;
    case S_FOR:
        if (s->step != 1 || s->brk)
            return fail(x, "loop '%s' (line %d) %s", s->iv->name, s->loc.line,
                        s->brk ? "may stop early" : "has a step other than 1");
        if (!aff_of(x->a, s->lb) || !aff_of(x->a, s->ub))
            return fail(x, "the bounds of loop '%s' (line %d) are not affine", s->iv->name, s->loc.line);
        if (n == MAXL)
            return fail(x, "too deep");
        return true;
    case S_ASSIGN:
    case S_DECL: {
        if (s->kind == S_DECL && s->var->is_array)
            return fail(x, "it declares an array (line %d)", s->loc.line);
        if (x->nitems == MAXI)
            return fail(x, "too many statements");
        Item *it = &x->items[x->nitems];
        *it = (Item){.s = s, .nloops = n, .ord = x->nitems, .sum = -1};
        memcpy(it->loops, loops, sizeof(Stmt *) * (size_t)n);
        for (int i = 0; i < n; i++)
            it->role[i] = R_NONE;
        x->nitems++;
        return true;
    }
    case S_IF: return fail(x, "a condition (line %d) decides what it computes", s->loc.line);
    case S_WHILE: return fail(x, "a while loop (line %d)", s->loc.line);
    default: return fail(x, "line %d is not an assignment", s->loc.line);
    }
}

static bool collect_stmt(IrVisitor *v, Stmt *s)
{
    Stmt *loops[MAXL];
    int n = loops_around(v->up, loops);
    if (!collect_stmt_ok(((CollectCx *)v)->x, s, loops, n))
        v->done = true;
    return true;
}

/* The nest's items (x->items) and the loops around each; false (x->why) if
 * it is not only loops and assignments. */
static bool collect(Cx *x, Stmt *s)
{
    CollectCx c = {{.stmt = collect_stmt}, x};
    ir_visit_stmt(&c.v, s);
    return !c.v.done;
}

static bool float_elem(Var *v)
{
    TypeKind k = elem_kind(v);
    return k == TY_FLOAT || k == TY_DOUBLE;
}

/* The loop of it that e (a subscript, as an affine form) is, or NULL. */
static Stmt *sub_loop(const Item *it, const Aff *f)
{
    if (!f || f->c != 0 || f->nterms != 1 || f->terms[0].coef != 1)
        return NULL;
    int l = loop_index(it, f->terms[0].var);
    return l >= 0 ? it->loops[l] : NULL;
}

/* e as an element of a float or double array whose subscripts are loop
 * indices of it (roles filled in later). */
static bool elem_of(Cx *x, const Item *it, Expr *e, Fac *out)
{
    if (!e || e->kind != E_INDEX || !e->var->is_array)
        return fail(x, "line %d: not an array element", it->s->loc.line);
    Var *v = e->var;
    if (v->kind == V_TABLE)      /* a library takes device pointers; a table is a symbol of the file */
        return fail(x, "'%s' is a table of the file, not an array the call can take", v->name);
    if (!float_elem(v))
        return fail(x, "'%s' is not an array of float or double", v->name);
    *out = (Fac){.v = v};
    if (e->nkids == 2 && v->ndims == 2 && v->dims[1]) {
        for (int i = 0; i < 2; i++) {
            Aff *f = e->aff && e->aff[i] ? e->aff[i] : aff_of(x->a, e->kids[i]);
            if (!(out->loop[i] = sub_loop(it, f)))
                return fail(x, "a subscript of '%s' on line %d is not a loop index of the nest", v->name,
                            it->s->loc.line);
        }
        out->rank = 2;
        out->ld = v->dims[1];
        return true;
    }
    if (e->nkids != 1 || v->ndims > 1)
        return fail(x, "'%s' has %d dimensions", v->name, v->ndims);
    if (v->delin && !v->delin_bad) {
        Var *P = NULL;
        Aff *o = NULL, *in = NULL;
        if (!deps_split_flat(x->a, e->kids[0], &P, &o, &in) || P != v->delin || !o || !in ||
            !(out->loop[0] = sub_loop(it, o)) || !(out->loop[1] = sub_loop(it, in)))
            return fail(x, "a subscript of '%s' on line %d is not row * %s + column with loop indices", v->name,
                        it->s->loc.line, v->delin->name);
        Expr *ld = arena_alloc(x->a, sizeof *ld);
        *ld = (Expr){.kind = E_VAR, .ty = P->ty, .var = P, .loc = e->loc};
        out->rank = 2;
        out->ld = ld;
        return true;
    }
    Aff *f = e->aff && e->aff[0] ? e->aff[0] : aff_of(x->a, e->kids[0]);
    if (!(out->loop[0] = sub_loop(it, f)))
        return fail(x, "the subscript of '%s' on line %d is not a loop index of the nest", v->name, it->s->loc.line);
    out->rank = 1;
    return true;
}

static Out *out_of(Cx *x, Var *v)
{
    for (int i = 0; i < x->nouts; i++)
        if (x->outs[i].v == v)
            return &x->outs[i];
    return NULL;
}

static bool declared_in_nest(Cx *x, Var *v)
{
    for (int i = 0; i < x->nitems; i++)
        if (x->items[i].s->kind == S_DECL && x->items[i].s->var == v)
            return true;
    return false;
}

/* The written element or scalar of every statement, and the outputs. */
static bool find_targets(Cx *x)
{
    for (int i = 0; i < x->nitems; i++) {
        Item *it = &x->items[i];
        Stmt *s = it->s;
        Var *v = s->kind == S_DECL ? s->var : s->lhs->var;
        if (s->kind == S_DECL || s->lhs->kind == E_VAR) {
            if (v->kind != V_LOCAL || !declared_in_nest(x, v))
                return fail(x, "line %d assigns '%s', declared outside the nest", s->loc.line, v->name);
            if (v->ty->kind != TY_FLOAT && v->ty->kind != TY_DOUBLE)
                return fail(x, "'%s' is not float or double", v->name);
            it->scalar = v;
            continue;
        }
        if (s->lhs->kind != E_INDEX)
            return fail(x, "line %d assigns a field", s->loc.line);
        if (!elem_of(x, it, s->lhs, &it->w))
            return false;
        if (v->kind != V_PARAM && !v->is_temp)
            return fail(x, "'%s' is not a parameter or a temporary", v->name);
        Out *o = out_of(x, v);
        if (!o) {
            if (x->nouts == MAXO)
                return fail(x, "it writes too many arrays");
            o = &x->outs[x->nouts++];
            *o = (Out){.v = v, .rank = it->w.rank, .ld = it->w.ld};
        }
        if (o->rank != it->w.rank)
            return fail(x, "'%s' is written with different shapes", v->name);
        it->out = o;
        vec_push(x->a, &o->writers, it);
    }
    if (!x->nouts)
        return fail(x, "it writes no array");
    /* one element type for everything the nest computes */
    TypeKind t = elem_kind(x->outs[0].v);
    for (int i = 1; i < x->nouts; i++)
        if (elem_kind(x->outs[i].v) != t)
            return fail(x, "it writes float and double arrays");
    return true;
}

/* Roles from the written element: subscripts are r (and c), one more loop
 * is the sum. */
static bool frame_writer(Cx *x, Item *it)
{
    for (int k = 0; k < it->w.rank; k++) {
        int l = loop_index(it, it->w.loop[k]->iv);
        if (it->role[l] != R_NONE)
            return fail(x, "line %d writes '%s' with one index twice", it->s->loc.line, it->w.v->name);
        it->role[l] = k == 0 ? R_ROW : R_COL;
        it->w.sub[k] = it->role[l];
    }
    for (int l = 0; l < it->nloops; l++) {
        if (it->role[l] != R_NONE)
            continue;
        if (it->sum >= 0)
            return fail(x, "line %d sums over two loops", it->s->loc.line);
        it->role[l] = R_SUM;
        it->sum = l;
        it->acc = true;
    }
    it->framed = true;
    return true;
}

static bool reads_scalar(const Expr *e, const void *v) { return e->kind == E_VAR && e->var == v; }

/* A scalar's statements take the frame of the statements that read it, on
 * the loops around its declaration (they must agree); one loop more around
 * a statement that assigns it is a sum. */
static bool frame_scalar(Cx *x, Item *it)
{
    Item *decl = NULL;
    for (int j = 0; j < x->nitems; j++)
        if (x->items[j].s->kind == S_DECL && x->items[j].s->var == it->scalar)
            decl = &x->items[j];
    Item *reader = NULL;
    for (int j = 0; j < x->nitems; j++) {
        Item *q = &x->items[j];
        if (!q->framed || q == it || q->scalar == it->scalar || !ir_stmt_any(q->s, reads_scalar, it->scalar))
            continue;
        for (int l = 0; l < decl->nloops; l++)
            if (reader && reader->role[l] != q->role[l])
                return fail(x, "'%s' is read in different frames", it->scalar->name);
        reader = q;
    }
    if (!reader)
        return true;             /* not yet: a scalar read by another scalar */
    for (int l = 0; l < it->nloops; l++) {
        if (l < decl->nloops) {
            it->role[l] = reader->role[l];
        } else if (it->sum >= 0) {
            return fail(x, "line %d sums over two loops", it->s->loc.line);
        } else if (l < reader->nloops && reader->loops[l] == it->loops[l]) {
            return fail(x, "'%s' is updated inside the loop that reads it (line %d)", it->scalar->name,
                        it->s->loc.line);
        } else {
            it->role[l] = R_SUM;
            it->acc = true;
        }
        if (it->role[l] == R_SUM) {
            if (it->sum >= 0 && it->sum != l)
                return fail(x, "line %d sums over two loops", it->s->loc.line);
            it->sum = l;
        }
    }
    it->framed = true;
    return true;
}

static bool frame_scalars(Cx *x)
{
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = 0; i < x->nitems; i++) {
            Item *it = &x->items[i];
            if (it->framed || !it->scalar)
                continue;
            if (!frame_scalar(x, it))
                return false;
            changed |= it->framed;
        }
    }
    for (int i = 0; i < x->nitems; i++)
        if (!x->items[i].framed)
            return fail(x, "'%s' (line %d) is not read by what the nest writes", x->items[i].scalar->name,
                        x->items[i].s->loc.line);
    return true;
}

/* ---- order per element -------------------------------------------------------------- */

static bool touches(const Expr *e, const void *v) { return (e->kind == E_INDEX || e->kind == E_VAR) && e->var == v; }

static bool accumulates(const Item *it) { return it->acc; }

/* p before q (textual) on every element of o they both touch: they share
 * the element's loops, or isl says so. */
static int order_pair(Cx *x, Item *p, Item *q, Out *o)
{
    bool aligned = true;
    for (int l = 0; l < p->nloops && l < q->nloops && p->loops[l] == q->loops[l]; l++)
        if (p->role[l] != q->role[l] || p->role[l] == R_SUM)
            aligned = false;
    if (aligned || deps_before_on(x->r, p->s, q->s, o->v))
        return 1;
    if (deps_before_on(x->r, q->s, p->s, o->v))
        return -1;
    if (p->out == o && q->out == o && accumulates(p) && accumulates(q))
        return 0;                /* sums commute */
    return 2;
}

/* Array writers in an order that is each element's order. */
static bool order_items(Cx *x)
{
    int n = 0;
    Item *w[MAXI];
    for (int i = 0; i < x->nitems; i++)
        if (x->items[i].out)
            w[n++] = &x->items[i];
    bool after[MAXI][MAXI];      /* after[i][j]: w[i] runs after w[j] */
    memset(after, 0, sizeof after);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            for (int k = 0; k < x->nouts; k++) {
                Out *o = &x->outs[k];
                if (!ir_stmt_any(w[i]->s, touches, o->v) || !ir_stmt_any(w[j]->s, touches, o->v))
                    continue;
                if (w[i]->out != o && w[j]->out != o)
                    continue;
                int d = order_pair(x, w[i], w[j], o);
                if (d == 2)
                    return fail(x, "lines %d and %d update '%s' in an interleaved order", w[i]->s->loc.line,
                                w[j]->s->loc.line, o->v->name);
                if (d == 1)
                    after[j][i] = true;
                if (d == -1)
                    after[i][j] = true;
            }
    /* a topological order, textual among equals */
    bool placed[MAXI] = {false};
    for (x->norder = 0; x->norder < n;) {
        int pick = -1;
        for (int i = 0; i < n && pick < 0; i++) {
            if (placed[i])
                continue;
            bool ready = true;
            for (int j = 0; j < n; j++)
                if (after[i][j] && !placed[j])
                    ready = false;
            if (ready)
                pick = i;
        }
        if (pick < 0)
            return fail(x, "its statements have no order per element");
        placed[pick] = true;
        w[pick]->out->last = x->norder;
        x->order[x->norder++] = w[pick];
    }
    return true;
}

/* ---- values --------------------------------------------------------------------------- */

static LibCoef coef_num(double v) { return (LibCoef){.num = v}; }

static bool coef_mul(LibCoef *out, const LibCoef *p, const LibCoef *q)
{
    if (p->nf + q->nf > 4)
        return false;
    LibCoef r = {.num = p->num * q->num};
    for (int i = 0; i < p->nf; i++)
        r.f[r.nf++] = p->f[i];
    for (int i = 0; i < q->nf; i++)
        r.f[r.nf++] = q->f[i];
    *out = r;
    return true;
}

static bool coef_equal(const LibCoef *p, const LibCoef *q)
{
    if (p->num != q->num || p->nf != q->nf)
        return false;
    bool used[4] = {false};
    for (int i = 0; i < p->nf; i++) {
        int j = 0;
        while (j < q->nf && (used[j] || !expr_equal(p->f[i], q->f[j])))
            j++;
        if (j == q->nf)
            return false;
        used[j] = true;
    }
    return true;
}

static bool fac_equal(const Fac *p, const Fac *q)
{
    return p->v == q->v && p->rank == q->rank && p->old == q->old && p->sub[0] == q->sub[0] &&
           (p->rank == 1 || p->sub[1] == q->sub[1]);
}

static Poly poly_new(Cx *x, int n)
{
    return (Poly){arena_alloc(x->a, sizeof(Mono) * (size_t)(n ? n : 1)), 0};
}

static Poly poly_mono(Cx *x, Mono m)
{
    Poly p = poly_new(x, 1);
    p.m[p.n++] = m;
    return p;
}

/* Like terms merge when their coefficients are numbers times the same factors. */
static bool mono_like(const Mono *p, const Mono *q)
{
    if (p->sum || q->sum || p->nf != q->nf || p->k.nf != q->k.nf)
        return false;
    LibCoef a = p->k, b = q->k;
    a.num = b.num = 1;
    if (!coef_equal(&a, &b))
        return false;
    if (p->nf == 0)
        return true;
    if (p->nf == 1)
        return fac_equal(&p->f[0], &q->f[0]);
    return (fac_equal(&p->f[0], &q->f[0]) && fac_equal(&p->f[1], &q->f[1])) ||
           (fac_equal(&p->f[0], &q->f[1]) && fac_equal(&p->f[1], &q->f[0]));
}

static Poly poly_add(Cx *x, Poly p, Poly q, double s)
{
    Poly r = poly_new(x, p.n + q.n);
    for (int i = 0; i < p.n; i++)
        r.m[r.n++] = p.m[i];
    for (int i = 0; i < q.n; i++) {
        Mono m = q.m[i];
        m.k.num *= s;
        int j = 0;
        while (j < r.n && !mono_like(&r.m[j], &m))
            j++;
        if (j < r.n)
            r.m[j].k.num += m.k.num;
        else
            r.m[r.n++] = m;
    }
    /* drop what cancelled */
    int k = 0;
    for (int i = 0; i < r.n; i++)
        if (r.m[i].k.num != 0)
            r.m[k++] = r.m[i];
    r.n = k;
    return r;
}

static bool poly_mul(Cx *x, Poly p, Poly q, Poly *out, int line)
{
    Poly r = poly_new(x, p.n * q.n);
    for (int i = 0; i < p.n; i++)
        for (int j = 0; j < q.n; j++) {
            const Mono *a = &p.m[i], *b = &q.m[j];
            Mono m = {0};
            if ((a->sum && (b->sum || b->nf)) || (b->sum && a->nf) || a->nf + b->nf > 2)
                return fail(x, "line %d multiplies more than two array elements", line);
            if (!coef_mul(&m.k, &a->k, &b->k))
                return fail(x, "line %d: too many scale factors", line);
            m.sum = a->sum ? a->sum : b->sum;
            for (int t = 0; t < a->nf; t++)
                m.f[m.nf++] = a->f[t];
            for (int t = 0; t < b->nf; t++)
                m.f[m.nf++] = b->f[t];
            r = poly_add(x, r, poly_mono(x, m), 1);
        }
    *out = r;
    return true;
}

/* A number or a product of loop-invariant scalars: the coefficient. */
static bool poly_const(Poly p, LibCoef *k)
{
    if (p.n == 0) {
        *k = coef_num(0);
        return true;
    }
    if (p.n != 1 || p.m[0].nf || p.m[0].sum)
        return false;
    *k = p.m[0].k;
    return true;
}

static bool invariant_scalar(const Var *v)
{
    return v->kind == V_PARAM && !v->is_array && !v->scalar_written && type_is_arith(v->ty);
}

static bool eval(Cx *x, Item *it, Expr *e, Poly *out);
static bool scalar_value(Cx *x, Item *at, Var *t, Poly *out);

/* The fac of e in it's frame: roles of its loops. */
static void fac_roles(const Item *it, Fac *f)
{
    for (int k = 0; k < f->rank; k++)
        f->sub[k] = it->role[loop_index(it, f->loop[k]->iv)];
}

static bool same_element(const Fac *f, const Out *o)
{
    return f->rank == o->rank && f->sub[0] == R_ROW && (f->rank == 1 || f->sub[1] == R_COL);
}

static bool eval_elem(Cx *x, Item *it, Expr *e, Poly *out)
{
    Fac f;
    if (!elem_of(x, it, e, &f))
        return false;
    fac_roles(it, &f);
    if (elem_kind(f.v) != elem_kind(x->outs[0].v))
        return fail(x, "line %d mixes float and double arrays", it->s->loc.line);
    if (f.v->copy_of && out_of(x, f.v->copy_of)) {
        /* the copy of an output made just before the nest (priv.c): its
         * values from before the nest, as TRMM in place reads them */
        f.v = f.v->copy_of;
        f.old = true;
        *out = poly_mono(x, (Mono){.k = coef_num(1), .f = {f}, .nf = 1});
        return true;
    }
    Out *o = out_of(x, f.v);
    if (o && same_element(&f, o) && it->sum < 0 && it->out) {
        *out = o->cur;           /* the value computed so far */
        return true;
    }
    if (o) {
        if (!deps_reads_initial(x->r, x->nest, it->s, f.v))
            return fail(x, "line %d reads elements of '%s' that the nest writes", it->s->loc.line, f.v->name);
        f.old = true;
    }
    *out = poly_mono(x, (Mono){.k = coef_num(1), .f = {f}, .nf = 1});
    return true;
}

static bool eval(Cx *x, Item *it, Expr *e, Poly *out)
{
    int line = it->s->loc.line;
    switch (e->kind) {
    case E_INT:
    case E_FLOAT: {
        double v;
        if (!lit_value(e, &v))
            return fail(x, "line %d: literal '%s'", line, e->text);
        *out = v == 0 ? poly_new(x, 0) : poly_mono(x, (Mono){.k = coef_num(v)});
        return true;
    }
    case E_VAR:
        if (invariant_scalar(e->var)) {
            Mono m = {.k = coef_num(1)};
            m.k.f[m.k.nf++] = e;
            *out = poly_mono(x, m);
            return true;
        }
        if (e->var->kind == V_LOCAL && !e->var->is_array && declared_in_nest(x, e->var))
            return scalar_value(x, it, e->var, out);
        return fail(x, "line %d reads '%s', which changes in the nest or is not a number", line, e->var->name);
    case E_INDEX: return eval_elem(x, it, e, out);
    case E_CAST:
        if (!type_is_arith(e->ty) || (type_is_integer(e->ty) && e->kids[0]->kind == E_INDEX))
            return fail(x, "line %d converts to %s", line, type_src_name(e->ty));
        if (e->kids[0]->kind == E_INDEX && e->ty->kind != elem_kind(e->kids[0]->var))
            return fail(x, "line %d converts '%s' to %s", line, e->kids[0]->var->name, type_src_name(e->ty));
        return eval(x, it, e->kids[0], out);
    case E_UNARY:
        if (e->op == OP_PLUS)
            return eval(x, it, e->kids[0], out);
        if (e->op == OP_NEG) {
            Poly p;
            if (!eval(x, it, e->kids[0], &p))
                return false;
            *out = poly_add(x, poly_new(x, 0), p, -1);
            return true;
        }
        return fail(x, "line %d: operator '%s'", line, op_spelling(e->op));
    case E_BINARY: {
        Poly p, q;
        if (!eval(x, it, e->kids[0], &p) || !eval(x, it, e->kids[1], &q))
            return false;
        switch (e->op) {
        case OP_ADD: *out = poly_add(x, p, q, 1); return true;
        case OP_SUB: *out = poly_add(x, p, q, -1); return true;
        case OP_MUL: return poly_mul(x, p, q, out, line);
        case OP_DIV: {
            LibCoef k;
            if (!poly_const(q, &k) || k.nf || k.num == 0)
                return fail(x, "line %d divides by something other than a nonzero literal", line);
            return poly_mul(x, p, poly_mono(x, (Mono){.k = coef_num(1 / k.num)}), out, line);
        }
        default: return fail(x, "line %d: operator '%s'", line, op_spelling(e->op));
        }
    }
    default: return fail(x, "line %d computes more than sums of products", line);
    }
}

/* Sums over the statement's sum loop: every term a product with s in it. */
static bool make_sums(Cx *x, Item *it, Poly d, Poly *out)
{
    GfSet *dom = item_dom(x, it);
    Poly r = poly_new(x, d.n);
    for (int i = 0; i < d.n; i++) {
        Mono m = d.m[i];
        if (m.sum || m.nf != 2)
            return fail(x, "line %d adds something other than a product of two elements in its loop", it->s->loc.line);
        Sum *s = arena_alloc(x->a, sizeof *s);
        *s = (Sum){m.f[0], m.f[1], dom, it};
        r.m[r.n++] = (Mono){.k = m.k, .sum = s};
    }
    *out = r;
    return true;
}

/* `t = e`, `t op= e`: the new value of the target, given its current cur. */
static bool apply(Cx *x, Item *it, Poly cur, Expr *rhs, Op op, Poly *out)
{
    Poly v;
    if (!eval(x, it, rhs, &v))
        return false;
    int line = it->s->loc.line;
    LibCoef k;
    switch (op) {
    case OP_ASSIGN: *out = v; return true;
    case OP_ADD_ASSIGN: *out = poly_add(x, cur, v, 1); return true;
    case OP_SUB_ASSIGN: *out = poly_add(x, cur, v, -1); return true;
    case OP_MUL_ASSIGN: return poly_mul(x, cur, v, out, line);
    case OP_DIV_ASSIGN:
        if (!poly_const(v, &k) || k.nf || k.num == 0)
            return fail(x, "line %d divides by something other than a nonzero literal", line);
        return poly_mul(x, cur, poly_mono(x, (Mono){.k = coef_num(1 / k.num)}), out, line);
    default: return fail(x, "line %d: operator '%s'", line, op_spelling(op));
    }
}

static bool same_expr(const Expr *e, const void *t) { return expr_equal(e, t); }

/* An update inside the sum loop: target += products (the target read only
 * as `t = t + e` or `t += e`). */
static bool accumulate(Cx *x, Item *it, Poly cur, Poly *out)
{
    Stmt *s = it->s;
    Expr *e = s->rhs;
    double sign = 1;
    if (s->op == OP_ASSIGN && e->kind == E_BINARY && (e->op == OP_ADD || e->op == OP_SUB)) {
        bool self0 = expr_equal(e->kids[0], s->lhs), self1 = e->op == OP_ADD && expr_equal(e->kids[1], s->lhs);
        if (self0 || self1) {
            sign = e->op == OP_SUB ? -1 : 1;
            e = self0 ? e->kids[1] : e->kids[0];
        } else {
            return fail(x, "line %d is not an update `x += a * b` in its loop", s->loc.line);
        }
    } else if (s->op == OP_SUB_ASSIGN) {
        sign = -1;
    } else if (s->op != OP_ADD_ASSIGN) {
        return fail(x, "line %d is not an update `x += a * b` in its loop", s->loc.line);
    }
    if (ir_expr_any(e, same_expr, s->lhs))
        return fail(x, "line %d reads what it updates", s->loc.line);
    Poly d, sums = {0};
    if (!eval(x, it, e, &d) || !make_sums(x, it, d, &sums))
        return false;
    *out = poly_add(x, cur, sums, sign);
    return true;
}

/* The value of scalar t where `at` reads it: its declaration and the
 * statements before `at` that assign it, in the frame of `at`. */
static bool scalar_value(Cx *x, Item *at, Var *t, Poly *out)
{
    Poly cur = poly_new(x, 0);
    for (int i = 0; i < x->nitems && x->items[i].ord < at->ord; i++) {
        Item *w = &x->items[i];
        if (w->scalar != t)
            continue;
        if (w->s->kind == S_DECL) {
            cur = poly_new(x, 0);
            if (w->s->rhs && !eval(x, w, w->s->rhs, &cur))
                return false;
            continue;
        }
        if (!(w->acc ? accumulate(x, w, cur, &cur) : apply(x, w, cur, w->s->rhs, w->s->op, &cur)))
            return false;
    }
    if (at->acc) {
        for (int i = 0; i < cur.n; i++)
            if (cur.m[i].sum)
                return fail(x, "line %d reads the sum '%s' inside another sum", at->s->loc.line, t->name);
    }
    *out = cur;
    return true;
}

/* x = E(y): a cuBLASLt epilogue of y, with y one sum of products. */
static bool epilogue_of(Cx *x, Item *it, Poly *out);

/* Every array's value per element, in the order. */
static bool evaluate(Cx *x)
{
    for (int i = 0; i < x->nouts; i++) {
        Out *o = &x->outs[i];
        Fac self = {.v = o->v, .rank = o->rank, .sub = {R_ROW, R_COL}, .ld = o->ld, .old = true};
        o->cur = poly_mono(x, (Mono){.k = coef_num(1), .f = {self}, .nf = 1});
    }
    for (int i = 0; i < x->norder; i++) {
        Item *it = x->order[i];
        Out *o = it->out;
        x->at = it;
        if (o->epi)
            return fail(x, "line %d changes '%s' after its epilogue", it->s->loc.line, o->v->name);
        if (it->acc) {
            if (!accumulate(x, it, o->cur, &o->cur))
                return false;
            continue;
        }
        vec_push(x->a, &o->resets, it);
        if (apply(x, it, o->cur, it->s->rhs, it->s->op, &o->cur))
            continue;
        if (it->s->op != OP_ASSIGN)
            return false;
        const char *mine = x->why;
        x->why = NULL;
        if (!epilogue_of(x, it, &o->cur)) {
            x->why = mine;
            return false;
        }
    }
    return true;
}

/* ---- epilogues: bias, ReLU, GELU (cuBLASLt) ------------------------------------------ */

/* ReLU of x, written fmaxf(x, 0), fmaxf(0, x), x > 0 ? x : 0 or x < 0 ? 0 : x. */
static const Expr *relu_arg(const Expr *e)
{
    if (e->kind == E_CALL && e->nkids == 2 && !strcmp(e->text, "fmaxf")) {
        if (is_zero_lit(e->kids[1]))
            return e->kids[0];
        if (is_zero_lit(e->kids[0]))
            return e->kids[1];
    }
    if (e->kind == E_COND && e->kids[0]->kind == E_BINARY) {
        const Expr *c = e->kids[0];
        const Expr *x = c->kids[0], *z = c->kids[1];
        bool gt = c->op == OP_GT || c->op == OP_GE;
        bool lt = c->op == OP_LT || c->op == OP_LE;
        if (is_zero_lit(x)) { /* 0 < x is x > 0 */
            const Expr *t = x;
            x = z, z = t;
            bool g = gt;
            gt = lt, lt = g;
        }
        if (!is_zero_lit(z))
            return NULL;
        if (gt && expr_equal(e->kids[1], x) && is_zero_lit(e->kids[2]))
            return x;
        if (lt && is_zero_lit(e->kids[1]) && expr_equal(e->kids[2], x))
            return x;
    }
    return NULL;
}

/* The factors of a product (casts of floats looked through), the literals
 * multiplied into *c.  False past MAXF factors. */
static bool factors(const Expr *e, const Expr **f, int *n, double *c)
{
    while (e->kind == E_CAST && type_is_float(e->ty))
        e = e->kids[0];
    double v;
    if (lit_value(e, &v)) {
        *c *= v;
        return true;
    }
    if (e->kind == E_BINARY && e->op == OP_MUL)
        return factors(e->kids[0], f, n, c) && factors(e->kids[1], f, n, c);
    if (e->kind == E_CALL && !strcmp(e->text, "powf") && e->nkids == 2 && lit_value(e->kids[1], &v) && v == 3) {
        for (int i = 0; i < 3; i++)
            if (!factors(e->kids[0], f, n, c))
                return false;
        return true;
    }
    if (*n == MAXF)
        return false;
    f[(*n)++] = e;
    return true;
}

static bool two_terms(const Expr *e, const Expr **a, const Expr **b)
{
    while (e->kind == E_CAST && type_is_float(e->ty))
        e = e->kids[0];
    if (e->kind != E_BINARY || e->op != OP_ADD)
        return false;
    *a = e->kids[0], *b = e->kids[1];
    return true;
}

static bool near(double x, double want) { return fabs(x - want) <= 1e-6 * fabs(want); }

/* y when e is GELU(y): 0.5 y (1 + tanhf(0.7978845608 (y + 0.044715 y^3))),
 * its factors and terms in any order. */
static const Expr *gelu_arg(const Expr *e)
{
    const Expr *f[MAXF];
    int n = 0;
    double c = 1;
    if (!factors(e, f, &n, &c) || n != 2 || !near(c, 0.5))
        return NULL;
    for (int side = 0; side < 2; side++) {
        const Expr *y = f[side], *s = f[1 - side], *a, *b;
        if (!two_terms(s, &a, &b))
            continue;
        double one;
        const Expr *t = lit_value(a, &one) ? b : a;
        if (!lit_value(t == b ? a : b, &one) || one != 1)
            continue;
        while (t->kind == E_CAST && type_is_float(t->ty))
            t = t->kids[0];
        if (t->kind != E_CALL || strcmp(t->text, "tanhf") || t->nkids != 1)
            continue;
        const Expr *g[MAXF];
        int m = 0;
        double k = 1;
        if (!factors(t->kids[0], g, &m, &k) || m != 1 || !near(k, 0.7978845608028654))
            continue;
        const Expr *u, *v;
        if (!two_terms(g[0], &u, &v))
            continue;
        for (int w = 0; w < 2; w++) {
            const Expr *lin = w ? v : u, *cube = w ? u : v;
            const Expr *h[MAXF];
            int q = 0;
            double k3 = 1;
            if (!expr_equal(lin, y) || !factors(cube, h, &q, &k3) || q != 3 || !near(k3, 0.044715))
                continue;
            if (expr_equal(h[0], y) && expr_equal(h[1], y) && expr_equal(h[2], y))
                return y;
        }
    }
    return NULL;
}

/* bias[c]: a 1-D float parameter read-only in the nest, indexed by the column. */
static Var *bias_of(Cx *x, Item *it, const Expr *e)
{
    if (!e || e->kind != E_INDEX || e->nkids != 1 || !e->var->is_array || e->var->kind != V_PARAM)
        return NULL;
    Var *v = e->var;
    if (elem_kind(v) != TY_FLOAT || out_of(x, v) || v->ndims > 1 || v->delin)
        return NULL;
    Fac f;
    const char *why = x->why;
    bool ok = elem_of(x, it, (Expr *)e, &f);
    x->why = why;
    if (!ok)
        return NULL;
    fac_roles(it, &f);
    return f.sub[0] == R_COL ? v : NULL;
}

/* y's value when it is one sum with coefficient 1. */
static bool plain_sum(Cx *x, Item *it, const Expr *y, Poly *p)
{
    const char *why = x->why;
    bool ok = eval(x, it, (Expr *)y, p) && p->n == 1 && p->m[0].sum && p->m[0].k.num == 1 && !p->m[0].k.nf;
    x->why = why;
    return ok;
}

static bool epilogue_of(Cx *x, Item *it, Poly *out)
{
    Out *o = it->out;
    const Expr *e = it->s->rhs, *r;
    int flags = 0;
    if ((r = relu_arg(e)))
        flags |= EPI_RELU, e = r;
    else if ((r = gelu_arg(e)))
        flags |= EPI_GELU, e = r;
    Var *bias = NULL;
    Poly p;
    if (e->kind == E_BINARY && e->op == OP_ADD) {
        for (int side = 0; side < 2 && !bias; side++) {
            Var *b = bias_of(x, it, e->kids[side]);
            if (b && plain_sum(x, it, e->kids[1 - side], &p))
                bias = b;
        }
        if (bias)
            flags |= EPI_BIAS;
    }
    if (!bias && (!flags || !plain_sum(x, it, e, &p)))
        return fail(x, "line %d computes more than sums of products", it->s->loc.line);
    if (o->rank != 2 || elem_kind(o->v) != TY_FLOAT)
        return fail(x, "line %d: cuBLASLt's epilogues here are for float matrices", it->s->loc.line);
    o->epi = flags;
    o->bias = bias;
    *out = p;
    return true;
}

/* ---- forms ------------------------------------------------------------------------------ */

/* Loop bounds free of the nest's indices: the candidate sizes (through
 * blocks and for loops only). */
static IrFind cand_bound(const Stmt *s, const void *arg)
{
    Cx *x = (Cx *)arg;
    if (s->kind == S_BLOCK)
        return IR_NEXT;
    if (s->kind != S_FOR)
        return IR_SKIP;
    Aff *f = aff_of(x->a, s->ub);
    bool free = f != NULL;
    for (int i = 0; f && i < f->nterms; i++)
        if (f->terms[i].var->kind == V_IV && in_nest(x, f->terms[i].var))
            free = false;
    for (int i = 0; f && i < f->nterms; i++)
        if (f->terms[i].var->kind == V_PARAM && f->terms[i].var->scalar_written)
            free = false;
    for (int i = 0; free && i < x->cands.len; i++)
        if (expr_equal(vec_at(&x->cands, i), s->ub))
            free = false;
    if (free)
        vec_push(x->a, &x->cands, s->ub);
    return IR_NEXT;
}

static void find_cands(Cx *x, Stmt *s)
{
    ir_stmt_find(s, cand_bound, x);
}

/* The candidate u with max(role) = u - 1 on dom, or NULL. */
static Expr *size_of(Cx *x, const GfSet *dom, int role)
{
    for (int i = 0; i < x->cands.len; i++) {
        Expr *u = vec_at(&x->cands, i);
        Aff *t = aff_of(x->a, u);
        if (!sets_subset(x->sets, dom, sets_below(x->sets, &x->shape, role, t)))
            continue;
        if (sets_same_params(x->sets, dom, sets_fix(x->sets, &x->shape, role, aff_plus(x, t, -1))))
            return u;
    }
    return NULL;
}

/* The elements [r, c] (s = 0) of an m x n box (n NULL: a vector, m x 1) or
 * of a triangle of an m x m matrix. */
static GfSet *elems_shape(Cx *x, LibElems e)
{
    GfSets *S = x->sets;
    const SetFrame *f = &x->shape;
    Aff *M = aff_of(x->a, e.m), *zero = num_aff(x, 0);
    GfSet *c;
    switch (e.shape) {
    case LS_BOX:
        c = sets_meet(S, sets_range(S, f, zero, R_ROW, M),
                      sets_range(S, f, zero, R_COL, e.n ? aff_of(x->a, e.n) : num_aff(x, 1)));
        break;
    case LS_LOWER:               /* 0 <= c <= r < m */
        c = sets_meet(S, sets_range(S, f, zero, R_COL, role_aff(x, R_ROW, 1)), sets_below(S, f, R_ROW, M));
        break;
    case LS_UPPER:               /* 0 <= r <= c < m */
        c = sets_meet(S, sets_range(S, f, zero, R_ROW, role_aff(x, R_COL, 1)), sets_below(S, f, R_COL, M));
        break;
    default: unreachable();
    }
    return sets_meet(S, c, sets_fix(S, f, R_SUM, zero));
}

/* elems x { s : lo <= s < hi } (lo and hi in r and c: role_aff) */
static GfSet *sum_shape(Cx *x, const GfSet *elems, const Aff *lo, const Aff *hi)
{
    return sets_free_dim_meet(x->sets, elems, R_SUM, sets_range(x->sets, &x->shape, lo, R_SUM, hi));
}

/* f has roles (p, q) in that order. */
static bool subs(const Fac *f, int p, int q) { return f->rank == 2 && f->sub[0] == p && f->sub[1] == q; }

static bool has_roles(const Fac *f, int p, int q) { return subs(f, p, q) || subs(f, q, p); }

static LibOp *new_op(Cx *x, LibKind k, Out *o, LibCoef alpha, LibCoef beta)
{
    LibOp *op = arena_alloc(x->a, sizeof *op);
    *op = (LibOp){.kind = k, .c = o->v, .ldc = o->ld, .alpha = alpha, .beta = beta};
    return op;
}

/* Term kinds of one output. */
typedef struct Terms {
    Out *o;
    bool has_beta;
    LibCoef beta;
    Mono *t[16];
    int n;
    bool used[16];
    Expr *m, *n_;                /* the output's sizes */
    GfSet *elems;                /* all elements any statement writes */
} Terms;

/* A sum over a box: GEMM (matrix) or GEMV (vector). */
static LibOp *match_box_sum(Cx *x, Terms *T, Mono *mo)
{
    Sum *s = mo->sum;
    Out *o = T->o;
    const Fac *f = &s->f, *g = &s->g;
    Expr *K = size_of(x, s->dom, R_SUM);
    if (!K)
        return NULL;
    LibElems e = {LS_BOX, T->m, T->n_};
    if (!sets_equal(x->sets, s->dom, sum_shape(x, elems_shape(x, e), num_aff(x, 0), aff_of(x->a, K))))
        return NULL;
    if (o->rank == 1) {
        /* y[r] += A[r][s] x[s] or A[s][r] x[s] */
        if (f->rank == 1)
            f = &s->g, g = &s->f;
        if (f->rank != 2 || g->rank != 1 || g->sub[0] != R_SUM || !has_roles(f, R_ROW, R_SUM))
            return NULL;
        LibOp *op = new_op(x, L_GEMV, o, mo->k, coef_num(0));
        op->a = f->v, op->lda = f->ld, op->b = g->v;
        op->ta = subs(f, R_SUM, R_ROW);
        op->m = op->ta ? K : T->m;
        op->n = op->ta ? T->m : K;
        return op;
    }
    if (!has_roles(f, R_ROW, R_SUM))
        f = &s->g, g = &s->f;
    if (!has_roles(f, R_ROW, R_SUM) || !has_roles(g, R_SUM, R_COL))
        return NULL;
    LibOp *op = new_op(x, L_GEMM, o, mo->k, coef_num(0));
    op->a = f->v, op->lda = f->ld, op->ta = subs(f, R_SUM, R_ROW);
    op->b = g->v, op->ldb = g->ld, op->tb = subs(g, R_COL, R_SUM);
    op->m = T->m, op->n = T->n_, op->k = K;
    return op;
}

/* A sum over a triangle of C: SYRK (one operand), or SYR2K with its mirror
 * term (two operands swapped). */
static LibOp *match_tri_sum(Cx *x, Terms *T, int i)
{
    Mono *mo = T->t[i];
    Sum *s = mo->sum;
    Out *o = T->o;
    Expr *K = size_of(x, s->dom, R_SUM);
    if (o->rank != 2 || !K)
        return NULL;
    LibElems e = {LS_LOWER, T->m, NULL};
    Aff *zero = num_aff(x, 0), *k = aff_of(x->a, K);
    if (!sets_equal(x->sets, s->dom, sum_shape(x, elems_shape(x, e), zero, k)) &&
        !sets_equal(x->sets, s->dom, sum_shape(x, elems_shape(x, e = (LibElems){LS_UPPER, T->m, NULL}), zero, k)))
        return NULL;
    const Fac *f = &s->f, *g = &s->g;
    if (!has_roles(f, R_ROW, R_SUM))
        f = &s->g, g = &s->f;
    /* A[r][s] B[c][s] (C = A B^T), or A[s][r] B[s][c] (C = A^T B) */
    bool tr = subs(f, R_SUM, R_ROW);
    if (!(tr ? subs(f, R_SUM, R_ROW) && subs(g, R_SUM, R_COL) : subs(f, R_ROW, R_SUM) && subs(g, R_COL, R_SUM)))
        return NULL;
    LibOp *op;
    if (f->v == g->v) {
        op = new_op(x, L_SYRK, o, mo->k, coef_num(0));
    } else {
        /* the mirror: B[r][s] A[c][s] with the same coefficient and domain */
        int j = 0;
        for (; j < T->n; j++) {
            Mono *m2 = T->t[j];
            if (j == i || T->used[j] || !m2->sum || !coef_equal(&m2->k, &mo->k) ||
                !sets_equal(x->sets, m2->sum->dom, s->dom))
                continue;
            const Fac *f2 = &m2->sum->f, *g2 = &m2->sum->g;
            if (!has_roles(f2, R_ROW, R_SUM))
                f2 = &m2->sum->g, g2 = &m2->sum->f;
            if (f2->v == g->v && g2->v == f->v && subs(f2, f->sub[0], f->sub[1]) && subs(g2, g->sub[0], g->sub[1]))
                break;
        }
        if (j == T->n)
            return NULL;
        T->used[j] = true;
        op = new_op(x, L_SYR2K, o, mo->k, coef_num(0));
        op->b = g->v, op->ldb = g->ld;
    }
    op->a = f->v, op->lda = f->ld, op->ta = tr;
    op->upper = e.shape == LS_UPPER;
    op->m = op->n = T->m;
    op->k = K;
    op->elems = e;
    return op;
}

/* ---- SYMM and TRMM: one sum split at s = r (left) or s = c (right) ---------------- */

/* Pieces of C = k * sum_s M[r][s] B[s][c] (left) or k * sum_s B[r][s] M[s][c]
 * (right), split at s = i (i = r on the left, c on the right): for s < i,
 * s = i and s > i, which triangle of A gives M (or the identity on s = i). */
enum { TRI_LOWER, TRI_UPPER, TRI_DIAG, TRI_ONE };

typedef struct Band {
    int side;                    /* R_ROW: C = M B;  R_COL: C = B M */
    Var *a;
    Expr *lda;
    LibCoef k;
    bool have_k;
    Fac b;                       /* the other operand */
    bool have[3];                /* s < i, s == i, s > i */
    int tri[3];                  /* TRI_*: what gives M on that range */
    bool tr[3];                  /* M read transposed: op(A) = A^T */
    bool inplace;                /* B is the output's value from before the nest */
    int nused;
    int used[16];
} Band;

static bool band_add(Band *bd, int range, const Fac *m, bool tr, int tri)
{
    if (bd->have[range] || (m && bd->a && bd->a != m->v))
        return false;
    bd->have[range] = true;
    if (m)
        bd->a = m->v, bd->lda = m->ld;
    bd->tr[range] = tr;
    bd->tri[range] = tri;
    return true;
}

static bool band_coef(Band *bd, const Mono *mo)
{
    if (bd->have_k && !coef_equal(&bd->k, &mo->k))
        return false;
    bd->k = mo->k, bd->have_k = true;
    return true;
}

static bool band_b(Band *bd, const Fac *b)
{
    if (bd->b.v)
        return bd->b.v == b->v && bd->b.old == b->old;
    bd->b = *b;
    return true;
}

/* A sum over a range of s on one side of i. */
static bool band_sum(Cx *x, Terms *T, Band *bd, Mono *mo)
{
    int i = bd->side;
    Sum *s = mo->sum;
    const Fac *m = &s->f, *b = &s->g;
    if (!has_roles(m, i, R_SUM))
        m = &s->g, b = &s->f;
    bool bok = i == R_ROW ? subs(b, R_SUM, R_COL) : subs(b, R_ROW, R_SUM);
    if (!has_roles(m, i, R_SUM) || !bok || m->v == b->v || m->old)
        return false;
    Aff *Mt = aff_of(x->a, i == R_ROW ? T->m : T->n_), *zero = num_aff(x, 0);
    GfSet *box = elems_shape(x, (LibElems){LS_BOX, T->m, T->n_});
    /* s < i, s <= i, s > i, s >= i */
    const Aff *lo[4] = {zero, zero, role_aff(x, i, 1), role_aff(x, i, 0)};
    const Aff *hi[4] = {role_aff(x, i, 0), role_aff(x, i, 1), Mt, Mt};
    bool row_is_s = m->sub[0] == R_SUM;
    /* op(A) = A^T when M[r][s] is A[s][r] (left), M[s][c] is A[c][s] (right) */
    bool tr = i == R_ROW ? row_is_s : !row_is_s;
    for (int k = 0; k < 4; k++) {
        if (!sets_equal(x->sets, s->dom, sum_shape(x, box, lo[k], hi[k])))
            continue;
        bool below = k < 2;      /* s < i: A[i][s] is lower, A[s][i] upper */
        int tri = below == row_is_s ? TRI_UPPER : TRI_LOWER;
        if (!band_coef(bd, mo) || !band_b(bd, b) || !band_add(bd, below ? 0 : 2, m, tr, tri))
            return false;
        return k % 2 == 0 || band_add(bd, 1, m, tr, tri);
    }
    return false;
}

/* At s = i: k * A[i][i] * B[r][c], or k * B[r][c] (the identity). */
static bool band_diag(Band *bd, Mono *mo)
{
    if (mo->sum || !bd->b.v)
        return false;
    if (mo->nf == 1)
        return subs(&mo->f[0], R_ROW, R_COL) && band_coef(bd, mo) && band_b(bd, &mo->f[0]) &&
               band_add(bd, 1, NULL, false, TRI_ONE);
    if (mo->nf != 2)
        return false;
    const Fac *m = &mo->f[0], *b = &mo->f[1];
    if (!subs(m, bd->side, bd->side))
        m = &mo->f[1], b = &mo->f[0];
    return subs(m, bd->side, bd->side) && subs(b, R_ROW, R_COL) && band_coef(bd, mo) && band_b(bd, b) &&
           band_add(bd, 1, m, false, TRI_DIAG);
}

/* SYMM or TRMM from the unused terms of T, with A on `side`. */
static LibOp *match_band(Cx *x, Terms *T, int side)
{
    Out *o = T->o;
    if (o->rank != 2)
        return NULL;
    Band bd = {.side = side};
    for (int pass = 0; pass < 2; pass++)
        for (int t = 0; t < T->n; t++) {
            bool is_sum = T->t[t]->sum != NULL;
            if (T->used[t] || is_sum != (pass == 0))
                continue;
            Band keep = bd;
            if (pass ? band_diag(&bd, T->t[t]) : band_sum(x, T, &bd, T->t[t]))
                bd.used[bd.nused++] = t;
            else
                bd = keep;
        }
    if (!bd.a)
        return NULL;
    bool old_b = bd.b.v == o->v && bd.b.old;
    /* in place, the identity on the diagonal is the old value's beta */
    if (!bd.have[1] && old_b && T->has_beta && coef_equal(&T->beta, &bd.k)) {
        bd.have[1] = true, bd.tri[1] = TRI_ONE;
        bd.inplace = true;
    }
    if (!bd.have[1] || (bd.b.v == o->v && !bd.b.old))
        return NULL;
    LibOp *op;
    if (bd.have[0] && bd.have[2]) {
        /* SYMM: both sides from one triangle, the diagonal from A */
        if (bd.tri[0] != bd.tri[2] || bd.tri[1] == TRI_ONE || old_b)
            return NULL;
        op = new_op(x, L_SYMM, o, bd.k, coef_num(0));
        op->upper = bd.tri[0] == TRI_UPPER;
    } else {
        /* TRMM: one side; in place only with the old value as B */
        int r = bd.have[0] ? 0 : 2;
        if (old_b && T->has_beta && !bd.inplace)
            return NULL;
        op = new_op(x, L_TRMM, o, bd.k, coef_num(0));
        op->upper = bd.tri[r] == TRI_UPPER;
        op->ta = bd.tr[r];
        op->unit = bd.tri[1] == TRI_ONE;
    }
    op->right = side == R_COL;
    op->a = bd.a, op->lda = bd.lda;
    op->b = bd.b.v, op->ldb = bd.b.ld;
    op->m = T->m, op->n = T->n_;
    for (int t = 0; t < bd.nused; t++)
        T->used[bd.used[t]] = true;
    if (bd.inplace)
        T->has_beta = false;     /* the identity took it */
    return op;
}

/* ---- lowering one output ---------------------------------------------------------------- */

/* "A[i][k]" with the loop indices of its statement */
static const char *fac_text(Cx *x, const Fac *f)
{
    if (!f->loop[0])
        return arena_printf(x->a, "%s's element", f->v->name);
    if (f->rank == 1)
        return arena_printf(x->a, "%s[%s]", f->v->name, f->loop[0]->iv->name);
    return arena_printf(x->a, "%s[%s][%s]", f->v->name, f->loop[0]->iv->name, f->loop[1]->iv->name);
}

/* "the sum over k of A[i][k] * B[k][i]" */
static const char *term_text(Cx *x, const Mono *mo)
{
    if (mo->sum)
        return arena_printf(x->a, "the sum over '%s' of %s * %s",
                            mo->sum->src->loops[mo->sum->src->sum]->iv->name, fac_text(x, &mo->sum->f),
                            fac_text(x, &mo->sum->g));
    if (mo->nf == 2)
        return arena_printf(x->a, "%s * %s", fac_text(x, &mo->f[0]), fac_text(x, &mo->f[1]));
    return mo->nf == 1 ? fac_text(x, &mo->f[0]) : "a constant";
}

static int term_line(const Out *o, const Mono *mo)
{
    return mo->sum ? mo->sum->src->s->loc.line : ((Item *)vec_at(&o->writers, o->writers.len - 1))->s->loc.line;
}

static bool coef_is(const LibCoef *k, double v) { return !k->nf && k->num == v; }

/* The same sum: one object, or a scalar's sum evaluated again where a
 * second statement reads it (`t[i] = s; y[i] = alpha * s`): the same
 * update statement over the same instances, with the same factors. */
static bool same_sum(Cx *x, const Sum *p, const Sum *q)
{
    if (p == q)
        return true;
    return p && q && p->src == q->src && fac_equal(&p->f, &q->f) && fac_equal(&p->g, &q->g) &&
           sets_equal(x->sets, p->dom, q->dom);
}

/* Replaces sums another output already holds by that output (tmp = A x;
 * y = alpha * tmp: one GEMV, then y from tmp; the same when both read a
 * scalar sum: no second GEMV over A). */
static void reuse_outputs(Cx *x, Terms *T)
{
    for (int t = 0; t < T->n; t++) {
        Mono *mo = T->t[t];
        if (!mo->sum)
            continue;
        for (int i = 0; i < x->nouts; i++) {
            Out *p = &x->outs[i];
            if (p == T->o || !p->done || p->epi || p->cur.n != 1 || !same_sum(x, p->cur.m[0].sum, mo->sum) ||
                !coef_is(&p->cur.m[0].k, 1) || p->rank != T->o->rank)
                continue;
            Mono *m = arena_alloc(x->a, sizeof *m);
            Fac f = {.v = p->v, .rank = p->rank, .sub = {R_ROW, R_COL}, .ld = p->ld};
            *m = (Mono){.k = mo->k, .f = {f}, .nf = 1};
            T->t[t] = m;
            break;
        }
    }
}

/* The calls that compute output o, appended to lc. */
static bool lower_out(Cx *x, Out *o)
{
    Terms T = {.o = o};
    Poly p = o->cur;
    for (int i = 0; i < p.n; i++) {
        Mono *mo = &p.m[i];
        if (mo->nf == 1 && mo->f[0].v == o->v && mo->f[0].old && same_element(&mo->f[0], o) && !T.has_beta) {
            T.has_beta = true;
            T.beta = mo->k;
            continue;
        }
        if (T.n == 16)
            return fail(x, "'%s' sums too many terms", o->v->name);
        T.t[T.n++] = mo;
    }
    if (!T.n)
        return fail(x, "'%s' is only scaled or set", o->v->name);
    reuse_outputs(x, &T);
    /* sizes: the elements any statement writes */
    for (int i = 0; i < o->writers.len; i++) {
        GfSet *e = elems_of(x, item_dom(x, vec_at(&o->writers, i)));
        T.elems = i ? sets_union(x->sets, T.elems, e) : e;
    }
    if (!T.elems || !(T.m = size_of(x, T.elems, R_ROW)) || (o->rank == 2 && !(T.n_ = size_of(x, T.elems, R_COL))))
        return fail(x, "the sizes of '%s' are not bounds of the loops", o->v->name);
    LibElems box = {LS_BOX, T.m, T.n_};
    Vec ops = {0};
    /* SYMM / TRMM take several terms at once */
    for (int side = R_ROW; side <= R_COL; side++) {
        LibOp *op = match_band(x, &T, side);
        if (op) {
            op->elems = box;
            vec_push(x->a, &ops, op);
        }
    }
    for (int t = 0; t < T.n; t++) {
        if (T.used[t])
            continue;
        Mono *mo = T.t[t];
        LibOp *op = NULL;
        if (mo->sum) {
            if ((op = match_box_sum(x, &T, mo)))
                op->elems = box;
            else
                op = match_tri_sum(x, &T, t);
        } else if (mo->nf == 2 && o->rank == 2) {
            /* u[r] v[c]: GER */
            const Fac *f = &mo->f[0], *g = &mo->f[1];
            if (f->rank == 1 && f->sub[0] == R_COL)
                f = &mo->f[1], g = &mo->f[0];
            if (f->rank == 1 && g->rank == 1 && f->sub[0] == R_ROW && g->sub[0] == R_COL && !f->old && !g->old) {
                op = new_op(x, L_GER, o, mo->k, coef_num(1));
                op->a = f->v, op->b = g->v, op->m = T.m, op->n = T.n_, op->elems = box;
            }
        } else if (mo->nf == 1 && same_element(&mo->f[0], o) && !mo->f[0].old) {
            op = new_op(x, L_GEAM, o, mo->k, coef_num(0));
            op->a = mo->f[0].v, op->lda = mo->f[0].ld, op->m = T.m, op->n = T.n_, op->elems = box;
        }
        if (!op)
            return fail(x, "line %d: %s is no form cuBLAS computes", term_line(o, mo), term_text(x, mo));
        T.used[t] = true;
        vec_push(x->a, &ops, op);
    }
    LibCoef beta = T.has_beta ? T.beta : coef_num(0);
    /* every call writes the same elements, and so does every reset */
    LibOp *first = vec_at(&ops, 0);
    bool sums = false;
    for (int i = 0; i < ops.len; i++) {
        LibOp *op = vec_at(&ops, i);
        sums |= op->kind != L_GEAM;
        if (!sets_equal(x->sets, elems_shape(x, op->elems), elems_shape(x, first->elems)))
            return fail(x, "the calls for '%s' would write different elements", o->v->name);
        /* old values of the output (in place) only for TRMM, which runs alone */
        if ((op->a == o->v || op->b == o->v) && !(op->kind == L_TRMM && ops.len == 1))
            return fail(x, "'%s' is read at other elements while computed", o->v->name);
    }
    if (!sums)
        return fail(x, "'%s' is only a sum of elements", o->v->name);
    for (int i = 0; i < o->resets.len; i++) {
        Item *it = vec_at(&o->resets, i);
        if (!sets_equal(x->sets, elems_of(x, item_dom(x, it)), elems_shape(x, first->elems)))
            return fail(x, "line %d sets other elements of '%s' than its sums", it->s->loc.line, o->v->name);
    }
    /* the first call applies beta (TRMM overwrites, GER only adds, GEAM
     * last: a sum reads nothing of C with beta 0); the others add to it */
    int taker = -1;
    for (int pass = 0; pass < 2 && taker < 0; pass++)
        for (int i = 0; i < ops.len; i++) {
            LibKind k = ((LibOp *)vec_at(&ops, i))->kind;
            if (k == L_TRMM && (ops.len > 1 || !coef_is(&beta, 0)))
                return fail(x, "'%s': a triangular product overwrites, it cannot be added to", o->v->name);
            if ((k == L_GEAM) != (pass == 1) || (k == L_GER && !coef_is(&beta, 1)))
                continue;
            taker = i;
            break;
        }
    if (taker < 0)
        return fail(x, "'%s': no call applies its scale", o->v->name);
    LibOp *t0 = vec_at(&ops, taker);
    memmove(&ops.data[1], &ops.data[0], sizeof(void *) * (size_t)taker);
    ops.data[0] = t0;
    for (int i = 0; i < ops.len; i++) {
        LibOp *op = vec_at(&ops, i);
        op->beta = i ? coef_num(1) : beta;
        vec_push(x->a, &x->lc->ops, op);
    }
    if (o->epi) {
        LibOp *op = vec_at(&ops, 0);
        if (ops.len != 1 || op->kind != L_GEMM || op->ta || op->tb || !coef_is(&op->alpha, 1) ||
            !coef_is(&op->beta, 0))
            return fail(x, "'%s': cuBLASLt's epilogues here take C = A B", o->v->name);
        x->lc->epi = o->epi;
        x->lc->bias = o->bias;
    }
    o->done = true;
    return true;
}

/* The outputs in an order where what one reads is computed before it. */
static bool lower(Cx *x)
{
    find_cands(x, x->nest);
    x->lc = arena_alloc(x->a, sizeof *x->lc);
    x->lc->first_line = x->nest->loc.line;
    x->lc->last_line = x->nest->end_line;
    Out *byorder[MAXO];
    for (int i = 0; i < x->nouts; i++)
        byorder[i] = &x->outs[i];
    for (int i = 1; i < x->nouts; i++)
        for (int j = i; j > 0 && byorder[j]->last < byorder[j - 1]->last; j--) {
            Out *t = byorder[j];
            byorder[j] = byorder[j - 1];
            byorder[j - 1] = t;
        }
    for (int i = 0; i < x->nouts; i++)
        if (!lower_out(x, byorder[i]))
            return false;
    /* a call must not read what an earlier one of the nest wrote, unless it
     * is that output's own value (beta, GEAM of an output computed before) */
    for (int i = 0; i < x->lc->ops.len; i++) {
        LibOp *p = vec_at(&x->lc->ops, i);
        for (int j = i + 1; j < x->lc->ops.len; j++) {
            LibOp *q = vec_at(&x->lc->ops, j);
            if (q->kind == L_GEAM && q->a == p->c)
                continue;
            if ((q->a == p->c || q->b == p->c) && q->c != p->c)
                return fail(x, "a call would read '%s' after an earlier one wrote it", p->c->name);
        }
    }
    if (x->lc->epi && x->lc->ops.len != 1)
        return fail(x, "an epilogue with more than one call");
    return true;
}

/* ---- entry ------------------------------------------------------------------------------ */

static bool is_elem(const Expr *e, const void *unused)
{
    (void)unused;
    return e->kind == E_INDEX;
}

static bool mul_of_elems(const Expr *e, const void *unused)
{
    (void)unused;
    return e->kind == E_BINARY && e->op == OP_MUL && ir_expr_any(e->kids[0], is_elem, NULL) &&
           ir_expr_any(e->kids[1], is_elem, NULL);
}

/* Whether the nest looks like a library form: a product of array elements
 * added up in a loop its target does not depend on, or written to a matrix
 * from two vectors. */
static bool blas_assign(const Stmt *s, Stmt **loops, int n)
{
    if (!type_is_float(s->lhs->ty) || !ir_expr_any(s->rhs, mul_of_elems, NULL))
        return false;
    if (s->lhs->kind == E_VAR)
        return s->op == OP_ADD_ASSIGN || s->op == OP_SUB_ASSIGN || ir_expr_any(s->rhs, touches, s->lhs->var);
    for (int l = 0; l < n; l++)
        if (!ir_expr_any(s->lhs, reads_scalar, loops[l]->iv))
            return true;
    return s->lhs->kind == E_INDEX && s->lhs->nkids == 2;
}

/* Through blocks, ifs and up to MAXL for loops (not while loops). */
static bool blas_stmt(IrVisitor *v, Stmt *s)
{
    Stmt *loops[MAXL];
    int n = loops_around(v->up, loops);
    if (s->kind == S_ASSIGN && blas_assign(s, loops, n))
        v->done = true;
    return s->kind == S_BLOCK || s->kind == S_IF || (s->kind == S_FOR && n < MAXL);
}

static bool looks_blas(Stmt *s)
{
    IrVisitor v = {.stmt = blas_stmt};
    ir_visit_stmt(&v, s);
    return v.done;
}

LibCall *lib_match(Arena *a, Region *r, Stmt *nest, const char **why)
{
    if (why)
        *why = NULL;
    if (!nest || nest->kind != S_FOR || !r->deps)
        return NULL;
    Cx *x = arena_alloc(a, sizeof *x);
    x->a = a, x->r = r, x->nest = nest;
    bool ok = collect(x, nest) && find_targets(x);
    for (int i = 0; ok && i < x->nitems; i++)
        if (x->items[i].out)
            ok = frame_writer(x, &x->items[i]);
    ok = ok && frame_scalars(x) && order_items(x);
    if (ok) {
        sets_open(x);
        ok = evaluate(x) && lower(x);
        sets_free(x->sets);
        x->sets = NULL;
    }
    if (ok)
        return x->lc;
    if (why && looks_blas(nest))
        *why = x->why ? x->why : "not a form cuBLAS computes";
    return NULL;
}

/* ---- folding neighbours ------------------------------------------------------------------ */

/* The kernel right after a product, when it is only C = E(C) over the same
 * rows and columns with E a cuBLASLt epilogue: the call takes it in. */
bool lib_fold_epilogue(Arena *a, LibCall *lc, Kernel *k)
{
    if (lc->epi || lc->ops.len != 1 || k->nests.len != 1 || k->pdims != 2 || k->reds.len || k->lib)
        return false;
    LibOp *op = vec_at(&lc->ops, 0);
    if (op->kind != L_GEMM || op->ta || op->tb || !coef_is(&op->alpha, 1) || !coef_is(&op->beta, 0) ||
        elem_kind(op->c) != TY_FLOAT)
        return false;
    Stmt *l0 = vec_at(&k->nests, 0), *l1 = only(l0->body);
    if (!plain_loop(l0) || !plain_loop(l1))
        return false;
    Stmt *s = only(l1->body);
    if (!s || s->kind != S_ASSIGN || s->op != OP_ASSIGN || s->lhs->kind != E_INDEX || s->lhs->var != op->c)
        return false;
    /* the statement in a frame of its own: C[r][c] = E(C[r][c]) */
    Cx *x = arena_alloc(a, sizeof *x);
    x->a = a;
    Item *it = &x->items[0];
    *it = (Item){.s = s, .nloops = 2, .loops = {l0, l1}, .sum = -1};
    x->nitems = 1;
    if (!elem_of(x, it, s->lhs, &it->w) || it->w.rank != 2)
        return false;
    Stmt *rl = it->w.loop[0], *cl = it->w.loop[1];
    if (rl == cl || !expr_equal(rl->ub, op->m) || !expr_equal(cl->ub, op->n))
        return false;
    it->role[loop_index(it, rl->iv)] = R_ROW;
    it->role[loop_index(it, cl->iv)] = R_COL;
    /* E's argument must be exactly the element: evaluate it as an output
     * whose value so far is one plain sum */
    Out *o = &x->outs[x->nouts++];
    *o = (Out){.v = op->c, .rank = 2, .ld = op->ldc};
    Sum *sum = arena_alloc(a, sizeof *sum);
    o->cur = poly_mono(x, (Mono){.k = coef_num(1), .sum = sum});
    it->out = o;
    Poly p;
    if (!epilogue_of(x, it, &p) || !o->epi)
        return false;
    lc->epi = o->epi;
    lc->bias = o->bias;
    lc->epilogue = k;
    return true;
}

bool lib_fold_init(Arena *a, Region *r, LibCall *lc, Kernel *k)
{
    if (lc->init || lc->epi || k->nests.len != 1 || k->reds.len || k->lib || k->folded_into || k->pdims < 1 ||
        ((Stmt *)vec_at(&k->nests, 0))->kind != S_FOR)
        return false;
    /* k alone: v = 0, v = s * v, v *= s */
    Cx *x = arena_alloc(a, sizeof *x);
    x->a = a, x->r = r, x->nest = vec_at(&k->nests, 0);
    if (!collect(x, x->nest) || x->nitems != 1)
        return false;
    Item *it = &x->items[0];
    if (!find_targets(x) || !it->out || !frame_writer(x, it) || it->acc)
        return false;
    /* the first call writing it applies its beta, 1 so far */
    LibOp *op = NULL;
    for (int i = 0; i < lc->ops.len && !op; i++)
        if (((LibOp *)vec_at(&lc->ops, i))->c == it->out->v)
            op = vec_at(&lc->ops, i);
    if (!op || op->kind == L_GER || op->kind == L_TRMM || !coef_is(&op->beta, 1))
        return false;
    Out *o = it->out;
    Fac self = {.v = o->v, .rank = o->rank, .sub = {R_ROW, R_COL}, .ld = o->ld, .old = true};
    o->cur = poly_mono(x, (Mono){.k = coef_num(1), .f = {self}, .nf = 1});
    Poly p;
    if (!apply(x, it, o->cur, it->s->rhs, it->s->op, &p))
        return false;
    LibCoef s;
    if (p.n == 0)
        s = coef_num(0);
    else if (p.n == 1 && p.m[0].nf == 1 && fac_equal(&p.m[0].f[0], &self) && !p.m[0].sum)
        s = p.m[0].k;
    else
        return false;
    sets_open(x);
    bool same = sets_equal(x->sets, elems_of(x, item_dom(x, it)), elems_shape(x, op->elems));
    sets_free(x->sets);
    if (!same)
        return false;
    op->beta = s;
    lc->init = k;
    return true;
}

/* ---- descriptions ---------------------------------------------------------------------- */

static const char *coef_text(Arena *a, const LibCoef *k)
{
    char *s = k->num == 1 && k->nf ? arena_strdup(a, "") : k->num == -1 && k->nf ? arena_strdup(a, "-")
                                                                                 : arena_printf(a, "%g", k->num);
    for (int i = 0; i < k->nf; i++) {
        const Expr *e = k->f[i];
        s = arena_printf(a, "%s%s%s", s, *s && strcmp(s, "-") ? " * " : "", e->kind == E_VAR ? e->var->name : "?");
    }
    return s;
}

/* "alpha * X" (or "X", "-X") */
static const char *scaled(Arena *a, const LibCoef *k, const char *x)
{
    if (coef_is(k, 1))
        return x;
    if (coef_is(k, -1))
        return arena_printf(a, "-%s", x);
    return arena_printf(a, "%s * %s", coef_text(a, k), x);
}

const char *lib_kind_name(LibKind k)
{
    static const char *const n[] = {"GEMM", "GEMV", "GER", "SYRK", "SYR2K", "SYMM", "TRMM", "GEAM"};
    return n[k];
}

const char *lib_describe_op(Arena *a, const LibCall *lc, const LibOp *op)
{
    const char *A = op->a ? op->a->name : "", *B = op->b ? op->b->name : "", *C = op->c->name;
    const char *ta = op->ta ? "^T" : "", *tb = op->tb ? "^T" : "";
    const char *prod;
    switch (op->kind) {
    case L_GEMM: prod = arena_printf(a, "%s%s * %s%s", A, ta, B, tb); break;
    case L_GEMV: prod = arena_printf(a, "%s%s * %s", A, ta, B); break;
    case L_GER: prod = arena_printf(a, "%s * %s^T", A, B); break;
    case L_SYRK: prod = op->ta ? arena_printf(a, "%s^T * %s", A, A) : arena_printf(a, "%s * %s^T", A, A); break;
    case L_SYR2K:
        prod = op->ta ? arena_printf(a, "(%s^T * %s + %s^T * %s)", A, B, B, A)
                      : arena_printf(a, "(%s * %s^T + %s * %s^T)", A, B, B, A);
        break;
    case L_SYMM:
        prod = arena_printf(a, op->right ? "%s * sym(%s)" : "sym(%s) * %s", op->right ? B : A, op->right ? A : B);
        break;
    case L_TRMM: {
        const char *t = arena_printf(a, "%s(%s)%s", op->unit ? "unit_tri" : "tri", A, ta);
        prod = arena_printf(a, op->right ? "%s * %s" : "%s * %s", op->right ? B : t, op->right ? t : B);
        break;
    }
    case L_GEAM: prod = A; break;
    default: unreachable();
    }
    prod = scaled(a, &op->alpha, prod);
    if (!coef_is(&op->beta, 0))
        prod = arena_printf(a, "%s + %s", prod, scaled(a, &op->beta, C));
    if (lc->epi & EPI_BIAS)
        prod = arena_printf(a, "%s + %s", prod, lc->bias->name);
    if (lc->epi & EPI_RELU)
        prod = arena_printf(a, "relu(%s)", prod);
    if (lc->epi & EPI_GELU)
        prod = arena_printf(a, "gelu(%s)", prod);
    const char *tri = "";
    if (op->kind == L_SYRK || op->kind == L_SYR2K)
        tri = op->upper ? ", upper triangle" : ", lower triangle";
    else if (op->kind == L_SYMM || op->kind == L_TRMM)
        tri = op->upper ? ", A's upper triangle" : ", A's lower triangle";
    const char *what = lc->epi ? "one cuBLASLt call with its epilogue" : arena_printf(a, "cuBLAS %s", lib_kind_name(op->kind));
    return arena_printf(a, "%s = %s (%s, %s%s)", C, prod, type_src_name(type_elem(op->c->ty)), what, tri);
}

const char *lib_describe(Arena *a, const LibCall *lc)
{
    const char *s = "";
    for (int i = 0; i < lc->ops.len; i++)
        s = arena_printf(a, "%s%s%s", s, i ? "; " : "", lib_describe_op(a, lc, vec_at(&lc->ops, i)));
    return s;
}

/* ---- builtins ---------------------------------------------------------------------- */

