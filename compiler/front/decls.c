/* decls.c - the front end's declarations: the types, constants and static
 * helpers that generated code names, rebuilt from the AST, so that a .gf.cu
 * compiles without the user's headers, macros or -I flags.
 *
 *   records    struct/union definitions from clang's fields (canonical types,
 *              enums as their integer type), with the C compiler's size,
 *              alignment and field offsets kept for static_asserts (a layout
 *              that differs cannot pass silently); anonymous members inline,
 *              unnamed records tagged gf_anon_<n>, an anonymous record named by
 *              its typedef (`typedef struct {...} Q;`) defined once as such;
 *   typedefs   `typedef <canonical type> name;`, for the names a helper uses;
 *   enums      their constants as integer constants (C++ converts no int to
 *              an enum implicitly, so enum types become their integer type);
 *   constants  the const globals a helper reads: scalars by value (constexpr
 *              in CUDA, usable in device code), aggregates as a host and a
 *              device copy chosen by __CUDA_ARCH__;
 *   helpers    clang's pretty printer (macros expanded exactly as the C
 *              compiler saw them), identifiers renamed where generated code
 *              needs it, what C++ refuses diagnosed.
 *
 * Each is created once (keyed by its USR) after everything it names, so the
 * order of Unit.decls is a definition order; emit_prelude prints those the
 * accepted regions need (Region.decls, through Decl.deps).
 *
 * Names: decls_cname renames a user identifier that C++ reserves (new,
 * class), that the generated file's headers declare (max, y0, dim3, stdin,
 * M_PI: reserved_names.h, from scripts/reserved_names.py), that is in
 * gpufuse's own namespace (gf_, GF_), or that is not ASCII (nvcc refuses it in
 * device entities).  Entities declared in system headers get gf_s_: the
 * generated file includes some of those headers itself. */
#include "decls.h"

#include "clang_compat.h"

#include <stdlib.h>
#include <string.h>

typedef struct Rename {
    const char *from, *to;
} Rename;

struct DeclState {
    Unit *u;
    Arena *a;
    CXTranslationUnit tu;
    CXPrintingPolicy pol;
    Vec all;                     /* Decl*: every one created, also those in progress */
    Vec funcs;                   /* Func* */
    Vec func_defs;               /* CXCursor*: the definition of each */
    int nanon;                   /* unnamed records tagged so far */
};

/* ---- names: ir/names.c ---- */

/* Typedefs of the standard headers every generated file includes itself: a
 * helper that names them (from the same system headers) keeps the name. */
static const char *const prelude_typedefs[] = {
    "size_t", "ptrdiff_t", "max_align_t", "intptr_t", "uintptr_t", "intmax_t", "uintmax_t", "int8_t", "int16_t",
    "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "int_least8_t", "int_least16_t",
    "int_least32_t", "int_least64_t", "uint_least8_t", "uint_least16_t", "uint_least32_t", "uint_least64_t",
    "int_fast8_t", "int_fast16_t", "int_fast32_t", "int_fast64_t", "uint_fast8_t", "uint_fast16_t",
    "uint_fast32_t", "uint_fast64_t", "float_t", "double_t", NULL};

static char *cx_str(Arena *a, CXString s)
{
    const char *c = clang_getCString(s);
    char *r = arena_strdup(a, c ? c : "");
    clang_disposeString(s);
    return r;
}

static const char *spelling(struct DeclState *d, CXCursor c)
{
    return cx_str(d->a, clang_getCursorSpelling(c));
}

static const char *type_spelling(struct DeclState *d, CXType t)
{
    return cx_str(d->a, clang_getTypeSpelling(t));
}

static bool in_system(CXCursor c)
{
    return clang_Location_isInSystemHeader(clang_getCursorLocation(c));
}

/* Declared outside every function (C: file scope, also a tag nested in a struct). */
static bool file_scope(CXCursor c)
{
    for (CXCursor p = clang_getCursorSemanticParent(c); !clang_Cursor_isNull(p); p = clang_getCursorSemanticParent(p)) {
        enum CXCursorKind k = clang_getCursorKind(p);
        if (k == CXCursor_TranslationUnit)
            return true;
        if (k == CXCursor_FunctionDecl || clang_isInvalid(k))
            return false;
    }
    return true;
}

/* The name generated code gives a file-scope entity. */
static const char *entity_cname(struct DeclState *d, CXCursor c)
{
    const char *s = spelling(d, c);
    if (in_system(c) && names_plain_ident(s))
        return arena_printf(d->a, "gf_s_%s", s);
    return decls_cname(d->a, s);
}

/* "kernels.h:4": the file's base name (the input as generated code names it). */
static const char *where_of(struct DeclState *d, CXCursor c)
{
    CXFile f;
    unsigned line;
    clang_getExpansionLocation(clang_getCursorLocation(c), &f, &line, NULL, NULL);
    if (!f)
        return "built-in";
    const char *name = cx_str(d->a, clang_getFileName(f));
    if (gfc_from_main_file(c))
        name = d->u->gen_path;
    else if (strrchr(name, '/'))
        name = strrchr(name, '/') + 1;
    return arena_printf(d->a, "%s:%u", decls_gen_path(d->a, name), line);
}

typedef struct Kids {
    Vec v;                       /* CXCursor* */
    Arena *a;
} Kids;

static enum CXChildVisitResult collect(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    Kids *k = data;
    CXCursor *cp = arena_alloc(k->a, sizeof *cp);
    *cp = c;
    vec_push(k->a, &k->v, cp);
    return CXChildVisit_Continue;
}

static Vec kids(struct DeclState *d, CXCursor c)
{
    Kids k = {{0}, d->a};
    clang_visitChildren(c, collect, &k);
    return k.v;
}

#define KID(v, i) (*(CXCursor *)vec_at(&(v), i))

/* ---- the Decl table -------------------------------------------------------------------- */

static Decl *find_decl(struct DeclState *d, const char *usr)
{
    for (int i = 0; i < d->all.len; i++) {
        Decl *x = vec_at(&d->all, i);
        if (!strcmp(x->usr, usr))
            return x;
    }
    return NULL;
}

static Decl *new_decl(struct DeclState *d, DeclKind k, const char *usr, CXCursor at)
{
    Decl *x = arena_alloc(d->a, sizeof *x);
    x->kind = k;
    x->usr = usr;
    x->id = -1;
    x->where = where_of(d, at);
    vec_push(d->a, &d->all, x);
    return x;
}

/* Complete: after everything it needs, in definition order. */
static Decl *finish(struct DeclState *d, Decl *x)
{
    x->id = d->u->decls.len;
    vec_push(d->a, &d->u->decls, x);
    return x;
}

static Decl *fail(Decl *x, const char *why)
{
    x->why = why;
    return x;
}

static void add_dep(struct DeclState *d, Decl *owner, Decl *dep)
{
    if (!owner || owner == dep)
        return;
    for (int i = 0; i < owner->deps.len; i++)
        if (vec_at(&owner->deps, i) == dep)
            return;
    vec_push(d->a, &owner->deps, dep);
}

