/* parse.c - the front end: parses one C file with libclang and turns every
 * GPUFUSE-marked function into a Region (compiler/gfc.h), or rejects it with
 * a located diagnostic saying why, so that it keeps its CPU body. */
#include "gfc.h"
#include "clang_compat.h"
#include "decls.h"

#include <clang-c/Index.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

typedef struct Binding {
    CXCursor decl;
    Var *var;
} Binding;

typedef struct P {
    Unit *u;
    Arena *a;
    CXTranslationUnit tu;
    Region *r;
    jmp_buf fail;
    Binding *binds;
    int nbinds, capbinds;
    Vec loops;                   /* Stmt* S_FOR enclosing the current point */
    bool lvalue;                 /* converting the target of a plain '=' */
    int depth;                   /* expression nesting, bounded */
    int stmt_ids;
    int conds;                   /* if/while statements enclosing the current point */
    /* `continue`: per enclosing loop (for or while), innermost last, the
     * flag that its continues set (NULL until the first one) */
    Var *cont[24];
    CXCursor cont_at[24];
    /* `break`: per enclosing loop, the flag that its breaks set (NULL until
     * the first one), and the loop depth just outside that loop */
    Var *brk[24];
    int brk_depth[24];
    int ncont;
    Vec broke;                   /* Var*: indices of the loops that break */
    int cases;                   /* switch groups being converted (loops reset it) */
} P;

/* ---- small helpers ------------------------------------------------------- */

static char *cx_str(Arena *a, CXString s)
{
    const char *c = clang_getCString(s);
    char *r = arena_strdup(a, c ? c : "");
    clang_disposeString(s);
    return r;
}

static Loc loc_of(P *p, CXCursor c)
{
    CXFile f;
    unsigned line, col;
    clang_getExpansionLocation(clang_getCursorLocation(c), &f, &line, &col, NULL);
    Loc l = {p->u->path, (int)line, (int)col};
    return l;
}

static int end_line_of(CXCursor c)
{
    unsigned line;
    clang_getExpansionLocation(clang_getRangeEnd(clang_getCursorExtent(c)), NULL, &line, NULL, NULL);
    return (int)line;
}

/* Rejects the region being built: diagnoses and unwinds to parse_region. */
static _Noreturn void __attribute__((format(printf, 4, 5)))
reject(P *p, CXCursor at, const char *flag, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    diag_reject(loc_of(p, at), flag, "%s; '%s' keeps its CPU body", msg, p->r->name);
    longjmp(p->fail, 1);
}

typedef struct Kids {
    CXCursor c[64];
    int n;
} Kids;

static enum CXChildVisitResult collect(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    Kids *k = d;
    if (k->n < 64)
        k->c[k->n] = c;
    k->n++;
    return CXChildVisit_Continue;
}

static Kids kids_of(CXCursor c)
{
    Kids k = {.n = 0};
    clang_visitChildren(c, collect, &k);
    if (k.n > 64)
        k.n = 64;
    return k;
}

/* Skips implicit-cast and paren wrappers that carry no meaning for us. */
static CXCursor strip(CXCursor c)
{
    for (;;) {
        enum CXCursorKind k = clang_getCursorKind(c);
        if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr)
            return c;
        Kids ks = kids_of(c);
        if (ks.n != 1)
            return c;
        c = ks.c[0];
    }
}

/* ---- types ---------------------------------------------------------------- */

static Type *new_type(P *p, TypeKind k)
{
    Type *t = arena_alloc(p->a, sizeof *t);
    t->kind = k;
    t->clen = -1;
    return t;
}

static Expr *conv_expr(P *p, CXCursor c);

typedef struct FieldCtx {
    P *p;
    CXCursor at;
    Vec fields;
    bool failed;
} FieldCtx;

static Type *conv_type(P *p, CXType t, CXCursor at, Expr **dims, int ndims, int *used);

/* Like visit_helper: a rejection unwinds only to the visitor's own frame. */
static enum CXVisitorResult visit_field(CXCursor c, CXClientData d)
{
    FieldCtx *fc = d;
    jmp_buf outer;
    memcpy(outer, fc->p->fail, sizeof outer);
    if (setjmp(fc->p->fail)) {
        memcpy(fc->p->fail, outer, sizeof outer);
        fc->failed = true;
        return CXVisit_Break;
    }
    Field *f = arena_alloc(fc->p->a, sizeof *f);
    const char *name = cx_str(fc->p->a, clang_getCursorSpelling(c));
    f->name = decls_cname(fc->p->a, name);   /* as generated code names it */
    f->ty = conv_type(fc->p, clang_getCursorType(c), fc->at, NULL, 0, NULL);
    if (!type_is_arith(f->ty))
        reject(fc->p, fc->at, "-Wgpufuse-type", "field '%s' of a struct is not of an arithmetic type", name);
    vec_push(fc->p->a, &fc->fields, f);
    memcpy(fc->p->fail, outer, sizeof outer);
    return CXVisit_Continue;
}

/* dims: the array sizes written in a declaration (outermost first) for the
 * variable-length levels, consumed left to right through *used. */
static Type *conv_type(P *p, CXType t, CXCursor at, Expr **dims, int ndims, int *used)
{
    bool cst = clang_isConstQualifiedType(t);
    bool rst = clang_isRestrictQualifiedType(t);
    CXType ct = t;
    if (t.kind == CXType_Elaborated || t.kind == CXType_Typedef)
        ct = clang_getCanonicalType(t);
    Type *ty;
    switch (ct.kind) {
    case CXType_Bool: ty = new_type(p, TY_BOOL); break;
    case CXType_Char_S: ty = new_type(p, TY_CHAR); break;
    case CXType_Char_U: ty = new_type(p, TY_CHAR); break;
    case CXType_SChar: ty = new_type(p, TY_SCHAR); break;
    case CXType_UChar: ty = new_type(p, TY_UCHAR); break;
    case CXType_Short: ty = new_type(p, TY_SHORT); break;
    case CXType_UShort: ty = new_type(p, TY_USHORT); break;
    case CXType_Int: ty = new_type(p, TY_INT); break;
    case CXType_Enum: ty = new_type(p, TY_INT); break;
    case CXType_UInt: ty = new_type(p, TY_UINT); break;
    case CXType_Long: ty = new_type(p, TY_LONG); break;
    case CXType_ULong: ty = new_type(p, TY_ULONG); break;
    case CXType_LongLong: ty = new_type(p, TY_LLONG); break;
    case CXType_ULongLong: ty = new_type(p, TY_ULLONG); break;
    case CXType_Float: ty = new_type(p, TY_FLOAT); break;
    case CXType_Double: ty = new_type(p, TY_DOUBLE); break;
    case CXType_Void: ty = new_type(p, TY_VOID); break;
    case CXType_LongDouble:
        reject(p, at, "-Wgpufuse-type", "'long double' has no GPU equivalent; use 'double'");
    case CXType_Pointer:
        ty = new_type(p, TY_PTR);
        ty->base = conv_type(p, clang_getPointeeType(ct), at, dims, ndims, used);
        break;
    case CXType_ConstantArray:
        ty = new_type(p, TY_ARRAY);
        ty->clen = clang_getArraySize(ct);
        if (dims && used && *used < ndims)
            ty->len = dims[(*used)++];
        ty->base = conv_type(p, clang_getArrayElementType(ct), at, dims, ndims, used);
        break;
    case CXType_VariableArray:
    case CXType_IncompleteArray:
        ty = new_type(p, TY_ARRAY);
        if (ct.kind == CXType_VariableArray && dims && used && *used < ndims)
            ty->len = dims[(*used)++];
        ty->base = conv_type(p, clang_getArrayElementType(ct), at, dims, ndims, used);
        break;
    case CXType_Record: {
        ty = new_type(p, TY_STRUCT);
        FieldCtx fc = {p, at, {0}, false};
        clang_Type_visitFields(ct, visit_field, &fc);
        if (fc.failed)
            longjmp(p->fail, 1);   /* already diagnosed */
        ty->fields = arena_alloc(p->a, sizeof(Field) * (size_t)(fc.fields.len ? fc.fields.len : 1));
        for (int i = 0; i < fc.fields.len; i++)
            ty->fields[i] = *(Field *)vec_at(&fc.fields, i);
        ty->nfields = fc.fields.len;
        const char *why = NULL;
        if (!(ty->name = decls_record(p->u, p->r, ct, &why)))
            reject(p, at, "-Wgpufuse-type", "%s", why);
        break;
    }
    default: {
        CXString s = clang_getTypeSpelling(t);
        char buf[256];
        snprintf(buf, sizeof buf, "%s", clang_getCString(s));
        clang_disposeString(s);
        reject(p, at, "-Wgpufuse-type", "type '%s' is not supported in a fused region", buf);
    }
    }
    if (clang_isVolatileQualifiedType(t))
        reject(p, at, "-Wgpufuse-volatile", "'volatile' data cannot be reordered or cached by a kernel");
    ty->is_const = cst;
    ty->is_restrict = rst;
    return ty;
}

/* ---- variables -------------------------------------------------------------- */

static Var *new_var(P *p, CXCursor decl, const char *name, Type *ty, VarKind kind)
{
    Var *v = arena_alloc(p->a, sizeof *v);
    v->name = name;
    v->ty = ty;
    v->kind = kind;
    v->id = p->r->vars.len;
    v->loc = loc_of(p, decl);
    v->depth = p->loops.len;
    /* a unique spelling: C allows shadowing, generated code must not; a
     * declared name goes through decls_cname (C++ keywords, clashes) */
    const char *base = clang_isDeclaration(clang_getCursorKind(decl)) ? decls_cname(p->a, name) : name;
    v->cname = base;
    for (int i = 0, n = 1; i < p->r->vars.len; i++) {
        Var *o = vec_at(&p->r->vars, i);
        if (!strcmp(o->cname, v->cname)) {
            v->cname = arena_printf(p->a, "%s_%d", base, n++);
            i = -1;
        }
    }
    vec_push(p->a, &p->r->vars, v);
    if (p->nbinds == p->capbinds) {
        p->capbinds = p->capbinds ? 2 * p->capbinds : 32;
        Binding *nb = arena_alloc(p->a, sizeof *nb * (size_t)p->capbinds);
        if (p->nbinds)
            memcpy(nb, p->binds, sizeof *nb * (size_t)p->nbinds);
        p->binds = nb;
    }
    p->binds[p->nbinds].decl = decl;
    p->binds[p->nbinds].var = v;
    p->nbinds++;
    return v;
}

static Var *lookup(P *p, CXCursor decl)
{
    for (int i = p->nbinds - 1; i >= 0; i--)
        if (clang_equalCursors(p->binds[i].decl, decl))
            return p->binds[i].var;
    return NULL;
}

