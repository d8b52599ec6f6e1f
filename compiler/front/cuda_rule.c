/* cuda_rule.c - GPUFUSE_CUDA's annotations (gpufuse.h): the name of the
 * user's kernel and its launch rule, read from the marked function's
 * `annotate` attributes and checked against its parameters.  A rule's
 * expressions are parsed here (literals, scalar parameters, C's arithmetic,
 * comparison, logical and conditional operators), so that what gpufuse
 * accepts compiles in the launcher; each is kept as C text with the
 * parameters under their generated names.  docs/cuda-kernels.md. */
#include "cuda_rule.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct RuleCx {
    Arena *a;
    Region *r;
    Loc loc;
    const char *what;            /* "the thread count", "the grid", "the block" */
    const char *s;               /* the text being parsed */
    const char *p;               /* the next character */
    Buf out;                     /* the expression as generated code writes it */
    bool bad;
} RuleCx;

static bool is_ident_start(char c)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_ident_char(char c)
{
    return is_ident_start(c) || (c >= '0' && c <= '9');
}

static void __attribute__((format(printf, 2, 3))) rule_error(RuleCx *c, const char *fmt, ...)
{
    if (c->bad)
        return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    diag_reject(c->loc, "-Wgpufuse-cuda", "%s, in %s of the launch rule '%s'; '%s' keeps its CPU body", msg, c->what,
                c->s, c->r->name);
    c->bad = true;
}

static void skip_space(RuleCx *c)
{
    while (*c->p == ' ' || *c->p == '\t' || *c->p == '\n')
        c->p++;
}

/* The binary operator at p (longest match): its precedence (0: none) and
 * length.  `a |= b`, `a <<= b` are assignments: no operator. */
static int binop_at(const char *p, int *len)
{
    static const char *const two[] = {"||", "&&", "==", "!=", "<=", ">=", "<<", ">>"};
    static const int two_prec[] = {4, 5, 9, 9, 10, 10, 11, 11};
    static const char one[] = "|^&<>+-*/%";
    static const int one_prec[] = {6, 7, 8, 10, 10, 12, 12, 13, 13, 13};
    for (int i = 0; i < 8; i++)
        if (!strncmp(p, two[i], 2)) {
            *len = 2;
            return i >= 6 && p[2] == '=' ? 0 : two_prec[i];
        }
    const char *o = *p ? strchr(one, *p) : NULL;
    if (!o || p[1] == '=')
        return 0;
    *len = 1;
    return one_prec[o - one];
}

/* An integer or floating literal with C's suffixes. */
static void number(RuleCx *c)
{
    const char *b = c->p;
    while (is_ident_char(*c->p) || *c->p == '.')
        c->p++;
    char *tok = arena_printf(c->a, "%.*s", (int)(c->p - b), b);
    char *end;
    errno = 0;
    (void)strtoull(tok, &end, 0);
    bool ok = end != tok && !errno && strspn(end, "uUlL") == strlen(end) && strlen(end) <= 3;
    if (!ok) {
        errno = 0;
        (void)strtod(tok, &end);
        ok = end != tok && !errno && (!*end || (!end[1] && (*end == 'f' || *end == 'F')));
    }
    if (!ok)
        rule_error(c, "'%s' is not a number", tok);
    buf_puts(&c->out, tok);
}

/* A parameter's name: a scalar parameter of the function. */
static void name(RuleCx *c)
{
    const char *b = c->p;
    while (is_ident_char(*c->p))
        c->p++;
    char *id = arena_printf(c->a, "%.*s", (int)(c->p - b), b);
    for (int i = 0; i < c->r->params.len; i++) {
        Var *v = vec_at(&c->r->params, i);
        if (strcmp(v->name, id))
            continue;
        if (v->is_array)
            rule_error(c, "'%s' is an array parameter; a launch rule takes the scalar parameters", id);
        buf_puts(&c->out, v->cname);
        return;
    }
    rule_error(c, "'%s' is not a parameter of '%s'", id, c->r->name);
}

static void expr(RuleCx *c);

static void unary(RuleCx *c)
{
    skip_space(c);
    char ch = *c->p;
    if (ch == '-' || ch == '+' || ch == '!' || ch == '~') {
        c->p++;
        buf_printf(&c->out, "%c", ch);
        unary(c);
    } else if (ch == '(') {
        c->p++;
        buf_puts(&c->out, "(");
        expr(c);
        skip_space(c);
        if (*c->p != ')')
            rule_error(c, "expected ')'");
        else
            c->p++;
        buf_puts(&c->out, ")");
    } else if (ch >= '0' && ch <= '9') {
        number(c);
    } else if (ch == '.' && c->p[1] >= '0' && c->p[1] <= '9') {
        number(c);
    } else if (is_ident_start(ch)) {
        name(c);
    } else if (!ch) {
        rule_error(c, "expected an expression");
    } else {
        rule_error(c, "unexpected '%c'", ch);
        c->p++;
    }
}