static Decl *record_decl(struct DeclState *d, CXCursor rec);
static Decl *enum_decl(struct DeclState *d, CXCursor en);

/* ---- types as C declarators ------------------------------------------------------------- */

typedef struct TyCx {
    struct DeclState *d;
    Decl *owner;                 /* gets the records it needs defined first */
    Vec later;                   /* CXCursor*: tagged records needed only through pointers */
    const char *why;
} TyCx;

static const char *builtin_name(enum CXTypeKind k)
{
    switch (k) {
    case CXType_Void: return "void";
    case CXType_Bool: return "_Bool";
    case CXType_Char_S:
    case CXType_Char_U: return "char";
    case CXType_SChar: return "signed char";
    case CXType_UChar: return "unsigned char";
    case CXType_Short: return "short";
    case CXType_UShort: return "unsigned short";
    case CXType_Int: return "int";
    case CXType_UInt: return "unsigned int";
    case CXType_Long: return "long";
    case CXType_ULong: return "unsigned long";
    case CXType_LongLong: return "long long";
    case CXType_ULongLong: return "unsigned long long";
    case CXType_Int128: return "__int128";
    case CXType_UInt128: return "unsigned __int128";
    case CXType_Float: return "float";
    case CXType_Double: return "double";
    default: return NULL;
    }
}

static unsigned qual_bits(CXType t)
{
    return (unsigned)clang_isConstQualifiedType(t) | (unsigned)clang_isVolatileQualifiedType(t) << 1 |
           (unsigned)clang_isRestrictQualifiedType(t) << 2;
}

static const char *qual_text(unsigned q)
{
    static const char *const t[8] = {"", "const ", "volatile ", "const volatile ", "restrict ", "const restrict ",
                                     "volatile restrict ", "const volatile restrict "};
    return t[q & 7];
}

static const char *quals(CXType t)
{
    return qual_text(qual_bits(t));
}

/* How a record is named, and whether it can be declared ahead (`struct T;`). */
typedef enum RecName { REC_TAGGED, REC_TYPEDEF, REC_UNNAMED } RecName;

static RecName rec_name_kind(struct DeclState *d, CXCursor def)
{
    const char *s = spelling(d, def);
    if (!*s || strchr(s, '('))
        return REC_UNNAMED;
    const char *ts = type_spelling(d, clang_getCursorType(def));
    if (!strncmp(ts, "struct ", 7) || !strncmp(ts, "union ", 6))
        return REC_TAGGED;
    return REC_TYPEDEF;      /* clang 16 names `typedef struct {...} Q;` by its typedef */
}

static const char *rec_keyword(CXCursor def)
{
    return clang_getCursorKind(def) == CXCursor_UnionDecl ? "union" : "struct";
}

static char *ty_text_q(TyCx *t, CXType ty, const char *inner, unsigned outer_q);

static char *ty_text(TyCx *t, CXType ty, const char *inner)
{
    return ty_text_q(t, ty, inner, 0);
}

static char *record_ref(TyCx *t, CXType c, bool by_pointer)
{
    struct DeclState *d = t->d;
    CXCursor def = clang_getCursorDefinition(clang_getTypeDeclaration(c));
    if (clang_Cursor_isNull(def)) {
        t->why = arena_printf(d->a, "'%s' is an incomplete type", type_spelling(d, c));
        return NULL;
    }
    if (by_pointer && rec_name_kind(d, def) == REC_TAGGED) {
        CXCursor *cp = arena_alloc(d->a, sizeof *cp);
        *cp = def;
        vec_push(d->a, &t->later, cp);
        return arena_printf(d->a, "%s %s", rec_keyword(def), entity_cname(d, def));
    }
    Decl *r = record_decl(d, def);
    if (r->why) {
        t->why = r->why;
        return NULL;
    }
    add_dep(d, t->owner, r);
    return arena_strdup(d->a, r->name);
}

static char *func_text(TyCx *t, CXType c, const char *inner)
{
    Buf b = {0};
    buf_printf(&b, "%s(", inner);
    int n = clang_getNumArgTypes(c);
    for (int i = 0; i < n; i++) {
        char *a = ty_text(t, clang_getArgType(c, (unsigned)i), "");
        if (!a) {
            buf_free(&b);
            return NULL;
        }
        buf_printf(&b, "%s%s", i ? ", " : "", a);
    }
    if (c.kind == CXType_FunctionProto && clang_isFunctionTypeVariadic(c))
        buf_puts(&b, n ? ", ..." : "...");
    else if (c.kind == CXType_FunctionProto && n == 0)
        buf_puts(&b, "void");
    buf_puts(&b, ")");
    char *r = ty_text(t, clang_getResultType(c), b.data);
    buf_free(&b);
    return r;
}

/* `inner` declared with type ty, in C syntax that C++ reads the same way;
 * outer_q: the qualifiers of an array around it (they are its elements'). */
static char *ty_text_q(TyCx *t, CXType ty, const char *inner, unsigned outer_q)
{
    struct DeclState *d = t->d;
    CXType c = clang_getCanonicalType(ty);
    unsigned qb = qual_bits(c) | outer_q;
    const char *q = qual_text(qb), *sp = inner[0] && inner[0] != '[' && inner[0] != '(' ? " " : "";
    switch (c.kind) {
    case CXType_Pointer: {
        CXType pc = clang_getCanonicalType(clang_getPointeeType(c));
        char *in = arena_printf(d->a, "*%s%s", q, inner);
        if (pc.kind == CXType_ConstantArray || pc.kind == CXType_IncompleteArray || pc.kind == CXType_FunctionProto ||
            pc.kind == CXType_FunctionNoProto)
            in = arena_printf(d->a, "(%s)", in);
        if (pc.kind == CXType_Record) {
            char *name = record_ref(t, pc, true);
            return name ? arena_printf(d->a, "%s%s %s", quals(pc), name, in) : NULL;
        }
        return ty_text(t, pc, in);
    }
    case CXType_ConstantArray:
        return ty_text_q(t, clang_getArrayElementType(c), arena_printf(d->a, "%s[%lld]", inner, clang_getArraySize(c)),
                         qb);
    case CXType_IncompleteArray:
        return ty_text_q(t, clang_getArrayElementType(c), arena_printf(d->a, "%s[]", inner), qb);
    case CXType_FunctionProto:
    case CXType_FunctionNoProto: return func_text(t, c, inner);
    case CXType_Record: {
        char *name = record_ref(t, c, false);
        return name ? arena_printf(d->a, "%s%s%s%s", q, name, sp, inner) : NULL;
    }
    case CXType_Enum: {
        CXType it = clang_getEnumDeclIntegerType(clang_getTypeDeclaration(c));
        const char *n = builtin_name(clang_getCanonicalType(it).kind);
        return n ? arena_printf(d->a, "%s%s%s%s", q, n, sp, inner) : NULL;
    }
    case CXType_VariableArray:
        t->why = "a variable-length array type has no CUDA equivalent";
        return NULL;
    case CXType_LongDouble:
        t->why = "'long double' has no GPU equivalent";
        return NULL;
    case CXType_Float16:
        t->why = "a struct with a '_Float16' field is not supported (arrays of _Float16 are: docs/types.md)";
        return NULL;
    default: {
        const char *n = builtin_name(c.kind);
        if (n)
            return arena_printf(d->a, "%s%s%s%s", q, n, sp, inner);
        t->why = arena_printf(d->a, "type '%s' cannot be written in CUDA", type_spelling(d, c));
        return NULL;
    }
    }
}

