/* args.c - what each launcher must know about its array arguments: the box
 * of elements a call touches (from isl, for staging host memory), and which
 * arguments may be the very same pointer without changing the result. */
#include "gfc.h"

#include <string.h>

typedef struct KeyCx {
    IrVisitor v;
    Arena *a;
    Var *var;
    const char *key;             /* first access's canonical subscripts */
    bool uniform;                /* every access has that key */
} KeyCx;

/* Subscripts with loop indices named by depth, so x[i] in one nest and x[j]
 * in the next compare equal. */
static const char *canonical(Arena *a, const Expr *e)
{
    char *s = arena_strdup(a, "");
    for (int i = 0; i < e->nkids; i++) {
        Aff *f = aff_of(a, e->kids[i]);
        if (!f)
            return NULL;
        s = arena_printf(a, "%s[%lld", s, f->c);
        for (int t = 0; t < f->nterms; t++) {
            Var *v = f->terms[t].var;
            if (v->kind == V_IV)
                s = arena_printf(a, "%s+%lld*L%d", s, f->terms[t].coef, v->depth);
            else
                s = arena_printf(a, "%s+%lld*%s", s, f->terms[t].coef, v->cname);
        }
        s = arena_printf(a, "%s]", s);
    }
    return s;
}

static Expr *key_expr(IrVisitor *v, Expr *e, Stmt *owner)
{
    (void)owner;
    KeyCx *k = (KeyCx *)v;
    if (e->kind == E_INDEX && e->var == k->var) {
        const char *c = canonical(k->a, e);
        if (!c)
            k->uniform = false;
        else if (!k->key)
            k->key = c;
        else if (strcmp(k->key, c))
            k->uniform = false;
    }
    return e;
}

static bool key_stmt(IrVisitor *v, Stmt *s)
{
    KeyCx *k = (KeyCx *)v;
    if (s->kind != S_LIB)
        return true;
    /* a library call sees the whole array: no alias class */
    for (int i = 0; i < s->rhs->nkids; i++)
        if (s->rhs->kids[i]->kind == E_VAR && s->rhs->kids[i]->var == k->var)
            k->uniform = false;
    return false;
}

typedef struct WriteCx {
    IrVisitor v;
    Var *var;
    int writes;
    bool exact;                  /* every write is an unconditional point store */
} WriteCx;

static bool is_zero(const Expr *e)
{
    return e && e->kind == E_INT && !strcmp(e->text, "0");
}

/* The loop k levels out from the innermost one around the visited statement. */
static const Stmt *loop_out(const IrFrame *up, int k)
{
    for (; up; up = up->up)
        if (up->s->kind == S_FOR && k-- == 0)
            return up->s;
    return NULL;
}

static bool writes_of(IrVisitor *v, Stmt *s)
{
    WriteCx *w = (WriteCx *)v;
    if (s->kind != S_ASSIGN)
        return true;
    const Expr *l = s->lhs;
    if (l->kind == E_FIELD)
        l = l->kids[0];
    if (l->kind != E_INDEX || l->var != w->var)
        return false;
    w->writes++;
    /* the loops around it; under an if or a while, or in a loop that breaks
     * (it may skip its later iterations), it may not happen */
    int nloops = 0;
    bool cond = false;
    for (const IrFrame *f = v->up; f; f = f->up) {
        nloops += f->s->kind == S_FOR;
        cond = cond || f->s->kind == S_IF || f->s->kind == S_WHILE || (f->s->kind == S_FOR && f->s->brk);
    }
    bool ok = !cond && s->op == OP_ASSIGN && s->lhs->kind == E_INDEX && l->nkids <= nloops;
    /* subscript d is the index of loop (nloops - nkids + d), step 1, and
     * inner dimensions run over the whole declared extent */
    for (int d = 0; ok && d < l->nkids; d++) {
        const Stmt *lp = loop_out(v->up, l->nkids - 1 - d);
        const Expr *x = l->kids[d];
        if (x->kind != E_VAR || x->var != lp->iv || lp->step != 1)
            ok = false;
        else if (d > 0 && (!is_zero(lp->lb) || !w->var->dims[d] || !expr_equal(lp->ub, w->var->dims[d])))
            ok = false;
    }
    /* loops outside the subscripted ones must not skip any instance */
    if (!ok)
        w->exact = false;
    return false;
}

