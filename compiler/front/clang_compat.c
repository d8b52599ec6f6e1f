/* clang_compat.c - the operator of an expression node on libclang 14-19.
 *
 * libclang 17 added clang_getCursorBinaryOperatorKind and
 * clang_getCursorUnaryOperatorKind.  Before it the C API cannot say which
 * operator a node holds, and the source's tokens are no answer: an operator
 * or an operand may come from a macro (SQ(x), MIN(a, b), M_PI * x, N - 1,
 * isfinite(x)).  What the C API does give is clang's pretty printer for
 * declarations, which prints a function with every macro expanded (as
 * clang -ast-print does).  So, before 17:
 *   1. each marked function is printed (clang_getCursorPrettyPrinted);
 *   2. the file is parsed again with those functions replaced by their
 *      printed text (an unsaved file, the same arguments);
 *   3. each original function and its re-parsed copy are walked in
 *      lockstep: the same cursor kinds, types and names in the same
 *      preorder.  An operator node of the copy is written in the printed
 *      text, which has no macros: its operator is exactly the text between
 *      its operands there (or before/after its operand).
 * Where the walks differ, both nodes must be integer constants of the same
 * value (the printer writes `double A[N + 1]` as `double A[513]`): the
 * front end reads those with clang_Cursor_Evaluate.  Any other difference
 * stops the walk of that function; it is reported where it happened
 * (gfc_ops_failure) when an operator after it is needed, never guessed. */
#include "clang_compat.h"

#include <stdlib.h>
#include <string.h>

#if CINDEX_VERSION_MINOR >= 64
#define HAVE_OPKIND 1
#else
#define HAVE_OPKIND 0
#endif

typedef struct Entry {
    CXCursor c;                  /* the node in the original AST */
    Op op;
    bool used;
} Entry;

typedef struct Failure {
    CXCursor fn, at;
    const char *why;
} Failure;

struct GfcOps {
    Arena *a;
    bool direct;                 /* libclang >= 17: asked of the node */
    Entry *tab;                  /* open addressing, cap a power of two */
    int cap, len;
    Failure *fail;
    int nfail;
};

/* ---- the table ---------------------------------------------------------- */

static void put(GfcOps *t, CXCursor c, Op op);

static void grow(GfcOps *t)
{
    Entry *old = t->tab;
    int ocap = t->cap;
    t->cap = ocap ? 2 * ocap : 256;
    t->tab = arena_alloc(t->a, sizeof *t->tab * (size_t)t->cap);
    t->len = 0;
    for (int i = 0; i < ocap; i++)
        if (old[i].used)
            put(t, old[i].c, old[i].op);
}

static void put(GfcOps *t, CXCursor c, Op op)
{
    if (2 * (t->len + 1) > t->cap)
        grow(t);
    unsigned m = (unsigned)t->cap - 1, h = clang_hashCursor(c) & m;
    while (t->tab[h].used && !clang_equalCursors(t->tab[h].c, c))
        h = (h + 1) & m;
    if (!t->tab[h].used)
        t->len++;
    t->tab[h] = (Entry){c, op, true};
}

static const Entry *get(const GfcOps *t, CXCursor c)
{
    if (!t->cap)
        return NULL;
    unsigned m = (unsigned)t->cap - 1, h = clang_hashCursor(c) & m;
    for (; t->tab[h].used; h = (h + 1) & m)
        if (clang_equalCursors(t->tab[h].c, c))
            return &t->tab[h];
    return NULL;
}

/* ---- libclang >= 17: the operator-kind query ----------------------------- */