/* Records that tc needed only through pointers: created after its owner. */
static const char *ty_finish(TyCx *t)
{
    for (int i = 0; i < t->later.len && !t->why; i++) {
        Decl *r = record_decl(t->d, *(CXCursor *)vec_at(&t->later, i));
        if (r->why)
            t->why = r->why;
        add_dep(t->d, t->owner, r);
    }
    return t->why;
}

/* ---- records ------------------------------------------------------------------------------ */

typedef struct Layout {
    bool natural;                /* every field at its natural offset: no attribute needed */
    bool packed;                 /* every field right after the previous one */
    bool simple;                 /* no bitfield, no anonymous member: the two tests apply */
    bool is_union;               /* every field at 0 */
    long long end, align;
} Layout;

static void layout_field(Layout *l, long long off, long long size, long long align)
{
    long long nat = l->is_union ? 0 : (l->end + align - 1) / align * align;
    l->natural &= off == nat;
    l->packed &= off == (l->is_union ? 0 : l->end);
    if (off + size > l->end)
        l->end = off + size;
    if (align > l->align)
        l->align = align;
}

static bool fields_text(TyCx *t, CXCursor rec, CXType whole, Buf *b, int indent, Decl *x, Layout *l);

static CXCursor rec_of(CXCursor field)
{
    return clang_getCursorSemanticParent(field);
}

static bool field_text(TyCx *t, CXCursor f, CXType whole, Buf *b, int indent, Decl *x, Layout *l)
{
    struct DeclState *d = t->d;
    const char *name = spelling(d, f);
    const char *cn = *name ? decls_cname(d->a, name) : "";
    char *s = ty_text(t, clang_getCursorType(f), cn);
    if (!s)
        return false;
    Vec fk = kids(d, f);
    for (int i = 0; i < fk.len; i++)
        if (clang_getCursorKind(KID(fk, i)) == CXCursor_AlignedAttr) {
            t->why = arena_printf(d->a, "field '%s' of %s %s has an alignment attribute that gpufuse cannot "
                                  "reproduce in CUDA", name, rec_keyword(rec_of(f)), spelling(d, rec_of(f)));
            return false;
        }
    buf_printf(b, "%*s%s", indent, "", s);
    if (clang_Cursor_isBitField(f)) {
        buf_printf(b, " : %d", clang_getFieldDeclBitWidth(f));
        l->simple = false;
    } else if (*name) {
        long long off = clang_Type_getOffsetOf(whole, name);
        if (off >= 0) {
            DeclField *df = arena_alloc(d->a, sizeof *df);
            df->name = cn;
            df->offset = off / 8;
            vec_push(d->a, &x->offsets, df);
            CXType ft = clang_getCursorType(f);
            layout_field(l, off / 8, clang_Type_getSizeOf(ft), clang_Type_getAlignOf(ft));
        }
    }
    buf_puts(b, ";\n");
    return true;
}

static bool fields_text(TyCx *t, CXCursor rec, CXType whole, Buf *b, int indent, Decl *x, Layout *l)
{
    struct DeclState *d = t->d;
    Vec ks = kids(d, rec);
    for (int i = 0; i < ks.len; i++) {
        CXCursor k = KID(ks, i);
        enum CXCursorKind kk = clang_getCursorKind(k);
        if (kk == CXCursor_FieldDecl) {
            if (!field_text(t, k, whole, b, indent, x, l))
                return false;
        } else if ((kk == CXCursor_StructDecl || kk == CXCursor_UnionDecl) && clang_Cursor_isAnonymousRecordDecl(k)) {
            /* a C11 anonymous member: its fields are the record's own */
            l->simple = false;
            buf_printf(b, "%*s%s {\n", indent, "", rec_keyword(k));
            if (!fields_text(t, k, whole, b, indent + 4, x, l))
                return false;
            buf_printf(b, "%*s};\n", indent, "");
        }
    }
    return true;
}

static bool has_kid(struct DeclState *d, CXCursor c, enum CXCursorKind k)
{
    Vec ks = kids(d, c);
    for (int i = 0; i < ks.len; i++)
        if (clang_getCursorKind(KID(ks, i)) == k)
            return true;
    return false;
}

/* The attribute that gives the definition clang's layout, or why none does
 * (#pragma pack(2), aligned fields): the static_asserts then never fail. */
static const char *layout_attr(struct DeclState *d, CXCursor def, Layout *l, long long size, long long align,
                               const char **why)
{
    bool packed = has_kid(d, def, CXCursor_PackedAttr);
    if (!l->simple)
        return packed ? " __attribute__((packed))" : "";
    if (!l->align)
        l->align = 1;
    bool nat = l->natural && !packed, pk = l->packed && (packed || !l->natural);
    long long a = pk ? 1 : l->align, end = (l->end + a - 1) / a * a;
    const char *attr = pk ? " __attribute__((packed))" : "";
    if (align > a) {
        attr = arena_printf(d->a, "%s __attribute__((aligned(%lld)))", attr, align);
        a = align;
        end = (l->end + a - 1) / a * a;
    }
    if ((!nat && !pk) || align < a || end != size)
        *why = arena_printf(d->a, "%s %s has a layout (#pragma pack, aligned fields) that gpufuse cannot reproduce "
                            "in CUDA", rec_keyword(def), spelling(d, def));
    return attr;
}

static Decl *record_decl(struct DeclState *d, CXCursor rec)
{
    CXCursor def = clang_getCursorDefinition(rec);
    if (clang_Cursor_isNull(def))
        def = rec;
    const char *usr = cx_str(d->a, clang_getCursorUSR(def));
    Decl *x = find_decl(d, usr);
    if (x)
        return x;
    x = new_decl(d, D_RECORD, usr, def);
    if (!clang_isCursorDefinition(def))
        return fail(x, arena_printf(d->a, "%s %s is incomplete", rec_keyword(def), spelling(d, def)));
    const char *kw = rec_keyword(def);
    RecName nk = rec_name_kind(d, def);
    const char *tag = nk == REC_TAGGED ? entity_cname(d, def)
                      : nk == REC_UNNAMED ? arena_printf(d->a, "gf_anon_%d", ++d->nanon) : NULL;
    x->name = tag ? arena_printf(d->a, "%s %s", kw, tag) : entity_cname(d, def);
    if (tag)
        x->fwd = arena_printf(d->a, "%s;", x->name);
    CXType ty = clang_getCursorType(def);
    x->size = clang_Type_getSizeOf(ty);
    x->align = clang_Type_getAlignOf(ty);
    TyCx t = {d, x, {0}, NULL};
    Buf b = {0};
    Layout l = {true, true, true, clang_getCursorKind(def) == CXCursor_UnionDecl, 0, 0};
    if (!fields_text(&t, def, ty, &b, 4, x, &l)) {
        buf_free(&b);
        return fail(x, t.why);
    }
    const char *why = NULL;
    const char *attr = layout_attr(d, def, &l, x->size, x->align, &why);
    if (why) {
        buf_free(&b);
        return fail(x, why);
    }
    if (tag)
        x->text = arena_printf(d->a, "%s%s %s {\n%s};", kw, attr, tag, b.data ? b.data : "");
    else
        x->text = arena_printf(d->a, "typedef %s%s {\n%s} %s;", kw, attr, b.data ? b.data : "", x->name);
    buf_free(&b);
    finish(d, x);
    if (ty_finish(&t))
        return fail(x, t.why);
    return x;
}

