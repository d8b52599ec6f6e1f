/* libcall.c - loop nests that a library computes better than a generated
 * kernel: matrix products (cuBLAS) and the element-wise epilogue right after
 * one (cuBLASLt bias/ReLU epilogue).
 *
 * Recognised, with i over C's rows, j over its columns, p the sum (any loop
 * order with the parallel loops outside, lower bounds 0, steps 1, bounds
 * that do not depend on the other indices):
 *
 *   T acc = 0; for p: acc += A[i][p] * B[p][j];  C[i][j] = E(acc);
 *   C[i][j] = 0; for p: C[i][j] += A[i][p] * B[p][j];
 *   for p: C[i][j] += A[i][p] * B[p][j];                        (C += A B)
 *
 * where E is acc, alpha * acc, C[i][j] + acc (or `C[i][j] += acc`), or for
 * float, acc + bias[j] and/or ReLU (fmaxf(x, 0), x > 0 ? x : 0) or GELU
 * (0.5 x (1 + tanhf(0.7978845608 (x + 0.044715 x^3))), factors and terms in
 * any order, x^3 as x*x*x or powf(x, 3)); A may be
 * A[p][i] and B may be B[j][p] (transposed operands); the arrays are 2-D
 * (`float A[n][k]`) or flattened with one row length (`A[i*k + p]`); T, A, B
 * and C are all float or all double.  The kernel stays as the fallback the
 * launcher runs when the library cannot (sizes past INT_MAX, a row stride
 * shorter than a row). */
#include "gfc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* GF_EPI_* of include/gpufuse.h */
enum { EPI_BIAS = 1, EPI_RELU = 2, EPI_GELU = 4 };

static Stmt *only(Stmt *s)
{
    while (s && s->kind == S_BLOCK && s->list.len == 1)
        s = vec_at(&s->list, 0);
    return s;
}

static bool is_zero_lit(const Expr *e)
{
    while (e && e->kind == E_CAST)
        e = e->kids[0];
    if (!e || (e->kind != E_INT && e->kind != E_FLOAT))
        return false;
    char *end;
    double v = strtod(e->text, &end);
    return v == 0 && end != e->text;
}

/* A canonical loop: from 0, step 1. */
static bool plain_loop(const Stmt *l)
{
    return l && l->kind == S_FOR && l->step == 1 && !l->brk && l->lb->kind == E_INT && is_zero_lit(l->lb);
}

static bool uses_var(const Expr *e, const void *v)
{
    return (e->kind == E_VAR || e->kind == E_INDEX) && e->var == v;
}

static bool bound_free(const Stmt *l, Var *const *ivs, int n)
{
    for (int i = 0; i < n; i++)
        if (ir_expr_any(l->ub, uses_var, ivs[i]))
            return false;
    return true;
}

static bool iv_is(const Expr *e, const Var *iv)
{
    while (e && e->kind == E_CAST && type_is_integer(e->ty))
        e = e->kids[0];
    return e && e->kind == E_VAR && e->var == iv;
}

static bool aff_is(const Aff *f, const Var *iv)
{
    return f && f->c == 0 && f->nterms == 1 && f->terms[0].var == iv && f->terms[0].coef == 1;
}

/* An element of a row-major 2-D array (or a flattened one): its array, the
 * two index variables and the row stride. */
typedef struct Elem {
    Var *v;
    Var *row, *col;
    Expr *ld;
} Elem;

static bool elem_of(Arena *a, const Expr *e, Elem *out)
{
    if (!e || e->kind != E_INDEX || !e->var->is_array)
        return false;
    Var *v = e->var;
    if (v->kind != V_PARAM && !v->is_temp)
        return false;
    Type *t = type_elem(v->ty);
    if (t->kind != TY_FLOAT && t->kind != TY_DOUBLE)
        return false;
    if (e->nkids == 2 && v->ndims == 2 && v->dims[1]) {
        const Expr *r = e->kids[0], *c = e->kids[1];
        while (r->kind == E_CAST && type_is_integer(r->ty))
            r = r->kids[0];
        while (c->kind == E_CAST && type_is_integer(c->ty))
            c = c->kids[0];
        if (r->kind != E_VAR || c->kind != E_VAR || r->var->kind != V_IV || c->var->kind != V_IV)
            return false;
        *out = (Elem){v, r->var, c->var, v->dims[1]};
        return true;
    }
    if (e->nkids == 1 && v->delin && !v->delin_bad) {
        Var *P = NULL;
        Aff *o = NULL, *in = NULL;
        if (!deps_split_flat(a, e->kids[0], &P, &o, &in) || P != v->delin || !o || !in)
            return false;
        if (o->nterms != 1 || in->nterms != 1 || !aff_is(o, o->terms[0].var) || !aff_is(in, in->terms[0].var))
            return false;
        if (o->terms[0].var->kind != V_IV || in->terms[0].var->kind != V_IV)
            return false;
        Expr *ld = arena_alloc(a, sizeof *ld);
        *ld = (Expr){.kind = E_VAR, .ty = P->ty, .var = P, .loc = e->loc};
        *out = (Elem){v, o->terms[0].var, in->terms[0].var, ld};
        return true;
    }
    return false;
}