static void binary(RuleCx *c, int min_prec)
{
    unary(c);
    for (;;) {
        skip_space(c);
        int len, prec = binop_at(c->p, &len);
        if (c->bad || !prec || prec < min_prec)
            return;
        buf_printf(&c->out, " %.*s ", len, c->p);
        c->p += len;
        binary(c, prec + 1);
    }
}

static void expr(RuleCx *c)
{
    binary(c, 4);
    skip_space(c);
    if (*c->p == '?' && !c->bad) {
        c->p++;
        buf_puts(&c->out, " ? ");
        expr(c);
        skip_space(c);
        if (*c->p != ':') {
            rule_error(c, "expected ':'");
            return;
        }
        c->p++;
        buf_puts(&c->out, " : ");
        expr(c);
    }
}

/* One expression of the rule: its generated text, or NULL (diagnosed). */
static const char *one_expr(Arena *a, Region *r, Loc loc, const char *what, const char *text)
{
    RuleCx c = {.a = a, .r = r, .loc = loc, .what = what, .s = text, .p = text};
    expr(&c);
    skip_space(&c);
    if (*c.p && !c.bad)
        rule_error(&c, "unexpected '%c'", *c.p);
    const char *out = c.bad ? NULL : arena_strdup(a, c.out.data ? c.out.data : "");
    buf_free(&c.out);
    return out;
}

/* The end of a parenthesis opened at p (or NULL). */
static const char *closing(const char *p)
{
    int depth = 0;
    for (; *p; p++) {
        depth += *p == '(';
        depth -= *p == ')';
        if (!depth)
            return p;
    }
    return NULL;
}

/* A list of 1 to 3 expressions, "(x, y)" or one expression. */
static int expr_list(Arena *a, Region *r, Loc loc, const char *what, const char *text, const char *out[3])
{
    while (*text == ' ')
        text++;
    const char *inner = text;
    size_t n = strlen(text);
    while (n && text[n - 1] == ' ')
        n--;
    const char *end = text + n;
    if (*text == '(' && closing(text) == end - 1) {
        inner = text + 1;
        end--;
    }
    int k = 0, depth = 0;
    const char *start = inner;
    for (const char *p = inner;; p++) {
        if (p < end && *p != ',') {
            depth += *p == '(';
            depth -= *p == ')';
            continue;
        }
        if (p < end && depth > 0)
            continue;
        if (k == 3) {
            diag_reject(loc, "-Wgpufuse-cuda", "%s of the launch rule '%s' has more than 3 dimensions; '%s' keeps its "
                        "CPU body", what, text, r->name);
            return 0;
        }
        char *item = arena_printf(a, "%.*s", (int)(p - start), start);
        out[k] = one_expr(a, r, loc, what, item);
        if (!out[k])
            return 0;
        k++;
        if (p >= end)
            break;
        start = p + 1;
    }
    return k;
}

typedef struct Annot {
    Arena *a;
    const char *kernel, *threads, *grid, *block;
    Loc loc;
    const char *path;
} Annot;

static const char *after(const char *s, const char *prefix)
{
    size_t n = strlen(prefix);
    return strncmp(s, prefix, n) ? NULL : s + n;
}

static enum CXChildVisitResult visit_annot(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    Annot *an = d;
    if (clang_getCursorKind(c) != CXCursor_AnnotateAttr)
        return CXChildVisit_Continue;
    CXString cs = clang_getCursorSpelling(c);
    const char *s = clang_getCString(cs), *v;
    if ((v = after(s, "gpufuse_cuda:"))) {
        an->kernel = arena_strdup(an->a, v);
        unsigned line, col;
        clang_getExpansionLocation(clang_getCursorLocation(c), NULL, &line, &col, NULL);
        an->loc = (Loc){an->path, (int)line, (int)col};
    } else if ((v = after(s, "gpufuse_cuda_threads:"))) {
        an->threads = arena_strdup(an->a, v);
    } else if ((v = after(s, "gpufuse_cuda_grid:"))) {
        an->grid = arena_strdup(an->a, v);
    } else if ((v = after(s, "gpufuse_cuda_block:"))) {
        an->block = arena_strdup(an->a, v);
    }
    clang_disposeString(cs);
    return CXChildVisit_Continue;
}