/* ---- enums, typedefs, constants ------------------------------------------------------------------ */

static const char *int_lit(struct DeclState *d, long long v, unsigned long long uv, bool uns)
{
    if (uns)
        return arena_printf(d->a, "%lluULL", uv);
    if (v == (long long)(-9223372036854775807LL - 1))
        return "(-9223372036854775807LL - 1)";
    if (v > 2147483647LL || v < -2147483647LL)
        return arena_printf(d->a, "%lldLL", v);
    return arena_printf(d->a, "%lld", v);
}

static bool unsigned_kind(enum CXTypeKind k)
{
    return k == CXType_UInt || k == CXType_ULong || k == CXType_ULongLong || k == CXType_UShort ||
           k == CXType_UChar || k == CXType_Char_U || k == CXType_UInt128 || k == CXType_Bool;
}

/* The enumeration's constants as named integer constants: an anonymous enum
 * in C (integer constant expressions), constexpr in CUDA. */
static Decl *enum_decl(struct DeclState *d, CXCursor en)
{
    const char *usr = cx_str(d->a, clang_getCursorUSR(en));
    Decl *x = find_decl(d, usr);
    if (x)
        return x;
    x = new_decl(d, D_ENUM, usr, en);
    const char *s = spelling(d, en);
    x->name = arena_printf(d->a, "enum %s", *s && !strchr(s, '(') ? s : "(anonymous)");
    Vec ks = kids(d, en);
    Buf c = {0}, typed = {0}, cu = {0};
    bool all_int = true;
    for (int i = 0; i < ks.len; i++) {
        CXCursor k = KID(ks, i);
        if (clang_getCursorKind(k) != CXCursor_EnumConstantDecl)
            continue;
        CXType kt = clang_getCanonicalType(clang_getCursorType(k));
        if (kt.kind == CXType_Enum)
            kt = clang_getCanonicalType(clang_getEnumDeclIntegerType(en));
        const char *tn = builtin_name(kt.kind);
        tn = tn ? tn : "long long";
        const char *v = int_lit(d, clang_getEnumConstantDeclValue(k), clang_getEnumConstantDeclUnsignedValue(k),
                                unsigned_kind(kt.kind));
        const char *n = entity_cname(d, k);
        all_int &= kt.kind == CXType_Int;
        buf_printf(&c, "%s%s = %s", c.len ? ", " : "", n, v);
        buf_printf(&typed, "%sGF_UNUSED static const %s %s = %s;", typed.len ? "\n" : "", tn, n, v);
        buf_printf(&cu, "%sGF_UNUSED static constexpr %s %s = %s;", cu.len ? "\n" : "", tn, n, v);
    }
    /* C: an anonymous enum (integer constant expressions), or typed constants
     * beyond int (a clang extension) */
    x->text = !c.len ? "" : all_int ? arena_printf(d->a, "enum { %s };", c.data) : arena_strdup(d->a, typed.data);
    x->text_cuda = cu.len ? arena_strdup(d->a, cu.data) : NULL;
    buf_free(&c);
    buf_free(&typed);
    buf_free(&cu);
    return finish(d, x);
}

static RecName typedef_is_record_name(struct DeclState *d, CXCursor td, CXCursor *rec)
{
    CXType c = clang_getCanonicalType(clang_getTypedefDeclUnderlyingType(td));
    if (c.kind != CXType_Record)
        return REC_TAGGED;
    *rec = clang_getCursorDefinition(clang_getTypeDeclaration(c));
    if (clang_Cursor_isNull(*rec) || rec_name_kind(d, *rec) != REC_TYPEDEF)
        return REC_TAGGED;
    return strcmp(spelling(d, *rec), spelling(d, td)) ? REC_TAGGED : REC_TYPEDEF;
}

static Decl *typedef_decl(struct DeclState *d, CXCursor td)
{
    CXCursor rec;
    if (typedef_is_record_name(d, td, &rec) == REC_TYPEDEF)
        return record_decl(d, rec);      /* `typedef struct {...} Q;`: the record is Q */
    const char *usr = cx_str(d->a, clang_getCursorUSR(td));
    Decl *x = find_decl(d, usr);
    if (x)
        return x;
    x = new_decl(d, D_TYPEDEF, usr, td);
    x->name = entity_cname(d, td);
    TyCx t = {d, x, {0}, NULL};
    char *s = ty_text(&t, clang_getTypedefDeclUnderlyingType(td), x->name);
    if (!s)
        return fail(x, t.why);
    x->text = arena_printf(d->a, "typedef %s;", s);
    finish(d, x);
    if (ty_finish(&t))
        return fail(x, t.why);
    return x;
}

static bool has_pointer(struct DeclState *d, CXType t)
{
    CXType c = clang_getCanonicalType(t);
    switch (c.kind) {
    case CXType_Pointer: return true;
    case CXType_ConstantArray:
    case CXType_IncompleteArray: return has_pointer(d, clang_getArrayElementType(c));
    case CXType_Record: {
        CXCursor def = clang_getCursorDefinition(clang_getTypeDeclaration(c));
        Vec ks = kids(d, def);
        for (int i = 0; i < ks.len; i++) {
            CXCursor k = KID(ks, i);
            enum CXCursorKind kk = clang_getCursorKind(k);
            if ((kk == CXCursor_FieldDecl && has_pointer(d, clang_getCursorType(k))) ||
                ((kk == CXCursor_StructDecl || kk == CXCursor_UnionDecl) && clang_Cursor_isAnonymousRecordDecl(k) &&
                 has_pointer(d, clang_getCursorType(k))))
                return true;
        }
        return false;
    }
    default: return false;
    }
}

/* ---- walking a helper or an initialiser: what it names --------------------------------------- */

typedef struct WalkCx {
    struct DeclState *d;
    Decl *owner;
    const char *what;            /* "helper 'f'", for messages */
    Vec map;                     /* Rename*: identifiers renamed in its text */
    Vec keep;                    /* const char*: names of library entities, kept */
    Vec enums;                   /* Rename*: enum tag -> its integer type */
    int strings_ok;              /* inside __builtin_nan("") or a static assertion */
    const char *why;
} WalkCx;

static void walk_fail(WalkCx *w, const char *why)
{
    if (!w->why)
        w->why = arena_printf(w->d->a, "%s %s", w->what, why);
}

static const char *mapped(Vec *m, const char *from)
{
    for (int i = 0; i < m->len; i++) {
        Rename *r = vec_at(m, i);
        if (!strcmp(r->from, from))
            return r->to;
    }
    return NULL;
}