/* x*y with x, y elements of A and B (either order) over (i, p) and (p, j). */
static bool product(Arena *a, const Expr *e, LibCall *lc, Var *i, Var *j, Var *p)
{
    if (!e || e->kind != E_BINARY || e->op != OP_MUL)
        return false;
    for (int side = 0; side < 2; side++) {
        Elem x, y;
        if (!elem_of(a, e->kids[side], &x) || !elem_of(a, e->kids[1 - side], &y))
            continue;
        bool an = x.row == i && x.col == p, at = x.row == p && x.col == i;
        bool bn = y.row == p && y.col == j, bt = y.row == j && y.col == p;
        if ((!an && !at) || (!bn && !bt) || x.v == y.v)
            continue;
        lc->a = x.v, lc->ta = at, lc->lda = x.ld;
        lc->b = y.v, lc->tb = bt, lc->ldb = y.ld;
        return true;
    }
    return false;
}

/* A scale the launcher can evaluate: literals and scalar parameters. */
static bool invariant(const Expr *e)
{
    switch (e->kind) {
    case E_INT:
    case E_FLOAT: return true;
    case E_VAR: return e->var->kind == V_PARAM && !e->var->is_array && !e->var->scalar_written;
    case E_CAST:
    case E_UNARY: return (e->kind == E_CAST || e->op == OP_NEG) && invariant(e->kids[0]);
    case E_BINARY:
        return (e->op == OP_MUL || e->op == OP_DIV) && invariant(e->kids[0]) && invariant(e->kids[1]);
    default: return false;
    }
}

/* What the matcher works with: the arena and the call being matched. */
typedef struct Cx {
    Arena *a;
    LibCall *lc;
    Var *row, *col;              /* C's indices in the statement being matched */
    Var *acc;                    /* the scalar the sum runs in, if any */
} Cx;

/* C[i][j] (2-D) or C[i*ldc + j] (flattened) with the statement's indices. */
static bool is_c(const Expr *e, const Cx *cx)
{
    Elem x;
    return e && e->kind == E_INDEX && e->var == cx->lc->c && elem_of(cx->a, e, &x) && x.row == cx->row &&
           x.col == cx->col;
}

/* bias[j]: a 1-D float parameter indexed by C's column. */
static Var *bias_of(const Expr *e, const Cx *cx)
{
    if (!e || e->kind != E_INDEX || e->nkids != 1 || !e->var->is_array || e->var->kind != V_PARAM)
        return NULL;
    Var *v = e->var;
    if (type_elem(v->ty)->kind != TY_FLOAT || v == cx->lc->c || v->written || v->ndims != 1)
        return NULL;
    return iv_is(e->kids[0], cx->col) ? v : NULL;
}

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

/* ---- GELU, tanh form: 0.5 y (1 + tanh(0.7978845608 (y + 0.044715 y^3))),
 * in any order of its factors and terms (cuBLASLt's GELU epilogue). */

#define MAXF 8

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

/* The terms of a sum (two terms). */
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

/* y when e is GELU(y). */
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

typedef bool (*IsX)(const Expr *e, const Cx *cx);

static bool x_is_acc(const Expr *e, const Cx *cx)
{
    return e && e->kind == E_VAR && e->var == cx->acc;
}

/* E(x) of the forms cuBLASLt's epilogues have: x + bias[j], relu(x),
 * relu(x + bias[j]).  *flags = 0 when E is x itself. */