static bool bound_by_loop(P *p, Var *v)
{
    for (int i = 0; i < p->loops.len; i++)
        if (((Stmt *)vec_at(&p->loops, i))->iv == v)
            return true;
    return false;
}

/* ---- expressions ------------------------------------------------------------- */

static Expr *new_expr(P *p, ExprKind k, CXCursor c)
{
    Expr *e = arena_alloc(p->a, sizeof *e);
    e->kind = k;
    e->loc = loc_of(p, c);
    return e;
}

static void set_kids(P *p, Expr *e, int n)
{
    e->nkids = n;
    e->kids = arena_alloc(p->a, sizeof(Expr *) * (size_t)(n ? n : 1));
}

/* The math.h functions a kernel may call (float and double forms); CUDA has
 * device versions of each with the same name and meaning. */
static const char *const math_funcs[] = {
    "sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
    "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh",
    "asinh", "acosh", "atanh", "erf", "erfc", "tgamma", "lgamma", "pow", "hypot",
    "fabs", "fmin", "fmax", "fma", "fmod", "remainder", "floor", "ceil", "round",
    "trunc", "rint", "nearbyint", "copysign", "fdim", "ldexp", "logb", "ilogb",
    "lround", "llround", "lrint", "llrint", "nextafter", NULL};

static bool is_math_func(const char *name)
{
    for (int i = 0; math_funcs[i]; i++) {
        size_t n = strlen(math_funcs[i]);
        if (!strncmp(name, math_funcs[i], n) && (name[n] == '\0' || (name[n] == 'f' && name[n + 1] == '\0')))
            return true;
    }
    static const char *const extra[] = {"__builtin_inff", "__builtin_inf", "__builtin_nanf",
                                        "__builtin_nan", "__builtin_huge_valf", "__builtin_huge_val",
                                        "abs", "labs", "llabs", NULL};
    for (int i = 0; extra[i]; i++)
        if (!strcmp(name, extra[i]))
            return true;
    return false;
}

/* A helper becomes a device function (decls.c prints it from the AST): it must be pure in
 * the sense a kernel needs (no recursion, no I/O or unknown calls, no
 * non-constant globals, no asm).  Checked at the call site of the region,
 * following helpers that call helpers. */
typedef struct HelperCx {
    P *p;
    CXCursor call;               /* the region's call, where we diagnose */
    CXCursor chain[8];           /* helpers being checked, outermost first */
    int depth;
    bool failed;                 /* diagnosed inside the visitor */
} HelperCx;

static void check_helper(P *p, CXCursor call, CXCursor fn, int depth);

static enum CXChildVisitResult visit_helper_body(CXCursor c, HelperCx *h);

/* reject() unwinds with longjmp, which must not cross libclang's frames:
 * inside a visitor it unwinds only to here, and the visit stops. */
static enum CXChildVisitResult visit_helper(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    HelperCx *h = d;
    jmp_buf outer;
    memcpy(outer, h->p->fail, sizeof outer);
    enum CXChildVisitResult r = CXChildVisit_Break;
    if (!setjmp(h->p->fail))
        r = visit_helper_body(c, h);
    else
        h->failed = true;
    memcpy(h->p->fail, outer, sizeof outer);
    return h->failed ? CXChildVisit_Break : r;
}

static enum CXChildVisitResult visit_helper_body(CXCursor c, HelperCx *h)
{
    P *p = h->p;
    const char *self = cx_str(p->a, clang_getCursorSpelling(h->chain[h->depth]));
    switch (clang_getCursorKind(c)) {
    case CXCursor_AsmStmt:
        reject(p, h->call, "-Wgpufuse-asm", "helper '%s' uses inline assembly, which cannot run on the GPU", self);
    case CXCursor_CallExpr: {
        const char *name = cx_str(p->a, clang_getCursorSpelling(c));
        CXCursor callee = clang_getCursorReferenced(c);
        if (clang_Cursor_isNull(callee) || clang_getCursorKind(callee) != CXCursor_FunctionDecl)
            reject(p, h->call, "-Wgpufuse-call", "helper '%s' calls through a function pointer, which cannot be "
                   "compiled for the GPU", self);
        if (is_math_func(name))
            break;
        CXCursor def = clang_getCursorDefinition(callee);
        for (int i = 0; i <= h->depth; i++)
            if (!clang_Cursor_isNull(def) && clang_equalCursors(def, h->chain[i]))
                reject(p, h->call, "-Wgpufuse-call", "'%s' calls itself (recursion), which a GPU kernel cannot "
                       "do reliably; write it as a loop", name);
        if (!decls_helper(p->u, callee) || clang_Cursor_isNull(def))
            reject(p, h->call, "-Wgpufuse-call", "helper '%s' calls '%s', which is not a math function nor a "
                   "pure static helper defined in this file", self, name);
        if (h->depth + 1 >= 8)
            reject(p, h->call, "-Wgpufuse-call", "helpers nest too deeply below '%s'", self);
        h->chain[h->depth + 1] = def;
        h->depth++;
        clang_visitChildren(def, visit_helper, h);
        h->depth--;
        if (h->failed)
            return CXChildVisit_Break;
        break;
    }
    case CXCursor_DeclRefExpr: {
        CXCursor d2 = clang_getCursorReferenced(c);
        CXType vt = clang_getCursorType(d2);
        while (vt.kind == CXType_ConstantArray || vt.kind == CXType_IncompleteArray)
            vt = clang_getArrayElementType(vt);   /* a const array: its elements are const */
        if (clang_getCursorKind(d2) == CXCursor_VarDecl && clang_getCursorKind(clang_getCursorSemanticParent(d2)) ==
                                                               CXCursor_TranslationUnit &&
            !clang_isConstQualifiedType(vt))
            reject(p, h->call, "-Wgpufuse-global", "helper '%s' uses the global variable '%s', which is not visible "
                   "to a kernel", self, cx_str(p->a, clang_getCursorSpelling(c)));
        if (clang_getCursorKind(d2) == CXCursor_VarDecl && clang_Cursor_getStorageClass(d2) == CX_SC_Static &&
            clang_getCursorKind(clang_getCursorSemanticParent(d2)) != CXCursor_TranslationUnit)
            reject(p, h->call, "-Wgpufuse-static", "helper '%s' keeps state in the static variable '%s'", self,
                   cx_str(p->a, clang_getCursorSpelling(c)));
        break;
    }
    default: break;
    }
    return CXChildVisit_Recurse;
}

static void check_helper(P *p, CXCursor call, CXCursor fn, int depth)
{
    CXCursor def = clang_getCursorDefinition(fn);
    if (clang_Cursor_isNull(def))
        return;
    HelperCx h = {.p = p, .call = call, .depth = depth};
    h.chain[0] = def;
    clang_visitChildren(def, visit_helper, &h);
    if (h.failed)
        longjmp(p->fail, 1);     /* already diagnosed */
}

/* The literal's own spelling when it is written in the file, else its value. */
static const char *literal_text(P *p, CXCursor c, bool is_float, Type *ty)
{
    CXSourceRange r = clang_getCursorExtent(c);
    CXToken *toks;
    unsigned n;
    clang_tokenize(p->tu, r, &toks, &n);
    const char *text = NULL;
    if (n >= 1 && clang_getTokenKind(toks[0]) == CXToken_Literal)
        text = cx_str(p->a, clang_getTokenSpelling(p->tu, toks[0]));
    clang_disposeTokens(p->tu, toks, n);
    if (text)
        return text;
    CXEvalResult ev = clang_Cursor_Evaluate(c);
    if (!ev)
        reject(p, c, "-Wgpufuse-syntax", "cannot read this literal");
    if (is_float) {
        double v = clang_EvalResult_getAsDouble(ev);
        text = arena_printf(p->a, "%a%s", v, ty->kind == TY_FLOAT ? "f" : "");
    } else {
        long long v = clang_EvalResult_getAsLongLong(ev);
        text = arena_printf(p->a, "%lld", v);
    }
    clang_EvalResult_dispose(ev);
    return text;
}

/* base[i][j]...: collects subscripts outermost first. */
static Expr *conv_index(P *p, CXCursor c)
{
    CXCursor subs[8];
    int nsub = 0;
    CXCursor cur = c;
    while (clang_getCursorKind(cur) == CXCursor_ArraySubscriptExpr) {
        Kids k = kids_of(cur);
        if (k.n != 2)
            reject(p, cur, "-Wgpufuse-syntax", "unexpected subscript form");
        if (nsub == 8)
            reject(p, cur, "-Wgpufuse-rank", "arrays of more than 8 dimensions are not supported");
        subs[nsub++] = k.c[1];
        cur = strip(k.c[0]);
    }
    if (clang_getCursorKind(cur) != CXCursor_DeclRefExpr)
        reject(p, cur, "-Wgpufuse-pointer", "subscripted expression is not an array parameter or local array "
                                           "(pointer arithmetic and pointer locals are not supported)");
    Var *v = lookup(p, clang_getCursorReferenced(cur));
    if (!v)
        reject(p, cur, "-Wgpufuse-global", "global array '%s' is not visible to a kernel; pass it as a parameter",
               cx_str(p->a, clang_getCursorSpelling(cur)));
    if (!v->is_array)
        reject(p, cur, "-Wgpufuse-pointer", "'%s' is not an array", v->name);
    if (nsub != v->ndims)
        reject(p, c, "-Wgpufuse-rank", "'%s' has %d dimension%s but is subscripted %d time%s here; "
               "index every dimension", v->name, v->ndims, v->ndims == 1 ? "" : "s", nsub, nsub == 1 ? "" : "s");
    if (!p->lvalue)
        v->read = true;
    p->lvalue = false;           /* subscripts are reads */
    Expr *e = new_expr(p, E_INDEX, c);
    e->var = v;
    set_kids(p, e, nsub);
    for (int i = 0; i < nsub; i++) {
        Expr *ix = conv_expr(p, subs[nsub - 1 - i]);
        if (!type_is_integer(ix->ty))
            reject(p, subs[nsub - 1 - i], "-Wgpufuse-syntax", "subscript is not an integer");
        e->kids[i] = ix;
    }
    e->ty = type_elem(v->ty);
    return e;
}

static Expr *conv_expr_(P *p, CXCursor c);

/* Expressions nest at most this deep (the compiler recurses on them). */
#define MAX_EXPR_DEPTH 4000

static Expr *conv_expr(P *p, CXCursor c)
{
    if (++p->depth > MAX_EXPR_DEPTH)
        reject(p, c, "-Wgpufuse-size", "expression nested more than %d levels deep; split it with local variables",
               MAX_EXPR_DEPTH);
    Expr *e = conv_expr_(p, c);
    p->depth--;
    return e;
}

