/* parse.c - the front end: parses one C file with libclang and turns every
 * GPUFUSE-marked function into a Region (compiler/gfc.h), or rejects it with
 * a located diagnostic saying why, so that it keeps its CPU body. */
#include "gfc.h"
#include "clang_compat.h"
#include "cuda_rule.h"
#include "decls.h"

#include <clang-c/Index.h>
#include <limits.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

/* A loop counting down is converted as one counting up (conv_for); while
 * its body is converted, its index reads this instead. */
typedef struct Down {
    Var *iv;                     /* the index as written */
    Expr *value;                 /* what a use reads: hi - k */
} Down;

/* The front end's limits, each checked where it applies with a located
 * "too many ... (limit is N)" diagnostic (limit()); everything else (the
 * children of a node, statements in a block, cases of a switch, loops with
 * `continue`/`break`) lives in arena vectors without a limit. */
#define MAX_LOOP_DEPTH 16        /* nested for loops (deps.c and args.c keep that many) */
#define MAX_RANK 8               /* dimensions of an array */
#define MAX_HELPER_DEPTH 8       /* helpers calling helpers */
#define MAX_EXPR_DEPTH 4000      /* nested expressions (the passes recurse on them) */
#define MAX_STMT_DEPTH 1000      /* nested statements (the same) */

/* The flags of one loop's `continue` and `break` statements. */
typedef struct Ctl {
    Var *cont;                   /* set by its continues (NULL until the first one) */
    Var *brk;                    /* set by its breaks (NULL until the first one) */
    int brk_depth;               /* the loop depth just outside the loop */
    Var *iv, *keep;              /* a loop whose index is read after it: its breaks copy iv to keep */
} Ctl;

typedef struct Binding {
    CXCursor decl;
    Var *var;
} Binding;

typedef struct P {
    Unit *u;
    Arena *a;
    CXTranslationUnit tu;
    const GfcOps *ops;           /* the operators of the marked functions */
    const GfcOps *hops;          /* ... of the helpers whose form helper_form reads */
    bool quiet;                  /* helper_form: a rejection only unwinds, no diagnostic */
    CXCursor fn;                 /* the function being converted */
    Region *r;
    jmp_buf fail;
    Binding *binds;
    int nbinds, capbinds;
    Vec loops;                   /* Stmt* S_FOR enclosing the current point */
    bool lvalue;                 /* converting the target of a plain '=' */
    int depth;                   /* expression nesting, bounded */
    int sdepth;                  /* statement nesting, bounded */
    int stmt_ids;
    int conds;                   /* if/while statements enclosing the current point */
    Vec ctl;                     /* Ctl*: per enclosing loop (for or while), innermost last */
    Vec broke;                   /* Var*: indices of the loops that break */
    Vec downs;                   /* Down*: down-counting loops around the current point */
    const Vec *asserts;          /* unsigned[2]: the extents of assert() in the file */
    int cases;                   /* switch groups being converted (loops reset it) */
    Vec aliases;                 /* Alias*: pointer locals that name part of an array */
    Vec tables;                  /* Binding*: the read-only tables the region reads (table_of) */
    Vec reused;                  /* Var*: indices read after their loop that a later loop takes (kept_index) */
} P;

static Down *down_of(P *p, Var *v);
static Expr *new_expr(P *p, ExprKind k, CXCursor c);
static Expr *clone_expr(P *p, const Expr *e, Loc loc);
static Expr *int_lit(P *p, CXCursor c, const char *text);
static Expr *arith(P *p, CXCursor at, Op op, Expr *l, Expr *r, Type *ty);
static bool plain_int(const Expr *e, long long *v);

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

static _Noreturn void __attribute__((format(printf, 4, 5)))
reject(P *p, CXCursor at, const char *flag, const char *fmt, ...);

/* Rejects when n exceeds a limit of the front end (Lua's luaY_checklimit). */
static void limit(P *p, CXCursor at, int n, int max, const char *what)
{
    if (n > max)
        reject(p, at, "-Wgpufuse-size", "too many %s (limit is %d)", what, max);
}

/* Rejects the region being built: diagnoses and unwinds to parse_region. */
static _Noreturn void vreject(P *p, Loc at, const char *flag, const char *fmt, va_list ap)
{
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (!p->quiet)
        diag_reject(at, flag, "%s; '%s' keeps its CPU body", msg, p->r->name);
    longjmp(p->fail, 1);
}

static _Noreturn void __attribute__((format(printf, 4, 5)))
reject(P *p, CXCursor at, const char *flag, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreject(p, loc_of(p, at), flag, fmt, ap);
}

/* The same at a statement's location. */
static _Noreturn void __attribute__((format(printf, 4, 5)))
reject_at(P *p, Loc at, const char *flag, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreject(p, at, flag, fmt, ap);
}

/* The operator of an operator node, read from the AST (clang_compat.c);
 * OP_NONE for `__extension__` and operators the IR has no enum for.
 * Rejects when it could not be read. */
static Op op_of(P *p, CXCursor c)
{
    Op op;
    if (gfc_op(p->ops, c, &op))
        return op == GFC_OP_EXTENSION ? OP_NONE : op;
    CXCursor at;
    const char *why = gfc_ops_failure(p->ops, p->fn, &at);
    if (why)
        reject(p, c, "-Wgpufuse-syntax", "cannot read the operator of this expression: %s, on line %d; please report "
               "this", why, loc_of(p, at).line);
    reject(p, c, "-Wgpufuse-syntax", "cannot read the operator of this expression");
}

/* The children of a cursor, in the arena (any number). */
typedef struct Kids {
    CXCursor *c;
    int n;
} Kids;

static enum CXChildVisitResult count_kid(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)c;
    (void)parent;
    (*(int *)d)++;
    return CXChildVisit_Continue;
}

static enum CXChildVisitResult fill_kid(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    Kids *k = d;
    k->c[k->n++] = c;
    return CXChildVisit_Continue;
}

static Kids kids_of(P *p, CXCursor c)
{
    int n = 0;
    clang_visitChildren(c, count_kid, &n);
    Kids k = {arena_alloc(p->a, sizeof(CXCursor) * (size_t)(n ? n : 1)), 0};
    clang_visitChildren(c, fill_kid, &k);
    gfc_assert(k.n == n);
    return k;
}

typedef struct OnlyKid {
    CXCursor c;
    int n;
} OnlyKid;

static enum CXChildVisitResult first_kid(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    OnlyKid *o = d;
    if (o->n++)
        return CXChildVisit_Break;
    o->c = c;
    return CXChildVisit_Continue;
}

/* Skips implicit-cast and paren wrappers that carry no meaning for us. */
static CXCursor strip(CXCursor c)
{
    for (;;) {
        enum CXCursorKind k = clang_getCursorKind(c);
        if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr)
            return c;
        OnlyKid o = {.n = 0};
        clang_visitChildren(c, first_kid, &o);
        if (o.n != 1)
            return c;
        c = o.c;
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
    if (type_is_complex(f->ty))
        reject(fc->p, fc->at, "-Wgpufuse-type", "field '%s' of a struct is complex, which gpufuse supports in arrays "
               "and scalars only (docs/types.md)", name);
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
    if (t.kind == CXType_Elaborated || t.kind == CXType_Typedef || t.kind == CXType_Unexposed ||
        t.kind == CXType_Auto)   /* sugar: typedefs, typeof, __auto_type */
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
    case CXType_Float16: ty = new_type(p, TY_F16), p->r && (p->r->uses_f16 = true); break;
    case CXType_BFloat16: ty = new_type(p, TY_BF16), p->r && (p->r->uses_bf16 = true); break;
    case CXType_Void: ty = new_type(p, TY_VOID); break;
    case CXType_LongDouble:
        reject(p, at, "-Wgpufuse-type", "'long double' has no GPU equivalent; use 'double'");
    case CXType_Complex: {
        CXType el = clang_getCanonicalType(clang_getElementType(ct));
        if (el.kind == CXType_Float || el.kind == CXType_Double) {
            ty = new_type(p, el.kind == CXType_Float ? TY_CF : TY_CD);
            if (p->r)
                p->r->uses_complex = true;
            break;
        }
        CXString s = clang_getTypeSpelling(t), n = clang_getCursorSpelling(at);
        const char *ts = cx_str(p->a, s), *name = cx_str(p->a, n);
        const char *who = name[0] ? arena_printf(p->a, "'%s' uses the type '%s': ", name, ts) : "";
        if (el.kind == CXType_LongDouble)
            reject(p, at, "-Wgpufuse-type", "%s'long double _Complex' has no GPU equivalent; use 'double _Complex' "
                   "outside marked functions", who);
        reject(p, at, "-Wgpufuse-type", "%sonly 'float _Complex' and 'double _Complex' are supported in marked "
               "functions (docs/types.md); an integer or half complex type is not", who);
    }
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
        size_t len = strlen(buf);
        if (ct.kind == CXType_Unexposed && len >= 6 && !strcmp(buf + len - 6, "__bf16") &&
            clang_Type_getSizeOf(ct) == 2) {   /* libclang 16 has no kind for it (CXType_BFloat16 is never given) */
            ty = new_type(p, TY_BF16);
            if (p->r)
                p->r->uses_bf16 = true;
            break;
        }
        reject(p, at, "-Wgpufuse-type", "type '%s' is not supported in a fused region", buf);
    }
    }
    if (clang_isVolatileQualifiedType(t))
        reject(p, at, "-Wgpufuse-volatile", "'volatile' data cannot be reordered or cached by a kernel");
    ty->is_const = cst;
    ty->is_restrict = rst;
    return ty;
}

/* The dimensions of an array or pointer-to-array type (float a[n][m]: 2). */
static int cx_rank(CXType t)
{
    int r = 0;
    for (t = clang_getCanonicalType(t);; t = clang_getCanonicalType(t), r++) {
        if (t.kind == CXType_ConstantArray || t.kind == CXType_VariableArray || t.kind == CXType_IncompleteArray)
            t = clang_getArrayElementType(t);
        else if (t.kind == CXType_Pointer && !r)
            t = clang_getPointeeType(t);
        else
            return r;
    }
}

/* ---- variables -------------------------------------------------------------- */

/* From here to the end of the scope, `decl` names v. */
static void bind(P *p, CXCursor decl, Var *v)
{
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
}

static Var *new_var(P *p, CXCursor decl, const char *name, Type *ty, VarKind kind)
{
    Var *v = arena_alloc(p->a, sizeof *v);
    v->name = name;
    v->ty = ty;
    v->kind = kind;
    v->loc = loc_of(p, decl);
    v->depth = p->loops.len;
    /* a unique spelling: C allows shadowing, generated code must not; a
     * declared name goes through decls_cname (C++ keywords, clashes) */
    v->cname = clang_isDeclaration(clang_getCursorKind(decl)) ? decls_cname(p->a, name) : name;
    ir_add_var(p->a, p->r, v);
    bind(p, decl, v);
    return v;
}

static Var *lookup(P *p, CXCursor decl)
{
    for (int i = p->nbinds - 1; i >= 0; i--)
        if (clang_equalCursors(p->binds[i].decl, decl))
            return p->binds[i].var;
    return NULL;
}

/* A const array with a constant initialiser the region reads: a table
 * (V_TABLE), its definition copied into the generated file (decls_table).
 * NULL when `decl` is no const array; rejected, saying why, when it is one
 * that cannot be copied. */
static Var *table_of(P *p, CXCursor decl, CXCursor at)
{
    if (clang_getCursorKind(decl) != CXCursor_VarDecl)
        return NULL;
    /* a local array's only user is this function: read only, it is a table
     * even without const (make_assign refuses a store to it); another
     * function may write a global one between calls */
    bool local = clang_getCursorKind(clang_getCursorSemanticParent(decl)) == CXCursor_FunctionDecl;
    CXType ct = clang_getCanonicalType(clang_getCursorType(decl));
    if (ct.kind != CXType_ConstantArray && ct.kind != CXType_IncompleteArray)
        return NULL;
    /* the qualifiers of the elements: libclang reports them on the array
     * type or on the innermost element, depending on how it was written */
    bool is_const = false, is_volatile = false;
    for (CXType et = clang_getCursorType(decl);; et = clang_getArrayElementType(et)) {
        is_const |= clang_isConstQualifiedType(et) || clang_isConstQualifiedType(clang_getCanonicalType(et));
        is_volatile |= clang_isVolatileQualifiedType(et) || clang_isVolatileQualifiedType(clang_getCanonicalType(et));
        enum CXTypeKind k = clang_getCanonicalType(et).kind;
        if (k != CXType_ConstantArray && k != CXType_IncompleteArray)
            break;
    }
    if ((!is_const && !local) || is_volatile)
        return NULL;
    CXCursor def = clang_getCursorDefinition(decl);
    if (clang_Cursor_isNull(def))
        def = decl;
    for (int i = 0; i < p->tables.len; i++) {
        Binding *b = vec_at(&p->tables, i);
        /* a helper's form (helper_form) drops the variables it made */
        if (clang_equalCursors(b->decl, def) && b->var->id < p->r->vars.len && vec_at(&p->r->vars, b->var->id) == b->var)
            return b->var;
    }
    const char *name = cx_str(p->a, clang_getCursorSpelling(def));
    if (clang_getCanonicalType(clang_getCursorType(def)).kind != CXType_ConstantArray)
        reject(p, at, "-Wgpufuse-global", "table '%s' has no size or initialiser in this file; define it here "
               "('static const float %s[N] = {...}') or pass it as a parameter", name, name);
    const char *why = NULL, *cname = decls_table(p->u, p->r, def, &why);
    if (!cname)
        reject(p, at, "-Wgpufuse-global", "table '%s' cannot be copied into the generated file: %s", name, why);
    int used = 0;
    Type *t = conv_type(p, clang_getCursorType(def), def, NULL, 0, &used);
    Var *v = new_var(p, def, name, t, V_TABLE);
    v->cname = cname;
    v->is_array = v->read = true;
    v->ndims = type_rank(t);
    v->dims = arena_alloc(p->a, sizeof(Expr *) * (size_t)v->ndims);
    Type *lt = t;
    for (int i = 0; i < v->ndims; i++, lt = lt->base) {
        Expr *c = new_expr(p, E_INT, def);
        c->text = arena_printf(p->a, "%lld", lt->clen);
        c->ty = new_type(p, TY_INT);
        v->dims[i] = c;
    }
    Binding *b = arena_alloc(p->a, sizeof *b);
    b->decl = def;
    b->var = v;
    vec_push(p->a, &p->tables, b);
    return v;
}

static bool bound_by_loop(P *p, Var *v)
{
    for (int i = 0; i < p->loops.len; i++)
        if (((Stmt *)vec_at(&p->loops, i))->iv == v)
            return true;
    for (int i = 0; i < p->downs.len; i++)
        if (((Down *)vec_at(&p->downs, i))->iv == v)
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
                                        "abs", "labs", "llabs", "isnan", "isfinite", "isinf", "signbit", NULL};
    if (builtin_bits(name))
        return true;
    for (int i = 0; extra[i]; i++)
        if (!strcmp(name, extra[i]))
            return true;
    return false;
}

/* <complex.h>'s functions a kernel may call (float and double forms):
 * templates/common.h defines each for CUDA (the transcendental ones through
 * libcu++'s cuda::std::complex, docs/types.md); the host plan calls glibc. */
static const char *const complex_funcs[] = {"creal", "cimag", "conj", "cabs", "cexp", "carg", "csqrt",
                                            "cpow", "clog", "csin", "ccos", "csinh", "ccosh", "cproj", NULL};