static bool ident_ok(const char *s)
{
    if (!is_ident_start(*s))
        return false;
    for (; *s; s++)
        if (!is_ident_char(*s))
            return false;
    return true;
}

bool cuda_rule_read(Unit *u, Region *r, CXCursor fn)
{
    Annot an = {.a = u->arena, .path = u->path};
    clang_visitChildren(fn, visit_annot, &an);
    if (!an.kernel)
        return true;
    Loc loc = an.loc.line ? an.loc : r->loc;
    if (!ident_ok(an.kernel)) {
        diag_reject(loc, "-Wgpufuse-cuda", "the kernel's name '%s' is not an identifier; write the name of an "
                    "extern \"C\" __global__ function; '%s' keeps its CPU body", an.kernel, r->name);
        return false;
    }
    if (!strncmp(an.kernel, "gf_", 3)) {
        diag_reject(loc, "-Wgpufuse-cuda", "the kernel cannot be named '%s' (gf_ names are gpufuse's); '%s' keeps its "
                    "CPU body", an.kernel, r->name);
        return false;
    }
    if (r->ret->kind != TY_VOID) {
        diag_reject(loc, "-Wgpufuse-cuda", "a function with a hand-written kernel must return void (a kernel "
                    "returns nothing); '%s' keeps its CPU body", r->name);
        return false;
    }
    CudaRule *cr = arena_alloc(u->arena, sizeof *cr);
    cr->kernel = an.kernel;
    cr->loc = loc;
    if (an.threads && !(cr->threads = one_expr(u->arena, r, loc, "the thread count", an.threads)))
        return false;
    if (an.grid && !(cr->ngrid = expr_list(u->arena, r, loc, "the grid", an.grid, cr->grid)))
        return false;
    if (an.block && !(cr->nblock = expr_list(u->arena, r, loc, "the block", an.block, cr->block)))
        return false;
    r->cuda = cr;
    return true;
}

/* Whether the kernel's parameters, as r declares them, are those of w. */
static bool same_signature(Region *r, Region *w)
{
    if (r->params.len != w->params.len)
        return false;
    for (int i = 0; i < r->params.len; i++) {
        Var *a = vec_at(&r->params, i), *b = vec_at(&w->params, i);
        Type *ta = a->is_array ? type_elem(a->ty) : a->ty, *tb = b->is_array ? type_elem(b->ty) : b->ty;
        if (a->is_array != b->is_array || strcmp(type_c_name(ta), type_c_name(tb)) ||
            (a->is_array && ta->is_const != tb->is_const))
            return false;
    }
    return true;
}

/* Why the kernel's name cannot be declared in the generated file, or NULL. */
static const char *name_clash(Unit *u, Region *r)
{
    Arena *a = u->arena;
    const char *k = r->cuda->kernel;
    if (strcmp(decls_cname(a, k), k))
        return "a C++ keyword, or a name the generated file's headers declare";
    for (int i = 0; i < r->params.len; i++)
        if (!strcmp(((Var *)vec_at(&r->params, i))->name, k))
            return arena_printf(a, "a parameter of '%s' has that name", r->name);
    Vec *lists[2] = {&u->regions, &u->rejected};
    for (int l = 0; l < 2; l++)
        for (int i = 0; i < lists[l]->len; i++) {
            Region *w = vec_at(lists[l], i);
            if (!strcmp(w->name, k))
                return arena_printf(a, "the marked function '%s' has that name", k);
            if (l == 0 && w != r && w->cuda && !strcmp(w->cuda->kernel, k) && !same_signature(r, w))
                return arena_printf(a, "'%s' names it with other parameters", w->name);
            if (w == r)
                break;           /* a kernel two functions share: the first one's signature */
        }
    for (int i = 0; i < u->decls.len; i++) {
        Decl *d = vec_at(&u->decls, i);
        if (d->name && !strcmp(d->name, k))
            return arena_printf(a, "the generated file defines '%s' (%s)", k, d->where ? d->where : "a declaration");
    }
    return NULL;
}

bool cuda_rule_check(Unit *u, Region *r)
{
    const char *why = name_clash(u, r);
    if (!why)
        return true;
    diag_reject(r->cuda->loc, "-Wgpufuse-cuda", "the kernel cannot be named '%s' (%s); '%s' keeps its CPU body",
                r->cuda->kernel, why, r->name);
    return false;
}