#if HAVE_OPKIND
static bool op_from_api(CXCursor c, Op *op)
{
    if (clang_getCursorKind(c) == CXCursor_UnaryOperator) {
        enum CXUnaryOperatorKind u = clang_getCursorUnaryOperatorKind(c);
        if (u == CXUnaryOperator_Invalid)
            return false;
        if (u == CXUnaryOperator_Extension) {
            *op = GFC_OP_EXTENSION;
            return true;
        }
        CXString s = clang_getUnaryOperatorKindSpelling(u);
        *op = op_unary_of(clang_getCString(s), u == CXUnaryOperator_PostInc || u == CXUnaryOperator_PostDec);
        clang_disposeString(s);
        return true;
    }
    enum CXBinaryOperatorKind b = clang_getCursorBinaryOperatorKind(c);
    if (b == CXBinaryOperator_Invalid)
        return false;
    CXString s = clang_getBinaryOperatorKindSpelling(b);
    *op = op_binary_of(clang_getCString(s));
    clang_disposeString(s);
    return true;
}
#else
static bool op_from_api(CXCursor c, Op *op)
{
    (void)c;
    (void)op;
    return false;
}
#endif

/* ---- children that carry meaning ---------------------------------------- */

typedef struct Kids {
    CXCursor *c;
    int n, cap;
} Kids;

static enum CXChildVisitResult add_kid(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    Kids *k = d;
    enum CXCursorKind kind = clang_getCursorKind(c);
    /* type references and attributes: the printer may write them otherwise */
    if (clang_isReference(kind) || clang_isAttribute(kind))
        return CXChildVisit_Continue;
    if (k->n == k->cap) {
        k->cap = k->cap ? 2 * k->cap : 8;
        CXCursor *nc = realloc(k->c, sizeof *nc * (size_t)k->cap);
        if (!nc)
            abort();
        k->c = nc;
    }
    k->c[k->n++] = c;
    return CXChildVisit_Continue;
}

static Kids kids(CXCursor c)
{
    Kids k = {NULL, 0, 0};
    clang_visitChildren(c, add_kid, &k);
    return k;
}

/* ---- the lockstep walk ---------------------------------------------------- */

typedef struct Walk {
    GfcOps *t;
    const char *buf;             /* the re-parsed text */
    size_t len;
    const char *fname;
    const char *why;             /* set where the walks differ */
    CXCursor at;
    int depth;
} Walk;

/* Deeper than the front end's own expression limit: it diagnoses first. */
#define MAX_WALK_DEPTH 8000

static char *kind_name(Arena *a, CXCursor c)
{
    CXString s = clang_getCursorKindSpelling(clang_getCursorKind(c));
    char *r = arena_strdup(a, clang_getCString(s));
    clang_disposeString(s);
    return r;
}

static bool differ(Walk *w, CXCursor o, CXCursor c, const char *what)
{
    w->at = o;
    w->why = arena_printf(w->t->a, "clang's printed form of '%s' differs from the source here (%s: %s in the source, "
                          "%s in the printed form)", w->fname, what, kind_name(w->t->a, o), kind_name(w->t->a, c));
    return false;
}

static bool same_spelling(CXCursor a, CXCursor b)
{
    CXString x = clang_getCursorSpelling(a), y = clang_getCursorSpelling(b);
    bool eq = !strcmp(clang_getCString(x), clang_getCString(y));
    clang_disposeString(x);
    clang_disposeString(y);
    return eq;
}

static bool int_value(CXCursor c, long long *v)
{
    if (!clang_isExpression(clang_getCursorKind(c)))
        return false;
    CXEvalResult ev = clang_Cursor_Evaluate(c);
    if (!ev)
        return false;
    bool ok = clang_EvalResult_getKind(ev) == CXEval_Int;
    if (ok)
        *v = clang_EvalResult_getAsLongLong(ev);
    clang_EvalResult_dispose(ev);
    return ok;
}

static bool same_constant(CXCursor o, CXCursor c)
{
    long long x, y;
    return int_value(o, &x) && int_value(c, &y) && x == y;
}

bool gfc_from_main_file(CXCursor c)
{
    CXSourceLocation l = clang_getCursorLocation(c);
    if (clang_Location_isFromMainFile(l))
        return true;
    CXFile f;
    clang_getExpansionLocation(l, &f, NULL, NULL, NULL);
    if (!f)
        return false;
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
    CXString main = clang_getTranslationUnitSpelling(tu);
    CXFile mf = clang_getFile(tu, clang_getCString(main));
    clang_disposeString(main);
    return mf && clang_File_isEqual(f, mf);
}

/* The offset of l in the re-parsed main file; false when l is in a macro
 * expansion or another file. */