static bool kept(WalkCx *w, const char *name)
{
    for (int i = 0; i < w->keep.len; i++)
        if (!strcmp(vec_at(&w->keep, i), name))
            return true;
    return false;
}

static void clash(WalkCx *w, const char *name)
{
    walk_fail(w, arena_printf(w->d->a, "uses the name '%s' for two things that CUDA code must name differently; "
                              "rename one of them", name));
}

static void map_add(WalkCx *w, const char *from, const char *to)
{
    if (!*from)
        return;
    const char *old = mapped(&w->map, from);
    if (old) {
        if (strcmp(old, to))
            clash(w, from);
        return;
    }
    if (kept(w, from) && strcmp(from, to)) {
        clash(w, from);
        return;
    }
    Rename *r = arena_alloc(w->d->a, sizeof *r);
    r->from = from;
    r->to = to;
    vec_push(w->d->a, &w->map, r);
}

static void keep_add(WalkCx *w, const char *name)
{
    const char *old = mapped(&w->map, name);
    if (old && strcmp(old, name)) {
        clash(w, name);
        return;
    }
    if (!kept(w, name))
        vec_push(w->d->a, &w->keep, (void *)name);
}

static bool keep_typedef(struct DeclState *d, CXCursor td)
{
    CXFile f;
    clang_getExpansionLocation(clang_getCursorLocation(td), &f, NULL, NULL, NULL);
    if (!f)
        return true;             /* clang's own: __int128_t, __builtin_va_list */
    return in_system(td) && names_in_list(prelude_typedefs, spelling(d, td));
}

/* What C accepts and C++ (CUDA) does not, in a type written in the text. */
static void check_type(WalkCx *w, CXType t)
{
    CXType c = clang_getCanonicalType(t);
    switch (c.kind) {
    case CXType_VariableArray: walk_fail(w, "declares a variable-length array, which CUDA device code cannot have"); return;
    case CXType_LongDouble: walk_fail(w, "uses 'long double', which has no GPU equivalent"); return;
    case CXType_Float16:
    case CXType_BFloat16:
    case CXType_Complex:         /* gf_c32 / gf_c64 exist in the marked function's code only */
        walk_fail(w, arena_printf(w->d->a, "uses '%s', which gpufuse supports in the marked function's own code only",
                                  type_spelling(w->d, c)));
        return;
    case CXType_Atomic:
    case CXType_Vector:
    case CXType_ExtVector:
        walk_fail(w, arena_printf(w->d->a, "uses the type '%s', which CUDA C++ does not have", type_spelling(w->d, c)));
        return;
    case CXType_Pointer: check_type(w, clang_getPointeeType(c)); return;
    case CXType_ConstantArray:
    case CXType_IncompleteArray: check_type(w, clang_getArrayElementType(c)); return;
    case CXType_FunctionProto:
        check_type(w, clang_getResultType(c));
        for (int i = 0; i < clang_getNumArgTypes(c); i++)
            check_type(w, clang_getArgType(c, (unsigned)i));
        return;
    default: return;
    }
}

/* The spelling of canonical type t without its own qualifiers (libclang
 * before 16 has no clang_getUnqualifiedType). */
static const char *unqualified(struct DeclState *d, CXType t)
{
    const char *s = type_spelling(d, clang_getCanonicalType(t));
    static const char *const q[] = {"const", "volatile", "restrict"};
    for (bool again = true; again;) {
        again = false;
        for (int i = 0; i < 3; i++) {
            size_t n = strlen(q[i]), len = strlen(s);
            if (!strncmp(s, q[i], n) && s[n] == ' ') {
                s += n + 1;
                again = true;
            } else if (len > n && !strcmp(s + len - n, q[i]) && s[len - n - 1] == ' ') {
                s = arena_printf(d->a, "%.*s", (int)(len - n - 1), s);
                again = true;
            }
        }
    }
    return s;
}

/* e is one of en's constants (through parentheses and ?:): in C an int, in
 * C++ of the enumeration's type, so converting it needs no cast. */
static bool enum_valued(WalkCx *w, CXCursor e, CXCursor en)
{
    enum CXCursorKind k = clang_getCursorKind(e);
    Vec ks = kids(w->d, e);
    if (k == CXCursor_DeclRefExpr) {
        CXCursor r = clang_getCursorReferenced(e);
        return clang_getCursorKind(r) == CXCursor_EnumConstantDecl &&
               clang_equalCursors(clang_getCursorSemanticParent(r), en);
    }
    if ((k == CXCursor_ParenExpr || k == CXCursor_UnexposedExpr) && ks.len == 1)
        return enum_valued(w, KID(ks, 0), en);
    if (k == CXCursor_ConditionalOperator && ks.len == 3)
        return enum_valued(w, KID(ks, 1), en) && enum_valued(w, KID(ks, 2), en);
    return false;
}

/* An implicit conversion C allows and C++ refuses: void * (or another
 * pointer) to an object pointer, a qualifier dropped, an int to an enum. */
static void check_conversion(WalkCx *w, CXCursor c)
{
    Vec ks = kids(w->d, c);
    if (ks.len != 1)
        return;
    CXType to = clang_getCanonicalType(clang_getCursorType(c));
    CXType from = clang_getCanonicalType(clang_getCursorType(KID(ks, 0)));
    if (to.kind == CXType_Pointer && from.kind == CXType_Pointer) {
        CXType tp = clang_getCanonicalType(clang_getPointeeType(to));
        CXType fp = clang_getCanonicalType(clang_getPointeeType(from));
        bool same = !strcmp(unqualified(w->d, tp), unqualified(w->d, fp));
        bool drops = (clang_isConstQualifiedType(fp) && !clang_isConstQualifiedType(tp)) ||
                     (clang_isVolatileQualifiedType(fp) && !clang_isVolatileQualifiedType(tp));
        if ((!same && tp.kind != CXType_Void) || drops)
            walk_fail(w, arena_printf(w->d->a, "converts '%s' to '%s' implicitly, which C++ does not allow; write "
                                      "the cast", type_spelling(w->d, from), type_spelling(w->d, to)));
    } else if (to.kind == CXType_Enum && !clang_equalTypes(to, from) && !file_scope(clang_getTypeDeclaration(to)) &&
               !enum_valued(w, KID(ks, 0), clang_getTypeDeclaration(to))) {
        /* (a file-scope enumeration is its integer type in generated code) */
        walk_fail(w, arena_printf(w->d->a, "converts '%s' to the local enumeration '%s' implicitly, which C++ does "
                                  "not allow; write the cast", type_spelling(w->d, from), type_spelling(w->d, to)));
    }
}

static Decl *helper_decl(struct DeclState *d, Func *f);
static Decl *const_decl(struct DeclState *d, CXCursor var);

static void dep(WalkCx *w, Decl *x)
{
    if (x->why)
        w->why = w->why ? w->why : x->why;
    else
        add_dep(w->d, w->owner, x);
}