/* <complex.h>'s functions whose device version (libcu++'s, the maintained
 * one CUDA ships) cancels digits: ctan and ctanh near their poles, the
 * inverse functions near 0 and their branch points, 10^3 to 10^5 eps from
 * glibc (tests/edge/complex_fn_host.cu measured them): refused, with why,
 * rather than compiled less exactly than the C body. */
static const char *const complex_inexact[] = {"ctan", "ctanh", "casin", "cacos", "catan", "casinh", "cacosh",
                                              "catanh", NULL};

static bool in_family(const char *name, const char *const *list)
{
    for (int i = 0; list[i]; i++) {
        size_t n = strlen(list[i]);
        if (!strncmp(name, list[i], n) && (name[n] == '\0' || ((name[n] == 'f' || name[n] == 'l') && name[n + 1] == '\0')))
            return true;
    }
    return false;
}

static bool is_complex_func(const char *name)
{
    for (int i = 0; complex_funcs[i]; i++) {
        size_t n = strlen(complex_funcs[i]);
        if (!strncmp(name, complex_funcs[i], n) && (name[n] == '\0' || (name[n] == 'f' && name[n + 1] == '\0')))
            return true;
    }
    return false;
}

/* <complex.h>'s long double forms (csqrtl, cabsl, ...): refused by name. */
static bool is_complex_refused(const char *name)
{
    size_t n = strlen(name);
    for (int i = 0; complex_funcs[i]; i++)
        if (n == strlen(complex_funcs[i]) + 1 && !strncmp(name, complex_funcs[i], n - 1) && name[n - 1] == 'l')
            return true;
    return false;
}

/* The classification macros of math.h expand to clang builtins; device
 * code and the host C file call them by their standard names. */
static const char *builtin_name(const char *name)
{
    static const char *const names[][2] = {
        {"__builtin_isnan", "isnan"}, {"__builtin_isfinite", "isfinite"}, {"__builtin_isinf", "isinf"},
        {"__builtin_signbit", "signbit"}, {"__builtin_signbitf", "signbit"}, {"__builtin_fabsf", "fabsf"},
        {"__builtin_fabs", "fabs"}, {"__builtin_sqrtf", "sqrtf"}, {"__builtin_sqrt", "sqrt"}};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(name, names[i][0]))
            return names[i][1];
    return name;
}

static Expr *new_call(P *p, CXCursor c, const char *name, Type *ty, int nargs)
{
    Expr *e = new_expr(p, E_CALL, c);
    e->text = name;
    e->ty = ty;
    set_kids(p, e, nargs);
    return e;
}

/* Builtins that are not calls in the IR: __builtin_expect(e, v) is e;
 * __builtin_isinf_sign(x) (glibc's isinf) is isinf(x) ? (signbit(x) ? -1 :
 * 1) : 0.  NULL for any other call. */
static Expr *conv_builtin(P *p, CXCursor c, const char *name, Kids ks, Type *ty)
{
    if (!strcmp(name, "__builtin_expect") && ks.n == 3)
        return conv_expr(p, ks.c[1]);
    if (!strcmp(name, "__builtin_complex") && ks.n == 3 && type_is_complex(ty)) {   /* CMPLXF(x, y) */
        Expr *e = new_call(p, c, ty->kind == TY_CF ? "gf_cmplxf" : "gf_cmplx", ty, 2);
        e->kids[0] = conv_expr(p, ks.c[1]);
        e->kids[1] = conv_expr(p, ks.c[2]);
        return e;
    }
    if (strcmp(name, "__builtin_isinf_sign") || ks.n != 2)
        return NULL;
    Expr *x = conv_expr(p, ks.c[1]);
    Expr *inf = new_call(p, c, "isinf", ty, 1), *neg = new_call(p, c, "signbit", ty, 1);
    inf->kids[0] = x;
    neg->kids[0] = clone_expr(p, x, x->loc);
    Expr *sign = arena_alloc(p->a, sizeof *sign), *e = arena_alloc(p->a, sizeof *e);
    *sign = (Expr){.kind = E_COND, .ty = ty, .loc = x->loc};
    set_kids(p, sign, 3);
    sign->kids[0] = neg;
    sign->kids[1] = int_lit(p, c, "-1");
    sign->kids[2] = int_lit(p, c, "1");
    *e = (Expr){.kind = E_COND, .ty = ty, .loc = x->loc};
    set_kids(p, e, 3);
    e->kids[0] = inf;
    e->kids[1] = sign;
    e->kids[2] = int_lit(p, c, "0");
    return e;
}

/* A helper becomes a device function (decls.c prints it from the AST): it must be pure in
 * the sense a kernel needs (no recursion, no I/O or unknown calls, no
 * non-constant globals, no asm).  Checked at the call site of the region,
 * following helpers that call helpers. */
typedef struct HelperCx {
    P *p;
    CXCursor call;               /* the region's call, where we diagnose */
    CXCursor chain[MAX_HELPER_DEPTH];  /* helpers being checked, outermost first */
    int depth;
    bool failed;                 /* diagnosed inside the visitor */
} HelperCx;

static void check_helper(P *p, CXCursor call, CXCursor fn, int depth);
static void helper_form(P *p, Func *h, CXCursor def);

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
        limit(p, h->call, h->depth + 2, MAX_HELPER_DEPTH, "nested helper calls");
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

/* An integer value as a C literal of type ty (the suffix keeps its type). */
static const char *int_text(P *p, CXEvalResult ev, const Type *ty)
{
    static const char *const suffix[] = {[TY_UINT] = "u", [TY_LONG] = "l", [TY_ULONG] = "ul", [TY_LLONG] = "ll",
                                         [TY_ULLONG] = "ull"};
    const char *sfx = ty && ty->kind <= TY_ULLONG && suffix[ty->kind] ? suffix[ty->kind] : "";
    if (clang_EvalResult_isUnsignedInt(ev))
        return arena_printf(p->a, "%llu%s", clang_EvalResult_getAsUnsigned(ev), sfx);
    long long v = clang_EvalResult_getAsLongLong(ev);
    if (v == LLONG_MIN)          /* no literal has this value: -9223372036854775807 - 1 */
        return arena_printf(p->a, "(%lld%s - 1%s)", v + 1, sfx, sfx);
    return arena_printf(p->a, "%lld%s", v, sfx);
}

/* A floating value as the shortest literal that reads back as it. */
static const char *float_text(P *p, CXCursor at, double v, const Type *ty)
{
    if (v != v || v - v != 0)
        reject(p, at, "-Wgpufuse-syntax", "a constant that is infinite or NaN; write INFINITY or NAN");
    bool f = ty && (ty->kind == TY_FLOAT || ty->kind == TY_F16);   /* a _Float16 constant: a float literal */
    char buf[64];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (f ? strtof(buf, NULL) == (float)v : strtod(buf, NULL) == v)
            break;
    }
    if (!strpbrk(buf, ".eE"))    /* "3" -> "3.0": a floating literal */
        strcat(buf, ".0");
    return arena_printf(p->a, "%s%s", buf, f ? "f" : "");
}

/* Whether c is written in the file itself, not in a macro's expansion. */
static bool in_file(CXCursor c)
{
    CXSourceLocation l = clang_getCursorLocation(c);
    unsigned o1, o2;
    CXFile f1, f2;
    clang_getSpellingLocation(l, &f1, NULL, NULL, &o1);
    clang_getExpansionLocation(l, &f2, NULL, NULL, &o2);
    return o1 == o2 && clang_File_isEqual(f1, f2);
}

/* A literal or an integer constant expression: its value from the AST
 * (clang_Cursor_Evaluate), spelled as the source spells it when it is one
 * literal written in the file (1e-5f stays 1e-5f), else printed from the
 * value.  NULL when c is not a constant. */
static Expr *constant(P *p, CXCursor c, Type *ty)
{
    CXEvalResult ev = clang_Cursor_Evaluate(c);
    if (!ev)
        return NULL;
    CXEvalResultKind k = clang_EvalResult_getKind(ev);
    if (k != CXEval_Int && k != CXEval_Float) {
        clang_EvalResult_dispose(ev);
        return NULL;
    }
    Expr *e = new_expr(p, k == CXEval_Int ? E_INT : E_FLOAT, c);
    e->ty = ty;
    enum CXCursorKind ck = clang_getCursorKind(c);
    bool literal = ck == CXCursor_IntegerLiteral || ck == CXCursor_FloatingLiteral || ck == CXCursor_CharacterLiteral;
    if (literal && in_file(c) && !type_is_half(ty)) {   /* 1.5f16 has no CUDA spelling */
        CXToken *toks;
        unsigned n;
        clang_tokenize(p->tu, clang_getCursorExtent(c), &toks, &n);
        if (n == 1 && clang_getTokenKind(toks[0]) == CXToken_Literal)
            e->text = cx_str(p->a, clang_getTokenSpelling(p->tu, toks[0]));
        clang_disposeTokens(p->tu, toks, n);
    }
    if (!e->text) {
        if (k == CXEval_Int && type_is_float(ty)) {   /* (float)3: a floating constant */
            e->kind = E_FLOAT;
            double v = clang_EvalResult_isUnsignedInt(ev) ? (double)clang_EvalResult_getAsUnsigned(ev)
                                                          : (double)clang_EvalResult_getAsLongLong(ev);
            e->text = float_text(p, c, v, ty);
        } else if (k == CXEval_Int) {
            e->text = int_text(p, ev, ty);
        } else if (type_is_float(ty)) {
            e->text = float_text(p, c, clang_EvalResult_getAsDouble(ev), ty);
        } else {
            e = NULL;            /* (int)2.5: left to the cast */
        }
    }
    clang_EvalResult_dispose(ev);
    return e;
}

/* ---- row pointers -------------------------------------------------------------
 * `const float *row = x + t * dim;` (or `&x[t * dim]`, `x[t]` of a 2-D x,
 * `row + k` of another such pointer): a name for part of an array, as
 * inference engines and image code write rows.  The pointer itself
 * disappears: a use `row[j]` is the element x[t * dim + j] (x[t][j]).
 * Taken only when every use of the pointer is `row[j]` or `*row` (never
 * assigned, incremented, compared or passed on: conv_expr refuses any
 * other) and every variable of its offset holds the same value wherever
 * the pointer is used: a parameter (never assigned in a marked function),
 * the index of a loop around the declaration, or a local that nothing
 * assigns (checked when the function is converted: alias_check). */
typedef struct Alias {
    CXCursor decl;
    const char *name;
    Var *base;                   /* the array it points into */
    int nlead;                   /* leading subscripts fixed by the pointer (x[t] of a 2-D x) */
    Expr *lead[MAX_RANK];
    Expr *off;                   /* added to the last subscript, or NULL */
    Vec locals;                  /* Var*: locals its subscripts read (none may be assigned) */
} Alias;

static Alias *alias_of(P *p, CXCursor decl)
{
    for (int i = 0; i < p->aliases.len; i++) {
        Alias *al = vec_at(&p->aliases, i);
        if (clang_equalCursors(al->decl, decl))
            return al;
    }
    return NULL;
}

/* The type of a + b for integers a, b as C computes it (C11 6.3.1.8:
 * promotion to int, then the higher rank; unsigned when the unsigned
 * operand's rank is not lower or the signed type cannot hold it). */
static Type *int_sum_type(P *p, Type *a, Type *b)
{
    Type *t[2] = {a, b};
    for (int i = 0; i < 2; i++)
        if (t[i]->kind < TY_INT)
            t[i] = new_type(p, TY_INT);
    if (t[0]->kind == t[1]->kind)
        return t[0];
    int r0 = (t[0]->kind - TY_INT) / 2, r1 = (t[1]->kind - TY_INT) / 2;
    bool u0 = type_is_unsigned(t[0]), u1 = type_is_unsigned(t[1]);
    if (u0 == u1)
        return r0 >= r1 ? t[0] : t[1];
    Type *s = u0 ? t[1] : t[0], *u = u0 ? t[0] : t[1];
    int rs = u0 ? r1 : r0, ru = u0 ? r0 : r1;
    if (ru >= rs)
        return u;
    if (type_size(s) > type_size(u))
        return s;
    return new_type(p, (TypeKind)(s->kind + 1));   /* its unsigned counterpart */
}

/* The element al[k]: the base array at the pointer's leading subscripts,
 * its last subscript the pointer's offset plus k. */
static Expr *alias_elem(P *p, const Alias *al, CXCursor at, Expr *k)
{
    Loc loc = loc_of(p, at);
    Expr *e = new_expr(p, E_INDEX, at);
    e->var = al->base;
    set_kids(p, e, al->nlead + 1);
    for (int i = 0; i < al->nlead; i++)
        e->kids[i] = clone_expr(p, al->lead[i], loc);
    Expr *last = k;
    long long zero;
    if (al->off && plain_int(k, &zero) && !zero)
        last = clone_expr(p, al->off, loc);          /* row[0], *row: the offset itself */
    else if (al->off && !(plain_int(al->off, &zero) && !zero)) {
        Expr *o = clone_expr(p, al->off, loc);
        last = arith(p, at, OP_ADD, o, k, int_sum_type(p, o->ty, k->ty));
    }
    e->kids[al->nlead] = last;
    e->ty = type_elem(al->base->ty);
    if (!p->lvalue)
        al->base->read = true;
    return e;
}

static bool same_elem(const Type *a, const Type *b)
{
    return a && b && a->kind == b->kind && (a->kind != TY_STRUCT || (a->name && b->name && !strcmp(a->name, b->name)));
}

typedef struct AliasVars {
    P *p;
    Alias *al;
    CXCursor at;
} AliasVars;

/* The variables a subscript of the pointer reads: parameters, indices of
 * loops around the declaration, locals (checked later); no array element. */
static void alias_vars(AliasVars *av, const Expr *e)
{
    if (!e)
        return;
    if (e->kind == E_INDEX || e->kind == E_CALL || e->kind == E_FIELD)
        reject(av->p, av->at, "-Wgpufuse-pointer", "pointer local '%s': its offset reads %s; only parameters, loop "
               "indices and local scalars can place a pointer into an array", av->al->name,
               e->kind == E_CALL ? "a function's result" : "an array element");
    if (e->kind == E_VAR && e->var->kind == V_LOCAL && !vec_has(&av->al->locals, e->var))
        vec_push(av->p->a, &av->al->locals, e->var);
    for (int i = 0; i < e->nkids; i++)
        alias_vars(av, e->kids[i]);
}

/* What pointer expression c points at: *al filled (base, leading
 * subscripts, offset); false when c is not such a form. */