/* A return before the end of the body: the writes after it may not happen. */
static bool returns_early(const Region *r)
{
    for (int i = 0; i < r->stmts.len; i++) {
        const Stmt *s = vec_at(&r->stmts, i);
        if (s && s->kind == S_RETURN && (s->parent != r->body || vec_at(&r->body->list, r->body->list.len - 1) != s))
            return true;
    }
    return false;
}

/* A pure output written exactly once per element of its staged box needs no
 * copy-in. */
static bool write_only(Region *r, Var *v)
{
    if (!v->written || v->read || v->ext_whole || !v->ext_lo || returns_early(r))
        return false;
    WriteCx w = {{.stmt = writes_of}, v, 0, true};
    ir_visit_stmt(&w.v, r->body);
    return w.writes == 1 && w.exact;
}

/* An array named without a subscript: only library calls do that. */
static bool is_bare_use(const Expr *e, const void *v)
{
    return e->kind == E_VAR && e->var == v;
}

bool args_plan(Unit *u, Region *r)
{
    const char *keys[256];
    int nkeys = 0;
    Vec run = {0};               /* plain pointers whose extents the launcher finds (inspect.c) */
    for (int i = 0; i < r->params.len; i++) {
        Var *v = vec_at(&r->params, i);
        if (!v->is_array)
            continue;
        if (!deps_extent(u, r, v, &v->ext_lo, &v->ext_hi)) {
            /* isl cannot bound it (gathers, non-affine bounds): the declared shape */
            bool known = v->ndims > 0;
            for (int d = 0; d < v->ndims; d++)
                if (!v->dims[d])
                    known = false;
            if (!known && ir_stmt_any(r->body, is_bare_use, v)) {
                diag_reject(v->loc, "-Wgpufuse-extent",
                            "a library call takes '%s' whole, and its size is not declared; declare it with its "
                            "size, e.g. 'const float %s[n][k]', so the launcher can copy it; '%s' keeps its CPU body",
                            v->name, v->name, r->name);
                return false;
            }
            if (!known && v->ndims > 1) {
                diag_reject(v->loc, "-Wgpufuse-extent",
                            "cannot tell how much of '%s' the loops touch (its subscripts or the loop bounds are not "
                            "affine); declare it with its size, e.g. 'const float %s[n][m]', so the launcher can copy "
                            "it; '%s' keeps its CPU body", v->name, v->name, r->name);
                return false;
            }
            if (!known)
                vec_push(u->arena, &run, v);   /* a plain pointer: found at run time */
            else
                v->ext_whole = true;
        }
        v->write_only = write_only(r, v);
        if (!v->write_only && !returns_early(r)) {
            /* read after it is written, or written by several statements:
             * the dependence model says whether every copied element is
             * written before any read sees it */
            bool always;
            v->write_first = deps_write_first(r, v, &always);
            v->write_only = always;
        }
        /* restrict is the user's promise that nothing overlaps */
        if (v->ty->kind == TY_PTR && v->ty->is_restrict)
            continue;
        KeyCx k = {{.stmt = key_stmt, .expr = key_expr}, u->arena, v, NULL, true};
        ir_visit_stmt(&k.v, r->body);
        if (!k.uniform || !k.key || nkeys == 256)
            continue;
        int cls = 0;
        for (int j = 0; j < nkeys; j++)
            if (!strcmp(keys[j], k.key))
                cls = j + 1;
        if (!cls) {
            keys[nkeys++] = k.key;
            cls = nkeys;
        }
        v->alias_class = cls;
    }
    Var *bad;
    const char *why;
    if (run.len && !inspect_plan(r, &run, &bad, &why)) {
        diag_reject(bad->loc, "-Wgpufuse-extent",
                    "cannot tell how much of '%s' the loops touch: its subscripts or the loop bounds are not affine, "
                    "and the launcher cannot find it before the call either (%s); declare it with its size, e.g. "
                    "'const float %s[n]', so the launcher can copy it; '%s' keeps its CPU body", bad->name, why,
                    bad->name, r->name);
        return false;
    }
    /* a class of one is no class */
    for (int i = 0; i < r->params.len; i++) {
        Var *v = vec_at(&r->params, i);
        int n = 0;
        for (int j = 0; v->alias_class && j < r->params.len; j++)
            if (((Var *)vec_at(&r->params, j))->alias_class == v->alias_class)
                n++;
        if (n < 2)
            v->alias_class = 0;
    }
    return true;
}