/* A reference to R from the text. */
static void walk_ref(WalkCx *w, CXCursor r)
{
    struct DeclState *d = w->d;
    const char *s = spelling(d, r);
    switch (clang_getCursorKind(r)) {
    case CXCursor_FunctionDecl: {
        Func *f = decls_helper(d->u, r);
        if (!f) {
            keep_add(w, s);      /* a math function: the library's name */
            return;
        }
        Decl *x = helper_decl(d, f);
        if (x)
            dep(w, x);
        map_add(w, s, f->cname);
        return;
    }
    case CXCursor_VarDecl:
        if (clang_getCursorKind(clang_getCursorSemanticParent(r)) == CXCursor_TranslationUnit) {
            Decl *x = const_decl(d, r);
            dep(w, x);
            map_add(w, s, x->name ? x->name : s);
        }
        return;
    case CXCursor_FieldDecl: map_add(w, s, decls_cname(d->a, s)); return;
    case CXCursor_EnumConstantDecl: {
        CXCursor en = clang_getCursorSemanticParent(r);
        if (file_scope(en)) {
            dep(w, enum_decl(d, en));
            map_add(w, s, entity_cname(d, r));
        }
        return;
    }
    case CXCursor_TypedefDecl:
        if (keep_typedef(d, r)) {
            keep_add(w, s);
        } else if (file_scope(r)) {
            Decl *x = typedef_decl(d, r);
            dep(w, x);
            map_add(w, s, x->kind == D_RECORD && x->name ? x->name : entity_cname(d, r));
        }
        return;
    case CXCursor_StructDecl:
    case CXCursor_UnionDecl:
        if (file_scope(r)) {
            Decl *x = record_decl(d, r);
            dep(w, x);
            if (x->name && !strncmp(x->name, "struct ", 7))
                map_add(w, s, x->name + 7);
            else if (x->name && !strncmp(x->name, "union ", 6))
                map_add(w, s, x->name + 6);
        }
        return;
    case CXCursor_EnumDecl:
        if (file_scope(r) && *s && !strchr(s, '(')) {
            const char *it = builtin_name(clang_getCanonicalType(clang_getEnumDeclIntegerType(r)).kind);
            Rename *e = arena_alloc(d->a, sizeof *e);
            e->from = s;
            e->to = it ? it : "int";
            vec_push(d->a, &w->enums, e);
        }
        return;
    default: return;
    }
}

/* One node: false when its children need no walk. */
static bool walk_node(WalkCx *w, CXCursor c)
{
    struct DeclState *d = w->d;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (clang_isDeclaration(k) || clang_isExpression(k))
        check_type(w, clang_getCursorType(c));
    switch (k) {
    case CXCursor_ParmDecl:
    case CXCursor_FieldDecl:
    case CXCursor_TypedefDecl:
    case CXCursor_EnumConstantDecl: map_add(w, spelling(d, c), decls_cname(d->a, spelling(d, c))); break;
    case CXCursor_VarDecl:
        if (clang_getCursorKind(clang_getCursorSemanticParent(c)) != CXCursor_TranslationUnit)
            map_add(w, spelling(d, c), decls_cname(d->a, spelling(d, c)));
        break;
    case CXCursor_StructDecl:
    case CXCursor_UnionDecl:
    case CXCursor_EnumDecl: {
        const char *s = spelling(d, c);
        if (!file_scope(c) && *s && !strchr(s, '('))
            map_add(w, s, decls_cname(d->a, s));
        break;
    }
    case CXCursor_DeclRefExpr:
    case CXCursor_MemberRefExpr:
    case CXCursor_TypeRef: walk_ref(w, clang_getCursorReferenced(c)); break;
    case CXCursor_StringLiteral:
        if (!w->strings_ok)
            walk_fail(w, "uses a string literal, which a kernel cannot use");
        break;
    case CXCursor_UnexposedExpr: check_conversion(w, c); break;
    case CXCursor_GenericSelectionExpr: walk_fail(w, "uses '_Generic', which C++ does not have"); break;
    case CXCursor_GotoStmt:
    case CXCursor_IndirectGotoStmt: walk_fail(w, "uses 'goto'; write structured control flow"); break;
    default: break;
    }
    return !w->why;
}

static void walk(WalkCx *w, CXCursor c);

static enum CXChildVisitResult walk_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    WalkCx *w = data;
    walk(w, c);
    return w->why ? CXChildVisit_Break : CXChildVisit_Continue;
}

static void walk(WalkCx *w, CXCursor c)
{
    if (!walk_node(w, c))
        return;
    enum CXCursorKind k = clang_getCursorKind(c);
    bool strings = k == CXCursor_StaticAssert;
    if (k == CXCursor_CallExpr) {
        const char *s = spelling(w->d, c);
        strings = !strncmp(s, "__builtin_nan", 13);
    }
    w->strings_ok += strings;
    clang_visitChildren(c, walk_visit, w);
    w->strings_ok -= strings;
}

/* ---- the text: clang's pretty printer, identifiers renamed --------------------------------- */

static bool ident_start(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c >= 0x80;
}

static bool ident_char(unsigned char c)
{
    return ident_start(c) || (c >= '0' && c <= '9');
}

/* C11 keywords C++ spells otherwise (CUDA text only). */
static const char *cxx_spelling(const char *id)
{
    static const char *const t[][2] = {{"_Static_assert", "static_assert"}, {"_Alignof", "alignof"},
                                       {"_Alignas", "alignas"}, {"_Noreturn", ""}};
    for (size_t i = 0; i < sizeof t / sizeof *t; i++)
        if (!strcmp(id, t[i][0]))
            return t[i][1];
    return NULL;
}

static size_t skip_literal(const char *s, size_t i)
{
    char q = s[i++];
    while (s[i] && s[i] != q)
        i += s[i] == '\\' && s[i + 1] ? 2 : 1;
    return s[i] ? i + 1 : i;
}

static size_t skip_number(const char *s, size_t i)
{
    while (ident_char((unsigned char)s[i]) || s[i] == '.' ||
           ((s[i] == '+' || s[i] == '-') && strchr("eEpP", s[i - 1])))
        i++;
    return i;
}

static char *rename_text(WalkCx *w, const char *src, bool cuda)
{
    Buf b = {0};
    size_t i = 0;
    while (src[i]) {
        unsigned char ch = (unsigned char)src[i];
        if (ch == '"' || ch == '\'') {
            size_t e = skip_literal(src, i);
            buf_printf(&b, "%.*s", (int)(e - i), src + i);
            i = e;
        } else if (ch >= '0' && ch <= '9') {
            size_t e = skip_number(src, i);
            buf_printf(&b, "%.*s", (int)(e - i), src + i);
            i = e;
        } else if (ident_start(ch)) {
            size_t e = i;
            while (ident_char((unsigned char)src[e]))
                e++;
            char *id = arena_printf(w->d->a, "%.*s", (int)(e - i), src + i);
            const char *to = mapped(&w->map, id);
            if (!strcmp(id, "enum")) {
                /* `enum T` of a file-scope enumeration: its integer type */
                size_t n = e;
                while (src[n] == ' ')
                    n++;
                size_t ne = n;
                while (ident_char((unsigned char)src[ne]))
                    ne++;
                size_t after = ne;
                while (src[after] == ' ')
                    after++;
                char *tag = arena_printf(w->d->a, "%.*s", (int)(ne - n), src + n);
                const char *it = ne > n && src[after] != '{' ? mapped(&w->enums, tag) : NULL;
                if (it) {
                    buf_puts(&b, it);
                    i = ne;
                    continue;
                }
            }
            if (!to && cuda)
                to = cxx_spelling(id);
            buf_puts(&b, to ? to : id);
            i = e;
        } else {
            buf_printf(&b, "%c", ch);
            i++;
        }
    }
    /* no trailing blank lines */
    while (b.len && (b.data[b.len - 1] == '\n' || b.data[b.len - 1] == ' '))
        b.data[--b.len] = '\0';
    char *r = arena_strdup(w->d->a, b.data ? b.data : "");
    buf_free(&b);
    return r;
}