static bool alias_target(P *p, CXCursor c, Alias *al)
{
    c = strip(c);
    enum CXCursorKind k = clang_getCursorKind(c);
    Kids ks = kids_of(p, c);
    Op op;
    if (k == CXCursor_CStyleCastExpr && ks.n >= 1) {
        CXType to = clang_getCanonicalType(clang_getCursorType(c));
        CXType from = clang_getCanonicalType(clang_getCursorType(strip(ks.c[ks.n - 1])));
        CXType fe = from.kind == CXType_Pointer ? clang_getPointeeType(from) : clang_getArrayElementType(from);
        if (to.kind != CXType_Pointer || fe.kind == CXType_Invalid ||
            !clang_equalTypes(clang_getUnqualifiedType(clang_getCanonicalType(clang_getPointeeType(to))),
                              clang_getUnqualifiedType(clang_getCanonicalType(fe))))
            return false;        /* only a cast that adds or drops const */
        return alias_target(p, ks.c[ks.n - 1], al);
    }
    if (k == CXCursor_DeclRefExpr) {
        CXCursor d = clang_getCursorReferenced(c);
        Alias *from = alias_of(p, d);
        if (from) {
            *al = (Alias){.decl = al->decl, .name = al->name, .base = from->base, .nlead = from->nlead,
                          .off = from->off, .locals = al->locals};
            memcpy(al->lead, from->lead, sizeof al->lead);
            return true;
        }
        Var *v = lookup(p, d);
        if (!v || !v->is_array || v->ndims != 1)
            return false;
        al->base = v;
        al->nlead = 0;
        al->off = NULL;
        return true;
    }
    if (k == CXCursor_BinaryOperator && ks.n == 2 && gfc_op(p->ops, c, &op) && (op == OP_ADD || op == OP_SUB)) {
        for (int side = 0; side < 2; side++) {
            CXType pt = clang_getCanonicalType(clang_getCursorType(ks.c[side]));
            if (pt.kind != CXType_Pointer && pt.kind != CXType_ConstantArray && pt.kind != CXType_VariableArray &&
                pt.kind != CXType_IncompleteArray)
                continue;
            if (op == OP_SUB && side == 1)
                return false;
            if (!alias_target(p, ks.c[side], al))
                return false;
            Expr *e = conv_expr(p, ks.c[1 - side]);
            if (!type_is_integer(e->ty))
                return false;
            if (al->off) {
                al->off = arith(p, c, op, al->off, e, int_sum_type(p, al->off->ty, e->ty));
            } else if (op == OP_SUB) {
                Expr *n = new_expr(p, E_UNARY, ks.c[1]);
                n->op = OP_NEG;
                n->ty = int_sum_type(p, e->ty, e->ty);
                set_kids(p, n, 1);
                n->kids[0] = e;
                al->off = n;
            } else {
                al->off = e;
            }
            return true;
        }
        return false;
    }
    if (k == CXCursor_UnaryOperator && ks.n == 1 && gfc_op(p->ops, c, &op) && op == OP_ADDR) {
        /* &x[e], &x[t][e], &row[e] */
        CXCursor sub = strip(ks.c[0]);
        if (clang_getCursorKind(sub) != CXCursor_ArraySubscriptExpr)
            return false;
        bool lv = p->lvalue;
        p->lvalue = true;        /* its address only: the element is not read here */
        Expr *e = conv_expr(p, sub);   /* an element: its base and subscripts */
        p->lvalue = lv;
        if (e->kind != E_INDEX)
            return false;
        al->base = e->var;
        al->nlead = e->nkids - 1;
        for (int i = 0; i < al->nlead; i++)
            al->lead[i] = e->kids[i];
        al->off = e->kids[e->nkids - 1];
        return true;
    }
    if (k == CXCursor_ArraySubscriptExpr) {
        /* x[t] of a 2-D x (a row, decayed to a pointer) */
        CXCursor subs[MAX_RANK];
        int nsub = 0;
        CXCursor cur = c;
        while (clang_getCursorKind(cur) == CXCursor_ArraySubscriptExpr && nsub < MAX_RANK) {
            Kids sk = kids_of(p, cur);
            if (sk.n != 2)
                return false;
            subs[nsub++] = sk.c[1];
            cur = strip(sk.c[0]);
        }
        if (clang_getCursorKind(cur) != CXCursor_DeclRefExpr || alias_of(p, clang_getCursorReferenced(cur)))
            return false;
        Var *v = lookup(p, clang_getCursorReferenced(cur));
        if (!v || !v->is_array || v->ndims != nsub + 1)
            return false;
        al->base = v;
        al->nlead = nsub;
        for (int i = 0; i < nsub; i++) {
            al->lead[i] = conv_expr(p, subs[nsub - 1 - i]);
            if (!type_is_integer(al->lead[i]->ty))
                return false;
        }
        al->off = NULL;
        return true;
    }
    return false;
}

/* A pointer local initialised to point into an array: recorded (the
 * declaration itself disappears); false when init is no such form. */
static bool alias_decl(P *p, CXCursor d, const char *name, Type *t, CXCursor init)
{
    if (clang_Cursor_isNull(init))
        return false;
    Alias *al = arena_alloc(p->a, sizeof *al);
    memset(al, 0, sizeof *al);
    al->decl = d;
    al->name = name;
    bool lv = p->lvalue;
    p->lvalue = false;
    bool ok = alias_target(p, init, al);
    p->lvalue = lv;
    if (!ok || !al->base)
        return false;
    if (!same_elem(t->base, type_elem(al->base->ty)))
        reject(p, d, "-Wgpufuse-pointer", "pointer local '%s' points into '%s' as another type ('%s' elements are "
               "'%s'); only a pointer of the array's own element type can name part of it", name, al->base->name,
               al->base->name, type_src_name(type_elem(al->base->ty)));
    AliasVars av = {p, al, d};
    for (int i = 0; i < al->nlead; i++)
        alias_vars(&av, al->lead[i]);
    alias_vars(&av, al->off);
    vec_push(p->a, &p->aliases, al);
    return true;
}

/* An assignment whose target is a pointer into an array (`row = x;`,
 * `row += m;`): refused naming the pointer, before its value is read. */
static void alias_not_target(P *p, CXCursor lhs)
{
    CXCursor t = strip(lhs);
    Alias *al = clang_getCursorKind(t) == CXCursor_DeclRefExpr ? alias_of(p, clang_getCursorReferenced(t)) : NULL;
    if (al)
        reject(p, t, "-Wgpufuse-pointer", "pointer '%s' is assigned; a pointer into an array must keep pointing where "
               "its declaration puts it (it names part of '%s': only its elements can be read or written)", al->name,
               al->base->name);
}

/* After the function: no local an alias's offset reads is assigned (the
 * pointer would then name other elements than its uses compute). */
static void alias_check(P *p)
{
    for (int i = 0; i < p->aliases.len; i++) {
        Alias *al = vec_at(&p->aliases, i);
        for (int j = 0; j < al->locals.len; j++) {
            Var *v = vec_at(&al->locals, j);
            if (v->scalar_written)
                reject(p, al->decl, "-Wgpufuse-pointer", "pointer local '%s' is placed by '%s', which the function "
                       "assigns: declare the pointer where it is used, from values that do not change", al->name,
                       v->name);
        }
    }
}

