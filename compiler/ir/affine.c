/* affine.c - affine forms c + sum(coef * var) over loop indices and integer
 * parameters, read off expressions; the bridge from C subscripts and loop
 * bounds to isl's sets and maps (deps.c builds isl_aff from them). */
#include "gfc.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static Aff *aff_new(Arena *a, int nterms)
{
    Aff *f = arena_alloc(a, sizeof *f);
    f->terms = arena_alloc(a, sizeof(AffTerm) * (size_t)(nterms ? nterms : 1));
    return f;
}

static Aff *aff_scale_add(Arena *a, const Aff *x, long long sx, const Aff *y, long long sy)
{
    Aff *f = aff_new(a, x->nterms + (y ? y->nterms : 0));
    f->c = x->c * sx + (y ? y->c * sy : 0);
    for (int pass = 0; pass < 2; pass++) {
        const Aff *src = pass ? y : x;
        long long s = pass ? sy : sx;
        if (!src)
            continue;
        for (int i = 0; i < src->nterms; i++) {
            int j;
            for (j = 0; j < f->nterms; j++)
                if (f->terms[j].var == src->terms[i].var)
                    break;
            if (j == f->nterms)
                f->terms[f->nterms++] = (AffTerm){src->terms[i].var, 0};
            f->terms[j].coef += src->terms[i].coef * s;
        }
    }
    /* drop zero terms */
    int k = 0;
    for (int i = 0; i < f->nterms; i++)
        if (f->terms[i].coef)
            f->terms[k++] = f->terms[i];
    f->nterms = k;
    return f;
}

Aff *aff_add(Arena *a, const Aff *x, const Aff *y, long long s)
{
    return aff_scale_add(a, x, 1, y, s);
}

static bool int_literal(const char *text, long long *v)
{
    char *end;
    *v = strtoll(text, &end, 0);
    while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
        end++;
    return *end == '\0' && end != text;
}

/* A local integer that always holds its initialiser's value: `int j = i + k;`
 * never assigned, so every read of it (in its scope: inside the loops whose
 * indices the initialiser reads, which do not change within an iteration)
 * is that value.  Signed, and as wide as the initialiser's type, so that the
 * value is the mathematical one (signed overflow is undefined in C); an
 * unsigned one wraps below zero where the affine form would not. */
static bool local_is_its_init(const Var *v)
{
    if (v->is_array || v->scalar_written || !v->decl || v->decl->kind != S_DECL || v->decl->var != v ||
        !v->decl->rhs || !v->decl->rhs->ty)
        return false;
    const Type *t = v->ty, *it = v->decl->rhs->ty;
    bool sv = t->kind == TY_SCHAR || t->kind == TY_SHORT || t->kind == TY_INT || t->kind == TY_LONG ||
              t->kind == TY_LLONG;
    bool si = it->kind == TY_INT || it->kind == TY_LONG || it->kind == TY_LLONG;
    return sv && si && type_size(t) >= type_size(it);
}

static Aff *aff_term(Arena *a, Var *v)
{
    Aff *f = aff_new(a, 1);
    f->terms[0] = (AffTerm){v, 1};
    f->nterms = 1;
    return f;
}

