/* affine.c - affine forms c + sum(coef * var) over loop indices and integer
 * parameters, read off expressions; the bridge from C subscripts and loop
 * bounds to isl's sets and maps (deps.c builds isl_aff from them). */
#include "gfc.h"

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

Aff *aff_of(Arena *a, Expr *e)
{
    if (!e)
        return NULL;
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
        if (v->kind != V_IV && !(v->kind == V_PARAM && !v->is_array))
            return NULL;
        Aff *f = aff_new(a, 1);
        f->terms[0] = (AffTerm){v, 1};
        f->nterms = 1;
        return f;
    }
    case E_CAST:
        return type_is_integer(e->ty) ? aff_of(a, e->kids[0]) : NULL;
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
        return NULL;
    }
    default:
        return NULL;
    }
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
        return type_is_integer(e->ty) && bound_put(k, e->kids[0], out, top);
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