/* base[i][j]...: collects subscripts outermost first. */
static Expr *conv_index(P *p, CXCursor c)
{
    CXCursor subs[MAX_RANK];
    int nsub = 0;
    CXCursor cur = c;
    while (clang_getCursorKind(cur) == CXCursor_ArraySubscriptExpr) {
        Kids k = kids_of(p, cur);
        if (k.n != 2)
            reject(p, cur, "-Wgpufuse-syntax", "unexpected subscript form");
        limit(p, cur, nsub + 1, MAX_RANK, "subscripts of an array");
        subs[nsub++] = k.c[1];
        cur = strip(k.c[0]);
    }
    if (clang_getCursorKind(cur) != CXCursor_DeclRefExpr)
        reject(p, cur, "-Wgpufuse-pointer", "subscripted expression is not an array parameter or local array "
                                           "(pointer arithmetic and pointer locals are not supported)");
    Alias *al = alias_of(p, clang_getCursorReferenced(cur));
    if (al) {
        if (nsub != 1)
            reject(p, c, "-Wgpufuse-rank", "pointer '%s' is subscripted %d times here; it names a row of '%s': "
                   "subscript it once", al->name, nsub, al->base->name);
        bool lv = p->lvalue;
        p->lvalue = false;       /* the subscript is a read */
        Expr *ix = conv_expr(p, subs[0]);
        p->lvalue = lv;
        if (!type_is_integer(ix->ty))
            reject(p, subs[0], "-Wgpufuse-syntax", "subscript is not an integer");
        Expr *e = alias_elem(p, al, c, ix);
        p->lvalue = false;
        return e;
    }
    Var *v = lookup(p, clang_getCursorReferenced(cur));
    if (!v)
        v = table_of(p, clang_getCursorReferenced(cur), cur);
    if (!v)
        reject(p, cur, "-Wgpufuse-global", "global array '%s' is not visible to a kernel (only a const table "
               "with its initialiser is); pass it as a parameter", cx_str(p->a, clang_getCursorSpelling(cur)));
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

/* A complex value converted to a real type: C keeps the real part (to
 * _Bool: whether either part is nonzero); gpufuse converts to float, double
 * and _Bool only (an integer conversion of clang's goes through float). */
static void complex_check_real(P *p, CXCursor at, const Type *to)
{
    if (to->kind != TY_FLOAT && to->kind != TY_DOUBLE && to->kind != TY_BOOL)
        reject(p, at, "-Wgpufuse-type", "a complex value converted to '%s' is not supported; convert its real part "
               "(crealf/creal) instead", type_src_name(to));
}

/* An implicit conversion clang made (its ImplicitCastExpr): kept in the IR as
 * a cast when it changes to or from a complex type, so that the CUDA
 * printers, whose gf_c32/gf_c64 are classes, see every conversion C makes. */
static Expr *complex_conv(P *p, CXCursor at, Type *to, Expr *e)
{
    if (!to || !e->ty || to->kind == e->ty->kind || (!type_is_complex(to) && !type_is_complex(e->ty)))
        return e;
    if (!type_is_complex(to))
        complex_check_real(p, at, to);
    if (type_is_half(e->ty))
        reject(p, at, "-Wgpufuse-type", "a '%s' value converted to a complex type is not supported; convert it to "
               "'float' first", type_src_name(e->ty));
    Expr *x = new_expr(p, E_CAST, at);
    x->ty = to;
    set_kids(p, x, 1);
    x->kids[0] = e;
    return x;
}

/* An integer operand of an arithmetic operator whose other operand is
 * complex: clang 16 converts it to the complex type (and divides through
 * __divsc3), C11 6.3.1.8 and gcc to the corresponding real type (a
 * componentwise division): gpufuse follows C, so clang's implicit cast
 * (kc is clang's ImplicitCastExpr) becomes a cast to the real type. */
static Expr *int_operand_real(P *p, CXCursor kc, Expr *k)
{
    if (clang_getCursorKind(kc) == CXCursor_UnexposedExpr && k->kind == E_CAST && type_is_complex(k->ty) &&
        type_is_integer(k->kids[0]->ty))
        k->ty = new_type(p, k->ty->kind == TY_CF ? TY_FLOAT : TY_DOUBLE);
    return k;
}

/* An argument of a C library function as C passes it: converted to the
 * parameter's type (clang's ImplicitCastExpr around the argument, whose type
 * is the parameter's).  Kept in the IR as a cast, because CUDA's math
 * functions are C++ overloads: `sqrt(x)` with a float x is CUDA's
 * sqrt(float) (C computes in double), `fmax(x, d)` with a float x and a
 * double d has no device overload at all, `abs(l)` with a long l keeps the
 * long that C converts to int. */
static Expr *arg_conv(P *p, CXCursor at, Expr *e)
{
    Type *to = conv_type(p, clang_getCursorType(at), at, NULL, 0, NULL);
    if (!to || !e->ty || to->kind == e->ty->kind || !type_is_arith(to) || !type_is_arith(e->ty) ||
        type_is_complex(to) || type_is_complex(e->ty) || (to->kind == TY_FLOAT && type_is_half(e->ty)))
        return e;                /* a half operand is read as a float already (gf_h2f) */
    Expr *x = new_expr(p, E_CAST, at);
    x->ty = to;
    set_kids(p, x, 1);
    x->kids[0] = e;
    return x;
}

static Expr *conv_expr_(P *p, CXCursor c);

static Expr *conv_expr(P *p, CXCursor c)
{
    limit(p, c, ++p->depth, MAX_EXPR_DEPTH, "nested expressions (split the expression with local variables)");
    Expr *e = conv_expr_(p, c);
    p->depth--;
    return e;
}

static Expr *conv_expr_(P *p, CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    Kids ks = kids_of(p, c);
    Type *ty = NULL;
    if (k != CXCursor_ArraySubscriptExpr && k != CXCursor_DeclRefExpr && k != CXCursor_MemberRefExpr)
        ty = conv_type(p, clang_getCursorType(c), c, NULL, 0, NULL);
    Expr *e;
    switch (k) {
    case CXCursor_UnexposedExpr:
    case CXCursor_ParenExpr:
        if (ks.n != 1)
            reject(p, c, "-Wgpufuse-syntax", "unsupported expression");
        return complex_conv(p, c, ty, conv_expr(p, ks.c[0]));
    case CXCursor_ImaginaryLiteral: {   /* 1.0iF (_Complex_I, I): the complex (0, v) */
        if (ks.n != 1 || !type_is_complex(ty))
            reject(p, c, "-Wgpufuse-syntax", "cannot read this imaginary constant");
        e = new_call(p, c, ty->kind == TY_CF ? "gf_imagf" : "gf_imag", ty, 1);
        e->kids[0] = complex_conv(p, c, new_type(p, ty->kind == TY_CF ? TY_FLOAT : TY_DOUBLE), conv_expr(p, ks.c[0]));
        return e;
    }
    case CXCursor_IntegerLiteral:
    case CXCursor_CharacterLiteral:
    case CXCursor_FloatingLiteral:
        if (!(e = constant(p, c, ty)))
            reject(p, c, "-Wgpufuse-syntax", "cannot read this literal");
        return e;
    case CXCursor_DeclRefExpr: {
        CXCursor d = clang_getCursorReferenced(c);
        if (clang_getCursorKind(d) == CXCursor_EnumConstantDecl) {
            e = new_expr(p, E_INT, c);
            e->ty = conv_type(p, clang_getCursorType(c), c, NULL, 0, NULL);
            e->text = arena_printf(p->a, "%lld", clang_getEnumConstantDeclValue(d));
            return e;
        }
        Alias *al = alias_of(p, d);
        if (al)
            reject(p, c, "-Wgpufuse-pointer", "pointer '%s' is used other than as '%s[i]' or '*%s' (it names part of "
                   "'%s'; only its elements can be read or written)", al->name, al->name, al->name, al->base->name);
        Var *v = lookup(p, d);
        if (!v) {
            const char *name = cx_str(p->a, clang_getCursorSpelling(c));
            if (clang_getCursorKind(d) == CXCursor_VarDecl) {
                CXEvalResult ev = clang_Cursor_Evaluate(d);
                if (ev && clang_isConstQualifiedType(clang_getCursorType(d))) {
                    e = new_expr(p, E_INT, c);
                    e->ty = conv_type(p, clang_getCursorType(c), c, NULL, 0, NULL);
                    if (clang_EvalResult_getKind(ev) == CXEval_Int && type_is_integer(e->ty)) {
                        e->text = int_text(p, ev, e->ty);
                    } else if (clang_EvalResult_getKind(ev) == CXEval_Float && type_is_float(e->ty)) {
                        e->kind = E_FLOAT;
                        e->text = float_text(p, c, clang_EvalResult_getAsDouble(ev), e->ty);
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
        Down *dn = v->kind == V_IV ? down_of(p, v) : NULL;
        if (dn)                  /* the index of a loop counting down: hi - k */
            return clone_expr(p, dn->value, loc_of(p, c));
        if (v->kind == V_IV && !bound_by_loop(p, v)) {
            if (vec_has(&p->reused, v))
                reject(p, c, "-Wgpufuse-index", "loop index '%s' is read after its loop, and a later loop takes it as "
                       "its index: give the later loop an index of its own ('for (int %s2 = 0; ...)')", v->name,
                       v->name);
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
            if (v && !v->is_array && v->ty->kind == TY_STRUCT) {
                b = conv_expr(p, base);          /* a field of a struct local or parameter: a.x */
                goto field;
            }
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
        if ((b->kind != E_INDEX && b->kind != E_VAR) || b->ty->kind != TY_STRUCT)
            reject(p, c, "-Wgpufuse-syntax", "member access is supported on array elements of structs (p[i].x) and "
                   "on struct locals and parameters (a.x)");
    field:
        e = new_expr(p, E_FIELD, c);
        e->text = cx_str(p->a, clang_getCursorSpelling(c));
        set_kids(p, e, 1);
        e->kids[0] = b;
        e->ty = conv_type(p, clang_getCursorType(c), c, NULL, 0, NULL);
        return e;
    }
    case CXCursor_BinaryOperator: {
        Op op;
        if (!gfc_op(p->ops, c, &op) && (e = constant(p, c, ty)))
            return e;            /* the printer wrote it as its value (array sizes) */
        op = op_of(p, c);
        if (!op)
            reject(p, c, "-Wgpufuse-syntax", "this operator is not supported in a fused region");
        if (op == OP_ASSIGN || op == OP_COMMA)
            reject(p, c, "-Wgpufuse-syntax", "'%s' inside an expression is not supported; write it as its own statement",
                   op_spelling(op));
        e = new_expr(p, E_BINARY, c);
        e->ty = ty;
        e->op = op;
        set_kids(p, e, 2);
        e->kids[0] = int_operand_real(p, ks.c[0], conv_expr(p, ks.c[0]));
        e->kids[1] = int_operand_real(p, ks.c[1], conv_expr(p, ks.c[1]));
        return e;
    }
    case CXCursor_CompoundAssignOperator:
        reject(p, c, "-Wgpufuse-syntax", "assignment inside an expression is not supported; write it as its own statement");
    case CXCursor_UnaryOperator: {
        Op op;
        if (!gfc_op(p->ops, c, &op) && (e = constant(p, c, ty)))
            return e;
        if (gfc_op(p->ops, c, &op) && op == GFC_OP_EXTENSION)
            return conv_expr(p, ks.c[0]);
        op = op_of(p, c);
        if (!op && ks.n == 1 && !type_is_complex(ty) && type_is_complex(conv_type(p, clang_getCursorType(ks.c[0]), c,
                                                                                   NULL, 0, NULL)))
            reject(p, c, "-Wgpufuse-syntax", "'__real__' and '__imag__' are not supported in a fused region; use "
                   "crealf/cimagf (creal/cimag)");
        if (!op)
            reject(p, c, "-Wgpufuse-syntax", "this operator is not supported in a fused region");
        if (op == OP_PREINC || op == OP_PREDEC || op == OP_POSTINC || op == OP_POSTDEC)
            reject(p, c, "-Wgpufuse-syntax", "'%s' inside an expression is not supported; write it as its own statement",
                   op_spelling(op));
        if (op == OP_ADDR)
            reject(p, c, "-Wgpufuse-pointer", "taking an address is not supported in a fused region");
        if (op == OP_DEREF) {
            /* *p is p[0] */
            CXCursor base = strip(ks.c[0]);
            Alias *al = clang_getCursorKind(base) == CXCursor_DeclRefExpr ? alias_of(p, clang_getCursorReferenced(base))
                                                                           : NULL;
            if (al) {            /* *row is row[0] */
                Expr *zero = new_expr(p, E_INT, c);
                zero->text = "0";
                zero->ty = new_type(p, TY_INT);
                return alias_elem(p, al, c, zero);
            }
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
        if (type_is_complex(e->kids[0]->ty) && !type_is_complex(ty))
            complex_check_real(p, c, ty);
        return e;
    }
    case CXCursor_UnaryExpr:     /* sizeof / _Alignof: constant */
        if (!(e = constant(p, c, ty)))
            reject(p, c, "-Wgpufuse-syntax", "unsupported expression");
        return e;
    case CXCursor_CallExpr: {
        const char *name = cx_str(p->a, clang_getCursorSpelling(c));
        CXCursor callee = clang_getCursorReferenced(c);
        if (clang_Cursor_isNull(callee) || clang_getCursorKind(callee) != CXCursor_FunctionDecl)
            reject(p, c, "-Wgpufuse-call", "call through a function pointer cannot be compiled for the GPU");
        if ((e = conv_builtin(p, c, name, ks, ty)))
            return e;
        name = builtin_name(name);
        Func *h = NULL;
        if (in_family(name, complex_inexact))
            reject(p, c, "-Wgpufuse-call", "'%s' is not compiled for the GPU: the device version available "
                   "(libcu++'s cuda::std::complex) is up to 10^5 ulps away from glibc's near its poles, branch points "
                   "or 0 (docs/types.md)", name);
        if (is_complex_refused(name))
            reject(p, c, "-Wgpufuse-call", "'%s' is not among the complex functions gpufuse compiles for the GPU "
                   "(docs/types.md: the float and double forms of <complex.h>, not the long double ones)", name);
        if (!is_math_func(name) && !is_complex_func(name)) {
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
        if (h) {
            check_helper(p, c, callee, 0);
            if (!h->form_tried)
                helper_form(p, h, clang_getCursorDefinition(callee));
        }
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
            if (!h)
                e->kids[i - 1] = arg_conv(p, ks.c[i], e->kids[i - 1]);
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

/* ---- a helper's form for share.c ------------------------------------------- */

/* Whether a helper's parameter, local or result type is a plain arithmetic
 * scalar (no _Complex, _Float16, long double, struct or pointer). */
static bool form_type(CXType t)
{
    switch (clang_getCanonicalType(t).kind) {
    case CXType_Bool: case CXType_Char_U: case CXType_UChar: case CXType_Char_S: case CXType_SChar:
    case CXType_UShort: case CXType_Short: case CXType_UInt: case CXType_Int: case CXType_ULong:
    case CXType_Long: case CXType_ULongLong: case CXType_LongLong: case CXType_Float: case CXType_Double:
        return true;
    default:
        return false;
    }
}

/* The helper's body as cursors when it has the form helper_form reads:
 * scalar parameters, then a block of declarations and one final return. */
static bool form_shape(CXCursor def, Arena *a, CXCursor **stmts, int *n)
{
    if (clang_Cursor_isNull(def) || clang_getCursorKind(def) != CXCursor_FunctionDecl ||
        !form_type(clang_getResultType(clang_getCursorType(def))) || clang_Cursor_isVariadic(def))
        return false;
    int np = clang_Cursor_getNumArguments(def);
    for (int i = 0; i < np; i++)
        if (!form_type(clang_getCursorType(clang_Cursor_getArgument(def, (unsigned)i))))
            return false;
    P q = {.a = a};
    Kids ks = kids_of(&q, def);
    if (!ks.n || clang_getCursorKind(ks.c[ks.n - 1]) != CXCursor_CompoundStmt)
        return false;
    Kids body = kids_of(&q, ks.c[ks.n - 1]);
    if (!body.n || clang_getCursorKind(body.c[body.n - 1]) != CXCursor_ReturnStmt)
        return false;
    for (int i = 0; i + 1 < body.n; i++)
        if (clang_getCursorKind(body.c[i]) != CXCursor_DeclStmt)
            return false;
    if (stmts)
        *stmts = body.c, *n = body.n;
    return true;
}

/* Reads helper h's form (Func.params ... ret) when its definition has one,
 * with the conversion of a region's statements; anything it cannot convert
 * leaves h without a form, silently (the helper stays a device function). */
static void helper_form(P *p, Func *h, CXCursor def)
{
    h->form_tried = true;
    CXCursor *body;
    int nbody;
    if (!p->hops || !form_shape(def, p->a, &body, &nbody))
        return;
    jmp_buf outer;
    memcpy(outer, p->fail, sizeof outer);
    const GfcOps *ops = p->ops;
    CXCursor fn = p->fn;
    bool quiet = p->quiet;
    int nbinds = p->nbinds, nvars = p->r->vars.len, depth = p->depth;
    bool lvalue = p->lvalue;
    Vec vars = {0}, inits = {0};
    int nparams = 0;
    p->ops = p->hops;
    p->fn = def;
    p->quiet = true;
    if (!setjmp(p->fail)) {
        int np = clang_Cursor_getNumArguments(def);
        for (int i = 0; i < np; i++) {
            CXCursor d = clang_Cursor_getArgument(def, (unsigned)i);
            const char *name = cx_str(p->a, clang_getCursorSpelling(d));
            if (!*name)
                longjmp(p->fail, 1);
            vec_push(p->a, &vars, new_var(p, d, name, conv_type(p, clang_getCursorType(d), d, NULL, 0, NULL),
                                          V_LOCAL));
            nparams++;
        }
        for (int i = 0; i + 1 < nbody; i++) {
            Kids ds = kids_of(p, body[i]);
            for (int j = 0; j < ds.n; j++) {
                CXCursor d = ds.c[j];
                if (clang_getCursorKind(d) != CXCursor_VarDecl || !form_type(clang_getCursorType(d)) ||
                    clang_Cursor_getStorageClass(d) == CX_SC_Static)
                    longjmp(p->fail, 1);
                Kids vk = kids_of(p, d);
                Expr *init = NULL;
                for (int k = 0; k < vk.n; k++)
                    if (clang_getCursorKind(vk.c[k]) != CXCursor_TypeRef)
                        init = conv_expr(p, vk.c[k]);
                if (!init)
                    longjmp(p->fail, 1);
                Type *t = conv_type(p, clang_getCursorType(d), d, NULL, 0, NULL);
                vec_push(p->a, &vars, new_var(p, d, cx_str(p->a, clang_getCursorSpelling(d)), t, V_LOCAL));
                vec_push(p->a, &inits, init);
            }
        }
        Kids rk = kids_of(p, body[nbody - 1]);
        if (rk.n != 1)
            longjmp(p->fail, 1);
        Expr *ret = conv_expr(p, rk.c[0]);
        h->nparams = nparams;
        h->params = (Var **)vars.data;
        h->nlocals = inits.len;
        h->locals = (Var **)vars.data + nparams;
        h->inits = (Expr **)inits.data;
        h->ret = ret;
    }
    for (int i = 0; i < vars.len; i++)     /* variables of no region */
        ((Var *)vec_at(&vars, i))->id = -1;
    p->r->vars.len = nvars;
    p->nbinds = nbinds;
    p->depth = depth;
    p->lvalue = lvalue;
    p->ops = ops;
    p->fn = fn;
    p->quiet = quiet;
    memcpy(p->fail, outer, sizeof outer);
}

/* The helpers helper_form may read: defined in the file with internal
 * linkage, called from a marked function (or from such a helper), and of
 * its shape.  Their operators are read like the marked functions' (in a
 * parse of their own, so that a helper never costs a marked function its
 * operators). */
typedef struct HelperScan {
    Arena *a;
    Vec defs;                    /* CXCursor*, in the order of the file */
} HelperScan;

static enum CXChildVisitResult scan_calls(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    HelperScan *hs = d;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    CXCursor def = clang_getCursorDefinition(clang_getCursorReferenced(c));
    if (clang_Cursor_isNull(def) || clang_getCursorKind(def) != CXCursor_FunctionDecl ||
        clang_getCursorLinkage(def) != CXLinkage_Internal || !gfc_from_main_file(def) ||
        !form_shape(def, hs->a, NULL, NULL))
        return CXChildVisit_Recurse;
    for (int i = 0; i < hs->defs.len; i++)
        if (clang_equalCursors(*(CXCursor *)vec_at(&hs->defs, i), def))
            return CXChildVisit_Recurse;
    CXCursor *cp = arena_alloc(hs->a, sizeof *cp);
    *cp = def;
    vec_push(hs->a, &hs->defs, cp);
    clang_visitChildren(def, scan_calls, hs);
    return CXChildVisit_Recurse;
}

static unsigned file_offset(CXCursor c)
{
    unsigned off = 0;
    clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(c)), NULL, NULL, NULL, &off);
    return off;
}

static int by_offset(const void *x, const void *y)
{
    unsigned a = file_offset(*(const CXCursor *)x), b = file_offset(*(const CXCursor *)y);
    return a < b ? -1 : a > b;
}

static const GfcOps *helper_ops(Arena *a, const GfcSource *src, const CXCursor *fns, int n)
{
    HelperScan hs = {a, {0}};
    for (int i = 0; i < n; i++)
        clang_visitChildren(fns[i], scan_calls, &hs);
    if (!hs.defs.len)
        return NULL;
    CXCursor *defs = arena_alloc(a, sizeof *defs * (size_t)hs.defs.len);
    for (int i = 0; i < hs.defs.len; i++)
        defs[i] = *(CXCursor *)vec_at(&hs.defs, i);
    qsort(defs, (size_t)hs.defs.len, sizeof *defs, by_offset);
    return gfc_ops_read(a, src, defs, hs.defs.len);
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

/* c without parentheses, implicit conversions and casts: `(float *)a`,
 * `(void *)(b + 1)`. */
static CXCursor strip_casts(P *p, CXCursor c)
{
    for (;;) {
        c = strip(c);
        Kids ks = kids_of(p, c);
        if (clang_getCursorKind(c) != CXCursor_CStyleCastExpr || ks.n < 1)
            return c;
        c = ks.c[ks.n - 1];
    }
}

/* An array argument of a library builtin: `a`, `(float *)a`, `&a[0][0]`,
 * `a[0]`: the array itself, from its first element. */
static Var *lib_array_arg(P *p, CXCursor c)
{
    for (;;) {
        c = strip_casts(p, c);
        enum CXCursorKind k = clang_getCursorKind(c);
        Kids ks = kids_of(p, c);
        if (k == CXCursor_UnaryOperator && ks.n == 1) {
            if (op_of(p, c) == OP_ADDR) {
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
        if (!v || v->kind == V_TABLE)
            reject(p, a, "-Wgpufuse-call", "argument %d of '%s' must be an array parameter or temporary of this "
                   "function, from its first element (no pointer arithmetic)%s", i + 1, name,
                   v ? "; a table is not one: copy it into a temporary" : "");
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
    Kids ks = kids_of(p, c);
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

/* The constant integer value of c, or 0 when it is none. */
static long long const_int(CXCursor c)
{
    CXEvalResult ev = clang_Cursor_Evaluate(c);
    if (!ev)
        return 0;
    long long v = clang_EvalResult_getKind(ev) == CXEval_Int ? clang_EvalResult_getAsLongLong(ev) : 0;
    clang_EvalResult_dispose(ev);
    return v;
}

/* The signed step of `i++`, `++i`, `i--`, `--i`, `i += c`, `i -= c`,
 * `i = i + c`, `i = c + i`, `i = i - c` with c a constant; 0 if none. */
static long long loop_step(P *p, CXCursor inc, Var *iv)
{
    enum CXCursorKind k = clang_getCursorKind(inc);
    Kids ks = kids_of(p, inc);
    if (k == CXCursor_UnaryOperator && ks.n == 1 && is_var_ref(p, ks.c[0], iv)) {
        Op op = op_of(p, inc);
        return op == OP_PREINC || op == OP_POSTINC ? 1 : op == OP_PREDEC || op == OP_POSTDEC ? -1 : 0;
    }
    if (ks.n != 2 || !is_var_ref(p, ks.c[0], iv))
        return 0;
    if (k == CXCursor_CompoundAssignOperator) {
        Op op = op_of(p, inc);
        long long c = const_int(ks.c[1]);
        return op == OP_ADD_ASSIGN ? c : op == OP_SUB_ASSIGN ? -c : 0;
    }
    if (k != CXCursor_BinaryOperator || op_of(p, inc) != OP_ASSIGN)
        return 0;
    CXCursor rhs = strip(ks.c[1]);
    Kids rk = kids_of(p, rhs);
    if (clang_getCursorKind(rhs) != CXCursor_BinaryOperator || rk.n != 2)
        return 0;
    Op rop = op_of(p, rhs);
    if (rop == OP_ADD && is_var_ref(p, rk.c[0], iv))
        return const_int(rk.c[1]);
    if (rop == OP_ADD && is_var_ref(p, rk.c[1], iv))
        return const_int(rk.c[0]);
    if (rop == OP_SUB && is_var_ref(p, rk.c[0], iv))
        return -const_int(rk.c[1]);
    return 0;
}

static void check_no_write(P *p, Stmt *s, Var *v, CXCursor at);
static void check_argmax(P *p, const Stmt *loop);

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
static void cont_begin(P *p, int outer_depth)
{
    Ctl *t = arena_alloc(p->a, sizeof *t);
    t->brk_depth = outer_depth;
    vec_push(p->a, &p->ctl, t);
}

/* The innermost loop's flags, NULL outside loops. */
static Ctl *ctl_top(P *p)
{
    return p->ctl.len ? vec_at(&p->ctl, p->ctl.len - 1) : NULL;
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
    Ctl *t = ctl_top(p);
    if (!t)
        reject(p, c, "-Wgpufuse-control", "'continue' outside a loop");
    return set_flag(p, c, &t->cont, "gf_skip", p->loops.len);
}

/* ---- break -----------------------------------------------------------------------
 * `break` of a loop sets a flag declared just before the loop (0): the
 * statements after one that may set it run under `if (!flag)`, like those
 * after a `continue`, and the loop stops once the flag is set (Stmt.brk: the
 * back ends test it with the loop condition).  The flag lives across the
 * iterations, so the loop carries a dependence on it and is sequential; that
 * is only right for a loop run per element inside a parallel loop, which
 * deps.c checks (a parallel loop or a host time loop cannot stop early). */

static Stmt *spliced(P *p, CXCursor c, Stmt *x, Stmt *y);

static Stmt *conv_break(P *p, CXCursor c)
{
    Ctl *t = ctl_top(p);
    if (!t)
        reject(p, c, "-Wgpufuse-control", "'break' outside a loop or a switch");
    Stmt *f = set_flag(p, c, &t->brk, "gf_brk", t->brk_depth);
    if (!t->keep)
        return f;
    /* the index where the loop stopped, for the reads after it (kept_index) */
    Stmt *k = new_stmt(p, S_ASSIGN, c);
    k->lhs = flag_ref(p, c, t->keep);
    k->op = OP_ASSIGN;
    k->rhs = flag_ref(p, c, t->iv);
    number(p, k);
    t->keep->scalar_written = true;
    return spliced(p, c, k, f);
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
    Vec gv = {0};                /* Group*: any number */
    int ng = 0;
    Kids body = kids_of(p, ks.c[1]);
    for (int i = 0; i < body.n; i++) {
        CXCursor k = body.c[i];
        enum CXCursorKind kk = clang_getCursorKind(k);
        if (kk == CXCursor_CaseStmt || kk == CXCursor_DefaultStmt) {
            Group *last = ng ? vec_at(&gv, ng - 1) : NULL;
            if (last && last->body->list.len && !last->ended)
                reject(p, k, "-Wgpufuse-control", "this case is reached by falling through from the one before; "
                       "end that one with 'break'");
            Group *g = last;     /* labels stacked on an empty group */
            if (!last || last->body->list.len || last->ended) {
                g = arena_alloc(p->a, sizeof *g);
                g->body = new_stmt(p, S_BLOCK, k);
                vec_push(p->a, &gv, g);
                ng++;
            }
            /* case a: case b: ... stmt — labels nest, the statement is innermost */
            for (;;) {
                Kids lk = kids_of(p, k);
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
        Group *g = vec_at(&gv, ng - 1);
        if (g->ended)
            continue;            /* after break: never reached */
        if (kk == CXCursor_BreakStmt) {
            g->ended = true;
            continue;
        }
        Kids inner = kk == CXCursor_CompoundStmt ? kids_of(p, k) : (Kids){0};
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
        if (s->kind == S_ASSIGN && s->lhs->kind == E_VAR && ctl_top(p) && s->lhs->var == ctl_top(p)->cont &&
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
        Group *g = vec_at(&gv, i);
        if (g->is_default) {
            def = g;
            continue;
        }
        Stmt *f = new_stmt(p, S_IF, c);
        f->loc = g->body->loc;
        f->cond = g->cond;
        f->then = g->body;
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
    Ctl *t = ctl_top(p);
    p->ctl.len--;
    Var *flag = t->cont;
    *brk = t->brk;
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
/* x then y, as a block the parent's list takes in their place. */
static Stmt *spliced(P *p, CXCursor c, Stmt *x, Stmt *y)
{
    Stmt *b = new_stmt(p, S_BLOCK, c);
    b->loc.line = 0;             /* marker: splice into the parent */
    vec_push(p->a, &b->list, x);
    vec_push(p->a, &b->list, y);
    x->parent = y->parent = b;
    return b;
}

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
    return spliced(p, c, d, loop);
}

/* ---- for loops -------------------------------------------------------------------
 * for (init; cond; inc) with one integer index i and a constant step c:
 *   counting up:   i = lb; i < ub (i <= ub, ub > i, ub >= i); i++, i += c
 *     -> for i in [lb, ub) step c (a `<=` bound is stored + 1);
 *   counting down: i = hi; i >= lo (i > lo, lo <= i, lo < i); i--, i -= c
 *     -> for k in [0, hi - lo + 1) step c (hi - lo for `>`), every use of i
 *        in the body reading hi - k: an up-counting loop in the same order,
 *        its subscripts still affine, so that the rest of the pipeline and
 *        the dependences are those of any loop.  k carries i's name in
 *        diagnostics.
 * C evaluates the condition's bound before every iteration (and hi - k
 * repeats the first value): the body must not write what they read. */

static Down *down_of(P *p, Var *v)
{
    for (int i = p->downs.len - 1; i >= 0; i--)
        if (((Down *)vec_at(&p->downs, i))->iv == v)
            return vec_at(&p->downs, i);
    return NULL;
}

static Expr *clone_expr(P *p, const Expr *e, Loc loc)
{
    Expr *c = arena_alloc(p->a, sizeof *c);
    *c = *e;
    c->loc = loc;
    c->kids = arena_alloc(p->a, sizeof(Expr *) * (size_t)(e->nkids ? e->nkids : 1));
    for (int i = 0; i < e->nkids; i++)
        c->kids[i] = clone_expr(p, e->kids[i], loc);
    return c;
}

static Expr *arith(P *p, CXCursor at, Op op, Expr *l, Expr *r, Type *ty)
{
    Expr *e = new_expr(p, E_BINARY, at);
    e->op = op;
    e->ty = ty;
    set_kids(p, e, 2);
    e->kids[0] = l;
    e->kids[1] = r;
    return e;
}

static Expr *cast_to(P *p, CXCursor at, Type *ty, Expr *x)
{
    if (x->ty && x->ty->kind == ty->kind)
        return x;
    Expr *e = new_expr(p, E_CAST, at);
    e->ty = ty;
    set_kids(p, e, 1);
    e->kids[0] = x;
    return e;
}

static Expr *typed_int(P *p, CXCursor at, long long v, Type *ty)
{
    Expr *e = int_lit(p, at, arena_printf(p->a, "%lld", v));
    e->ty = ty;
    return e;
}

/* A decimal integer literal without suffix (those the front end writes). */
static bool plain_int(const Expr *e, long long *v)
{
    char *end;
    if (e->kind != E_INT || !(e->text[0] >= '0' && e->text[0] <= '9'))
        return false;
    *v = strtoll(e->text, &end, 10);
    return !*end;
}

/* e + c, folding a constant term (n - 1 + 1 is n). */
static Expr *plus_int(P *p, CXCursor at, Expr *e, long long c)
{
    long long v;
    if (plain_int(e, &v) && v + c >= 0)
        return typed_int(p, at, v + c, e->ty);
    if (e->kind == E_BINARY && (e->op == OP_ADD || e->op == OP_SUB) && plain_int(e->kids[1], &v)) {
        long long r = (e->op == OP_ADD ? v : -v) + c;
        if (!r)
            return e->kids[0];
        return arith(p, at, r > 0 ? OP_ADD : OP_SUB, e->kids[0], typed_int(p, at, r > 0 ? r : -r, e->kids[1]->ty),
                     e->ty);
    }
    return arith(p, at, c > 0 ? OP_ADD : OP_SUB, e, typed_int(p, at, c > 0 ? c : -c, e->ty), e->ty);
}

/* `int i = lb` or `i = lb`: the index and its first value. */
static Var *loop_init(P *p, CXCursor init, Expr **first, CXCursor *outside)
{
    *outside = clang_getNullCursor();
    if (clang_getCursorKind(init) == CXCursor_DeclStmt) {
        Kids ik = kids_of(p, init);
        if (ik.n != 1 || clang_getCursorKind(ik.c[0]) != CXCursor_VarDecl)
            reject(p, init, "-Wgpufuse-loop", "the loop must declare exactly one index");
        Kids vk = kids_of(p, ik.c[0]);
        Type *t = conv_type(p, clang_getCursorType(ik.c[0]), ik.c[0], NULL, 0, NULL);
        if (!type_is_integer(t) || vk.n < 1)
            reject(p, ik.c[0], "-Wgpufuse-loop", "the loop index must be an integer with an initial value");
        *first = conv_expr(p, vk.c[vk.n - 1]);
        return new_var(p, ik.c[0], cx_str(p->a, clang_getCursorSpelling(ik.c[0])), t, V_IV);
    }
    if (clang_getCursorKind(init) != CXCursor_BinaryOperator)
        reject(p, init, "-Wgpufuse-loop", "the loop must start by setting its index (for (int i = lb; ...))");
    Kids ik = kids_of(p, init);
    Op op = op_of(p, init);
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
    *first = conv_expr(p, ik.c[1]);
    *outside = clang_getCursorReferenced(lhs);
    return v;
}

/* ---- an index read after its loop ------------------------------------------------
 * `int k; for (k = 0; k < 200; k++) { ... if (...) break; } img[i] = k;`: C
 * keeps k, at the break or at the loop's end.  When the index is declared
 * outside its loop (counting up, a statement of a { } block) and read after
 * it, and no later loop takes it as its index, its reads after the loop
 * read a local of its own,
 * initialised before the loop to the index's value after a full run (lb
 * when the loop does not run, else lb + ceil((ub - lb) / step) * step) and
 * set to the index at each break of that loop. */
typedef struct AfterCx {
    P *p;
    CXCursor decl;
    unsigned at, from;           /* the loop's start and end (offsets in its file) */
    bool read, reused;
    bool in_block;               /* the loop is a statement of a { } block */
} AfterCx;

static enum CXChildVisitResult after_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    AfterCx *x = data;
    unsigned off;
    clang_getExpansionLocation(clang_getCursorLocation(c), NULL, NULL, NULL, &off);
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_ForStmt && off == x->at)
        x->in_block = clang_getCursorKind(parent) == CXCursor_CompoundStmt;
    if (off <= x->from)
        return CXChildVisit_Recurse;
    if (k == CXCursor_ForStmt) {
        /* a later loop that sets it as its index: for (k = 0; ...) */
        Kids ks = kids_of(x->p, c);
        CXCursor init = ks.n ? ks.c[0] : clang_getNullCursor();
        Kids ik = clang_getCursorKind(init) == CXCursor_BinaryOperator ? kids_of(x->p, init) : (Kids){0};
        CXCursor lhs = ik.n ? strip(ik.c[0]) : clang_getNullCursor();
        if (clang_getCursorKind(lhs) == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(lhs), x->decl))
            x->reused = true;
    }
    if (k == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(c), x->decl))
        x->read = true;
    return CXChildVisit_Recurse;
}

static bool kept_index(P *p, CXCursor loop, CXCursor decl, Var *iv)
{
    AfterCx x = {p, decl, 0, 0, false, false, false};
    clang_getExpansionLocation(clang_getCursorLocation(loop), NULL, NULL, NULL, &x.at);
    clang_getExpansionLocation(clang_getRangeEnd(clang_getCursorExtent(loop)), NULL, NULL, NULL, &x.from);
    clang_visitChildren(p->fn, after_visit, &x);
    if (x.read && x.reused)
        vec_push(p->a, &p->reused, iv);     /* for the diagnostic of a read after the loop */
    /* the kept value is declared just before the loop, in its block: a loop
     * that is the body of an if or of another loop keeps nothing */
    return x.read && !x.reused && x.in_block;
}

/* `i`, `i + e`, `e + i` or `i - e`: true, and the offset e (a null
 * cursor for none) with its sign. */
static bool index_side(P *p, CXCursor c, Var *iv, CXCursor *off, Op *sign)
{
    *off = clang_getNullCursor();
    if (is_var_ref(p, c, iv))
        return true;
    c = strip(c);
    Op op;
    if (clang_getCursorKind(c) != CXCursor_BinaryOperator || !gfc_op(p->ops, c, &op) ||
        (op != OP_ADD && op != OP_SUB))
        return false;
    Kids k = kids_of(p, c);
    *sign = op;
    if (k.n == 2 && is_var_ref(p, k.c[0], iv))
        *off = k.c[1];
    else if (k.n == 2 && op == OP_ADD && is_var_ref(p, k.c[1], iv))
        *off = k.c[0];
    return !clang_Cursor_isNull(*off);
}

/* `i < ub`, `i <= ub`, `i > lo`, `i >= lo`, the same with the operands
 * swapped, or with `i + e` / `i - e` for `i` (`i + m <= n` is `i <= n - m`):
 * the comparison with the index on the left, and the bound. */
static Op loop_cond(P *p, CXCursor cond, Var *iv, Expr **bound)
{
    cond = strip(cond);
    if (clang_getCursorKind(cond) != CXCursor_BinaryOperator)
        return OP_NONE;
    Kids k = kids_of(p, cond);
    Op op = op_of(p, cond);
    if (k.n != 2 || !op_is_compare(op) || op == OP_EQ || op == OP_NE)
        return OP_NONE;
    static const Op mirror[OP_COUNT] = {[OP_LT] = OP_GT, [OP_LE] = OP_GE, [OP_GT] = OP_LT, [OP_GE] = OP_LE};
    for (int side = 0; side < 2; side++) {
        CXCursor off;
        Op sign = OP_NONE;
        if (!index_side(p, k.c[side], iv, &off, &sign))
            continue;
        /* i + m <= n is i <= n - m only without wrap-around: n - m may wrap
         * where i + m would not (m > n): for unsigned types, a guard */
        enum CXTypeKind tk = clang_getCanonicalType(clang_getCursorType(strip(k.c[side]))).kind;
        bool uns = tk == CXType_UInt || tk == CXType_ULong || tk == CXType_ULongLong || tk == CXType_UShort ||
                   tk == CXType_UChar || tk == CXType_Bool;
        Op dir = side ? mirror[op] : op;
        if (!clang_Cursor_isNull(off) && uns && (sign != OP_ADD || (dir != OP_LT && dir != OP_LE)))
            return OP_NONE;
        Expr *b = conv_expr(p, k.c[1 - side]);
        if (!clang_Cursor_isNull(off) && uns) {
            /* unsigned i + m < n (i + m <= n): i < n - m (n - m + 1) where
             * n >= m, else no iteration (i + m >= m > n; n - m would wrap):
             * i < (n < m ? 0 : n - m [+ 1]) */
            Expr *e = cast_to(p, cond, b->ty, conv_expr(p, off));
            Expr *lim = arith(p, cond, OP_SUB, b, e, b->ty);
            if (dir == OP_LE)
                lim = arith(p, cond, OP_ADD, lim, typed_int(p, cond, 1, b->ty), b->ty);
            Expr *test = arith(p, cond, OP_LT, clone_expr(p, b, loc_of(p, cond)), clone_expr(p, e, loc_of(p, cond)),
                               new_type(p, TY_INT));
            Expr *c = new_expr(p, E_COND, cond);
            c->ty = b->ty;
            set_kids(p, c, 3);
            c->kids[0] = test;
            c->kids[1] = typed_int(p, cond, 0, b->ty);
            c->kids[2] = lim;
            *bound = c;
            return OP_LT;
        }
        if (!clang_Cursor_isNull(off)) {
            Expr *e = conv_expr(p, off);
            b = arith(p, cond, sign == OP_ADD ? OP_SUB : OP_ADD, b, e, b->ty);
        }
        *bound = b;
        return dir;
    }
    return OP_NONE;
}

static bool is_post_dec(P *p, CXCursor c)
{
    Op op;
    c = strip(c);
    return clang_getCursorKind(c) == CXCursor_UnaryOperator && gfc_op(p->ops, c, &op) && op == OP_POSTDEC;
}

/* A condition `x-- > e` or `x--` (a loop without increment, below). */
static bool post_dec_shape(P *p, CXCursor c)
{
    Op op;
    c = strip(c);
    if (is_post_dec(p, c))
        return true;
    Kids k = kids_of(p, c);
    return clang_getCursorKind(c) == CXCursor_BinaryOperator && gfc_op(p->ops, c, &op) && op == OP_GT && k.n == 2 &&
           is_post_dec(p, k.c[0]);
}

/* `for (i = hi; i-- > lo;)` (and `i--` alone for an unsigned i): the body
 * sees hi - 1 down to lo, as `for (i = hi - 1; i >= lo; i--)`. */
static bool post_dec_cond(P *p, CXCursor cond, Var *iv, Expr **lo)
{
    cond = strip(cond);
    Kids k = kids_of(p, cond);
    Op op;
    if (clang_getCursorKind(cond) == CXCursor_UnaryOperator && k.n == 1 && gfc_op(p->ops, cond, &op) &&
        op == OP_POSTDEC && is_var_ref(p, k.c[0], iv) && type_is_unsigned(iv->ty)) {
        *lo = typed_int(p, cond, 0, iv->ty);
        return true;
    }
    if (clang_getCursorKind(cond) != CXCursor_BinaryOperator || k.n != 2 || !gfc_op(p->ops, cond, &op) ||
        op != OP_GT)
        return false;
    CXCursor dec = strip(k.c[0]);
    Kids dk = kids_of(p, dec);
    Op dop;
    if (clang_getCursorKind(dec) != CXCursor_UnaryOperator || dk.n != 1 || !gfc_op(p->ops, dec, &dop) ||
        dop != OP_POSTDEC || !is_var_ref(p, dk.c[0], iv))
        return false;
    *lo = conv_expr(p, k.c[1]);
    return true;
}

/* The loop counting down from hi while i >= lo (ge) or i > lo, by step:
 * s runs k up from 0 and the body's uses of iv read hi - k - shift (shift
 * 1: `i-- > lo`, which tests the value before the decrement). */
static Down *count_down(P *p, Stmt *s, CXCursor c, Var *iv, Expr *hi, Expr *lo, bool ge, long long step,
                        long long shift)
{
    Type *t = iv->ty;
    long long v;
    if (type_is_unsigned(t) != type_is_unsigned(lo->ty) && !(plain_int(lo, &v) && v >= 0))
        reject(p, c, "-Wgpufuse-loop", "the loop compares the %s index '%s' with a bound of %s type; give them the "
               "same signedness", type_is_unsigned(t) ? "unsigned" : "signed", iv->name,
               type_is_unsigned(lo->ty) ? "an unsigned" : "a signed");
    /* i = hi converts hi to i's type; the trip count is computed wide
     * unless everything is already of i's signed type */
    hi = cast_to(p, c, t, hi);
    bool plain = !type_is_unsigned(t) && lo->ty->kind == t->kind;
    Type *kt = plain ? t : new_type(p, TY_LLONG);
    Var *k = new_var(p, c, arena_printf(p->a, "%s_rev", iv->name), kt, V_IV);
    k->name = iv->name;
    Expr *kref = flag_ref(p, c, k);
    Expr *span = plain_int(lo, &v) && v == 0 ? cast_to(p, c, kt, hi)
                                              : arith(p, c, OP_SUB, cast_to(p, c, kt, hi), cast_to(p, c, kt, lo), kt);
    s->iv = k;
    s->lb = typed_int(p, c, 0, kt);
    s->ub = ge ? plus_int(p, c, span, 1) : span;
    s->step = step;
    Down *d = arena_alloc(p->a, sizeof *d);
    d->iv = iv;
    Type *dt = t->kind == TY_ULONG || t->kind == TY_ULLONG ? t : kt;   /* hi - k's type in C */
    Expr *val = arith(p, c, OP_SUB, hi, kref, dt);
    d->value = cast_to(p, c, t, shift ? plus_int(p, c, val, -shift) : val);
    vec_push(p->a, &p->downs, d);
    return d;
}

static bool reads_var(const Expr *e, const void *v)
{
    return (e->kind == E_VAR || e->kind == E_INDEX) && e->var == v;
}

/* A statement of s that writes a variable e reads (*v), or NULL. */
typedef struct WriteRead {
    const Expr *e;
    Var **v;
} WriteRead;

static IrFind writes_read(const Stmt *s, const void *arg)
{
    const WriteRead *w = arg;
    if (s->kind == S_ASSIGN) {
        const Expr *t = s->lhs->kind == E_FIELD ? s->lhs->kids[0] : s->lhs;
        *w->v = t->var;
        return ir_expr_any(w->e, reads_var, t->var) ? IR_FOUND : IR_NEXT;
    }
    if (s->kind == S_LIB)
        for (int i = 0; i < s->rhs->nkids; i++)
            if (s->rhs->kids[i]->kind == E_VAR && ir_expr_any(w->e, reads_var, s->rhs->kids[i]->var)) {
                *w->v = s->rhs->kids[i]->var;
                return IR_FOUND;
            }
    return IR_NEXT;
}

static const Stmt *written_and_read(const Stmt *s, const Expr *e, Var **v)
{
    if (!e)
        return NULL;
    WriteRead w = {e, v};
    return ir_stmt_find(s, writes_read, &w);
}

/* what: "bound" (read before every iteration) or "start" (of a loop
 * counting down: read again at every use of the index). */
static void check_bound(P *p, CXCursor at, const Stmt *body, const Expr *bound, const char *what)
{
    Var *v;
    const Stmt *w = written_and_read(body, bound, &v);
    if (w)
        reject(p, at, "-Wgpufuse-loop", "the loop's %s reads '%s', which its body writes (line %d); the %s of a "
               "fused loop must not change while it runs", what, v->name, w->loc.line, what);
}

static Stmt *conv_for(P *p, CXCursor c)
{
    Kids ks = kids_of(p, c);
    if (ks.n == 3 && post_dec_shape(p, ks.c[1])) {
        /* for (i = n; i-- > 0;): no increment; keep the 4-part layout */
        Kids k4 = {arena_alloc(p->a, 4 * sizeof(CXCursor)), 4};
        k4.c[0] = ks.c[0];
        k4.c[1] = ks.c[1];
        k4.c[2] = clang_getNullCursor();
        k4.c[3] = ks.c[2];
        ks = k4;
    }
    if (ks.n != 4)
        reject(p, c, "-Wgpufuse-loop", "a fused loop needs an initialisation, a condition and an increment "
               "(for (int i = lb; i < ub; i++))");
    Stmt *s = new_stmt(p, S_FOR, c);
    CXCursor init = ks.c[0], cond = ks.c[1], inc = ks.c[2];
    Expr *first, *bound;
    CXCursor outside;
    Var *iv = loop_init(p, init, &first, &outside);
    Op op;
    long long step, shift = 0;
    if (post_dec_cond(p, cond, iv, &bound)) {
        op = OP_GT;              /* the value before the decrement */
        step = -1;
        shift = 1;
    } else {
        op = loop_cond(p, cond, iv, &bound);
        if (!op)
            reject(p, cond, "-Wgpufuse-loop", "the loop condition must compare the index '%s' with a bound: '%s < "
                   "ub' or '%s <= ub' counting up, '%s >= lb' or '%s > lb' counting down", iv->name, iv->name,
                   iv->name, iv->name, iv->name);
        step = loop_step(p, inc, iv);
        if (!step)
            reject(p, inc, "-Wgpufuse-loop", "the loop increment must be '%s++', '%s--', '%s += c' or '%s -= c' "
                   "with a constant c", iv->name, iv->name, iv->name, iv->name);
        long long v;
        if (op == OP_GE && type_is_unsigned(iv->ty) && plain_int(bound, &v) && v == 0)
            reject(p, c, "-Wgpufuse-loop", "'%s >= 0' is always true for the unsigned index '%s': the loop never "
                   "ends; write 'i > 0' and use i - 1, or a signed index", iv->name, iv->name);
    }
    bool up = op == OP_LT || op == OP_LE;
    if (up != (step > 0))
        reject(p, cond, "-Wgpufuse-loop", "the loop counts %s but its condition is '%s %s bound': it would %s",
               step > 0 ? "up" : "down", iv->name, op_spelling(op), "run forever or not at all");
    limit(p, c, p->loops.len + 1, MAX_LOOP_DEPTH, "nested loops");
    Down *down = NULL;
    if (up) {
        s->iv = iv;
        s->lb = first;
        s->ub = op == OP_LE ? plus_int(p, cond, bound, 1) : bound;
        s->step = step;
    } else {
        down = count_down(p, s, c, iv, first, bound, op == OP_GE, -step, shift);
    }
    Var *keep = NULL;            /* the index's value after the loop */
    if (up && !clang_Cursor_isNull(outside) && kept_index(p, c, outside, iv)) {
        keep = new_var(p, outside, iv->name, iv->ty, V_LOCAL);
        p->nbinds--;             /* the body still reads the index */
    }
    vec_push(p->a, &p->loops, s);
    iv->depth = s->iv->depth = p->loops.len;
    cont_begin(p, p->loops.len - 1);
    if (keep) {
        ctl_top(p)->iv = iv;
        ctl_top(p)->keep = keep;
    }
    int cases = p->cases;
    p->cases = 0;
    Var *brk;
    s->body = cont_end(p, conv_stmt(p, ks.c[3]), ks.c[3], &brk);
    p->cases = cases;
    p->loops.len--;
    if (down)
        p->downs.len--;
    if (!s->body)
        s->body = new_stmt(p, S_BLOCK, ks.c[3]);
    s->body->parent = s;
    check_no_write(p, s->body, s->iv, c);
    check_argmax(p, s);
    check_bound(p, cond, s->body, bound, "bound");
    if (down)
        check_bound(p, init, s->body, first, "start");
    if (brk && !keep)
        vec_push(p->a, &p->broke, iv);
    Stmt *out = with_break_flag(p, s, brk, c);
    if (!keep)
        return out;
    /* keep = lb < ub ? lb + (ub - lb + step - 1) / step * step : lb, before
     * the loop; the reads after the loop read it */
    Stmt *d = new_stmt(p, S_DECL, c);
    d->var = keep;
    keep->decl = d;
    keep->depth = p->loops.len;
    Expr *lb = clone_expr(p, s->lb, s->loc), *ub = clone_expr(p, s->ub, s->loc);
    Type *t = keep->ty;
    Expr *span = arith(p, c, OP_SUB, clone_expr(p, s->ub, s->loc), clone_expr(p, s->lb, s->loc), t);
    Expr *end = span;
    if (s->step != 1) {
        char step[32];
        snprintf(step, sizeof step, "%lld", s->step);
        end = arith(p, c, OP_MUL, arith(p, c, OP_DIV, arith(p, c, OP_ADD, span, int_lit(p, c, arena_printf(p->a, "%lld", s->step - 1)), t),
                                       int_lit(p, c, arena_strdup(p->a, step)), t),
                    int_lit(p, c, arena_strdup(p->a, step)), t);
    }
    end = arith(p, c, OP_ADD, clone_expr(p, s->lb, s->loc), end, t);
    Expr *test = new_expr(p, E_BINARY, c);
    test->op = OP_LT;
    test->ty = new_type(p, TY_INT);
    set_kids(p, test, 2);
    test->kids[0] = lb;
    test->kids[1] = ub;
    Expr *v = new_expr(p, E_COND, c);
    v->ty = t;
    set_kids(p, v, 3);
    v->kids[0] = test;
    v->kids[1] = end;
    v->kids[2] = clone_expr(p, s->lb, s->loc);
    d->rhs = v;
    number(p, d);
    bind(p, outside, keep);      /* from here on the name reads the kept value */
    return spliced(p, c, d, out);
}

/* The index of a loop must not be assigned in its body. */
static IrFind assigns_scalar(const Stmt *s, const void *v)
{
    return s->kind == S_ASSIGN && s->lhs->kind == E_VAR && s->lhs->var == v ? IR_FOUND : IR_NEXT;
}

static void check_no_write(P *p, Stmt *s, Var *v, CXCursor at)
{
    if (ir_stmt_find(s, assigns_scalar, v))
        reject(p, at, "-Wgpufuse-loop", "the body assigns the loop index '%s'", v->name);
}

/* An assignment statement: lhs op rhs. */
static Stmt *make_assign(P *p, CXCursor c, CXCursor lhs_c, Op op, Expr *rhs)
{
    CXCursor target = strip(lhs_c);
    Var *tv = clang_getCursorKind(target) == CXCursor_DeclRefExpr ? lookup(p, clang_getCursorReferenced(target)) : NULL;
    if (tv && tv->kind == V_IV)
        reject(p, c, "-Wgpufuse-loop", "assignment to loop index '%s'", tv->name);
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
    } else if (lhs->kind == E_FIELD && lhs->kids[0]->kind == E_VAR) {
        Var *v = lhs->kids[0]->var;      /* a.x = ...: a field of a struct local */
        if (v->kind == V_PARAM)
            reject(p, c, "-Wgpufuse-param", "assignment to a field of parameter '%s'; copy it into a local variable "
                   "first", v->name);
        v->scalar_written = true;
    } else if (lhs->kind == E_INDEX || lhs->kind == E_FIELD) {
        Expr *ix = lhs->kind == E_FIELD ? lhs->kids[0] : lhs;
        if (ix->var->ty->base && ix->var->ty->kind == TY_PTR && ix->var->ty->base->is_const)
            reject(p, c, "-Wgpufuse-const", "store through a pointer to const '%s'", ix->var->name);
        if (ix->var->kind == V_TABLE)
            reject(p, c, "-Wgpufuse-temp", "initialised array '%s' is written; an initialised array is read as a "
                   "table (its values the same at every call), so it must not be written: declare it without "
                   "an initialiser and fill it in a loop", ix->var->name);
        ix->var->written = true;
    } else {
        reject(p, c, "-Wgpufuse-syntax", "unsupported assignment target");
    }
    if (op != OP_ASSIGN && (type_is_complex(lhs->ty) || type_is_complex(rhs->ty)) &&
        (!type_is_complex(lhs->ty) || type_size(rhs->ty) > type_size(lhs->ty) ||
         (lhs->ty->kind == TY_CF && rhs->ty->kind == TY_DOUBLE)))
        reject(p, c, "-Wgpufuse-type", "'%s' between '%s' and '%s' is computed in a wider type than its target; write "
               "the assignment out with a cast ('z = (float _Complex)(z op e)')", op_spelling(op),
               type_src_name(lhs->ty), type_src_name(rhs->ty));
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
    Kids ks = kids_of(p, call);
    const char *name = cx_str(p->a, clang_getCursorSpelling(call));
    if (strcmp(name, "malloc") || ks.n != 2)
        return NULL;
    CXCursor arg = strip(ks.c[1]);
    if (clang_getCursorKind(arg) != CXCursor_BinaryOperator)
        return NULL;
    Kids ak = kids_of(p, arg);
    if (op_of(p, arg) != OP_MUL || ak.n != 2)
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
        if (!type_size(elem) || bytes != type_size(elem))
            return NULL;
        return conv_expr(p, ak.c[1 - side]);
    }
    return NULL;
}

/* ---- memset and memcpy: the loop the library runs ---------------------------- */

/* A pointer argument of memset/memcpy into a one-dimensional array: `a`,
 * `(T *)a`, `a + k`, `k + a`, `&a[k]`, or a pointer local naming part of an
 * array (alias_decl).  The element at index k of it is mem_elem's. */
typedef struct MemArg {
    Var *v;                      /* the array, or NULL for an alias */
    const Alias *al;
    Expr *off;                   /* added to the index, or NULL */
} MemArg;

static bool mem_arg(P *p, CXCursor c, MemArg *m)
{
    memset(m, 0, sizeof *m);
    for (;;) {
        c = strip_casts(p, c);
        enum CXCursorKind k = clang_getCursorKind(c);
        Kids ks = kids_of(p, c);
        if (k == CXCursor_DeclRefExpr) {
            CXCursor d = clang_getCursorReferenced(c);
            if ((m->al = alias_of(p, d)))
                return !m->off;
            m->v = lookup(p, d);
            return m->v && m->v->is_array && m->v->ndims == 1 && m->v->kind != V_TABLE;
        }
        if (k == CXCursor_BinaryOperator && ks.n == 2 && op_of(p, c) == OP_ADD && !m->off) {
            enum CXTypeKind k0 = clang_getCanonicalType(clang_getCursorType(strip(ks.c[0]))).kind;
            int ptr = k0 == CXType_Pointer || k0 == CXType_ConstantArray || k0 == CXType_VariableArray ||
                              k0 == CXType_IncompleteArray
                          ? 0
                          : 1;
            Expr *o = conv_expr(p, ks.c[1 - ptr]);
            if (!type_is_integer(o->ty))
                return false;
            m->off = o;
            c = ks.c[ptr];
            continue;
        }
        if (k == CXCursor_UnaryOperator && ks.n == 1 && op_of(p, c) == OP_ADDR && !m->off) {
            CXCursor e = strip(ks.c[0]);
            Kids ek = kids_of(p, e);
            if (clang_getCursorKind(e) != CXCursor_ArraySubscriptExpr || ek.n != 2)
                return false;
            Expr *o = conv_expr(p, ek.c[1]);
            if (!type_is_integer(o->ty))
                return false;
            m->off = o;
            c = ek.c[0];
            continue;
        }
        return false;
    }
}

static Type *mem_elem_type(const MemArg *m)
{
    return type_elem(m->al ? m->al->base->ty : m->v->ty);
}

static Expr *mem_elem(P *p, CXCursor at, const MemArg *m, Expr *k, bool store)
{
    Expr *ix = k;
    if (m->off) {
        Expr *o = clone_expr(p, m->off, loc_of(p, at));
        ix = arith(p, at, OP_ADD, o, k, int_sum_type(p, o->ty, k->ty));
    }
    p->lvalue = store;
    Expr *e;
    if (m->al) {
        e = alias_elem(p, m->al, at, ix);
    } else {
        e = new_expr(p, E_INDEX, at);
        e->var = m->v;
        set_kids(p, e, 1);
        e->kids[0] = ix;
        e->ty = type_elem(m->v->ty);
        if (!store)
            m->v->read = true;
    }
    p->lvalue = false;
    return e;
}

/* The element count of `bytes` bytes of esize-byte elements: any integer
 * for one-byte elements, else a constant multiple of esize or a product
 * with a factor sizeof(...) == esize (`n * sizeof(float)`,
 * `sizeof *a * n * m`); NULL when it is none of these. */
static Expr *mem_count(P *p, CXCursor bytes, long long esize)
{
    bytes = strip(bytes);
    if (esize == 1) {            /* bytes are elements */
        Expr *n = conv_expr(p, bytes);
        return type_is_integer(n->ty) ? n : NULL;
    }
    CXEvalResult ev = clang_Cursor_Evaluate(bytes);
    if (ev) {
        bool ok = clang_EvalResult_getKind(ev) == CXEval_Int;
        long long b = ok ? clang_EvalResult_getAsLongLong(ev) : 0;
        clang_EvalResult_dispose(ev);
        if (ok)
            return b >= 0 && b % esize == 0 ? typed_int(p, bytes, b / esize, new_type(p, TY_LLONG)) : NULL;
    }
    Kids ks = kids_of(p, bytes);
    if (clang_getCursorKind(bytes) != CXCursor_BinaryOperator || ks.n != 2 || op_of(p, bytes) != OP_MUL)
        return NULL;
    for (int side = 0; side < 2; side++) {
        CXCursor sz = strip(ks.c[side]);
        if (clang_getCursorKind(sz) != CXCursor_UnaryExpr)
            continue;
        CXEvalResult e = clang_Cursor_Evaluate(sz);
        long long v = e && clang_EvalResult_getKind(e) == CXEval_Int ? clang_EvalResult_getAsLongLong(e) : -1;
        if (e)
            clang_EvalResult_dispose(e);
        if (v == esize)
            return conv_expr(p, ks.c[1 - side]);
    }
    for (int side = 0; side < 2; side++) {
        Expr *rest = mem_count(p, ks.c[side], esize);
        if (rest) {
            Expr *other = conv_expr(p, ks.c[1 - side]);
            if (!type_is_integer(other->ty))
                return NULL;
            return arith(p, bytes, OP_MUL, rest, other, int_sum_type(p, rest->ty, other->ty));
        }
    }
    return NULL;
}

/* `memset(a, v, bytes);` and `memcpy(d, s, bytes);` as statements: the loop
 * C's library runs, `for (k = 0; k < count; k++) a[k] = v;` (v 0 on any
 * arithmetic element, any byte value on one-byte elements) and
 * `d[k] = s[k]`, over one-dimensional arrays of one element type (docs/
 * language.md, "memset and memcpy"). */
static Stmt *mem_stmt(P *p, CXCursor c, const char *name, Kids ks)
{
    bool set = strstr(name, "memset") != NULL;
    int nargs = strstr(name, "_chk") ? 4 : 3;   /* __builtin___memset_chk(p, v, n, size) */
    if (ks.n - 1 != nargs)
        reject(p, c, "-Wgpufuse-call", "'%s' takes %d arguments", name, nargs);
    MemArg dst, src = {0};
    if (!mem_arg(p, ks.c[1], &dst))
        reject(p, ks.c[1], "-Wgpufuse-call", "%s's destination is not a one-dimensional array parameter or "
               "temporary, at its start or at an offset ('a', 'a + k', '&a[k]')", name);
    Type *et = mem_elem_type(&dst);
    if (!set && !mem_arg(p, ks.c[2], &src))
        reject(p, ks.c[2], "-Wgpufuse-call", "%s's source is not a one-dimensional array parameter or temporary, "
               "at its start or at an offset ('a', 'a + k', '&a[k]')", name);
    if (!set && mem_elem_type(&src)->kind != et->kind)
        reject(p, c, "-Wgpufuse-call", "%s between arrays of different element types ('%s' and '%s') copies bytes, "
               "not values; write the loop", name, type_src_name(et), type_src_name(mem_elem_type(&src)));
    if (!type_is_integer(et) && !type_is_float(et))
        reject(p, c, "-Wgpufuse-call", "%s of '%s' elements is not supported (arithmetic elements only); write the "
               "loop", name, type_src_name(et));
    long long esize = type_size(et);
    Expr *count = esize > 0 ? mem_count(p, ks.c[3], esize) : NULL;
    if (!count)
        reject(p, ks.c[3], "-Wgpufuse-call", "%s's size is not a count of '%s' elements ('n * sizeof(%s)', "
               "'n * sizeof *a', or a constant multiple of %lld)", name, type_src_name(et), type_src_name(et), esize);
    if (!type_is_integer(count->ty))
        reject(p, ks.c[3], "-Wgpufuse-call", "%s's element count is not an integer", name);
    Expr *val = NULL;
    if (set) {
        CXEvalResult ev = clang_Cursor_Evaluate(strip(ks.c[2]));
        bool ok = ev && clang_EvalResult_getKind(ev) == CXEval_Int;
        long long v = ok ? clang_EvalResult_getAsLongLong(ev) : 0;
        if (ev)
            clang_EvalResult_dispose(ev);
        if (!ok)
            reject(p, ks.c[2], "-Wgpufuse-call", "memset's value is not a constant");
        v &= 0xff;               /* memset stores (unsigned char)v */
        if (v && esize != 1)
            reject(p, ks.c[2], "-Wgpufuse-call", "memset of '%s' elements with a nonzero byte (%lld) sets bytes, "
                   "not values; write the loop", type_src_name(et), v);
        val = cast_to(p, c, et, typed_int(p, c, v, new_type(p, TY_INT)));
    }
    Type *kt = count->ty->kind < TY_INT ? new_type(p, TY_INT) : count->ty;
    Stmt *s = new_stmt(p, S_FOR, c);
    Var *k = new_var(p, c, set ? "memset_k" : "memcpy_k", kt, V_IV);
    s->iv = k;
    s->lb = typed_int(p, c, 0, kt);
    s->ub = cast_to(p, c, kt, count);
    s->step = 1;
    limit(p, c, p->loops.len + 1, MAX_LOOP_DEPTH, "nested loops");
    vec_push(p->a, &p->loops, s);
    k->depth = p->loops.len;
    Stmt *a = new_stmt(p, S_ASSIGN, c);
    a->op = OP_ASSIGN;
    a->rhs = set ? val : mem_elem(p, c, &src, flag_ref(p, c, k), false);
    a->lhs = mem_elem(p, c, &dst, flag_ref(p, c, k), true);
    Var *w = a->lhs->var;
    if (w->ty->kind == TY_PTR && w->ty->base && w->ty->base->is_const)
        reject(p, c, "-Wgpufuse-const", "store through a pointer to const '%s'", w->name);
    w->written = true;
    number(p, a);
    p->loops.len--;
    Stmt *b = new_stmt(p, S_BLOCK, c);
    a->parent = b;
    vec_push(p->a, &b->list, a);
    s->body = b;
    b->parent = s;
    return s;
}

static Stmt *conv_decl(P *p, CXCursor d)
{
    Kids vk = kids_of(p, d);
    const char *name = cx_str(p->a, clang_getCursorSpelling(d));
    CXType ct = clang_getCursorType(d);
    for (int i = 0; i < vk.n; i++) {
        enum CXCursorKind ik = clang_getCursorKind(vk.c[i]);
        if ((ik == CXCursor_InitListExpr || ik == CXCursor_StringLiteral) && table_of(p, d, d))
            return NULL;         /* a read-only table: its uses read the copy in the generated file */
    }
    if (clang_Cursor_getStorageClass(d) == CX_SC_Static)
        reject(p, d, "-Wgpufuse-static", "static local '%s' keeps state across calls, which a kernel cannot%s", name,
               clang_getCanonicalType(ct).kind == CXType_ConstantArray ? " (a 'static const' table can be read)" : "");
    Stmt *s = new_stmt(p, S_DECL, d);
    enum CXTypeKind tk = clang_getCanonicalType(ct).kind;
    if (tk == CXType_VariableArray || tk == CXType_ConstantArray) {
        /* a local temporary array: float t[n] */
        Expr *dims[MAX_RANK];
        int nd = 0;
        limit(p, d, cx_rank(ct), MAX_RANK, "dimensions of an array");
        for (int i = 0; i < vk.n; i++) {
            enum CXCursorKind kk = clang_getCursorKind(vk.c[i]);
            if (kk == CXCursor_TypeRef)
                continue;
            if (kk == CXCursor_InitListExpr)
                reject(p, d, "-Wgpufuse-syntax", "initialised local array '%s' cannot be read as a table", name);
            limit(p, d, nd + 1, MAX_RANK, "dimensions of an array");
            dims[nd++] = conv_expr(p, vk.c[i]);
        }
        /* libclang lists sizes innermost first */
        Expr *outer[MAX_RANK];
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
        if (!count && alias_decl(p, d, name, t, init))
            return NULL;         /* a name for part of an array: its uses are elements */
        if (!count || !type_is_arith(t->base))
            reject(p, d, "-Wgpufuse-pointer", "pointer local '%s': only 'T *%s = malloc(count * sizeof(T));' "
                   "temporaries and pointers into an array ('x + i * n', '&x[i]', a row 'x[i]') are supported",
                   name, name);
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
    if (!type_is_arith(t) && t->kind != TY_STRUCT)
        reject(p, d, "-Wgpufuse-type", "local '%s' must be of an arithmetic or struct type", name);
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

/* ---- statements that need a second look ------------------------------------
 * `a = b = v;` is `b = v; a = b;` (the value of an assignment is its target's
 * new value).  `if (x > m) m = x;` (any of < <= > >=, either operand order,
 * m a scalar or an element) is exactly `m = x > m ? x : m`, the min/max form
 * the dependence analysis takes as a reduction.  `assert(e)` is dropped, as
 * under NDEBUG (docs/language.md), and so is `(void)e` when e is pure. */

static bool is_assignment(P *p, CXCursor c)
{
    Op op;
    enum CXCursorKind k = clang_getCursorKind(c);
    return k == CXCursor_CompoundAssignOperator || (k == CXCursor_BinaryOperator && gfc_op(p->ops, c, &op) &&
                                                    op == OP_ASSIGN);
}

/* Statement s appended to block b, a splice marker (several statements)
 * spread out. */
static void append_stmt(P *p, Stmt *b, Stmt *s)
{
    if (!s)
        return;
    if (s->kind == S_BLOCK && s->loc.line == 0) {
        for (int i = 0; i < s->list.len; i++)
            append_stmt(p, b, vec_at(&s->list, i));
        return;
    }
    s->parent = b;
    vec_push(p->a, &b->list, s);
}

static Stmt *chained_assign(P *p, CXCursor c, Kids ks)
{
    CXCursor inner = strip(ks.c[1]);
    Stmt *first = conv_stmt(p, inner);           /* b = v (itself maybe a chain) */
    Kids ik = kids_of(p, inner);
    Stmt *then = make_assign(p, c, ks.c[0], OP_ASSIGN, conv_expr(p, ik.c[0]));
    Stmt *b = new_stmt(p, S_BLOCK, c);
    b->loc.line = 0;             /* marker: splice into the parent */
    append_stmt(p, b, first);
    append_stmt(p, b, then);
    return b;
}

static Stmt *minmax_if(P *p, Stmt *s)
{
    Stmt *t = s->then;
    if (s->els || !t)
        return s;
    if (t->kind == S_BLOCK && t->list.len == 1)
        t = vec_at(&t->list, 0);
    Expr *c = s->cond;
    if (t->kind != S_ASSIGN || t->op != OP_ASSIGN || c->kind != E_BINARY || !op_is_compare(c->op) ||
        c->op == OP_EQ || c->op == OP_NE)
        return s;
    if (!(expr_equal(c->kids[0], t->lhs) && expr_equal(c->kids[1], t->rhs)) &&
        !(expr_equal(c->kids[1], t->lhs) && expr_equal(c->kids[0], t->rhs)))
        return s;
    Expr *sel = arena_alloc(p->a, sizeof *sel);
    sel->kind = E_COND;
    sel->loc = c->loc;
    sel->ty = t->lhs->ty;
    set_kids(p, sel, 3);
    sel->kids[0] = c;
    sel->kids[1] = t->rhs;
    sel->kids[2] = clone_expr(p, t->lhs, t->lhs->loc);
    t->rhs = sel;
    t->loc = s->loc;
    t->parent = NULL;
    return t;
}

/* `if (e > m) { m = e; at = i; }` (any comparison of e with the scalar m,
 * m = e and other scalar assignments in the block): an argmax.  Its value
 * and where it was found are one reduction over pairs, which the analysis
 * does not have; the loop stays sequential.  The scalar beside m, or NULL. */
static Var *argmax_of(const Stmt *s, Var **m)
{
    if (s->kind != S_IF || s->els || !s->then || s->then->kind != S_BLOCK || s->then->list.len < 2)
        return NULL;
    const Expr *c = s->cond;
    if (c->kind != E_BINARY || !op_is_compare(c->op) || c->op == OP_EQ || c->op == OP_NE)
        return NULL;
    Var *mv = NULL, *other = NULL;
    for (int i = 0; i < s->then->list.len; i++) {
        const Stmt *t = vec_at(&s->then->list, i);
        if (t->kind != S_ASSIGN || t->op != OP_ASSIGN || t->lhs->kind != E_VAR)
            return NULL;
        bool is_m = (expr_equal(c->kids[0], t->lhs) && expr_equal(c->kids[1], t->rhs)) ||
                    (expr_equal(c->kids[1], t->lhs) && expr_equal(c->kids[0], t->rhs));
        if (is_m)
            mv = t->lhs->var;
        else
            other = t->lhs->var;
    }
    *m = mv;
    return mv ? other : NULL;
}

/* The first argmax among the statements of a loop body outside inner
 * loops (its value *m and index *at); NULL when there is none or the body
 * has a loop. */
typedef struct ArgmaxCx {
    IrVisitor v;
    const Stmt *first;
    Var *m, *at;
    bool loop;
} ArgmaxCx;

static bool argmax_stmt(IrVisitor *v, Stmt *s)
{
    ArgmaxCx *c = (ArgmaxCx *)v;
    if (s->kind == S_FOR || s->kind == S_WHILE) {
        c->loop = true;
        v->done = true;
        return false;
    }
    Var *m = NULL, *at = s->kind == S_IF ? argmax_of(s, &m) : NULL;
    if (at && !c->first) {
        c->first = s;
        c->m = m;
        c->at = at;
    }
    return !at && (s->kind == S_BLOCK || s->kind == S_IF);
}

static const Stmt *argmax_in(const Stmt *s, Var **m, Var **at)
{
    ArgmaxCx c = {{.stmt = argmax_stmt}, NULL, NULL, NULL, false};
    ir_visit_stmt(&c.v, (Stmt *)s);
    *m = c.m;
    *at = c.at;
    return c.loop ? NULL : c.first;
}

/* The outermost loop of a nest with an argmax and no inner loop can never
 * be parallel: say why, rather than "a running value". */
static void check_argmax(P *p, const Stmt *loop)
{
    Var *m = NULL, *at = NULL;
    const Stmt *s = p->loops.len ? NULL : argmax_in(loop->body, &m, &at);
    if (s)
        reject_at(p, s->loc, "-Wgpufuse-dependence", "'%s' and '%s' are updated together when a new extreme is found "
                  "(an argmax): a pair the loop cannot reduce in parallel, so the loop over '%s' is sequential and "
                  "no loop of its nest is parallel; keep the search in C, or run it per row inside a parallel loop",
                  m->name, at->name, loop->iv->name);
}

/* Statement c is exactly the expansion of the assert macro (ASSERT_MACRO),
 * `(void)e` with e pure (ASSERT_VOID: what assert is under NDEBUG), or
 * neither. */
enum { ASSERT_NONE, ASSERT_MACRO, ASSERT_VOID };

static int is_assert(P *p, CXCursor c)
{
    if (!clang_isExpression(clang_getCursorKind(c)))
        return ASSERT_NONE;
    CXSourceRange r = clang_getCursorExtent(c);
    unsigned b, e;
    CXFile f;
    clang_getExpansionLocation(clang_getRangeStart(r), &f, NULL, NULL, &b);
    clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &e);
    for (int i = 0; i < p->asserts->len; i++) {
        const unsigned *x = vec_at(p->asserts, i);
        if (x[0] == b && x[1] == e && clang_File_isEqual(f, clang_getFile(p->tu, p->u->path)))
            return ASSERT_MACRO;
    }
    CXCursor s = c;
    while (clang_getCursorKind(s) == CXCursor_ParenExpr)
        s = clang_getCursorKind(s) == CXCursor_ParenExpr ? kids_of(p, s).c[0] : s;
    if (clang_getCursorKind(s) != CXCursor_CStyleCastExpr ||
        clang_getCanonicalType(clang_getCursorType(s)).kind != CXType_Void)
        return ASSERT_NONE;
    Kids k = kids_of(p, s);
    if (clang_getCursorKind(strip(k.c[k.n - 1])) != CXCursor_DeclRefExpr)
        conv_expr(p, k.c[k.n - 1]);   /* pure, or diagnosed (I/O, unknown calls) */
    return ASSERT_VOID;
}

static Stmt *conv_stmt_(P *p, CXCursor c);

static Stmt *conv_stmt(P *p, CXCursor c)
{
    limit(p, c, ++p->sdepth, MAX_STMT_DEPTH, "nested statements");
    Stmt *s = conv_stmt_(p, c);
    p->sdepth--;
    return s;
}

static Stmt *conv_stmt_(P *p, CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    int dropped = is_assert(p, c);
    if (dropped == ASSERT_MACRO)
        vec_push(p->a, &p->r->notes, arena_printf(p->a, "line %d: assert() is not checked in the generated code (as "
                                                  "under NDEBUG); the C body checks it", loc_of(p, c).line));
    if (dropped)
        return NULL;
    Kids ks = kids_of(p, c);
    switch (k) {
    case CXCursor_CompoundStmt:
        return conv_block(p, c);
    case CXCursor_NullStmt:
        return NULL;
    case CXCursor_DeclStmt: {
        if (ks.n == 1 && clang_getCursorKind(ks.c[0]) == CXCursor_StaticAssert)
            return NULL;         /* checked by the compiler: nothing to run */
        if (ks.n == 1)
            return conv_decl(p, ks.c[0]);
        Stmt *b = new_stmt(p, S_BLOCK, c);
        b->loc.line = 0;         /* marker: splice into the parent */
        for (int i = 0; i < ks.n; i++) {
            if (clang_getCursorKind(ks.c[i]) != CXCursor_VarDecl)
                reject(p, ks.c[i], "-Wgpufuse-syntax", "only variable declarations are supported here");
            Stmt *d = conv_decl(p, ks.c[i]);
            if (d)               /* NULL: a pointer into an array (alias_decl) */
                vec_push(p->a, &b->list, d);
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
        cont_begin(p, p->loops.len);
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
        return minmax_if(p, s);
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
        if (op_of(p, c) == OP_COMMA) {
            /* a, b; is a; b; */
            Stmt *b = new_stmt(p, S_BLOCK, c);
            b->loc.line = 0;     /* marker: splice into the parent */
            append_stmt(p, b, conv_stmt(p, ks.c[0]));
            append_stmt(p, b, conv_stmt(p, ks.c[1]));
            return b;
        }
        if (op_of(p, c) != OP_ASSIGN)
            reject(p, c, "-Wgpufuse-syntax", "this expression statement has no effect a kernel can keep");
        alias_not_target(p, ks.c[0]);
        if (is_assignment(p, strip(ks.c[1])))
            return chained_assign(p, c, ks);
        return make_assign(p, c, ks.c[0], OP_ASSIGN, conv_expr(p, ks.c[1]));
    }
    case CXCursor_CompoundAssignOperator: {
        Op op = op_of(p, c);
        if (!op_is_assign(op))
            reject(p, c, "-Wgpufuse-syntax", "cannot read the operator of this assignment");
        alias_not_target(p, ks.c[0]);
        return make_assign(p, c, ks.c[0], op, int_operand_real(p, ks.c[1], conv_expr(p, ks.c[1])));
    }
    case CXCursor_UnaryOperator: {
        Op op = ks.n == 1 ? op_of(p, c) : OP_NONE;
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
        if (!strcmp(name, "memset") || !strcmp(name, "memcpy") || !strcmp(name, "__builtin_memset") ||
            !strcmp(name, "__builtin_memcpy") || !strcmp(name, "__builtin___memset_chk") ||
            !strcmp(name, "__builtin___memcpy_chk"))
            return mem_stmt(p, c, name, ks);
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

static enum CXChildVisitResult find_annotation(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    if (clang_getCursorKind(c) != CXCursor_AnnotateAttr)
        return CXChildVisit_Continue;
    CXString s = clang_getCursorSpelling(c);
    *(bool *)d |= !strcmp(clang_getCString(s), "gpufuse");
    clang_disposeString(s);
    return CXChildVisit_Continue;
}

static bool has_annotation(CXCursor fn)
{
    bool yes = false;
    clang_visitChildren(fn, find_annotation, &yes);
    return yes;
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
    Kids ks = kids_of(p, fn);
    for (int i = 0; i < ks.n; i++) {
        CXCursor d = ks.c[i];
        if (clang_getCursorKind(d) != CXCursor_ParmDecl)
            continue;
        const char *name = cx_str(p->a, clang_getCursorSpelling(d));
        if (!*name)
            reject(p, d, "-Wgpufuse-param", "unnamed parameter");
        /* VLA sizes are children of the ParmDecl, innermost first */
        Kids dk = kids_of(p, d);
        Expr *dims[MAX_RANK];
        int nd = 0;
        limit(p, d, cx_rank(clang_getCursorType(d)), MAX_RANK, "dimensions of an array");
        for (int j = dk.n - 1; j >= 0; j--) {
            enum CXCursorKind kk = clang_getCursorKind(dk.c[j]);
            if (kk == CXCursor_TypeRef || kk == CXCursor_AnnotateAttr || !clang_isExpression(kk))
                continue;
            limit(p, d, nd + 1, MAX_RANK, "dimensions of an array");
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
        } else if (!type_is_arith(t) && t->kind != TY_STRUCT) {
            reject(p, d, "-Wgpufuse-type", "parameter '%s' has an unsupported type", name);
        } else if (type_is_half(t)) {
            reject(p, d, "-Wgpufuse-type", "parameter '%s' is a '%s' passed by value, which the CUDA launcher "
                   "cannot receive (C++ has no such type); pass it as 'float' or through a pointer", name,
                   t->kind == TY_F16 ? "_Float16" : "__bf16");
        }
    }
}

static Region *parse_region(Unit *u, CXTranslationUnit tu, const GfcOps *ops, const GfcOps *hops, const Vec *asserts,
                            CXCursor fn)
{
    Region *r = arena_alloc(u->arena, sizeof *r);
    r->unit = u;
    P p = {.u = u, .a = u->arena, .tu = tu, .ops = ops, .hops = hops, .asserts = asserts, .fn = fn, .r = r};
    r->name = cx_str(u->arena, clang_getCursorSpelling(fn));
    r->cname = decls_cname(u->arena, r->name);
    r->loc = loc_of(&p, fn);
    r->first_line = r->loc.line;
    r->last_line = end_line_of(fn);
    if (setjmp(p.fail)) {
        r->rejected = true;
        diag_take_reject(u->arena, &r->why);
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
    if (type_is_half(r->ret))
        reject(&p, fn, "-Wgpufuse-type", "a marked function cannot return '%s' by value (the CUDA launcher has no "
               "such C++ type); return 'float' or store the result through a pointer",
               r->ret->kind == TY_F16 ? "_Float16" : "__bf16");
    parse_params(&p, fn);
    if (!cuda_rule_read(u, r, fn)) /* GPUFUSE_CUDA's kernel and launch rule (cuda_rule.c) */
        longjmp(p.fail, 1);
    Kids ks = kids_of(&p, fn);
    CXCursor body = ks.c[ks.n - 1];
    if (clang_getCursorKind(body) != CXCursor_CompoundStmt)
        reject(&p, fn, "-Wgpufuse-syntax", "function has no body");
    r->body = conv_block(&p, body);
    alias_check(&p);
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
    if (!gfc_from_main_file(c))
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

/* The extents of the expansions of `assert` in the file (a statement that
 * is exactly one is dropped). */
typedef struct AssertCx {
    Arena *a;
    Vec found;                   /* unsigned[2]: begin and end offsets */
} AssertCx;

static enum CXChildVisitResult visit_assert(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    AssertCx *ac = d;
    if (clang_getCursorKind(c) != CXCursor_MacroExpansion || !clang_Location_isFromMainFile(clang_getCursorLocation(c)))
        return CXChildVisit_Continue;
    CXString s = clang_getCursorSpelling(c);
    if (!strcmp(clang_getCString(s), "assert")) {
        CXSourceRange r = clang_getCursorExtent(c);
        unsigned *x = arena_alloc(ac->a, 2 * sizeof *x);
        clang_getExpansionLocation(clang_getRangeStart(r), NULL, NULL, NULL, &x[0]);
        clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &x[1]);
        vec_push(ac->a, &ac->found, x);
    }
    clang_disposeString(s);
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

static Unit *parse_unit_(const char *path, const ParseOptions *opt)
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
    CXCursor *fns = arena_alloc(a, sizeof *fns * (size_t)(t.marked.len + 1));
    for (int i = 0; i < t.marked.len; i++)
        fns[i] = *(CXCursor *)vec_at(&t.marked, i);
    GfcSource src = {tu, path, u->source, args, n};
    const GfcOps *ops = gfc_ops_read(a, &src, fns, t.marked.len);
    const GfcOps *hops = helper_ops(a, &src, fns, t.marked.len);
    AssertCx ac = {a, {0}};
    clang_visitChildren(clang_getTranslationUnitCursor(tu), visit_assert, &ac);
    for (int i = 0; i < t.marked.len; i++) {
        Region *r = parse_region(u, tu, ops, hops, &ac.found, fns[i]);
        vec_push(a, r->rejected ? &u->rejected : &u->regions, r);
    }
    decls_end(u);
    clang_disposeTranslationUnit(tu);
    clang_disposeIndex(idx);
    return u;
}

typedef struct {
    const char *path;
    const ParseOptions *opt;
    Unit *u;
} ParseCall;

static void parse_call(void *p)
{
    ParseCall *c = p;
    c->u = parse_unit_(c->path, c->opt);
}

/* The conversion recurses as deep as the expressions nest: on a deep stack. */
Unit *parse_unit(const char *path, const ParseOptions *opt)
{
    ParseCall c = {path, opt, NULL};
    gfc_with_stack(parse_call, &c);
    return c.u;
}