Aff *aff_of(Arena *a, Expr *e)
{
    if (!e)
        return NULL;
    if (e->pvar)
        return aff_term(a, e->pvar);
    switch (e->kind) {
    case E_INT: {
        long long v;
        if (!int_literal(e->text, &v))
            return NULL;
        Aff *f = aff_new(a, 0);
        f->c = v;
        return f;
    }
    case E_VAR: {
        Var *v = e->var;
        if (!type_is_integer(v->ty))
            return NULL;
        if (v->kind == V_LOCAL && local_is_its_init(v))
            return aff_of(a, v->decl->rhs);
        if (v->kind != V_IV && !(v->kind == V_PARAM && !v->is_array))
            return NULL;
        Aff *f = aff_new(a, 1);
        f->terms[0] = (AffTerm){v, 1};
        f->nterms = 1;
        return f;
    }
    case E_CAST:
        return type_is_integer(e->ty) && !cast_wraps(e) ? aff_of(a, e->kids[0]) : NULL;
    case E_UNARY: {
        Aff *x = aff_of(a, e->kids[0]);
        if (!x)
            return NULL;
        if (e->op == OP_PLUS)
            return x;
        if (e->op == OP_NEG)
            return aff_scale_add(a, x, -1, NULL, 0);
        return NULL;
    }
    case E_BINARY: {
        if (!type_is_integer(e->ty))
            return NULL;
        Aff *x = aff_of(a, e->kids[0]), *y = aff_of(a, e->kids[1]);
        if (!x || !y)
            return NULL;
        if (e->op == OP_ADD)
            return aff_scale_add(a, x, 1, y, 1);
        if (e->op == OP_SUB)
            return aff_scale_add(a, x, 1, y, -1);
        if (e->op == OP_MUL) {
            if (!x->nterms)
                return aff_scale_add(a, y, x->c, NULL, 0);
            if (!y->nterms)
                return aff_scale_add(a, x, y->c, NULL, 0);
        }
        /* constants of macros: -(KSIZE / 2), N % 4, 1 << 10 (C's truncating
         * division; no shift C leaves undefined) */
        if (!x->nterms && !y->nterms) {
            long long c;
            if ((e->op == OP_DIV || e->op == OP_MOD) && y->c != 0 && !(x->c == LLONG_MIN && y->c == -1))
                c = e->op == OP_DIV ? x->c / y->c : x->c % y->c;
            else if (e->op == OP_SHL && x->c >= 0 && y->c >= 0 && y->c < 62 && x->c <= (LLONG_MAX >> y->c))
                c = x->c << y->c;
            else if (e->op == OP_SHR && x->c >= 0 && y->c >= 0 && y->c < 64)
                c = x->c >> y->c;
            else
                return NULL;
            Aff *f = aff_new(a, 0);
            f->c = c;
            return f;
        }
        return NULL;
    }
    default:
        return NULL;
    }
}

/* ---- parameters standing for expressions of the parameters ---------------- */

/* e reads only integer scalar parameters the body never assigns, and
 * constants, through operators and integer casts. */
static bool of_params(const Expr *e)
{
    switch (e->kind) {
    case E_INT: return true;
    case E_VAR:
        return e->var->kind == V_PARAM && !e->var->is_array && !e->var->scalar_written && !e->var->pdef &&
               type_is_integer(e->var->ty);
    case E_CAST: return type_is_integer(e->ty) && !cast_wraps(e) && of_params(e->kids[0]);
    case E_UNARY:
        return (e->op == OP_NEG || e->op == OP_PLUS || e->op == OP_BNOT) && type_is_integer(e->ty) &&
               of_params(e->kids[0]);
    case E_BINARY:
        return type_is_integer(e->ty) && !op_is_assign(e->op) && e->op != OP_COMMA && e->op != OP_LAND &&
               e->op != OP_LOR && !op_is_compare(e->op) && of_params(e->kids[0]) && of_params(e->kids[1]);
    default: return false;
    }
}

/* C text of an expression of_params accepts, in full parentheses. */
static void params_text(Buf *b, const Expr *e)
{
    switch (e->kind) {
    case E_INT: buf_puts(b, e->text); return;
    case E_VAR: buf_puts(b, e->var->cname); return;
    case E_CAST:
        buf_printf(b, "((%s)", type_c_name(e->ty));
        params_text(b, e->kids[0]);
        buf_puts(b, ")");
        return;
    case E_UNARY:
        buf_printf(b, "(%s", op_spelling(e->op));
        params_text(b, e->kids[0]);
        buf_puts(b, ")");
        return;
    case E_BINARY:
        buf_puts(b, "(");
        params_text(b, e->kids[0]);
        buf_printf(b, " %s ", op_spelling(e->op));
        params_text(b, e->kids[1]);
        buf_puts(b, ")");
        return;
    default: unreachable();
    }
}