static Expr *conv_expr_(P *p, CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    Kids ks = kids_of(c);
    Type *ty = NULL;
    if (k != CXCursor_ArraySubscriptExpr && k != CXCursor_DeclRefExpr && k != CXCursor_MemberRefExpr)
        ty = conv_type(p, clang_getCursorType(c), c, NULL, 0, NULL);
    Expr *e;
    switch (k) {
    case CXCursor_UnexposedExpr:
    case CXCursor_ParenExpr:
        if (ks.n != 1)
            reject(p, c, "-Wgpufuse-syntax", "unsupported expression");
        return conv_expr(p, ks.c[0]);
    case CXCursor_IntegerLiteral:
    case CXCursor_CharacterLiteral:
        e = new_expr(p, E_INT, c);
        e->ty = ty;
        e->text = literal_text(p, c, false, ty);
        return e;
    case CXCursor_FloatingLiteral:
        e = new_expr(p, E_FLOAT, c);
        e->ty = ty;
        e->text = literal_text(p, c, true, ty);
        return e;
    case CXCursor_DeclRefExpr: {
        CXCursor d = clang_getCursorReferenced(c);
        if (clang_getCursorKind(d) == CXCursor_EnumConstantDecl) {
            e = new_expr(p, E_INT, c);
            e->ty = conv_type(p, clang_getCursorType(c), c, NULL, 0, NULL);
            e->text = arena_printf(p->a, "%lld", clang_getEnumConstantDeclValue(d));
            return e;
        }
        Var *v = lookup(p, d);
        if (!v) {
            const char *name = cx_str(p->a, clang_getCursorSpelling(c));
            if (clang_getCursorKind(d) == CXCursor_VarDecl) {
                CXEvalResult ev = clang_Cursor_Evaluate(d);
                if (ev && clang_isConstQualifiedType(clang_getCursorType(d))) {
                    e = new_expr(p, E_INT, c);
                    e->ty = conv_type(p, clang_getCursorType(c), c, NULL, 0, NULL);
                    if (clang_EvalResult_getKind(ev) == CXEval_Int) {
                        e->text = arena_printf(p->a, "%lld", clang_EvalResult_getAsLongLong(ev));
                    } else if (clang_EvalResult_getKind(ev) == CXEval_Float) {
                        e->kind = E_FLOAT;
                        e->text = arena_printf(p->a, "%a%s", clang_EvalResult_getAsDouble(ev),
                                               e->ty->kind == TY_FLOAT ? "f" : "");
                    } else {
                        clang_EvalResult_dispose(ev);
                        reject(p, c, "-Wgpufuse-global", "global '%s' is not a constant", name);
                    }
                    clang_EvalResult_dispose(ev);
                    return e;
                }
                if (ev)
                    clang_EvalResult_dispose(ev);
                reject(p, c, "-Wgpufuse-global", "global variable '%s' is not visible to a kernel; "
                       "pass it as a parameter", name);
            }
            reject(p, c, "-Wgpufuse-syntax", "'%s' cannot be used here", name);
        }
        if (v->kind == V_IV && !bound_by_loop(p, v)) {
            for (int i = 0; i < p->broke.len; i++)
                if (vec_at(&p->broke, i) == v)
                    reject(p, c, "-Wgpufuse-index", "loop index '%s' is used outside its loop; to keep where a "
                           "'break' left the loop, copy the index into a variable before the 'break' "
                           "('found = %s; break;')", v->name, v->name);
            reject(p, c, "-Wgpufuse-index", "loop index '%s' is used outside its loop", v->name);
        }
        if (v->is_array)
            reject(p, c, "-Wgpufuse-pointer", "array '%s' is used without a subscript "
                   "(pointer arithmetic and aliasing are not supported)", v->name);
        e = new_expr(p, E_VAR, c);
        e->var = v;
        e->ty = v->ty;
        return e;
    }
    case CXCursor_ArraySubscriptExpr:
        return conv_index(p, c);
    case CXCursor_MemberRefExpr: {
        if (ks.n != 1)
            reject(p, c, "-Wgpufuse-syntax", "unsupported member access");
        CXCursor base = strip(ks.c[0]);
        Expr *b;
        if (clang_getCursorKind(base) == CXCursor_DeclRefExpr) {
            /* p->x on a pointer parameter means p[0].x */
            Var *v = lookup(p, clang_getCursorReferenced(base));
            if (!v || !v->is_array || v->ndims != 1)
                reject(p, c, "-Wgpufuse-syntax", "member access on something that is not an array element");
            b = new_expr(p, E_INDEX, base);
            b->var = v;
            set_kids(p, b, 1);
            b->kids[0] = new_expr(p, E_INT, base);
            b->kids[0]->text = "0";
            b->kids[0]->ty = new_type(p, TY_INT);
            b->ty = type_elem(v->ty);
        } else {
            b = conv_expr(p, base);
        }
        if (b->kind != E_INDEX || b->ty->kind != TY_STRUCT)
            reject(p, c, "-Wgpufuse-syntax", "member access is supported on array elements of structs (p[i].x)");
        e = new_expr(p, E_FIELD, c);
        e->text = cx_str(p->a, clang_getCursorSpelling(c));
        set_kids(p, e, 1);
        e->kids[0] = b;
        e->ty = conv_type(p, clang_getCursorType(c), c, NULL, 0, NULL);
        return e;
    }
    case CXCursor_BinaryOperator: {
        Op op = gfc_binary_op(p->tu, c);
        if (!op)
            reject(p, c, "-Wgpufuse-syntax", "cannot read the operator of this expression (is it a macro?)");
        if (op == OP_ASSIGN || op == OP_COMMA)
            reject(p, c, "-Wgpufuse-syntax", "'%s' inside an expression is not supported; write it as its own statement",
                   op_spelling(op));
        e = new_expr(p, E_BINARY, c);
        e->ty = ty;
        e->op = op;
        set_kids(p, e, 2);
        e->kids[0] = conv_expr(p, ks.c[0]);
        e->kids[1] = conv_expr(p, ks.c[1]);
        return e;
    }
    case CXCursor_CompoundAssignOperator:
        reject(p, c, "-Wgpufuse-syntax", "assignment inside an expression is not supported; write it as its own statement");
    case CXCursor_UnaryOperator: {
        Op op = gfc_unary_op(p->tu, c, ks.c[0]);
        if (!op)
            reject(p, c, "-Wgpufuse-syntax", "cannot read the operator of this expression");
        if (op == OP_PREINC || op == OP_PREDEC || op == OP_POSTINC || op == OP_POSTDEC)
            reject(p, c, "-Wgpufuse-syntax", "'%s' inside an expression is not supported; write it as its own statement",
                   op_spelling(op));
        if (op == OP_ADDR)
            reject(p, c, "-Wgpufuse-pointer", "taking an address is not supported in a fused region");
        if (op == OP_DEREF) {
            /* *p is p[0] */
            CXCursor base = strip(ks.c[0]);
            Var *v = clang_getCursorKind(base) == CXCursor_DeclRefExpr ? lookup(p, clang_getCursorReferenced(base)) : NULL;
            if (!v || !v->is_array || v->ndims != 1)
                reject(p, c, "-Wgpufuse-pointer", "dereference of something other than a pointer parameter");
            e = new_expr(p, E_INDEX, c);
            e->var = v;
            set_kids(p, e, 1);
            e->kids[0] = new_expr(p, E_INT, c);
            e->kids[0]->text = "0";
            e->kids[0]->ty = new_type(p, TY_INT);
            e->ty = type_elem(v->ty);
            return e;
        }
        e = new_expr(p, E_UNARY, c);
        e->ty = ty;
        e->op = op;
        set_kids(p, e, 1);
        e->kids[0] = conv_expr(p, ks.c[0]);
        return e;
    }
    case CXCursor_ConditionalOperator:
        if (ks.n != 3)
            reject(p, c, "-Wgpufuse-syntax", "the GNU '?:' without a middle operand is not supported");
        e = new_expr(p, E_COND, c);
        e->ty = ty;
        set_kids(p, e, 3);
        for (int i = 0; i < 3; i++)
            e->kids[i] = conv_expr(p, ks.c[i]);
        return e;
    case CXCursor_CStyleCastExpr: {
        e = new_expr(p, E_CAST, c);
        e->ty = ty;
        if (!type_is_arith(ty))
            reject(p, c, "-Wgpufuse-pointer", "casts to non-arithmetic types are not supported");
        set_kids(p, e, 1);
        e->kids[0] = conv_expr(p, ks.c[ks.n - 1]);
        return e;
    }
    case CXCursor_UnaryExpr: {
        /* sizeof / _Alignof: constant */
        CXEvalResult ev = clang_Cursor_Evaluate(c);
        if (!ev)
            reject(p, c, "-Wgpufuse-syntax", "unsupported expression");
        e = new_expr(p, E_INT, c);
        e->ty = ty;
        e->text = arena_printf(p->a, "%lld", clang_EvalResult_getAsLongLong(ev));
        clang_EvalResult_dispose(ev);
        return e;
    }
    case CXCursor_CallExpr: {
        const char *name = cx_str(p->a, clang_getCursorSpelling(c));
        CXCursor callee = clang_getCursorReferenced(c);
        if (clang_Cursor_isNull(callee) || clang_getCursorKind(callee) != CXCursor_FunctionDecl)
            reject(p, c, "-Wgpufuse-call", "call through a function pointer cannot be compiled for the GPU");
        Func *h = NULL;
        if (!is_math_func(name)) {
            h = decls_helper(p->u, callee);
            if (!h) {
                static const char *const io[] = {"printf", "fprintf", "puts", "putchar", "scanf", "fopen",
                                                 "fwrite", "fread", "fputs", "fflush", "perror", NULL};
                for (int i = 0; io[i]; i++)
                    if (!strcmp(name, io[i]))
                        reject(p, c, "-Wgpufuse-io", "'%s' does I/O, which a kernel cannot do; "
                               "move it out of the marked function", name);
                if (!strcmp(name, "malloc") || !strcmp(name, "calloc") || !strcmp(name, "free"))
                    reject(p, c, "-Wgpufuse-alloc", "'%s' is supported only as 'T *t = malloc(n * sizeof *t);' "
                           "and 'free(t);' statements at the top of the marked function", name);
                reject(p, c, "-Wgpufuse-call", "'%s' is not a math function nor a pure static helper defined in "
                       "this file, so it cannot run on the GPU", name);
            }
        }
        if (h)
            check_helper(p, c, callee, 0);
        e = new_expr(p, E_CALL, c);
        e->ty = ty;
        e->text = name;
        e->callee = h;
        set_kids(p, e, ks.n - 1);
        for (int i = 1; i < ks.n; i++) {
            CXCursor a = strip(ks.c[i]);
            if (clang_getCursorKind(a) == CXCursor_StringLiteral) {
                /* __builtin_nanf("") */
                Expr *s = new_expr(p, E_INT, a);
                s->text = cx_str(p->a, clang_getCursorSpelling(a));
                s->ty = new_type(p, TY_INT);
                e->kids[i - 1] = s;
                continue;
            }
            e->kids[i - 1] = conv_expr(p, ks.c[i]);
        }
        const char *why = h ? decls_use_helper(p->u, p->r, h) : NULL;
        if (why)
            reject(p, c, "-Wgpufuse-call", "%s", why);
        return e;
    }
    case CXCursor_StmtExpr:
        reject(p, c, "-Wgpufuse-syntax", "statement expressions are not supported");
    case CXCursor_InitListExpr:
        reject(p, c, "-Wgpufuse-syntax", "initialiser lists are not supported in a fused region");
    default:
        reject(p, c, "-Wgpufuse-syntax", "unsupported expression (%s)",
               cx_str(p->a, clang_getCursorKindSpelling(k)));
    }
}