/* ---- constants ---------------------------------------------------------------------------- */

static const char *scalar_value(struct DeclState *d, CXCursor def, CXType c, const char **why)
{
    CXEvalResult ev = clang_Cursor_Evaluate(def);
    if (!ev) {
        *why = "has no constant value";
        return NULL;
    }
    const char *v = NULL;
    if (clang_EvalResult_getKind(ev) == CXEval_Int) {
        bool uns = clang_EvalResult_isUnsignedInt(ev);
        v = int_lit(d, clang_EvalResult_getAsLongLong(ev), clang_EvalResult_getAsUnsigned(ev), uns);
    } else if (clang_EvalResult_getKind(ev) == CXEval_Float) {
        v = arena_printf(d->a, "%a%s", clang_EvalResult_getAsDouble(ev), c.kind == CXType_Float ? "f" : "");
    } else {
        *why = "has no constant value";
    }
    clang_EvalResult_dispose(ev);
    return v;
}

static CXCursor initializer(struct DeclState *d, CXCursor def)
{
    (void)d;
    /* libclang's own answer: an array's size is an expression child too */
    CXCursor c = clang_Cursor_getVarDeclInitializer(def);
    return clang_Cursor_isNull(c) || clang_isInvalid(clang_getCursorKind(c)) ? clang_getNullCursor() : c;
}

/* The initialiser's text: the printer prints declarations, so the part of
 * `T name = init` after the declarator's '=' (outside brackets). */
static const char *init_text(struct DeclState *d, CXCursor def)
{
    CXString ps = clang_getCursorPrettyPrinted(def, d->pol);
    const char *s = clang_getCString(ps), *r = NULL;
    int depth = 0;
    for (const char *p = s; *p && !r; p++) {
        if (*p == '"' || *p == '\'') {
            p += skip_literal(p, 0) - 1;
            continue;
        }
        depth += (*p == '[' || *p == '(') - (*p == ']' || *p == ')');
        if (!depth && *p == '=' && p[1] != '=' && p > s && !strchr("=!<>", p[-1]))
            r = p + 1;
    }
    while (r && *r == ' ')
        r++;
    const char *out = r ? arena_strdup(d->a, r) : NULL;
    clang_disposeString(ps);
    return out;
}

static bool aggregate_text(struct DeclState *d, Decl *x, CXCursor def, CXType c, const char *cn)
{
    CXCursor init = initializer(d, def);
    if (clang_Cursor_isNull(init)) {
        x->why = arena_printf(d->a, "constant '%s' has no initialiser in this translation unit", spelling(d, def));
        return false;
    }
    WalkCx w = {d, x, arena_printf(d->a, "constant '%s'", spelling(d, def)), {0}, {0}, {0}, 0, NULL};
    walk(&w, init);
    TyCx t = {d, x, {0}, NULL};
    char *host = ty_text(&t, c, arena_printf(d->a, "gf_ch_%s", cn));
    char *dev = ty_text(&t, c, arena_printf(d->a, "gf_cd_%s", cn));
    char *plain = ty_text(&t, c, x->name);
    if (w.why || !host || !dev || !plain || ty_finish(&t)) {
        x->why = w.why ? w.why : t.why;
        return false;
    }
    const char *pp = init_text(d, def);
    if (!pp) {
        x->why = arena_printf(d->a, "cannot read the initialiser of constant '%s'", spelling(d, def));
        return false;
    }
    const char *in_c = rename_text(&w, pp, false), *in_cu = rename_text(&w, pp, true);
    x->text = arena_printf(d->a, "GF_UNUSED static %s = %s;", plain, in_c);
    x->text_cuda = arena_printf(d->a,
                                "GF_UNUSED static %s = %s;\nGF_UNUSED static __device__ %s = %s;\n"
                                "#if defined(__CUDA_ARCH__)\n"
                                "#define %s gf_cd_%s\n#else\n#define %s gf_ch_%s\n#endif",
                                host, in_cu, dev, in_cu, x->name, cn, x->name, cn);
    return true;
}

static bool name_taken(struct DeclState *d, const char *name)
{
    for (int i = 0; i < d->all.len; i++) {
        Decl *x = vec_at(&d->all, i);
        if (x->name && !strcmp(x->name, name))
            return true;
    }
    return false;
}

/* A const global a helper reads, or a table a region reads (decls_table).
 * Decl.name is what the text calls it. */
static Decl *const_decl(struct DeclState *d, CXCursor var)
{
    CXCursor def = clang_getCursorDefinition(var);
    if (clang_Cursor_isNull(def))
        def = var;
    const char *usr = cx_str(d->a, clang_getCursorUSR(def));
    Decl *x = find_decl(d, usr);
    if (x)
        return x;
    x = new_decl(d, D_CONST, usr, def);
    const char *cn = entity_cname(d, def);
    CXCursor fn = clang_getCursorSemanticParent(def);
    /* a table local to a function is named after it; every name unique (two
     * functions, or two blocks of one, may each have a 'w', and a global may
     * be called 'f_w') */
    if (clang_getCursorKind(fn) == CXCursor_FunctionDecl)
        cn = arena_printf(d->a, "%s_%s", decls_cname(d->a, spelling(d, fn)), cn);
    const char *base = cn;
    for (int n = 2; name_taken(d, arena_printf(d->a, "gf_c_%s", cn)) || name_taken(d, cn); n++)
        cn = arena_printf(d->a, "%s_%d", base, n);
    CXType c = clang_getCanonicalType(clang_getCursorType(def));
    if (has_pointer(d, c))
        return fail(x, arena_printf(d->a, "constant '%s' holds a pointer, which device code cannot follow",
                                       spelling(d, def)));
    if (c.kind == CXType_ConstantArray || c.kind == CXType_Record) {
        x->name = arena_printf(d->a, "gf_c_%s", cn);
        if (!aggregate_text(d, x, def, c, cn))
            return x;
        return finish(d, x);
    }
    x->name = cn;
    const char *why = NULL;
    const char *v = scalar_value(d, def, c, &why);
    TyCx t = {d, x, {0}, NULL};
    char *ts = ty_text_q(&t, c, cn, 0);
    /* the scalar's own const goes: `static const` / `constexpr` say it */
    if (ts && !strncmp(ts, "const ", 6))
        ts += 6;
    if (!v || !ts)
        return fail(x, arena_printf(d->a, "constant '%s' %s", spelling(d, def), v ? t.why : why));
    x->text = arena_printf(d->a, "GF_UNUSED static const %s = %s;", ts, v);
    x->text_cuda = arena_printf(d->a, "GF_UNUSED static constexpr %s = %s;", ts, v);
    return finish(d, x);
}