static bool offset_of(CXSourceLocation l, unsigned *off)
{
    CXFile f1, f2;
    unsigned o1, o2;
    clang_getSpellingLocation(l, &f1, NULL, NULL, &o1);
    clang_getExpansionLocation(l, &f2, NULL, NULL, &o2);
    if (!clang_Location_isFromMainFile(l) || o1 != o2 || !clang_File_isEqual(f1, f2))
        return false;
    *off = o1;
    return true;
}

static bool extent_of(CXCursor c, unsigned *b, unsigned *e)
{
    CXSourceRange r = clang_getCursorExtent(c);
    return offset_of(clang_getRangeStart(r), b) && offset_of(clang_getRangeEnd(r), e) && *b <= *e;
}

/* The text in [b, e) of the printed form without surrounding blanks, if
 * it is short enough to be an operator. */
static bool gap_text(const Walk *w, unsigned b, unsigned e, char *out, size_t cap)
{
    if (e < b || e > w->len)
        return false;
    while (b < e && strchr(" \t\n\r\f\v", w->buf[b]))
        b++;
    while (e > b && strchr(" \t\n\r\f\v", w->buf[e - 1]))
        e--;
    if (e - b >= cap)
        return false;
    memcpy(out, w->buf + b, e - b);
    out[e - b] = '\0';
    return true;
}

/* The operator of node c of the copy, from the printed text around its
 * operands. */
static bool text_op(const Walk *w, CXCursor c, Op *op)
{
    Kids k = kids(c);
    unsigned b, e, kb, ke, rb, re;
    char gap[16];
    bool ok = false;
    if (!extent_of(c, &b, &e)) {
    } else if (clang_getCursorKind(c) == CXCursor_UnaryOperator) {
        if (k.n == 1 && extent_of(k.c[0], &kb, &ke)) {
            bool postfix = kb == b;
            ok = postfix ? gap_text(w, ke, e, gap, sizeof gap) : gap_text(w, b, kb, gap, sizeof gap);
            if (ok)
                *op = !strcmp(gap, "__extension__") ? GFC_OP_EXTENSION : op_unary_of(gap, postfix);
        }
    } else if (k.n == 2 && extent_of(k.c[0], &kb, &ke) && extent_of(k.c[1], &rb, &re)) {
        ok = gap_text(w, ke, rb, gap, sizeof gap) && (*op = op_binary_of(gap)) != OP_NONE;
    }
    free(k.c);
    return ok;
}

static bool is_operator(enum CXCursorKind k)
{
    return k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator || k == CXCursor_UnaryOperator;
}

static bool same_node(CXCursor o, CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(o);
    if (clang_isExpression(k) &&
        clang_getCanonicalType(clang_getCursorType(o)).kind != clang_getCanonicalType(clang_getCursorType(c)).kind)
        return false;
    bool named = clang_isDeclaration(k) || k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr ||
                 k == CXCursor_CallExpr;
    return !named || same_spelling(o, c);
}

static bool walk(Walk *w, CXCursor o, CXCursor c);

static bool walk_pair(Walk *w, CXCursor o, CXCursor c)
{
    enum CXCursorKind ko = clang_getCursorKind(o);
    if (ko != clang_getCursorKind(c))
        return same_constant(o, c) || differ(w, o, c, "another kind of node");
    if (!same_node(o, c))
        return differ(w, o, c, "another type or name");
    if (is_operator(ko)) {
        Op op;
        if (!text_op(w, c, &op))
            return differ(w, o, c, "its operator cannot be read in the printed form");
        put(w->t, o, op);
    }
    return walk(w, o, c);
}

static bool walk(Walk *w, CXCursor o, CXCursor c)
{
    if (++w->depth > MAX_WALK_DEPTH)
        return differ(w, o, c, "nested too deeply");
    Kids ko = kids(o), kc = kids(c);
    bool ok = ko.n == kc.n || differ(w, o, c, "another number of children");
    for (int i = 0; ok && i < ko.n; i++)
        ok = walk_pair(w, ko.c[i], kc.c[i]);
    free(ko.c);
    free(kc.c);
    w->depth--;
    return ok;
}