/* ---- statements ------------------------------------------------------------- */

static Stmt *new_stmt(P *p, StmtKind k, CXCursor c)
{
    Stmt *s = arena_alloc(p->a, sizeof *s);
    s->kind = k;
    s->loc = loc_of(p, c);
    s->end_line = end_line_of(c);
    s->id = -1;
    s->depth = p->loops.len;
    return s;
}

static void number(P *p, Stmt *s)
{
    s->id = p->stmt_ids++;
    vec_push(p->a, &p->r->stmts, s);
}

/* An array argument of a library builtin: `a`, `(float *)a`, `&a[0][0]`,
 * `a[0]`: the array itself, from its first element. */
static Var *lib_array_arg(P *p, CXCursor c)
{
    for (;;) {
        c = strip(c);
        enum CXCursorKind k = clang_getCursorKind(c);
        Kids ks = kids_of(c);
        if (k == CXCursor_CStyleCastExpr && ks.n >= 1) {
            c = ks.c[ks.n - 1];
            continue;
        }
        if (k == CXCursor_UnaryOperator && ks.n == 1) {
            if (gfc_unary_op(p->tu, c, ks.c[0]) == OP_ADDR) {
                c = ks.c[0];
                continue;
            }
            return NULL;
        }
        if (k == CXCursor_ArraySubscriptExpr && ks.n == 2) {
            CXEvalResult ev = clang_Cursor_Evaluate(strip(ks.c[1]));
            bool zero = ev && clang_EvalResult_getKind(ev) == CXEval_Int && clang_EvalResult_getAsLongLong(ev) == 0;
            if (ev)
                clang_EvalResult_dispose(ev);
            if (!zero)
                return NULL;
            c = ks.c[0];
            continue;
        }
        if (k == CXCursor_DeclRefExpr) {
            Var *v = lookup(p, clang_getCursorReferenced(c));
            return v && v->is_array ? v : NULL;
        }
        return NULL;
    }
}

/* `gf_sgemm(...);` and the other builtins of lib_builtin_roles: a statement
 * of its own, at the top of the function or in a sequential loop, never
 * under a condition. */
static Stmt *lib_stmt(P *p, CXCursor c, const char *name, Kids ks)
{
    const char *roles = lib_builtin_roles(name);
    int n = (int)strlen(roles);
    if (ks.n - 1 != n)
        reject(p, c, "-Wgpufuse-call", "'%s' takes %d arguments", name, n);
    if (p->conds)
        reject(p, c, "-Wgpufuse-call", "library call '%s' under a condition: call it unconditionally, or from the "
               "code around the marked function", name);
    Expr *e = new_expr(p, E_CALL, c);
    e->ty = new_type(p, TY_INT);
    e->text = name;
    set_kids(p, e, n);
    for (int i = 0; i < n; i++) {
        CXCursor a = ks.c[i + 1];
        if (LIB_SCALAR_ROLE(roles[i])) {
            e->kids[i] = conv_expr(p, a);
            continue;
        }
        Var *v = lib_array_arg(p, a);
        if (!v && roles[i] == 'N') {
            CXEvalResult ev = clang_Cursor_Evaluate(strip(a));
            bool null = ev && clang_EvalResult_getKind(ev) == CXEval_Int && clang_EvalResult_getAsLongLong(ev) == 0;
            if (ev)
                clang_EvalResult_dispose(ev);
            if (null) {
                Expr *z = new_expr(p, E_INT, a);
                z->text = "0";
                z->ty = new_type(p, TY_INT);
                e->kids[i] = z;
                continue;
            }
        }
        if (!v)
            reject(p, a, "-Wgpufuse-call", "argument %d of '%s' must be an array parameter or temporary of this "
                   "function, from its first element (no pointer arithmetic)", i + 1, name);
        if (roles[i] == 'W' && type_elem(v->ty)->is_const)
            reject(p, a, "-Wgpufuse-const", "'%s' writes its argument %d, but '%s' points to const", name, i + 1,
                   v->name);
        v->read = true;
        if (roles[i] == 'W')
            v->written = true;
        Expr *ve = new_expr(p, E_VAR, a);
        ve->var = v;
        ve->ty = v->ty;
        e->kids[i] = ve;
    }
    Stmt *s = new_stmt(p, S_LIB, c);
    s->rhs = e;
    number(p, s);
    return s;
}

static Stmt *conv_stmt(P *p, CXCursor c);

static Stmt *conv_block(P *p, CXCursor c)
{
    Stmt *b = new_stmt(p, S_BLOCK, c);
    Kids ks = kids_of(c);
    if (ks.n >= 64)
        reject(p, c, "-Wgpufuse-size", "blocks of more than 63 statements are not supported; split the function");
    for (int i = 0; i < ks.n; i++) {
        Stmt *s = conv_stmt(p, ks.c[i]);
        if (!s)
            continue;
        if (s->kind == S_BLOCK && s->loc.line == 0) {
            /* several declarators of one DeclStmt */
            for (int j = 0; j < s->list.len; j++) {
                Stmt *t = vec_at(&s->list, j);
                t->parent = b;
                vec_push(p->a, &b->list, t);
            }
            continue;
        }
        s->parent = b;
        vec_push(p->a, &b->list, s);
    }
    return b;
}

static bool is_var_ref(P *p, CXCursor c, Var *v)
{
    c = strip(c);
    return clang_getCursorKind(c) == CXCursor_DeclRefExpr && lookup(p, clang_getCursorReferenced(c)) == v;
}

/* Reads the step of `i++`, `++i`, `i += c`, `i = i + c`; 0 if not canonical. */
static long long loop_step(P *p, CXCursor inc, Var *iv)
{
    enum CXCursorKind k = clang_getCursorKind(inc);
    Kids ks = kids_of(inc);
    if (k == CXCursor_UnaryOperator && ks.n == 1 && is_var_ref(p, ks.c[0], iv)) {
        Op op = gfc_unary_op(p->tu, inc, ks.c[0]);
        return op == OP_PREINC || op == OP_POSTINC ? 1 : 0;
    }
    CXCursor amount;
    if (k == CXCursor_CompoundAssignOperator && ks.n == 2 && is_var_ref(p, ks.c[0], iv)) {
        if (gfc_binary_op(p->tu, inc) != OP_ADD_ASSIGN)
            return 0;
        amount = ks.c[1];
    } else if (k == CXCursor_BinaryOperator && ks.n == 2 && is_var_ref(p, ks.c[0], iv)) {
        CXCursor rhs = strip(ks.c[1]);
        Kids rk = kids_of(rhs);
        Op op = gfc_binary_op(p->tu, inc);
        Op rop = clang_getCursorKind(rhs) == CXCursor_BinaryOperator ? gfc_binary_op(p->tu, rhs) : OP_NONE;
        if (op != OP_ASSIGN || rop != OP_ADD || rk.n != 2)
            return 0;
        if (is_var_ref(p, rk.c[0], iv))
            amount = rk.c[1];
        else if (is_var_ref(p, rk.c[1], iv))
            amount = rk.c[0];
        else
            return 0;
    } else {
        return 0;
    }
    CXEvalResult ev = clang_Cursor_Evaluate(amount);
    if (!ev)
        return 0;
    long long v = clang_EvalResult_getKind(ev) == CXEval_Int ? clang_EvalResult_getAsLongLong(ev) : 0;
    clang_EvalResult_dispose(ev);
    return v > 0 ? v : 0;
}

static void check_no_write(P *p, Stmt *s, Var *v, CXCursor at);

/* ---- continue -------------------------------------------------------------------
 * `continue` sets a flag local to the iteration (declared first in the body,
 * 0) and every statement after one that may set it runs under `if (!flag)`:
 * structured control flow with the same effect, no jump. */

static Expr *int_lit(P *p, CXCursor c, const char *text)
{
    Expr *e = new_expr(p, E_INT, c);
    e->text = text;
    e->ty = new_type(p, TY_INT);
    return e;
}

static Expr *flag_ref(P *p, CXCursor c, Var *flag)
{
    Expr *e = new_expr(p, E_VAR, c);
    e->var = flag;
    e->ty = flag->ty;
    return e;
}

static bool is_flag(const Expr *e, const void *flag)
{
    return e->kind == E_VAR && e->var == flag;
}

/* A loop starts: `outer_depth` is the loop depth just outside it. */
static void cont_begin(P *p, CXCursor loop, int outer_depth)
{
    if (p->ncont == 24)
        reject(p, loop, "-Wgpufuse-loop", "loops nested too deeply");
    p->cont[p->ncont] = NULL;
    p->cont_at[p->ncont] = loop;
    p->brk[p->ncont] = NULL;
    p->brk_depth[p->ncont] = outer_depth;
    p->ncont++;
}

/* `flag = 1;` for a `continue` or a `break`, the flag declared at its first use. */
static Stmt *set_flag(P *p, CXCursor c, Var **flag, const char *name, int depth)
{
    if (!*flag) {
        *flag = new_var(p, c, name, new_type(p, TY_INT), V_LOCAL);
        (*flag)->depth = depth;
    }
    Stmt *s = new_stmt(p, S_ASSIGN, c);
    s->lhs = flag_ref(p, c, *flag);
    s->op = OP_ASSIGN;
    s->rhs = int_lit(p, c, "1");
    number(p, s);
    return s;
}

/* `continue;` of the innermost loop: flag = 1. */
static Stmt *conv_continue(P *p, CXCursor c)
{
    if (!p->ncont)
        reject(p, c, "-Wgpufuse-control", "'continue' outside a loop");
    return set_flag(p, c, &p->cont[p->ncont - 1], "gf_skip", p->loops.len);
}

/* ---- break -----------------------------------------------------------------------
 * `break` of a loop sets a flag declared just before the loop (0): the
 * statements after one that may set it run under `if (!flag)`, like those
 * after a `continue`, and the loop stops once the flag is set (Stmt.brk: the
 * back ends test it with the loop condition).  The flag lives across the
 * iterations, so the loop carries a dependence on it and is sequential; that
 * is only right for a loop run per element inside a parallel loop, which
 * deps.c checks (a parallel loop or a host time loop cannot stop early). */