typedef struct ParamsCx {
    IrVisitor v;
    Arena *a;
    Region *r;
} ParamsCx;

/* Post-order: operands first, so `w * h / 2` names w * h once and then
 * itself (a division of a term is not affine either). */
static Expr *params_after(IrVisitor *vis, Expr *e, Stmt *owner)
{
    (void)owner;
    ParamsCx *c = (ParamsCx *)vis;
    if (e->pvar || e->kind == E_INT || e->kind == E_VAR || !of_params(e) || aff_of(c->a, e))
        return e;
    for (int i = 0; i < c->r->pvars.len && !e->pvar; i++) {
        Var *p = vec_at(&c->r->pvars, i);
        if (expr_equal(p->pdef, e))
            e->pvar = p;
    }
    if (e->pvar)
        return e;
    Var *p = arena_alloc(c->a, sizeof *p);
    Buf t = {0};
    params_text(&t, e);
    p->name = p->cname = arena_strdup(c->a, t.data);
    buf_free(&t);
    p->ty = e->ty;
    p->kind = V_PARAM;
    p->id = -1;
    p->loc = e->loc;
    p->pdef = e;
    vec_push(c->a, &c->r->pvars, p);
    e->pvar = p;
    return e;
}

void aff_params(Arena *a, Region *r)
{
    ParamsCx c = {{.expr_after = params_after}, a, r};
    ir_visit_stmt(&c.v, r->body);
}

bool aff_uses(const Aff *f, const Var *v)
{
    return aff_coef(f, v) != 0;
}

long long aff_coef(const Aff *f, const Var *v)
{
    for (int i = 0; i < f->nterms; i++)
        if (f->terms[i].var == v)
            return f->terms[i].coef;
    return 0;
}

void aff_print(const Aff *f, const char *(*name)(void *cx, const Var *v), void *cx, Buf *out)
{
    for (int i = 0; i < f->nterms; i++) {
        long long c = f->terms[i].coef;
        const char *sign = c < 0 ? (i ? " - " : "-") : i ? " + " : "";
        long long m = c < 0 ? -c : c;
        const char *x = name(cx, f->terms[i].var);
        if (m == 1)
            buf_printf(out, "%s%s", sign, x);
        else
            buf_printf(out, "%s%lld * %s", sign, m, x);
    }
    if (!f->nterms)
        buf_printf(out, "%lld", f->c);
    else if (f->c)
        buf_printf(out, " %c %lld", f->c < 0 ? '-' : '+', f->c < 0 ? -f->c : f->c);
}

/* An integer constant, or its negation: *v its value. */
static bool int_const(const Expr *e, long long *v)
{
    if (e && e->kind == E_UNARY && e->op == OP_NEG && int_const(e->kids[0], v)) {
        *v = -*v;
        return true;
    }
    return e && e->kind == E_INT && sscanf(e->text, "%lld", v) == 1;
}

long long expr_pos_const(const Expr *e)
{
    long long d;
    return int_const(e, &d) && d > 0 ? d : 0;
}

typedef struct BoundCx {
    Arena *a;
    const char *(*name)(void *cx, const Var *v);
    void *cx;
} BoundCx;