static bool epilogue_expr(const Expr *e, const Cx *cx, IsX is_x, int *flags, Var **bias)
{
    *flags = 0;
    *bias = NULL;
    const Expr *r = relu_arg(e);
    if (r) {
        *flags |= EPI_RELU;
        e = r;
    } else if ((r = gelu_arg(e))) {
        *flags |= EPI_GELU;
        e = r;
    }
    if (is_x(e, cx))
        return true;
    if (e->kind == E_BINARY && e->op == OP_ADD) {
        for (int side = 0; side < 2; side++) {
            Var *b = bias_of(e->kids[side], cx);
            if (b && is_x(e->kids[1 - side], cx)) {
                *flags |= EPI_BIAS;
                *bias = b;
                return true;
            }
        }
    }
    *flags = 0;
    return false;
}

/* The sum loop: from 0, step 1, a bound free of the outer indices, and one
 * statement `x += A[.][p] * B[p][.]` with x what is_x accepts. */
static bool sum_loop(Cx *cx, Stmt *l, Var *const *outer, IsX is_x)
{
    if (!plain_loop(l) || !bound_free(l, outer, 2))
        return false;
    Stmt *s = only(l->body);
    if (!s || s->kind != S_ASSIGN || s->op != OP_ADD_ASSIGN)
        return false;
    cx->lc->inner = l;
    if (!is_x(s->lhs, cx))
        return false;
    return product(cx->a, s->rhs, cx->lc, cx->row, cx->col, l->iv);
}

static TypeKind elem_kind(Var *v) { return type_elem(v->ty)->kind; }

LibCall *lib_match_matmul(Arena *a, Stmt *nest)
{
    /* two parallel loops outside, perfectly nested */
    Stmt *l0 = nest, *l1 = l0 && l0->kind == S_FOR ? only(l0->body) : NULL;
    if (!l0 || l0->kind != S_FOR || !l0->parallel || !l1 || l1->kind != S_FOR || !l1->parallel)
        return NULL;
    Var *ivs[2] = {l0->iv, l1->iv};
    if (!plain_loop(l0) || !plain_loop(l1) || !bound_free(l1, ivs, 1))
        return NULL;
    Stmt *body = l1->body;
    Stmt *one[1] = {body};
    Stmt **list = body->kind == S_BLOCK ? (Stmt **)body->list.data : one;
    int n = body->kind == S_BLOCK ? body->list.len : 1;
    /* the statement that names C */
    Expr *ce = NULL;
    if (n == 3 && list[0]->kind == S_DECL && list[1]->kind == S_FOR && list[2]->kind == S_ASSIGN)
        ce = list[2]->lhs;
    else if (n == 2 && list[0]->kind == S_ASSIGN && list[1]->kind == S_FOR)
        ce = list[0]->lhs;
    else if (n == 1 && only(body)->kind == S_FOR) {
        Stmt *s = only(only(body)->body);
        ce = s && s->kind == S_ASSIGN ? s->lhs : NULL;
    }
    Elem c;
    if (!ce || !elem_of(a, ce, &c))
        return NULL;
    if (!((c.row == l0->iv && c.col == l1->iv) || (c.row == l1->iv && c.col == l0->iv)))
        return NULL;
    LibCall *lc = arena_alloc(a, sizeof *lc);
    lc->c = c.v;
    lc->ldc = c.ld;
    lc->rows = c.row == l0->iv ? l0 : l1;
    lc->cols = c.row == l0->iv ? l1 : l0;
    Cx cx = {a, lc, c.row, c.col, NULL};
    if (n == 3) {
        /* T acc = 0; for p: acc += ...; C[i][j] = E(acc) */
        Stmt *decl = list[0], *store = list[2];
        Var *acc = cx.acc = decl->var;
        if (acc->is_array || !decl->rhs || !is_zero_lit(decl->rhs) || acc->ty->kind != elem_kind(lc->c) ||
            !sum_loop(&cx, list[1], ivs, x_is_acc))
            return NULL;
        const Expr *e = store->rhs;
        if (store->op == OP_ADD_ASSIGN && x_is_acc(e, &cx)) {
            lc->beta = 1;
        } else if (store->op != OP_ASSIGN) {
            return NULL;
        } else if (e->kind == E_BINARY && e->op == OP_ADD &&
                   ((is_c(e->kids[0], &cx) && x_is_acc(e->kids[1], &cx)) ||
                    (is_c(e->kids[1], &cx) && x_is_acc(e->kids[0], &cx)))) {
            lc->beta = 1;
        } else if (e->kind == E_BINARY && e->op == OP_MUL &&
                   ((x_is_acc(e->kids[0], &cx) && invariant(e->kids[1])) ||
                    (x_is_acc(e->kids[1], &cx) && invariant(e->kids[0])))) {
            lc->alpha = x_is_acc(e->kids[0], &cx) ? e->kids[1] : e->kids[0];
        } else if (!epilogue_expr(e, &cx, x_is_acc, &lc->epi, &lc->bias)) {
            return NULL;
        }
    } else if (n == 2) {
        /* C[i][j] = 0; for p: C[i][j] += ... */
        if (list[0]->op != OP_ASSIGN || !is_zero_lit(list[0]->rhs) || !sum_loop(&cx, list[1], ivs, is_c))
            return NULL;
    } else {
        /* for p: C[i][j] += ...  accumulates into C */
        if (!sum_loop(&cx, only(body), ivs, is_c))
            return NULL;
        lc->beta = 1;
    }
    TypeKind t = elem_kind(lc->c);
    if (elem_kind(lc->a) != t || elem_kind(lc->b) != t || lc->a == lc->c || lc->b == lc->c)
        return NULL;
    /* cuBLASLt's epilogues here take untransposed float operands */
    if (lc->epi && (t != TY_FLOAT || lc->ta || lc->tb))
        return NULL;
    return lc;
}