static Stmt *conv_break(P *p, CXCursor c)
{
    if (!p->ncont)
        reject(p, c, "-Wgpufuse-control", "'break' outside a loop or a switch");
    return set_flag(p, c, &p->brk[p->ncont - 1], "gf_brk", p->brk_depth[p->ncont - 1]);
}

/* Statement s with everything after a possible `continue` guarded. */
static Stmt *guard_rest(P *p, Stmt *s, Var *flag, CXCursor c)
{
    if (!s)
        return s;
    if (s->kind == S_IF) {
        s->then = guard_rest(p, s->then, flag, c);
        s->els = guard_rest(p, s->els, flag, c);
        return s;
    }
    if (s->kind != S_BLOCK)
        return s;
    Vec out = {0};
    for (int i = 0; i < s->list.len; i++) {
        Stmt *t = guard_rest(p, vec_at(&s->list, i), flag, c);
        vec_push(p->a, &out, t);
        if (i + 1 == s->list.len || !ir_stmt_any(t, is_flag, flag) || t->kind == S_FOR || t->kind == S_WHILE)
            continue;
        /* the rest of the block runs only if nothing continued */
        Stmt *rest = new_stmt(p, S_BLOCK, c);
        rest->loc = ((Stmt *)vec_at(&s->list, i + 1))->loc;
        for (int j = i + 1; j < s->list.len; j++)
            vec_push(p->a, &rest->list, vec_at(&s->list, j));
        Stmt *g = new_stmt(p, S_IF, c);
        g->loc = rest->loc;
        Expr *neg = new_expr(p, E_UNARY, c);
        neg->op = OP_NOT;
        neg->ty = new_type(p, TY_INT);
        neg->kids = arena_alloc(p->a, sizeof(Expr *));
        neg->kids[0] = flag_ref(p, c, flag);
        neg->nkids = 1;
        g->cond = neg;
        g->then = guard_rest(p, rest, flag, c);
        g->then->parent = g;
        vec_push(p->a, &out, g);
        break;
    }
    s->list = out;
    for (int i = 0; i < s->list.len; i++)
        ((Stmt *)vec_at(&s->list, i))->parent = s;
    return s;
}

/* ---- switch ---------------------------------------------------------------------
 * `switch (e)` becomes `int gf_sw = e; if (gf_sw == a || ...) {...} else if
 * ... else {default}`.  Each group of statements must end in `break` or
 * `continue` (or be the last); falling through into the next label is
 * refused. */

typedef struct Group {
    Expr *cond;                  /* NULL: the default group */
    bool is_default;
    Stmt *body;
    bool ended;                  /* by break or continue */
} Group;

static Expr *binary(P *p, CXCursor c, Op op, Expr *l, Expr *r)
{
    Expr *e = new_expr(p, E_BINARY, c);
    e->op = op;
    e->ty = new_type(p, TY_INT);
    e->kids = arena_alloc(p->a, 2 * sizeof(Expr *));
    e->kids[0] = l;
    e->kids[1] = r;
    e->nkids = 2;
    return e;
}

static Stmt *conv_switch(P *p, CXCursor c, Kids ks)
{
    if (ks.n != 2 || clang_getCursorKind(ks.c[1]) != CXCursor_CompoundStmt)
        reject(p, c, "-Wgpufuse-control", "a 'switch' whose body is not a block of cases is not supported");
    Expr *cond = conv_expr(p, ks.c[0]);
    if (!type_is_integer(cond->ty))
        reject(p, c, "-Wgpufuse-control", "'switch' on a non-integer value");
    Var *sw = new_var(p, c, "gf_sw", cond->ty, V_LOCAL);
    Stmt *d = new_stmt(p, S_DECL, c);
    d->var = sw;
    d->rhs = cond;
    sw->decl = d;
    number(p, d);
    Group groups[64];
    int ng = 0;
    Kids body = kids_of(ks.c[1]);
    for (int i = 0; i < body.n; i++) {
        CXCursor k = body.c[i];
        enum CXCursorKind kk = clang_getCursorKind(k);
        if (kk == CXCursor_CaseStmt || kk == CXCursor_DefaultStmt) {
            if (ng && groups[ng - 1].body->list.len && !groups[ng - 1].ended)
                reject(p, k, "-Wgpufuse-control", "this case is reached by falling through from the one before; "
                       "end that one with 'break'");
            if (ng == 64)
                reject(p, k, "-Wgpufuse-size", "more than 64 case groups");
            Group *g = &groups[ng];
            bool fresh = !ng || groups[ng - 1].body->list.len || groups[ng - 1].ended;
            if (fresh) {
                *g = (Group){0};
                g->body = new_stmt(p, S_BLOCK, k);
                ng++;
            } else {
                g = &groups[ng - 1]; /* labels stacked on an empty group */
            }
            /* case a: case b: ... stmt — labels nest, the statement is innermost */
            for (;;) {
                Kids lk = kids_of(k);
                if (clang_getCursorKind(k) == CXCursor_DefaultStmt) {
                    g->is_default = true;
                    k = lk.c[lk.n - 1];
                } else if (clang_getCursorKind(k) == CXCursor_CaseStmt) {
                    if (lk.n != 2)
                        reject(p, k, "-Wgpufuse-control", "case ranges are not supported");
                    CXEvalResult ev = clang_Cursor_Evaluate(lk.c[0]);
                    if (!ev || clang_EvalResult_getKind(ev) != CXEval_Int) {
                        if (ev)
                            clang_EvalResult_dispose(ev);
                        reject(p, lk.c[0], "-Wgpufuse-control", "a case label that is not an integer constant");
                    }
                    Expr *v = int_lit(p, lk.c[0], arena_printf(p->a, "%lld", clang_EvalResult_getAsLongLong(ev)));
                    clang_EvalResult_dispose(ev);
                    Expr *eq = binary(p, k, OP_EQ, flag_ref(p, k, sw), v);
                    g->cond = g->cond ? binary(p, k, OP_LOR, g->cond, eq) : eq;
                    k = lk.c[1];
                } else {
                    break;
                }
            }
            kk = clang_getCursorKind(k);
        }
        if (!ng)
            reject(p, k, "-Wgpufuse-control", "a statement before the first case label");
        Group *g = &groups[ng - 1];
        if (g->ended)
            continue;            /* after break: never reached */
        if (kk == CXCursor_BreakStmt) {
            g->ended = true;
            continue;
        }
        Kids inner = kk == CXCursor_CompoundStmt ? kids_of(k) : (Kids){0};
        if (inner.n && clang_getCursorKind(inner.c[inner.n - 1]) == CXCursor_BreakStmt) {
            /* case 3: { ...; break; } */
            Stmt *blk = new_stmt(p, S_BLOCK, k);
            for (int j = 0; j + 1 < inner.n; j++) {
                p->cases++;
                Stmt *t = conv_stmt(p, inner.c[j]);
                p->cases--;
                if (!t)
                    continue;
                if (t->kind == S_BLOCK && t->loc.line == 0) {
                    for (int m = 0; m < t->list.len; m++) {
                        ((Stmt *)vec_at(&t->list, m))->parent = blk;
                        vec_push(p->a, &blk->list, vec_at(&t->list, m));
                    }
                    continue;
                }
                t->parent = blk;
                vec_push(p->a, &blk->list, t);
            }
            blk->parent = g->body;
            vec_push(p->a, &g->body->list, blk);
            g->ended = true;
            continue;
        }
        p->cases++;
        Stmt *s = conv_stmt(p, k);
        p->cases--;
        if (!s)
            continue;
        if (s->kind == S_ASSIGN && s->lhs->kind == E_VAR && p->ncont && s->lhs->var == p->cont[p->ncont - 1] &&
            kk == CXCursor_ContinueStmt)
            g->ended = true;
        if (s->kind == S_BLOCK && s->loc.line == 0) {
            /* several declarators, or a loop with its break flag */
            for (int m = 0; m < s->list.len; m++) {
                ((Stmt *)vec_at(&s->list, m))->parent = g->body;
                vec_push(p->a, &g->body->list, vec_at(&s->list, m));
            }
            continue;
        }
        s->parent = g->body;
        vec_push(p->a, &g->body->list, s);
    }
    /* the chain, the default last */
    Stmt *chain = NULL, **tail = &chain;
    Group *def = NULL;
    for (int i = 0; i < ng; i++) {
        if (groups[i].is_default) {
            def = &groups[i];
            continue;
        }
        Stmt *f = new_stmt(p, S_IF, c);
        f->loc = groups[i].body->loc;
        f->cond = groups[i].cond;
        f->then = groups[i].body;
        f->then->parent = f;
        *tail = f;
        tail = &f->els;
    }
    if (def)
        *tail = def->body;
    for (Stmt *f = chain; f && f->kind == S_IF; f = f->els)
        if (f->els)
            f->els->parent = f;
    Stmt *b = new_stmt(p, S_BLOCK, c);
    vec_push(p->a, &b->list, d);
    if (chain)
        vec_push(p->a, &b->list, chain);
    for (int i = 0; i < b->list.len; i++)
        ((Stmt *)vec_at(&b->list, i))->parent = b;
    return b;
}

/* Ends a loop body: declares the `continue` flag first and guards, if it
 * continued; guards the statements after a `break` and returns its flag in
 * *brk (NULL when the loop does not break). */
static Stmt *cont_end(P *p, Stmt *body, CXCursor c, Var **brk)
{
    Var *flag = p->cont[--p->ncont];
    *brk = p->brk[p->ncont];
    if (*brk)
        body = guard_rest(p, body, *brk, c);
    if (!flag)
        return body;
    Stmt *b = body && body->kind == S_BLOCK ? body : NULL;
    if (!b) {
        b = new_stmt(p, S_BLOCK, c);
        if (body)
            vec_push(p->a, &b->list, body);
    }
    Stmt *d = new_stmt(p, S_DECL, c);
    d->var = flag;
    d->rhs = int_lit(p, c, "0");
    flag->decl = d;
    number(p, d);
    Vec list = {0};
    vec_push(p->a, &list, d);
    for (int i = 0; i < b->list.len; i++)
        vec_push(p->a, &list, vec_at(&b->list, i));
    b->list = list;
    return guard_rest(p, b, flag, c);
}

/* A loop that breaks: `{ int gf_brk = 0; loop }`, spliced into the
 * enclosing block (a loop alone as a body keeps the block). */