/* ---- helpers -------------------------------------------------------------------------------- */

static CXCursor func_def(struct DeclState *d, Func *f)
{
    for (int i = 0; i < d->funcs.len; i++)
        if (vec_at(&d->funcs, i) == f)
            return *(CXCursor *)vec_at(&d->func_defs, i);
    unreachable();
}

/* `static` even where only the prototype said so (internal linkage in the
 * generated file too, so helpers of two files never collide at link time). */
static const char *ensure_static(struct DeclState *d, const char *text)
{
    const char *paren = strchr(text, '(');
    for (const char *p = text; p && p < paren; p++) {
        p = strstr(p, "static");
        if (!p || p > paren)
            break;
        if ((p == text || !ident_char((unsigned char)p[-1])) && !ident_char((unsigned char)p[6]))
            return text;
    }
    return arena_printf(d->a, "static %s", text);
}

static Decl *helper_decl(struct DeclState *d, Func *f)
{
    if (f->decl)
        return f->decl;
    CXCursor def = func_def(d, f);
    const char *usr = cx_str(d->a, clang_getCursorUSR(def));
    Decl *x = new_decl(d, D_HELPER, usr, def);
    f->decl = x;
    x->name = f->cname;
    WalkCx w = {d, x, arena_printf(d->a, "helper '%s'", f->name), {0}, {0}, {0}, 0, NULL};
    map_add(&w, f->name, f->cname);
    check_type(&w, clang_getCursorType(def));
    walk(&w, def);
    if (w.why)
        return fail(x, w.why);
    CXString ps = clang_getCursorPrettyPrinted(def, d->pol);
    const char *pp = ensure_static(d, clang_getCString(ps));
    /* GF_UNUSED: share.c may have inlined every call of it */
    x->text = arena_printf(d->a, "GF_UNUSED %s", rename_text(&w, pp, false));
    x->text_cuda = arena_printf(d->a, "GF_UNUSED __host__ __device__ %s", rename_text(&w, pp, true));
    clang_disposeString(ps);
    return finish(d, x);
}

/* ---- the front end's entry points ---------------------------------------------------------- */

void decls_begin(Unit *u, CXTranslationUnit tu)
{
    struct DeclState *d = arena_alloc(u->arena, sizeof *d);
    d->u = u;
    d->a = u->arena;
    d->tu = tu;
    d->pol = clang_getCursorPrintingPolicy(clang_getTranslationUnitCursor(tu));
    clang_PrintingPolicy_setProperty(d->pol, CXPrintingPolicy_Indentation, 2);
    clang_PrintingPolicy_setProperty(d->pol, CXPrintingPolicy_IncludeNewlines, 1);
    u->decl_state = d;
}

void decls_end(Unit *u)
{
    struct DeclState *d = u->decl_state;
    if (!d)
        return;
    clang_PrintingPolicy_dispose(d->pol);
    u->decl_state = NULL;
}

Func *decls_helper(Unit *u, CXCursor callee)
{
    struct DeclState *d = u->decl_state;
    CXCursor def = clang_getCursorDefinition(callee);
    if (clang_Cursor_isNull(def) || clang_getCursorKind(def) != CXCursor_FunctionDecl ||
        clang_getCursorLinkage(def) != CXLinkage_Internal)
        return NULL;
    for (int i = 0; i < d->funcs.len; i++)
        if (clang_equalCursors(*(CXCursor *)vec_at(&d->func_defs, i), def))
            return vec_at(&d->funcs, i);
    Func *f = arena_alloc(d->a, sizeof *f);
    f->name = spelling(d, def);
    f->cname = entity_cname(d, def);
    CXFile file;
    unsigned line, col;
    clang_getExpansionLocation(clang_getCursorLocation(def), &file, &line, &col, NULL);
    f->loc = (Loc){gfc_from_main_file(def) ? u->path
                                                                             : cx_str(d->a, clang_getFileName(file)),
                   (int)line, (int)col};
    CXCursor *cp = arena_alloc(d->a, sizeof *cp);
    *cp = def;
    vec_push(d->a, &d->funcs, f);
    vec_push(d->a, &d->func_defs, cp);
    return f;
}

static void region_needs(Unit *u, Region *r, Decl *x)
{
    for (int i = 0; i < r->decls.len; i++)
        if (vec_at(&r->decls, i) == x)
            return;
    vec_push(u->arena, &r->decls, x);
}

const char *decls_use_helper(Unit *u, Region *r, Func *f)
{
    Decl *x = helper_decl(u->decl_state, f);
    if (x->why)
        return x->why;
    region_needs(u, r, x);
    return NULL;
}

/* A variable of a function's that is neither static nor extern. */
static bool automatic(CXCursor v)
{
    return clang_getCursorKind(v) == CXCursor_VarDecl &&
           clang_getCursorKind(clang_getCursorSemanticParent(v)) == CXCursor_FunctionDecl &&
           clang_Cursor_getStorageClass(v) != CX_SC_Static && clang_Cursor_getStorageClass(v) != CX_SC_Extern;
}

/* What in a local table's initialiser is not a constant: a parameter, an
 * automatic variable, a call (C allows them in an automatic array's braces). */
typedef struct InitCx {
    struct DeclState *d;
    const char *why;
} InitCx;

static enum CXChildVisitResult init_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    InitCx *ic = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_CallExpr) {
        ic->why = arena_printf(ic->d->a, "calls '%s'", spelling(ic->d, c));
        return CXChildVisit_Break;
    }
    if (k == CXCursor_DeclRefExpr) {
        CXCursor r = clang_getCursorReferenced(c);
        if (clang_getCursorKind(r) == CXCursor_ParmDecl || automatic(r)) {
            ic->why = arena_printf(ic->d->a, "reads '%s'", spelling(ic->d, r));
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

const char *decls_table(Unit *u, Region *r, CXCursor var, const char **why)
{
    struct DeclState *d = u->decl_state;
    if (automatic(var)) {
        CXCursor init = initializer(d, var);
        InitCx ic = {d, NULL};
        if (!clang_Cursor_isNull(init))
            clang_visitChildren(init, init_visit, &ic);
        if (ic.why) {
            *why = arena_printf(d->a, "its initialiser %s, which is not a constant", ic.why);
            return NULL;
        }
    }
    Decl *x = const_decl(d, var);
    if (x->why) {
        *why = x->why;
        return NULL;
    }
    region_needs(u, r, x);
    return x->name;
}

const char *decls_record(Unit *u, Region *r, CXType t, const char **why)
{
    struct DeclState *d = u->decl_state;
    CXType c = clang_getCanonicalType(t);
    Decl *x = record_decl(d, clang_getTypeDeclaration(c));
    if (x->why) {
        *why = x->why;
        return NULL;
    }
    region_needs(u, r, x);
    return x->name;
}