/* The kernel right after a product, when it is only C = E(C) over the same
 * rows and columns with E a cuBLASLt epilogue: the call takes it in. */
bool lib_fold_epilogue(Arena *a, LibCall *lc, Kernel *k)
{
    if (lc->epi || lc->beta || lc->alpha || lc->ta || lc->tb || elem_kind(lc->c) != TY_FLOAT || k->nests.len != 1 ||
        k->pdims != 2 || k->reds.len || k->lib)
        return false;
    Stmt *l0 = vec_at(&k->nests, 0), *l1 = only(l0->body);
    if (!plain_loop(l0) || !plain_loop(l1))
        return false;
    Stmt *s = only(l1->body);
    if (!s || s->kind != S_ASSIGN || s->op != OP_ASSIGN || s->lhs->var != lc->c)
        return false;
    Elem e;
    if (!elem_of(a, s->lhs, &e))
        return false;
    /* C's rows and columns run over the same ranges as in the product */
    Stmt *rl = e.row == l0->iv ? l0 : e.row == l1->iv ? l1 : NULL;
    Stmt *cl = e.col == l0->iv ? l0 : e.col == l1->iv ? l1 : NULL;
    if (!rl || !cl || rl == cl || !expr_equal(rl->ub, lc->rows->ub) || !expr_equal(cl->ub, lc->cols->ub))
        return false;
    Cx cx = {a, lc, e.row, e.col, NULL};
    int flags;
    Var *bias;
    if (!epilogue_expr(s->rhs, &cx, is_c, &flags, &bias) || !flags)
        return false;
    lc->epi = flags;
    lc->bias = bias;
    lc->epilogue = k;
    return true;
}

/* "C = relu(A * B^T + bias) (float, cuBLASLt epilogue)" for --report. */
const char *lib_describe(Arena *a, const LibCall *lc)
{
    const char *prod = arena_printf(a, "%s%s%s * %s%s", lc->alpha ? "alpha * " : "", lc->a->name, lc->ta ? "^T" : "",
                                    lc->b->name, lc->tb ? "^T" : "");
    if (lc->beta)
        prod = arena_printf(a, "%s + %s", lc->c->name, prod);
    if (lc->epi & EPI_BIAS)
        prod = arena_printf(a, "%s + %s", prod, lc->bias->name);
    if (lc->epi & EPI_RELU)
        prod = arena_printf(a, "relu(%s)", prod);
    if (lc->epi & EPI_GELU)
        prod = arena_printf(a, "gelu(%s)", prod);
    return arena_printf(a, "%s = %s (%s, %s)", lc->c->name, prod, type_c_name(type_elem(lc->c->ty)),
                        lc->epi ? "one cuBLASLt call with its epilogue" : "cuBLAS GEMM");
}

/* ---- builtins ---------------------------------------------------------------------- */