static Stmt *with_break_flag(P *p, Stmt *loop, Var *flag, CXCursor c)
{
    if (!flag)
        return loop;
    loop->brk = flag_ref(p, c, flag);
    Stmt *d = new_stmt(p, S_DECL, c);
    d->var = flag;
    d->rhs = int_lit(p, c, "0");
    flag->decl = d;
    number(p, d);
    Stmt *b = new_stmt(p, S_BLOCK, c);
    b->loc.line = 0;             /* marker: splice into the parent */
    vec_push(p->a, &b->list, d);
    vec_push(p->a, &b->list, loop);
    d->parent = loop->parent = b;
    return b;
}

static Stmt *conv_for(P *p, CXCursor c)
{
    Kids ks = kids_of(c);
    if (ks.n != 4)
        reject(p, c, "-Wgpufuse-loop", "a fused loop needs an initialisation, a condition and an increment "
               "(for (int i = lb; i < ub; i++))");
    Stmt *s = new_stmt(p, S_FOR, c);
    CXCursor init = ks.c[0], cond = ks.c[1], inc = ks.c[2];
    Var *iv = NULL;
    Expr *lb = NULL;
    if (clang_getCursorKind(init) == CXCursor_DeclStmt) {
        Kids ik = kids_of(init);
        if (ik.n != 1 || clang_getCursorKind(ik.c[0]) != CXCursor_VarDecl)
            reject(p, init, "-Wgpufuse-loop", "the loop must declare exactly one index");
        Kids vk = kids_of(ik.c[0]);
        Type *t = conv_type(p, clang_getCursorType(ik.c[0]), ik.c[0], NULL, 0, NULL);
        if (!type_is_integer(t) || vk.n < 1)
            reject(p, ik.c[0], "-Wgpufuse-loop", "the loop index must be an integer with an initial value");
        lb = conv_expr(p, vk.c[vk.n - 1]);
        iv = new_var(p, ik.c[0], cx_str(p->a, clang_getCursorSpelling(ik.c[0])), t, V_IV);
    } else if (clang_getCursorKind(init) == CXCursor_BinaryOperator) {
        Kids ik = kids_of(init);
        Op op = gfc_binary_op(p->tu, init);
        CXCursor lhs = strip(ik.c[0]);
        Var *v = clang_getCursorKind(lhs) == CXCursor_DeclRefExpr ? lookup(p, clang_getCursorReferenced(lhs)) : NULL;
        if (op != OP_ASSIGN || !v || (v->kind != V_LOCAL && v->kind != V_IV) || !type_is_integer(v->ty) || v->is_array)
            reject(p, init, "-Wgpufuse-loop", "the loop must start by setting a local integer index (i = lb)");
        if (v->kind == V_LOCAL && v->decl && v->decl->rhs)
            reject(p, init, "-Wgpufuse-loop", "index '%s' is also given a value at its declaration", v->name);
        if (v->kind == V_LOCAL && v->scalar_written)
            reject(p, init, "-Wgpufuse-loop", "index '%s' is also assigned outside loop headers", v->name);
        if (bound_by_loop(p, v))
            reject(p, init, "-Wgpufuse-loop", "index '%s' is already the index of an enclosing loop", v->name);
        v->kind = V_IV;
        if (v->decl)
            v->decl->kind = S_BLOCK;   /* the declaration becomes empty */
        iv = v;
        lb = conv_expr(p, ik.c[1]);
    } else {
        reject(p, init, "-Wgpufuse-loop", "the loop must start by setting its index (for (int i = lb; ...))");
    }
    /* condition: i < ub or i <= ub */
    Kids cks = kids_of(cond);
    Op cop = clang_getCursorKind(cond) == CXCursor_BinaryOperator ? gfc_binary_op(p->tu, cond) : OP_NONE;
    if (cks.n != 2 || !is_var_ref(p, cks.c[0], iv) || (cop != OP_LT && cop != OP_LE))
        reject(p, cond, "-Wgpufuse-loop", "the loop condition must be 'index < bound' or 'index <= bound'");
    Expr *ub = conv_expr(p, cks.c[1]);
    if (cop == OP_LE) {
        Expr *one = new_expr(p, E_INT, cond);
        one->text = "1";
        one->ty = ub->ty;
        Expr *sum = new_expr(p, E_BINARY, cond);
        sum->op = OP_ADD;
        sum->ty = ub->ty;
        set_kids(p, sum, 2);
        sum->kids[0] = ub;
        sum->kids[1] = one;
        ub = sum;
    }
    long long step = loop_step(p, inc, iv);
    if (step <= 0)
        reject(p, inc, "-Wgpufuse-loop", "the loop increment must be 'i++', '++i' or 'i += c' with a constant c > 0");
    s->iv = iv;
    s->lb = lb;
    s->ub = ub;
    s->step = step;
    if (p->loops.len >= 16)
        reject(p, c, "-Wgpufuse-loop", "loops nested more than 16 deep are not supported");
    vec_push(p->a, &p->loops, s);
    iv->depth = p->loops.len;
    cont_begin(p, c, p->loops.len - 1);
    int cases = p->cases;
    p->cases = 0;
    Var *brk;
    s->body = cont_end(p, conv_stmt(p, ks.c[3]), ks.c[3], &brk);
    p->cases = cases;
    p->loops.len--;
    if (!s->body)
        s->body = new_stmt(p, S_BLOCK, ks.c[3]);
    s->body->parent = s;
    check_no_write(p, s->body, iv, c);
    if (brk)
        vec_push(p->a, &p->broke, iv);
    return with_break_flag(p, s, brk, c);
}

/* The index of a loop must not be assigned in its body. */
static void check_no_write(P *p, Stmt *s, Var *v, CXCursor at)
{
    if (!s)
        return;
    switch (s->kind) {
    case S_BLOCK:
        for (int i = 0; i < s->list.len; i++)
            check_no_write(p, vec_at(&s->list, i), v, at);
        break;
    case S_FOR: check_no_write(p, s->body, v, at); break;
    case S_WHILE: check_no_write(p, s->body, v, at); break;
    case S_IF:
        check_no_write(p, s->then, v, at);
        check_no_write(p, s->els, v, at);
        break;
    case S_ASSIGN:
        if (s->lhs->kind == E_VAR && s->lhs->var == v)
            reject(p, at, "-Wgpufuse-loop", "the body assigns the loop index '%s'", v->name);
        break;
    default: break;
    }
}

/* An assignment statement: lhs op rhs. */
static Stmt *make_assign(P *p, CXCursor c, CXCursor lhs_c, Op op, Expr *rhs)
{
    p->lvalue = op == OP_ASSIGN;
    Expr *lhs = conv_expr(p, lhs_c);
    p->lvalue = false;
    if (lhs->kind == E_VAR) {
        Var *v = lhs->var;
        if (v->kind == V_PARAM)
            reject(p, c, "-Wgpufuse-param", "assignment to parameter '%s'; copy it into a local variable first", v->name);
        if (v->kind == V_IV)
            reject(p, c, "-Wgpufuse-loop", "assignment to loop index '%s'", v->name);
        v->scalar_written = true;
    } else if (lhs->kind == E_INDEX || lhs->kind == E_FIELD) {
        Expr *ix = lhs->kind == E_FIELD ? lhs->kids[0] : lhs;
        if (ix->var->ty->base && ix->var->ty->kind == TY_PTR && ix->var->ty->base->is_const)
            reject(p, c, "-Wgpufuse-const", "store through a pointer to const '%s'", ix->var->name);
        ix->var->written = true;
    } else {
        reject(p, c, "-Wgpufuse-syntax", "unsupported assignment target");
    }
    Stmt *s = new_stmt(p, S_ASSIGN, c);
    s->lhs = lhs;
    s->op = op;
    s->rhs = rhs;
    number(p, s);
    return s;
}

/* T *t = malloc(count * sizeof *t) -> the element count; NULL if not that shape. */
static Expr *malloc_count(P *p, CXCursor call, Type *elem)
{
    Kids ks = kids_of(call);
    const char *name = cx_str(p->a, clang_getCursorSpelling(call));
    if (strcmp(name, "malloc") || ks.n != 2)
        return NULL;
    CXCursor arg = strip(ks.c[1]);
    if (clang_getCursorKind(arg) != CXCursor_BinaryOperator)
        return NULL;
    Kids ak = kids_of(arg);
    if (gfc_binary_op(p->tu, arg) != OP_MUL || ak.n != 2)
        return NULL;
    long long esize = clang_Type_getSizeOf(clang_getCursorType(call)) > 0 ? 0 : 0;
    (void)esize;
    for (int side = 0; side < 2; side++) {
        CXCursor sz = strip(ak.c[side]);
        if (clang_getCursorKind(sz) != CXCursor_UnaryExpr)
            continue;
        CXEvalResult ev = clang_Cursor_Evaluate(sz);
        if (!ev)
            continue;
        long long bytes = clang_EvalResult_getAsLongLong(ev);
        clang_EvalResult_dispose(ev);
        static const int sizes[] = {[TY_BOOL] = 1, [TY_CHAR] = 1, [TY_SCHAR] = 1, [TY_UCHAR] = 1,
                                    [TY_SHORT] = 2, [TY_USHORT] = 2, [TY_INT] = 4, [TY_UINT] = 4,
                                    [TY_LONG] = 8, [TY_ULONG] = 8, [TY_LLONG] = 8, [TY_ULLONG] = 8,
                                    [TY_FLOAT] = 4, [TY_DOUBLE] = 8};
        if (elem->kind > TY_DOUBLE || bytes != sizes[elem->kind])
            return NULL;
        return conv_expr(p, ak.c[1 - side]);
    }
    return NULL;
}