/* ---- printing and re-parsing ---------------------------------------------- */

typedef struct Piece {
    const char *name;
    unsigned b, e;               /* the function's extent in the source */
    const char *text;            /* its printed form */
    size_t nb, ne;               /* where that lies in the re-parsed text */
    bool walked;
} Piece;

static void fail(GfcOps *t, CXCursor fn, CXCursor at, const char *why)
{
    Failure *nf = arena_alloc(t->a, sizeof *nf * (size_t)(t->nfail + 1));
    if (t->nfail)
        memcpy(nf, t->fail, sizeof *nf * (size_t)t->nfail);
    nf[t->nfail++] = (Failure){fn, at, why};
    t->fail = nf;
}

static char *printed(Arena *a, CXCursor fn)
{
    CXPrintingPolicy pol = clang_getCursorPrintingPolicy(fn);
    clang_PrintingPolicy_setProperty(pol, CXPrintingPolicy_TerseOutput, 0);
    CXString s = clang_getCursorPrettyPrinted(fn, pol);
    char *r = arena_strdup(a, clang_getCString(s));
    clang_disposeString(s);
    clang_PrintingPolicy_dispose(pol);
    return r;
}

static char *cursor_name(Arena *a, CXCursor c)
{
    CXString s = clang_getCursorSpelling(c);
    char *r = arena_strdup(a, clang_getCString(s));
    clang_disposeString(s);
    return r;
}

/* The source with every function replaced by its printed form. */
static char *splice(Arena *a, const char *src, Piece *pc, int n, size_t *len)
{
    size_t total = strlen(src) + 1;
    for (int i = 0; i < n; i++)
        total += strlen(pc[i].text) + 1;
    char *out = arena_alloc(a, total), *o = out;
    unsigned at = 0;
    for (int i = 0; i < n; i++) {
        memcpy(o, src + at, pc[i].b - at);
        o += pc[i].b - at;
        pc[i].nb = (size_t)(o - out);
        size_t tl = strlen(pc[i].text);
        memcpy(o, pc[i].text, tl);
        o += tl;
        pc[i].ne = (size_t)(o - out);
        at = pc[i].e;
    }
    size_t rest = strlen(src + at);
    memcpy(o, src + at, rest);
    o += rest;
    *o = '\0';
    *len = (size_t)(o - out);
    return out;
}

typedef struct CopyCx {
    Walk *w;
    Piece *pc;
    const CXCursor *fns;
    int n;
} CopyCx;

static enum CXChildVisitResult visit_copy(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    CopyCx *cx = d;
    if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !clang_isCursorDefinition(c) ||
        !gfc_from_main_file(c))
        return CXChildVisit_Continue;
    CXString s = clang_getCursorSpelling(c);
    for (int i = 0; i < cx->n; i++) {
        if (cx->pc[i].walked || strcmp(cx->pc[i].name, clang_getCString(s)))
            continue;
        cx->pc[i].walked = true;
        Walk *w = cx->w;
        w->fname = cx->pc[i].name;
        w->why = NULL;
        w->depth = 0;
        if (!walk(w, cx->fns[i], c))
            fail(w->t, cx->fns[i], w->at, w->why);
    }
    clang_disposeString(s);
    return CXChildVisit_Continue;
}

/* An error of the re-parse inside a printed function: that function's
 * operators cannot be read. */
static void copy_errors(GfcOps *t, CXTranslationUnit copy, Piece *pc, const CXCursor *fns, int n)
{
    unsigned nd = clang_getNumDiagnostics(copy);
    for (unsigned i = 0; i < nd; i++) {
        CXDiagnostic dg = clang_getDiagnostic(copy, i);
        if (clang_getDiagnosticSeverity(dg) >= CXDiagnostic_Error) {
            unsigned off;
            clang_getSpellingLocation(clang_getDiagnosticLocation(dg), NULL, NULL, NULL, &off);
            CXString s = clang_getDiagnosticSpelling(dg);
            for (int j = 0; j < n; j++)
                if (!pc[j].walked && off >= pc[j].nb && off <= pc[j].ne) {
                    pc[j].walked = true;
                    fail(t, fns[j], fns[j], arena_printf(t->a, "clang's printed form of '%s' does not parse "
                                                         "again (%s)", pc[j].name, clang_getCString(s)));
                }
            clang_disposeString(s);
        }
        clang_disposeDiagnostic(dg);
    }
}