/* e into out (NULL: only the test), in parentheses unless top. */
static bool bound_put(const BoundCx *k, Expr *e, Buf *out, bool top)
{
    if (!e)
        return false;
    Aff *f = aff_of(k->a, e);
    if (f) {
        /* a constant >= 0 or one variable needs no parentheses */
        bool bare = top || (!f->nterms && f->c >= 0) || (f->nterms == 1 && !f->c && f->terms[0].coef == 1);
        if (out) {
            buf_puts(out, bare ? "" : "(");
            aff_print(f, k->name, k->cx, out);
            buf_puts(out, bare ? "" : ")");
        }
        return true;
    }
    long long d = e->nkids == 2 ? expr_pos_const(e->kids[1]) : 0;
    Buf x = {0}, y = {0};
    Buf *px = out ? &x : NULL, *py = out ? &y : NULL;
    /* how x (and y, or the constant d) make e */
    enum { NONE, NEG, SAME, ADD, SUB, DIV, MUL, MIN, MAX } how = NONE;
    switch (e->kind) {
    case E_CAST:
        return type_is_integer(e->ty) && !cast_wraps(e) && bound_put(k, e->kids[0], out, top);
    case E_UNARY:
        if ((e->op == OP_NEG || e->op == OP_PLUS) && bound_put(k, e->kids[0], px, false))
            how = e->op == OP_NEG ? NEG : SAME;
        break;
    case E_BINARY:
        if (e->op == OP_ADD || e->op == OP_SUB) {
            if (bound_put(k, e->kids[0], px, false) && bound_put(k, e->kids[1], py, false))
                how = e->op == OP_ADD ? ADD : SUB;
        } else if (e->op == OP_DIV && d) {
            if (bound_put(k, e->kids[0], px, false))
                how = DIV;
        } else if (e->op == OP_MUL) {
            /* a constant factor on either side (isl writes -2 * floord(...)) */
            long long c0 = 0, c1 = 0;
            bool k0 = int_const(e->kids[0], &c0), k1 = !k0 && int_const(e->kids[1], &c1);
            d = k0 ? c0 : c1;
            if ((k0 || k1) && bound_put(k, e->kids[k0 ? 1 : 0], px, false))
                how = MUL;
        }
        break;
    case E_CALL:
        if (e->nkids == 2 && !strcmp(e->text, "gf_floord") && d) {
            if (bound_put(k, e->kids[0], px, false))
                how = DIV;
        } else if (e->nkids == 2 && (!strcmp(e->text, "gf_min") || !strcmp(e->text, "gf_max"))) {
            if (bound_put(k, e->kids[0], px, false) && bound_put(k, e->kids[1], py, false))
                how = e->text[4] == 'i' ? MIN : MAX;
        }
        break;
    default:
        break;
    }
    if (how != NONE && out) {
        buf_puts(out, top ? "" : "(");
        switch (how) {
        case NEG: buf_printf(out, "-%s", x.data); break;
        case SAME: buf_puts(out, x.data); break;
        case ADD: buf_printf(out, "%s + %s", x.data, y.data); break;
        case SUB: buf_printf(out, "%s - %s", x.data, y.data); break;
        case DIV: buf_printf(out, "%s / %lld.0", x.data, d); break;
        case MUL: buf_printf(out, "%s * %lld.0", x.data, d); break;
        case MIN: buf_printf(out, "%s < %s ? %s : %s", x.data, y.data, x.data, y.data); break;
        case MAX: buf_printf(out, "%s > %s ? %s : %s", x.data, y.data, x.data, y.data); break;
        case NONE: break;
        }
        buf_puts(out, top ? "" : ")");
    }
    buf_free(&x);
    buf_free(&y);
    return how != NONE;
}

bool bound_print(Arena *a, Expr *e, const char *(*name)(void *cx, const Var *v), void *cx, Buf *out)
{
    BoundCx k = {a, name, cx};
    return bound_put(&k, e, out, true);
}

static IrFind uncounted(const Stmt *s, const void *a)
{
    return s->kind == S_FOR && (!bound_print((Arena *)a, s->lb, NULL, NULL, NULL) ||
                                !bound_print((Arena *)a, s->ub, NULL, NULL, NULL)) ? IR_FOUND : IR_NEXT;
}

const Stmt *bound_uncounted(Arena *a, const Stmt *s)
{
    return ir_stmt_find(s, uncounted, a);
}