static Stmt *conv_decl(P *p, CXCursor d)
{
    Kids vk = kids_of(d);
    const char *name = cx_str(p->a, clang_getCursorSpelling(d));
    CXType ct = clang_getCursorType(d);
    if (clang_Cursor_getStorageClass(d) == CX_SC_Static)
        reject(p, d, "-Wgpufuse-static", "static local '%s' keeps state across calls, which a kernel cannot", name);
    Stmt *s = new_stmt(p, S_DECL, d);
    enum CXTypeKind tk = clang_getCanonicalType(ct).kind;
    if (tk == CXType_VariableArray || tk == CXType_ConstantArray) {
        /* a local temporary array: float t[n] */
        Expr *dims[8];
        int nd = 0;
        for (int i = 0; i < vk.n; i++) {
            enum CXCursorKind kk = clang_getCursorKind(vk.c[i]);
            if (kk == CXCursor_TypeRef)
                continue;
            if (kk == CXCursor_InitListExpr)
                reject(p, d, "-Wgpufuse-syntax", "initialised local arrays are not supported");
            if (nd == 8)
                reject(p, d, "-Wgpufuse-rank", "too many dimensions");
            dims[nd++] = conv_expr(p, vk.c[i]);
        }
        /* libclang lists sizes innermost first */
        Expr *outer[8];
        for (int i = 0; i < nd; i++)
            outer[i] = dims[nd - 1 - i];
        int used = 0;
        Type *t = conv_type(p, ct, d, outer, nd, &used);
        Var *v = new_var(p, d, name, t, V_LOCAL);
        v->is_array = v->is_temp = true;
        v->ndims = type_rank(t);
        v->dims = arena_alloc(p->a, sizeof(Expr *) * (size_t)v->ndims);
        Type *lt = t;
        for (int i = 0; i < v->ndims; i++, lt = lt->base) {
            if (lt->len) {
                v->dims[i] = lt->len;
            } else {
                Expr *c = new_expr(p, E_INT, d);
                c->text = arena_printf(p->a, "%lld", lt->clen);
                c->ty = new_type(p, TY_INT);
                v->dims[i] = c;
            }
        }
        if (!type_is_arith(type_elem(t)))
            reject(p, d, "-Wgpufuse-type", "local array '%s' must have arithmetic elements", name);
        if (p->loops.len) {
            /* one copy per iteration: a private array (a per-thread array in
             * a kernel), when its size is a small constant */
            long long elems = 1;
            CXType at = clang_getCanonicalType(ct);
            while (at.kind == CXType_ConstantArray) {
                elems *= clang_getArraySize(at);
                at = clang_getCanonicalType(clang_getArrayElementType(at));
            }
            if (at.kind == CXType_VariableArray || at.kind == CXType_IncompleteArray)
                reject(p, d, "-Wgpufuse-temp", "local array '%s' has a variable size and is declared inside a loop; "
                       "an array private to each iteration needs a constant size (at most %d elements): declare it "
                       "at the top of the marked function", name, GF_PRIVATE_MAX);
            if (elems > GF_PRIVATE_MAX)
                reject(p, d, "-Wgpufuse-temp", "local array '%s' declared inside a loop has %lld elements; an array "
                       "private to each iteration lives in each GPU thread's registers and local memory, which "
                       "allows at most %d elements: declare it at the top of the marked function", name, elems,
                       GF_PRIVATE_MAX);
            v->is_temp = false;
            v->is_private = true;
            v->priv_elems = elems;
        }
        s->var = v;
        v->decl = s;
        number(p, s);
        return s;
    }
    Type *t = conv_type(p, ct, d, NULL, 0, NULL);
    if (t->kind == TY_PTR) {
        /* T *t = malloc(n * sizeof *t): a temporary */
        CXCursor init = vk.n ? strip(vk.c[vk.n - 1]) : clang_getNullCursor();
        Expr *count = NULL;
        if (!clang_Cursor_isNull(init) && clang_getCursorKind(init) == CXCursor_CallExpr)
            count = malloc_count(p, init, t->base);
        if (!count || !type_is_arith(t->base))
            reject(p, d, "-Wgpufuse-pointer", "pointer local '%s': only 'T *%s = malloc(count * sizeof(T));' "
                   "temporaries are supported", name, name);
        if (p->loops.len)
            reject(p, d, "-Wgpufuse-temp", "temporary '%s' is allocated inside a loop; allocate it at the top of the "
                   "marked function", name);
        Var *v = new_var(p, d, name, t, V_LOCAL);
        v->is_array = v->is_temp = true;
        v->ndims = 1;
        v->dims = arena_alloc(p->a, sizeof(Expr *));
        v->dims[0] = count;
        s->var = v;
        s->is_malloc = true;
        v->decl = s;
        number(p, s);
        return s;
    }
    if (!type_is_arith(t))
        reject(p, d, "-Wgpufuse-type", "local '%s' must be of an arithmetic type", name);
    Expr *init = NULL;
    for (int i = 0; i < vk.n; i++) {
        enum CXCursorKind kk = clang_getCursorKind(vk.c[i]);
        if (kk == CXCursor_TypeRef)
            continue;
        init = conv_expr(p, vk.c[i]);
    }
    Var *v = new_var(p, d, name, t, V_LOCAL);
    s->var = v;
    s->rhs = init;
    v->decl = s;
    number(p, s);
    return s;
}

static Stmt *conv_stmt(P *p, CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    Kids ks = kids_of(c);
    switch (k) {
    case CXCursor_CompoundStmt:
        return conv_block(p, c);
    case CXCursor_NullStmt:
        return NULL;
    case CXCursor_DeclStmt: {
        if (ks.n == 1)
            return conv_decl(p, ks.c[0]);
        Stmt *b = new_stmt(p, S_BLOCK, c);
        b->loc.line = 0;         /* marker: splice into the parent */
        for (int i = 0; i < ks.n; i++) {
            if (clang_getCursorKind(ks.c[i]) != CXCursor_VarDecl)
                reject(p, ks.c[i], "-Wgpufuse-syntax", "only variable declarations are supported here");
            vec_push(p->a, &b->list, conv_decl(p, ks.c[i]));
        }
        return b;
    }
    case CXCursor_ForStmt:
        return conv_for(p, c);
    case CXCursor_WhileStmt: {
        if (ks.n != 2)
            reject(p, c, "-Wgpufuse-syntax", "unsupported while loop");
        if (!p->loops.len)
            reject(p, c, "-Wgpufuse-loop", "a 'while' loop outside any 'for' loop cannot be parallelised; "
                   "write it as a canonical 'for' loop");
        Stmt *s = new_stmt(p, S_WHILE, c);
        s->cond = conv_expr(p, ks.c[0]);
        p->conds++;
        cont_begin(p, c, p->loops.len);
        int cases = p->cases;
        p->cases = 0;
        Var *brk;
        s->body = cont_end(p, conv_stmt(p, ks.c[1]), ks.c[1], &brk);
        if (s->body)
            s->body->parent = s;
        p->cases = cases;
        p->conds--;
        number(p, s);
        return with_break_flag(p, s, brk, c);
    }
    case CXCursor_IfStmt: {
        if (ks.n < 2 || ks.n > 3)
            reject(p, c, "-Wgpufuse-syntax", "unsupported if statement");
        Stmt *s = new_stmt(p, S_IF, c);
        s->cond = conv_expr(p, ks.c[0]);
        p->conds++;
        s->then = conv_stmt(p, ks.c[1]);
        s->els = ks.n == 3 ? conv_stmt(p, ks.c[2]) : NULL;
        p->conds--;
        if (s->then)
            s->then->parent = s;
        if (s->els)
            s->els->parent = s;
        return s;
    }
    case CXCursor_ReturnStmt: {
        Stmt *s = new_stmt(p, S_RETURN, c);
        if (p->loops.len)
            reject(p, c, "-Wgpufuse-control", "'return' inside a loop leaves it early, which a kernel cannot");
        s->rhs = ks.n ? conv_expr(p, ks.c[0]) : NULL;
        number(p, s);
        return s;
    }
    case CXCursor_BinaryOperator: {
        if (gfc_binary_op(p->tu, c) != OP_ASSIGN)
            reject(p, c, "-Wgpufuse-syntax", "this expression statement has no effect a kernel can keep");
        return make_assign(p, c, ks.c[0], OP_ASSIGN, conv_expr(p, ks.c[1]));
    }
    case CXCursor_CompoundAssignOperator: {
        Op op = gfc_binary_op(p->tu, c);
        if (!op_is_assign(op))
            reject(p, c, "-Wgpufuse-syntax", "cannot read the operator of this assignment");
        return make_assign(p, c, ks.c[0], op, conv_expr(p, ks.c[1]));
    }
    case CXCursor_UnaryOperator: {
        Op op = ks.n == 1 ? gfc_unary_op(p->tu, c, ks.c[0]) : OP_NONE;
        if (op != OP_PREINC && op != OP_POSTINC && op != OP_PREDEC && op != OP_POSTDEC)
            reject(p, c, "-Wgpufuse-syntax", "this expression statement has no effect a kernel can keep");
        Expr *one = new_expr(p, E_INT, c);
        one->text = "1";
        one->ty = new_type(p, TY_INT);
        return make_assign(p, c, ks.c[0], op == OP_PREINC || op == OP_POSTINC ? OP_ADD_ASSIGN : OP_SUB_ASSIGN, one);
    }
    case CXCursor_CallExpr: {
        const char *name = cx_str(p->a, clang_getCursorSpelling(c));
        if (!strcmp(name, "free") && ks.n == 2) {
            CXCursor a = strip(ks.c[1]);
            Var *v = clang_getCursorKind(a) == CXCursor_DeclRefExpr ? lookup(p, clang_getCursorReferenced(a)) : NULL;
            if (!v || !v->is_temp || !v->decl || !v->decl->is_malloc)
                reject(p, c, "-Wgpufuse-alloc", "free() of something that is not a temporary malloc'd in this function");
            if (p->loops.len)
                reject(p, c, "-Wgpufuse-alloc", "free() inside a loop");
            Stmt *s = new_stmt(p, S_FREE, c);
            s->var = v;
            return s;
        }
        if (lib_builtin_roles(name))
            return lib_stmt(p, c, name, ks);
        conv_expr(p, c);         /* diagnoses I/O and unknown calls */
        reject(p, c, "-Wgpufuse-call", "a call whose result is unused has no effect a kernel can keep");
    }
    case CXCursor_GotoStmt:
    case CXCursor_IndirectGotoStmt:
    case CXCursor_LabelStmt:
        reject(p, c, "-Wgpufuse-control", "'goto' and labels make the control flow irregular; use structured loops");
    case CXCursor_ContinueStmt:
        return conv_continue(p, c);
    case CXCursor_BreakStmt:
        if (p->cases)
            reject(p, c, "-Wgpufuse-control", "a 'break' under a condition inside a case is not supported; "
                   "end the case with 'break' and put the condition around the rest");
        return conv_break(p, c);
    case CXCursor_SwitchStmt:
        return conv_switch(p, c, ks);
    case CXCursor_DoStmt:
        reject(p, c, "-Wgpufuse-loop", "'do'/'while' loops are not supported; write a canonical 'for' loop");
    case CXCursor_AsmStmt:
        reject(p, c, "-Wgpufuse-asm", "inline assembly cannot run on the GPU");
    default:
        reject(p, c, "-Wgpufuse-syntax", "unsupported statement (%s)", cx_str(p->a, clang_getCursorKindSpelling(k)));
    }
}

/* ---- regions and the unit ----------------------------------------------------- */

static bool has_annotation(CXCursor fn)
{
    Kids ks = kids_of(fn);
    for (int i = 0; i < ks.n; i++) {
        if (clang_getCursorKind(ks.c[i]) != CXCursor_AnnotateAttr)
            continue;
        CXString s = clang_getCursorSpelling(ks.c[i]);
        bool yes = !strcmp(clang_getCString(s), "gpufuse");
        clang_disposeString(s);
        if (yes)
            return true;
    }
    return false;
}