static bool source_range(CXCursor fn, unsigned *b, unsigned *e)
{
    CXSourceRange r = clang_getCursorExtent(fn);
    CXFile f1, f2;
    clang_getExpansionLocation(clang_getRangeStart(r), &f1, NULL, NULL, b);
    clang_getExpansionLocation(clang_getRangeEnd(r), &f2, NULL, NULL, e);
    return clang_File_isEqual(f1, f2) && *b < *e;
}

static void read_printed(GfcOps *t, const GfcSource *src, const CXCursor *fns, int n)
{
    Piece *pc = arena_alloc(t->a, sizeof *pc * (size_t)(n ? n : 1));
    size_t srclen = strlen(src->text);
    for (int i = 0; i < n; i++) {
        pc[i].name = cursor_name(t->a, fns[i]);
        pc[i].text = printed(t->a, fns[i]);
        if (!source_range(fns[i], &pc[i].b, &pc[i].e) || pc[i].e > srclen || (i && pc[i].b < pc[i - 1].e)) {
            fail(t, fns[i], fns[i], arena_printf(t->a, "the extent of '%s' in the file is not known", pc[i].name));
            for (int j = 0; j < n; j++)
                if (j != i)
                    fail(t, fns[j], fns[j], "the extents of the marked functions in the file are not known");
            return;
        }
    }
    size_t len;
    char *text = splice(t->a, src->text, pc, n, &len);
    const char **args = arena_alloc(t->a, sizeof *args * (size_t)(src->nargs + 2));
    memcpy(args, src->args, sizeof *args * (size_t)src->nargs);
    args[src->nargs] = "-w";                                    /* the printer's spelling is not ours to warn about */
    args[src->nargs + 1] = "-Dstatic_assert=_Static_assert";    /* printed for _Static_assert, a C23 keyword */
    struct CXUnsavedFile uf = {src->path, text, (unsigned long)len};
    CXIndex idx = clang_createIndex(0, 0);
    CXTranslationUnit copy = NULL;
    if (clang_parseTranslationUnit2(idx, src->path, args, src->nargs + 2, &uf, 1, CXTranslationUnit_None, &copy) !=
            CXError_Success || !copy) {
        for (int i = 0; i < n; i++)
            fail(t, fns[i], fns[i], "the file with its marked functions printed by clang does not parse again");
        clang_disposeIndex(idx);
        return;
    }
    copy_errors(t, copy, pc, fns, n);
    Walk w = {.t = t, .buf = text, .len = len};
    CopyCx cx = {&w, pc, fns, n};
    clang_visitChildren(clang_getTranslationUnitCursor(copy), visit_copy, &cx);
    for (int i = 0; i < n; i++)
        if (!pc[i].walked)
            fail(t, fns[i], fns[i], arena_printf(t->a, "the printed form of '%s' was not found again", pc[i].name));
    clang_disposeTranslationUnit(copy);
    clang_disposeIndex(idx);
}

/* ---- the interface ----------------------------------------------------------- */

GfcOps *gfc_ops_read(Arena *a, const GfcSource *src, const CXCursor *fns, int n)
{
    GfcOps *t = arena_alloc(a, sizeof *t);
    t->a = a;
    t->direct = HAVE_OPKIND;
    if (!t->direct && n)
        read_printed(t, src, fns, n);
    return t;
}

bool gfc_op(const GfcOps *t, CXCursor c, Op *op)
{
    if (t->direct)
        return op_from_api(c, op);
    const Entry *e = get(t, c);
    if (e)
        *op = e->op;
    return e != NULL;
}

const char *gfc_ops_failure(const GfcOps *t, CXCursor fn, CXCursor *at)
{
    for (int i = 0; i < t->nfail; i++)
        if (clang_equalCursors(t->fail[i].fn, fn)) {
            *at = t->fail[i].at;
            return t->fail[i].why;
        }
    return NULL;
}