static char *extent_text(Unit *u, CXCursor c)
{
    CXSourceRange r = clang_getCursorExtent(c);
    unsigned b, e;
    clang_getSpellingLocation(clang_getRangeStart(r), NULL, NULL, NULL, &b);
    clang_getSpellingLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &e);
    size_t n = strlen(u->source);
    if (b > n || e > n || e < b)
        return arena_strdup(u->arena, "");
    char *t = arena_alloc(u->arena, e - b + 1);
    memcpy(t, u->source + b, e - b);
    return t;
}

static void parse_params(P *p, CXCursor fn)
{
    Kids ks = kids_of(fn);
    for (int i = 0; i < ks.n; i++) {
        CXCursor d = ks.c[i];
        if (clang_getCursorKind(d) != CXCursor_ParmDecl)
            continue;
        const char *name = cx_str(p->a, clang_getCursorSpelling(d));
        if (!*name)
            reject(p, d, "-Wgpufuse-param", "unnamed parameter");
        /* VLA sizes are children of the ParmDecl, innermost first */
        Kids dk = kids_of(d);
        Expr *dims[8];
        int nd = 0;
        for (int j = dk.n - 1; j >= 0 && nd < 8; j--) {
            enum CXCursorKind kk = clang_getCursorKind(dk.c[j]);
            if (kk == CXCursor_TypeRef || kk == CXCursor_AnnotateAttr || !clang_isExpression(kk))
                continue;
            dims[nd++] = conv_expr(p, dk.c[j]);
        }
        CXType pt = clang_getCanonicalType(clang_getCursorType(d));
        if (pt.kind == CXType_Pointer) {
            enum CXTypeKind pk = clang_getCanonicalType(clang_getPointeeType(pt)).kind;
            if (pk == CXType_FunctionProto || pk == CXType_FunctionNoProto)
                reject(p, d, "-Wgpufuse-call", "parameter '%s' is a function pointer; calls through function pointers "
                       "cannot be compiled for the GPU", name);
            if (pk == CXType_Pointer)
                reject(p, d, "-Wgpufuse-pointer", "parameter '%s' is a pointer to pointers; pass a 2-D array "
                       "('float a[n][m]') or a flat pointer instead", name);
        }
        int used = 0;
        Type *t = conv_type(p, clang_getCursorType(d), d, dims, nd, &used);
        Var *v = new_var(p, d, name, t, V_PARAM);
        vec_push(p->a, &p->r->params, v);
        if (t->kind == TY_PTR || t->kind == TY_ARRAY) {
            v->is_array = true;
            v->ndims = type_rank(t);
            v->dims = arena_alloc(p->a, sizeof(Expr *) * (size_t)v->ndims);
            Type *lt = t;
            for (int j = 0; j < v->ndims; j++, lt = lt->base) {
                if (lt->kind == TY_PTR || (lt->kind == TY_ARRAY && !lt->len && lt->clen < 0)) {
                    if (j > 0)
                        reject(p, d, "-Wgpufuse-param", "only the outermost dimension of '%s' may be unsized", name);
                    v->dims[j] = NULL;   /* unknown outer extent: pointer */
                } else if (lt->len) {
                    v->dims[j] = lt->len;
                } else {
                    Expr *c = arena_alloc(p->a, sizeof *c);
                    c->kind = E_INT;
                    c->text = arena_printf(p->a, "%lld", lt->clen);
                    c->ty = new_type(p, TY_INT);
                    v->dims[j] = c;
                }
            }
            Type *et = type_elem(t);
            if (et->kind == TY_PTR)
                reject(p, d, "-Wgpufuse-pointer", "parameter '%s' is a pointer to pointers; pass a 2-D array "
                       "('float a[n][m]') or a flat pointer instead", name);
            if (!type_is_arith(et) && et->kind != TY_STRUCT)
                reject(p, d, "-Wgpufuse-type", "parameter '%s' points to an unsupported type", name);
        } else if (!type_is_arith(t)) {
            reject(p, d, "-Wgpufuse-type", "parameter '%s' has an unsupported type", name);
        }
    }
}

static Region *parse_region(Unit *u, CXTranslationUnit tu, CXCursor fn)
{
    Region *r = arena_alloc(u->arena, sizeof *r);
    r->unit = u;
    P p = {.u = u, .a = u->arena, .tu = tu, .r = r};
    r->name = cx_str(u->arena, clang_getCursorSpelling(fn));
    r->cname = decls_cname(u->arena, r->name);
    r->loc = loc_of(&p, fn);
    r->first_line = r->loc.line;
    r->last_line = end_line_of(fn);
    if (setjmp(p.fail)) {
        r->rejected = true;
        return r;
    }
    if (clang_getCursorLinkage(fn) != CXLinkage_External)
        reject(&p, fn, "-Wgpufuse-static", "a marked function must have external linkage (remove 'static') "
               "so the generated launcher can replace it at link time");
    if (clang_Cursor_isVariadic(fn))
        reject(&p, fn, "-Wgpufuse-param", "variadic functions cannot be fused");
    r->ret = conv_type(&p, clang_getResultType(clang_getCursorType(fn)), fn, NULL, 0, NULL);
    if (r->ret->kind != TY_VOID && !type_is_arith(r->ret))
        reject(&p, fn, "-Wgpufuse-type", "a marked function must return void or an arithmetic value");
    parse_params(&p, fn);
    Kids ks = kids_of(fn);
    CXCursor body = ks.c[ks.n - 1];
    if (clang_getCursorKind(body) != CXCursor_CompoundStmt)
        reject(&p, fn, "-Wgpufuse-syntax", "function has no body");
    r->body = conv_block(&p, body);
    r->nstmts = p.stmt_ids;
    /* the header: everything before the body's opening brace */
    char *all = extent_text(u, fn);
    char *brace = strchr(all, '{');
    if (brace)
        *brace = '\0';
    r->signature = all;
    return r;
}

typedef struct TopCtx {
    Unit *u;
    CXTranslationUnit tu;
    Vec marked;                  /* CXCursor* */
} TopCtx;

static enum CXChildVisitResult visit_top(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    TopCtx *t = d;
    if (!clang_Location_isFromMainFile(clang_getCursorLocation(c)))
        return CXChildVisit_Continue;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_FunctionDecl && clang_isCursorDefinition(c)) {
        if (has_annotation(c)) {
            CXCursor *cp = arena_alloc(t->u->arena, sizeof *cp);
            *cp = c;
            vec_push(t->u->arena, &t->marked, cp);
        }
    }
    return CXChildVisit_Continue;
}

static char *read_file(const char *path, Arena *a)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 65536, len = 0;
    char *buf = malloc(cap);
    size_t n;
    while (buf && (n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (cap - len < 2) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) {
                free(buf);
                buf = NULL;
            }
            buf = nb;
        }
    }
    fclose(f);
    if (!buf)
        return NULL;
    buf[len] = '\0';
    char *r = arena_strdup(a, buf);
    free(buf);
    return r;
}

static void inclusion_visitor(CXFile f, CXSourceLocation *stack, unsigned len, CXClientData d)
{
    (void)stack;
    (void)len;
    Unit *u = d;
    CXString s = clang_getFileName(f);
    vec_push(u->arena, &u->includes, arena_strdup(u->arena, clang_getCString(s)));
    clang_disposeString(s);
}

Unit *parse_unit(const char *path, const ParseOptions *opt)
{
    Arena *a = arena_new();
    Unit *u = arena_alloc(a, sizeof *u);
    u->arena = a;
    u->path = arena_strdup(a, path);
    u->gen_path = decls_gen_path(a, path);
    u->source = read_file(path, a);
    if (!u->source) {
        diag_at(DIAG_ERROR, (Loc){0}, NULL, "cannot read '%s'", path);
        arena_free(a);
        return NULL;
    }
    if (strlen(u->source) == 0)
        diag_at(DIAG_WARNING, (Loc){path, 1, 1}, "-Wgpufuse-empty", "file is empty");

    const char **args = arena_alloc(a, sizeof(char *) * (size_t)(opt->nclang_args + 8));
    int n = 0;
    args[n++] = "-D__GPUFUSE__";
    args[n++] = "-xc";
    if (opt->resource_dir) {
        args[n++] = "-resource-dir";
        args[n++] = opt->resource_dir;
    }
    for (int i = 0; i < opt->nclang_args; i++)
        args[n++] = opt->clang_args[i];

    diag_clang_args(path, args, n); /* -v */
    CXIndex idx = clang_createIndex(0, 0);
    CXTranslationUnit tu = NULL;
    enum CXErrorCode err = clang_parseTranslationUnit2(idx, path, args, n, NULL, 0,
                                                       CXTranslationUnit_DetailedPreprocessingRecord |
                                                       CXTranslationUnit_SkipFunctionBodies * 0, &tu);
    if (err != CXError_Success || !tu) {
        diag_at(DIAG_ERROR, (Loc){0}, NULL, "libclang could not parse '%s' (error %d)", path, (int)err);
        clang_disposeIndex(idx);
        arena_free(a);
        return NULL;
    }
    /* Any error makes the AST unreliable (a missing header turns types into
     * int and loops vanish): stop, showing clang's own messages. */
    bool fatal = false;
    unsigned nd = clang_getNumDiagnostics(tu);
    for (unsigned i = 0; i < nd; i++) {
        CXDiagnostic dg = clang_getDiagnostic(tu, i);
        enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(dg);
        if (sev >= CXDiagnostic_Error) {
            CXString s = clang_formatDiagnostic(dg, clang_defaultDiagnosticDisplayOptions());
            fprintf(gfc_diag.out ? gfc_diag.out : stderr, "%s\n", clang_getCString(s));
            clang_disposeString(s);
            fatal = true;
            gfc_diag.errors++;
        }
        clang_disposeDiagnostic(dg);
    }
    if (fatal) {
        clang_disposeTranslationUnit(tu);
        clang_disposeIndex(idx);
        arena_free(a);
        return NULL;
    }
    clang_getInclusions(tu, inclusion_visitor, u);
    decls_begin(u, tu);

    TopCtx t = {u, tu, {0}};
    clang_visitChildren(clang_getTranslationUnitCursor(tu), visit_top, &t);
    for (int i = 0; i < t.marked.len; i++) {
        Region *r = parse_region(u, tu, *(CXCursor *)vec_at(&t.marked, i));
        vec_push(a, r->rejected ? &u->rejected : &u->regions, r);
    }
    decls_end(u);
    clang_disposeTranslationUnit(tu);
    clang_disposeIndex(idx);
    return u;
}

void unit_free(Unit *u)
{
    if (!u)
        return;
    for (int i = 0; i < u->regions.len; i++)
        deps_free(vec_at(&u->regions, i));
    for (int i = 0; i < u->rejected.len; i++)
        deps_free(vec_at(&u->rejected, i));
    arena_free(u->arena);
}
