/* gfc.h - every type the gpufuse compiler shares: arena and strings, the
 * diagnostics engine, the region IR, the dependence facts and the fusion
 * plan, grouped by the file that implements them.
 *
 * Pipeline (compiler/driver.c):
 *   parse (libclang -> Region IR) -> deps (isl: parallel loops, reductions)
 *   -> fuse (kernel plan) -> emit_cuda | emit_host, report. */
#ifndef GFC_H
#define GFC_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define GFC_VERSION "0.1.0"
/* The launcher interface the generated code is written for: the runtime's
 * GF_LAUNCH_ABI (include/gpufuse/launch.h) must match. */
#define GFC_LAUNCH_ABI 7

/* An internal bug: never an input error.  Names the file and line. */
#define unreachable() gfc_panic(__FILE__, __LINE__, "unreachable")
#define gfc_assert(c) ((c) ? (void)0 : gfc_panic(__FILE__, __LINE__, #c))
_Noreturn void gfc_panic(const char *file, int line, const char *what);

/* ---- arena.c: one arena per translation unit, freed once ---------------- */

typedef struct Arena Arena;
Arena *arena_new(void);
void gfc_with_stack(void (*fn)(void *), void *arg);   /* fn(arg) on a deep stack */
void arena_free(Arena *a);
void *arena_alloc(Arena *a, size_t size);            /* zeroed */
char *arena_strdup(Arena *a, const char *s);
char *arena_printf(Arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Growable array of pointers, storage in the arena. */
typedef struct Vec {
    void **data;
    int len, cap;
} Vec;
void vec_push(Arena *a, Vec *v, void *item);
/* Whether the vector holds the pointer x. */
bool vec_has(const Vec *v, const void *x);
#define vec_at(v, i) ((v)->data[i])

/* Growable string buffer on the heap (code generation output). */
typedef struct Buf {
    char *data;
    size_t len, cap;
    int indent;
} Buf;
void buf_printf(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_vprintf(Buf *b, const char *fmt, va_list ap);
void buf_puts(Buf *b, const char *s);
/* Starts a new line at the current indentation, then prints. */
void buf_line(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_free(Buf *b);
/* names.c: s as it may be printed inside a comment or a string literal of
 * generated code (file names: quotes, backslashes, newlines, "*" "/");
 * s itself when nothing needs escaping. */
const char *c_escape(Arena *a, const char *s);

/* A growable array of strings (heap; the strings are not owned). */
typedef struct StrVec {
    const char **v;
    int n, cap;
} StrVec;
void strvec_push(StrVec *s, const char *x);


/* ---- diag.c: clang-format diagnostics ------------------------------------- */

typedef struct Loc {
    const char *file;
    int line, col;
} Loc;

typedef enum DiagLevel { DIAG_NOTE, DIAG_WARNING, DIAG_ERROR, DIAG_REMARK } DiagLevel;

typedef struct DiagEngine {
    bool strict;                 /* -Werror / --strict: warnings become errors */
    bool no_warnings;            /* -w */
    bool verbose;                /* -v: the clang arguments are printed */
    bool remarks;                /* -Rgpufuse: optimisation remarks */
    bool sarif;                  /* --diagnostics-format=sarif: collected, one log at the end */
    bool color;
    int warnings, errors;
    FILE *out;
} DiagEngine;

extern DiagEngine gfc_diag;
/* file:line:col: level: message [-Wgpufuse-flag], then the line and a caret. */
void diag_at(DiagLevel level, Loc loc, const char *flag, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* A warning option: -Wgpufuse-NAME, -Wno-gpufuse-NAME, -Werror[=gpufuse-NAME],
 * -Wno-error[=gpufuse-NAME], -w.  0 when taken (an unknown NAME is warned
 * about, as clang does), -1 when it is not a gpufuse option. */
int diag_option(const char *opt);
/* --diagnostics-format=sarif: writes the collected diagnostics (and any
 * text printed to gfc_diag.out meanwhile, clang's errors) as one SARIF
 * 2.1.0 log on stderr.  Nothing without SARIF. */
void diag_finish(void);
void diag_use_sarif(void);
/* -v: prints the arguments libclang parses `path` with. */
void diag_clang_args(const char *path, const char *const *args, int n);
/* Region diagnostics: a warning (error under -Werror) that makes the region
 * keep its CPU body. */
void diag_reject(Loc loc, const char *flag, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Why a region keeps its CPU body: the last diag_reject, for --report=json.
 * Fills *why (message, flag, place) and forgets it; false when there is none. */
typedef struct Reject {
    Loc loc;
    const char *flag;            /* "-Wgpufuse-extent" */
    const char *message;
} Reject;
bool diag_take_reject(Arena *a, Reject *why);

/* ---- the region IR ---------------------------------------------------------- */

typedef enum TypeKind {
    TY_VOID, TY_BOOL, TY_CHAR, TY_SCHAR, TY_UCHAR, TY_SHORT, TY_USHORT,
    TY_INT, TY_UINT, TY_LONG, TY_ULONG, TY_LLONG, TY_ULLONG,
    TY_FLOAT, TY_DOUBLE,
    TY_F16,                      /* _Float16: arithmetic in float, rounded at stores and casts */
    TY_BF16,                     /* __bf16: storage only in C (clang 16: no casts, no arithmetic) */
    TY_CF, TY_CD,                /* float _Complex, double _Complex (docs/types.md): gf_c32, gf_c64 */
    TY_PTR, TY_ARRAY, TY_STRUCT
} TypeKind;

typedef struct Expr Expr;
typedef struct Stmt Stmt;
typedef struct Var Var;
typedef struct Type Type;

typedef struct Field {
    const char *name;            /* as generated code names it (decls_cname) */
    Type *ty;
} Field;

struct Type {
    TypeKind kind;
    bool is_const, is_restrict;
    Type *base;                  /* TY_PTR, TY_ARRAY: element */
    Expr *len;                   /* TY_ARRAY: length expression (VLA or constant) */
    long long clen;              /* TY_ARRAY: constant length, or -1 */
    const char *name;            /* TY_STRUCT: tag or typedef name as written */
    Field *fields;               /* TY_STRUCT */
    int nfields;
};

bool type_is_integer(const Type *t);
bool type_is_unsigned(const Type *t);   /* _Bool and the unsigned integer types */
/* e is a conversion to an integer type of fewer than 32 bits that may
 * change its operand's value (C keeps it modulo 2^N: a ring buffer's
 * (uint8_t)(head + i); _Bool: != 0), where isl's integers would not.
 * Affine forms take conversions to 32 bits and more as keeping the value. */
bool cast_wraps(const Expr *e);
bool type_is_float(const Type *t);
bool type_is_arith(const Type *t);
/* Element type of a pointer or (multi-dimensional) array parameter. */
Type *type_elem(Type *t);
/* Number of array dimensions below a pointer/array (float a[n][m] -> 2). */
int type_rank(const Type *t);
const char *type_c_name(const Type *t);   /* "float", "unsigned char", "struct P"; gf_f16, gf_bf16 */
bool type_is_half(const Type *t);         /* _Float16 or __bf16 */
bool type_is_complex(const Type *t);      /* float _Complex or double _Complex */
const char *type_src_name(const Type *t); /* as C spells it: _Float16, __bf16 (dumps, diagnostics) */
int type_size(const Type *t);             /* bytes of a scalar type (LP64), 0 if not scalar */

/* V_TABLE: a read-only table (a const array with a constant initialiser,
 * at file scope or in the function): is_array, never written, not a
 * parameter; generated code names its copy in the file (decls_table), the
 * launcher stages nothing for it. */
typedef enum VarKind { V_PARAM, V_LOCAL, V_IV, V_TABLE } VarKind;

/* The largest array private to each iteration (elements): a local array
 * declared inside a loop, or a temporary priv.c moves into one. */
#define GF_PRIVATE_MAX 1024

struct Var {
    const char *name;            /* as in the source */
    const char *cname;           /* unique name used in generated code */
    Type *ty;
    VarKind kind;
    int id;                      /* index in Region.vars */
    int depth;                   /* loop depth of the declaration (locals, ivs) */
    Stmt *decl;                  /* S_DECL for locals */
    Loc loc;
    bool is_array;               /* pointer/array param, or VLA / malloc temporary */
    bool is_temp;                /* region-local array (VLA or malloc) */
    bool is_private;             /* a constant-size local array declared inside a loop
                                    (or moved there by priv.c): one copy per iteration,
                                    a per-thread array in a kernel */
    long long priv_elems;        /* is_private: its element count (constant) */
    const char *priv_why;        /* a temporary priv.c could not privatise: why (for
                                    the dependence diagnostic) */
    bool written, read;          /* as an array: any store / any load */
    bool scalar_written;         /* scalar param assigned in the body */
    Expr **dims;                 /* array shape, outermost first (ndims) */
    int ndims;
    /* launcher facts (args.c): the box of elements a call touches, per
     * dimension, first and last index: expressions in the integer
     * parameters computed in long long (deps_extent); NULL when untouched */
    Expr **ext_lo, **ext_hi;
    bool ext_whole;              /* isl could not bound it: the declared shape */
    int ext_run;                 /* > 0: found at run time by pass ext_run of Region.inspect
                                    (inspect.c), the least and greatest subscript in slot ext_slot */
    int ext_slot;
    bool write_only;             /* every staged element is written: no copy-in */
    Expr *write_first;           /* !write_only: no copy-in when this holds (deps_write_first) */
    int alias_class;             /* params that may be the same pointer share it */
    /* priv.c (old_copy_rewrite): this temporary is a copy of array copy_of
     * made just before the loop whose reads of copy_of's values from before
     * it now read the copy (libcall.c matches them as copy_of's old values) */
    Var *copy_of;
    /* deps.c: a 1-D array used only as a[outer*P + inner], seen as 2-D */
    Var *delin;
    bool delin_bad, delin_plain;
    /* aff_params: a parameter that stands for this expression of the scalar
     * parameters (Region.pvars; in no statement, id -1, kind V_PARAM);
     * cname is its C text, for the bounds the cost model prints */
    Expr *pdef;
};

/* Expression kinds: enum, names and dumps come from this one list. */
#define GF_EXPR_KINDS(X) \
    X(E_INT)      /* integer literal: text */             \
    X(E_FLOAT)    /* floating literal: text */            \
    X(E_VAR)      /* scalar variable: var */              \
    X(E_INDEX)    /* array element: var[idx...] */        \
    X(E_FIELD)    /* struct field: kid[0].text */         \
    X(E_UNARY)    /* op kid[0] (prefix) */                \
    X(E_BINARY)   /* kid[0] op kid[1] */                  \
    X(E_COND)     /* kid[0] ? kid[1] : kid[2] */          \
    X(E_CAST)     /* (ty) kid[0] */                       \
    X(E_CALL)     /* text(kid...) : math builtin/helper */ \
    X(E_SIZEOF)   /* sizeof(ty) */

typedef enum ExprKind {
#define X(k) k,
    GF_EXPR_KINDS(X)
#undef X
} ExprKind;
extern const char *const expr_kind_names[];

/* Operators: the enum, C spelling and precedence (higher binds tighter)
 * come from this one list.  The front end maps clang's operator once
 * (clang_compat.c); nothing compares operator strings after it.
 * Assignment operators are the S_ASSIGN forms; op_assign_base gives the
 * binary operator a compound assignment applies (OP_ADD for OP_ADD_ASSIGN). */
#define GF_OPS(X)                                                                            \
    X(OP_NONE, "", 0)                                                                        \
    X(OP_MUL, "*", 13) X(OP_DIV, "/", 13) X(OP_MOD, "%", 13)                                 \
    X(OP_ADD, "+", 12) X(OP_SUB, "-", 12)                                                    \
    X(OP_SHL, "<<", 11) X(OP_SHR, ">>", 11)                                                  \
    X(OP_LT, "<", 10) X(OP_LE, "<=", 10) X(OP_GT, ">", 10) X(OP_GE, ">=", 10)                \
    X(OP_EQ, "==", 9) X(OP_NE, "!=", 9)                                                      \
    X(OP_BAND, "&", 8) X(OP_BXOR, "^", 7) X(OP_BOR, "|", 6)                                  \
    X(OP_LAND, "&&", 5) X(OP_LOR, "||", 4)                                                   \
    X(OP_ASSIGN, "=", 2)                                                                     \
    X(OP_MUL_ASSIGN, "*=", 2) X(OP_DIV_ASSIGN, "/=", 2) X(OP_MOD_ASSIGN, "%=", 2)            \
    X(OP_ADD_ASSIGN, "+=", 2) X(OP_SUB_ASSIGN, "-=", 2)                                      \
    X(OP_SHL_ASSIGN, "<<=", 2) X(OP_SHR_ASSIGN, ">>=", 2)                                    \
    X(OP_BAND_ASSIGN, "&=", 2) X(OP_BXOR_ASSIGN, "^=", 2) X(OP_BOR_ASSIGN, "|=", 2)          \
    X(OP_COMMA, ",", 1)                                                                      \
    X(OP_NEG, "-", 14) X(OP_PLUS, "+", 14) X(OP_NOT, "!", 14) X(OP_BNOT, "~", 14)            \
    X(OP_PREINC, "++", 14) X(OP_PREDEC, "--", 14) X(OP_POSTINC, "++", 15)                    \
    X(OP_POSTDEC, "--", 15) X(OP_ADDR, "&", 14) X(OP_DEREF, "*", 14)

typedef enum Op {
#define X(k, s, p) k,
    GF_OPS(X)
#undef X
    OP_COUNT
} Op;
const char *op_spelling(Op op);
int op_prec(Op op);
bool op_is_compare(Op op);           /* < <= > >= == != */
bool op_is_assign(Op op);            /* = and the compound assignments */
Op op_assign_base(Op op);            /* OP_ADD_ASSIGN -> OP_ADD; OP_NONE for '=' and non-assignments */
Op op_compound_of(Op op);            /* OP_ADD -> OP_ADD_ASSIGN; OP_NONE if it has none */
/* The binary (or assignment) operator spelled s, OP_NONE if none. */
Op op_binary_of(const char *s);
/* The unary operator spelled s, prefix or postfix, OP_NONE if none. */
Op op_unary_of(const char *s, bool postfix);

typedef struct Aff Aff;

struct Expr {
    ExprKind kind;
    Type *ty;
    Loc loc;
    Op op;                       /* E_BINARY, E_UNARY */
    const char *text;            /* literal spelling, callee, field */
    Var *var;
    Expr **kids;
    int nkids;
    Aff **aff;                   /* E_INDEX: affine form of each subscript (NULL = not affine) */
    struct Func *callee;         /* E_CALL of a helper function */
    /* aff_params: a non-affine integer expression of the scalar parameters
     * alone (w * h, len / 2): the parameter isl sees for it, NULL otherwise */
    Var *pvar;
};

typedef struct Decl Decl;

typedef struct Func {            /* a static helper compiled as a device function */
    const char *name;            /* as in the source */
    const char *cname;           /* its name in generated code (decls_cname) */
    Loc loc;
    Decl *decl;                  /* its definition for the generated file (decls.c) */
    /* parse.c: the helper as expressions, when its body is only declarations
     * of scalars with initialisers and one `return` (share.c inlines calls
     * of such a helper where they share exact work): its parameters and
     * locals as Vars of no region (id -1), each local's initialiser (over
     * the parameters and earlier locals) and the returned value.  ret is
     * NULL when the helper has no such form. */
    bool form_tried;
    int nparams, nlocals;
    Var **params, **locals;
    Expr **inits;
    Expr *ret;
} Func;

/* Statement kinds. */
#define GF_STMT_KINDS(X) \
    X(S_BLOCK) X(S_FOR) X(S_WHILE) X(S_IF) X(S_DECL) X(S_ASSIGN) X(S_RETURN) X(S_FREE) \
    X(S_LIB)      /* a library builtin (gf_sgemm ...): rhs is the E_CALL, arrays as E_VAR */

typedef enum StmtKind {
#define X(k) k,
    GF_STMT_KINDS(X)
#undef X
} StmtKind;
extern const char *const stmt_kind_names[];

typedef enum RedOp { RED_NONE, RED_ADD, RED_MUL, RED_MIN, RED_MAX, RED_AND, RED_OR, RED_BAND, RED_BOR, RED_BXOR } RedOp;
extern const char *const red_op_names[];

struct Stmt {
    StmtKind kind;
    Loc loc;
    int end_line;                /* last source line it spans */
    int id;                      /* polyhedral statement number (-1 if none) */
    Stmt *parent;
    /* S_BLOCK */
    Vec list;
    /* S_FOR */
    Var *iv;
    Expr *lb, *ub;               /* iv in [lb, ub): `<=` bounds are stored +1 */
    long long step;
    Stmt *body;
    bool parallel;               /* proven: carries no dependence */
    bool interchanged;           /* its header was swapped with its inner loop's (deps.c) */
    int fused_line;              /* the line of the sibling loop fused into it (deps_fuse_siblings), or 0 */
    bool reduction;              /* parallel once reduction accumulators are combined */
    int depth;                   /* loop depth (outermost loop = 0) */
    int ord;                     /* textual ordinal in the schedule (deps.c) */
    /* S_FOR / S_WHILE: the flag a `break` of this loop sets (E_VAR, declared
     * just before the loop); the loop stops once it is nonzero.  NULL when
     * the loop has no `break`. */
    Expr *brk;
    /* S_IF / S_WHILE */
    Expr *cond;
    Stmt *then, *els;
    /* S_DECL, S_ASSIGN, S_RETURN */
    Var *var;
    Expr *lhs, *rhs;             /* S_DECL: rhs = initialiser (may be NULL); S_LIB: the call */
    Op op;                       /* S_ASSIGN: OP_ASSIGN or a compound assignment */
    RedOp red;                   /* S_ASSIGN recognised as a reduction update */
    Var *red_var;                /* its accumulator */
    RedOp atomic;                /* S_ASSIGN: an update of an array element through a
                                    subscript that may collide (hist[bin[i]] += w),
                                    made atomic (deps.c); RED_NONE otherwise */
    bool is_malloc;              /* S_DECL of a malloc'd temporary */
};

typedef struct Unit Unit;

/* GPUFUSE_CUDA (gpufuse.h, docs/cuda-kernels.md): the user's own kernel
 * runs the function on the GPU.  The launch rule's expressions are C text
 * with the parameters under their generated names (parse.c checked them:
 * literals, scalar parameters, operators). */
typedef struct CudaRule {
    const char *kernel;          /* the kernel's name (an identifier) */
    Loc loc;                     /* where the marker is written */
    const char *threads;         /* GPUFUSE_CUDA_THREADS: the thread count; NULL otherwise */
    const char *grid[3], *block[3];  /* GPUFUSE_CUDA_GRID: x, y, z (ngrid, nblock of them) */
    int ngrid, nblock;
} CudaRule;

typedef struct Region {
    Unit *unit;
    const char *name;
    Loc loc;
    int first_line, last_line;
    Type *ret;
    Vec params;                  /* Var* */
    Vec vars;                    /* Var*: every variable, ids index this */
    Vec pvars;                   /* Var*: parameters standing for expressions (Var.pdef) */
    const char *cname;           /* the function's name in generated code (kernels, gf_host_) */
    Vec decls;                   /* Decl*: the types and helpers its generated code names */
    Stmt *body;                  /* S_BLOCK */
    Stmt *seq_body;              /* the body before priv.c rewrote it (gf_seq_<name>,
                                    which must not depend on the dependence model); NULL
                                    when not rewritten */
    int nstmts;                  /* polyhedral statements numbered 0..nstmts-1 */
    Vec stmts;                   /* Stmt* by id */
    const char *signature;       /* the C prototype, as text */
    bool rejected;
    bool uses_f16, uses_bf16;    /* names _Float16 / __bf16 (the prelude's gf_f16, gf_bf16) */
    bool uses_complex;           /* names a complex type (the prelude's gf_c32, gf_c64) */
    Reject why;                  /* when rejected: the diagnostic that said why */
    Vec notes;                   /* const char*: rewrites before the analysis, for --report */
    struct Plan *plan;
    struct DepInfo *deps;
    struct Inspect *inspect;     /* extents found at run time (inspect.c), NULL when none */
    CudaRule *cuda;              /* a hand-written kernel: no plan of gpufuse's own (an
                                    empty one), only the arguments' facts from the C body */
} Region;

struct Unit {
    Arena *arena;
    const char *path;            /* input file */
    const char *source;          /* its text */
    Vec regions;                 /* Region* accepted */
    Vec rejected;                /* Region* that keep their CPU body */
    const char *gen_path;        /* the input as generated code names it (decls_gen_path) */
    Vec includes;                /* const char*: files the unit includes (depfile) */
    Vec decls;                   /* Decl*: types, constants and helpers for generated code,
                                    each after those it names (decls.c) */
    struct DeclState *decl_state;  /* decls.c, while the unit is parsed */
    StrVec launched;             /* kernel instances the CUDA launchers launch by name, in order
                                    of first launch (emit_cuda.c records them as it prints a
                                    launch; the warm-up's loader lists them, emit_verify.c) */
};

/* ---- affine.c: affine forms over loop indices and integer parameters ------ */

typedef struct AffTerm {
    Var *var;
    long long coef;
} AffTerm;

struct Aff {
    long long c;                 /* constant */
    AffTerm *terms;
    int nterms;
};

/* The affine form of e, or NULL if it is not affine in ivs and integer params. */
Aff *aff_of(Arena *a, Expr *e);
/* Every non-affine integer expression of the scalar parameters alone in
 * r's statements (w * h, len / 2, n / GS) gets a parameter of its own
 * (Expr.pvar, the same for equal expressions: Region.pvars), which aff_of
 * then reads as a term: `i < w * h` is an affine bound.  Idempotent. */
void aff_params(Arena *a, Region *r);
bool aff_uses(const Aff *f, const Var *v);
/* x + s*y */
Aff *aff_add(Arena *a, const Aff *x, const Aff *y, long long s);
long long aff_coef(const Aff *f, const Var *v);
/* Prints f as C: "c0 + 2 * x - y + 3", each variable as name(cx, var) says. */
void aff_print(const Aff *f, const char *(*name)(void *cx, const Var *v), void *cx, Buf *out);
/* A loop bound as a double expression for the cost models (name prints each
 * variable): an affine form, or the monotone forms isl's schedules write
 * around affine ones (gf_min, gf_max, gf_floord and C division by a positive
 * constant, sums, negation, integer casts), divisions without their
 * floor: a trip count within one of the exact one.  Returns false (and
 * prints a part, if out) for any other form; out NULL: only the test. */
bool bound_print(Arena *a, Expr *e, const char *(*name)(void *cx, const Var *v), void *cx, Buf *out);
/* A positive integer constant (a divisor or factor isl writes), or 0. */
long long expr_pos_const(const Expr *e);
/* The first loop in s (s included) whose bounds bound_print cannot count, or NULL. */
const Stmt *bound_uncounted(Arena *a, const Stmt *s);
bool expr_equal(const Expr *a, const Expr *b);
/* expr_equal with variable va in a standing for vb in b (a loop index renamed). */
bool expr_equal_renamed(const Expr *a, const Expr *b, const Var *va, const Var *vb);
/* For casts and sizeof: the same target type (the rest of expr_equal's test). */
bool expr_cast_types_equal(const Expr *a, const Expr *b);
/* An update of an array element that is a min or max of the element and a
 * value: `a[s] = fmaxf(a[s], e)` (fminf, fmax, fmin, either argument
 * order) or `a[s] = e > a[s] ? e : a[s]` (<, >=, <=, and the mirrored ?:
 * forms), with the element written exactly as the target.  Returns RED_MAX
 * or RED_MIN and sets *val to e (which may read the array: the caller
 * checks), or RED_NONE.  *nan_wins (may be NULL):
 * a `?:` form whose false branch is e, so that a NaN e replaces the element
 * (its result depends on the order of the updates when e can be NaN).
 * (ir.c) */
RedOp ir_minmax_update(const Stmt *s, Expr **val, bool *nan_wins);
/* The one traversal of the IR (ir.c).  ir_visit_stmt walks a statement and
 * everything it owns, in source order: the sizes of an array it declares,
 * its expression slots (loop bounds, break flags, conditions, targets,
 * values), then its child statements (a block's items, a loop's body, an
 * if's branches).  Passes traverse through it, never with a switch of their
 * own over the statement kinds, so that a new field is visited in one place.
 *   stmt:       before the statement's expressions and children; false
 *               skips both (stmt_after is not called then).  It may set
 *               skip: the statement's own expressions are left out, its
 *               child statements still walked (a pass that reads a
 *               statement's slots itself).  It may edit a block's list
 *               before the items are walked (the list is read afresh).
 *   stmt_after: after them (post-order).
 *   expr:       pre-order, on each expression before its operands;
 *               returning another Expr replaces it in its slot (a mutator),
 *               and the replacement is not walked.  It may set skip: e's
 *               operands are not walked (expr_after still is).
 *   expr_after: post-order, after e's operands (already replaced in place);
 *               returning another Expr replaces it in its slot.
 *   up:         the statements around the one being visited (for an
 *               expression: around its owner), innermost first, within this
 *               walk: the enclosing loops and conditions without parent links.
 *   done:       set to stop the walk. */
typedef struct IrFrame IrFrame;
struct IrFrame {
    Stmt *s;
    const IrFrame *up;
};
typedef struct IrVisitor IrVisitor;
struct IrVisitor {
    bool (*stmt)(IrVisitor *v, Stmt *s);
    void (*stmt_after)(IrVisitor *v, Stmt *s);
    Expr *(*expr)(IrVisitor *v, Expr *e, Stmt *owner);
    Expr *(*expr_after)(IrVisitor *v, Expr *e, Stmt *owner);
    void *user;
    const IrFrame *up;
    bool skip;
    bool done;
};
void ir_visit_stmt(IrVisitor *v, Stmt *s);
Expr *ir_visit_expr(IrVisitor *v, Expr *e, Stmt *owner);
/* The IR's invariants (parent links, statement ids, the variable table,
 * every variable used where it is declared, operators and operands); a
 * broken one is an internal error naming the pass that ran last. */
void ir_verify(struct Region *r, const char *pass);
/* Whether f holds for some expression of e / of statement s (ir.c). */
typedef bool (*ExprPred)(const Expr *e, const void *arg);
bool ir_expr_any(const Expr *e, ExprPred f, const void *arg);
bool ir_stmt_any(const Stmt *s, ExprPred f, const void *arg);
/* Whether f holds for some expression s owns itself (its slots and the sizes
 * of an array it declares), not for those of its child statements. */
bool ir_own_any(const Stmt *s, ExprPred f, const void *arg);
/* The first statement under s (s included, pre-order) for which f says
 * IR_FOUND, or NULL; IR_SKIP leaves out a statement's children. */
typedef enum IrFind { IR_NEXT, IR_SKIP, IR_FOUND } IrFind;
typedef IrFind (*StmtPred)(const Stmt *s, const void *arg);
Stmt *ir_stmt_find(const Stmt *s, StmtPred f, const void *arg);
/* Deep copies: every expression a statement owns (its slots; not the sizes
 * of a declared array, which belong to the Var), every child statement;
 * variables are shared; affine forms are dropped (recomputed). */
Expr *ir_copy_expr(Arena *a, const Expr *e);
Stmt *ir_copy_stmt(Arena *a, const Stmt *s, Stmt *parent);
/* Adds v to r's variables (Var.id): its cname, made unique among them by a
 * suffix _1, _2, ... (C allows shadowing; generated code must not). */
void ir_add_var(Arena *a, Region *r, Var *v);
/* A new block holding s alone (its location, lines and depth), child of
 * parent; s's parent link points to it.  The caller puts it in s's slot. */
Stmt *ir_block_of(Arena *a, Stmt *s, Stmt *parent);
/* Removes v's declaration and its frees from every block under s; returns
 * the declaration (NULL if none). */
Stmt *ir_take_decl(Stmt *s, const Var *v);
/* Whether s or a statement under it sets scalar v: a loop over it, its
 * declaration, an assignment to it. */
bool ir_assigns_var(const Stmt *s, const Var *v);
/* The loop that is all of body (through blocks of one statement), or NULL. */
Stmt *ir_sole_loop(Stmt *body);
/* The loops of a map kernel over loop s: s and the parallel loops perfectly
 * nested in it (reductions' loops included), each with bounds free of the
 * indices of those around it, at most 3, into loops[] (when not NULL);
 * returns how many. */
int ir_map_loops(Stmt *s, Stmt **loops);
/* Whether running loops a and b as one loop over a's index would put a
 * parallel loop of one of them inside each iteration of a map kernel over
 * the other's loops: they have different map depths and the deeper one's
 * loop below the shallower's depth does not run a constant number of times
 * up to 16.  Fusing them then trades the inner loop's parallelism for a
 * saved pass (gramschmidt's column loop: 1200 threads each walking 1000
 * rows, or 1.2 million); fuse.c and deps.c keep them apart, priv.c takes
 * such a loop out of a parallel loop's body. */
bool ir_hides_parallel(Stmt *a, Stmt *b);
/* The same question for loop `loop` and the loop it would be with only `kid`
 * (a statement of its body) as its body: whether `kid` is a parallel loop
 * that a map over `loop` would run inside each thread (priv.c). */
bool ir_kid_hides_parallel(Stmt *loop, Stmt *kid);
/* References to `from` under s (expressions, declarations, a loop's index)
 * become `to`, in place; the affine forms of subscripts under s are dropped
 * (recomputed). */
void ir_rename_var(Stmt *s, const Var *from, Var *to);
/* Region.seq_body, once: a deep copy of the body before a pass rewrites it
 * (priv.c, deps_fuse_siblings), its temporaries given Vars of their own. */
void ir_seq_snapshot(Region *r, Arena *a);

/* ---- decls.c: the declarations generated code needs, rebuilt from the AST --- */

typedef enum DeclKind { D_RECORD, D_TYPEDEF, D_ENUM, D_CONST, D_HELPER } DeclKind;

typedef struct DeclField {
    const char *name;            /* in generated code */
    long long offset;            /* bytes, as the C compiler lays it out */
} DeclField;

/* One declaration of the generated file: valid C (--target=host) and, with
 * text_cuda where it differs, CUDA C++.  Never names a user macro or header. */
struct Decl {
    DeclKind kind;
    int id;                      /* index in Unit.decls (-1 while being built) */
    const char *usr;             /* libclang's USR: one Decl per entity */
    const char *name;            /* what generated code calls it ("struct P", "Q", "sq") */
    const char *where;           /* "kernels.h:4": where the source declares it */
    const char *fwd;             /* D_RECORD with a tag: "struct P;" */
    const char *text;            /* the definition */
    const char *text_cuda;       /* its CUDA form when it differs (constexpr, __host__ __device__) */
    long long size, align;       /* D_RECORD: the C compiler's layout, checked by static_asserts */
    Vec offsets;                 /* D_RECORD: DeclField* */
    Vec deps;                    /* Decl*: what it names, also emitted */
    const char *why;             /* why it cannot be written (then never emitted) */
};

/* The name generated code gives the user identifier `name`: itself, or
 * renamed when it is a C++ keyword, is declared by the generated file's
 * headers (max, y0, dim3), starts with gf_/GF_ (gf_u_<name>), or is not
 * ASCII (gf_x_<escaped>). */
const char *decls_cname(Arena *a, const char *name);
/* An input path as generated code prints it: its base name when absolute
 * (no path of the generating machine), else as given; escaped (c_escape). */
const char *decls_gen_path(Arena *a, const char *path);
bool names_in_list(const char *const *l, const char *s);   /* l ends with NULL */
bool names_plain_ident(const char *s);                      /* [A-Za-z0-9_]+ */

/* ---- compdb.c: the compilation database (front end) ---- */

/* compdb.c: appends to `out` the flags clang needs for `input` from a
 * compile_commands.json in `dir` or a directory above it (dir NULL: above
 * the input, as clang-tidy looks).  `required`: a missing database or entry
 * is an error (diagnosed; returns false); else they are silently skipped.
 * `verbose` says which entry was used. */
bool compdb_flags(const char *dir, const char *input, bool required, bool verbose, Arena *a, StrVec *out);

/* ---- parse.c: libclang front end ------------------------------------------ */

typedef struct ParseOptions {
    const char **clang_args;
    int nclang_args;
    const char *resource_dir;
} ParseOptions;

/* Parses path; returns NULL on a fatal error (diagnosed). */
Unit *parse_unit(const char *path, const ParseOptions *opt);
/* cuda_rule.c, after the whole unit is parsed: false (diagnosed) when the kernel's name
 * would clash in the generated file: a C++ keyword or a name its headers
 * declare, the name of a marked function, of a parameter of r, or of a type,
 * constant or helper the file defines, or a kernel another function names
 * with other parameters. */
bool cuda_rule_check(Unit *u, Region *r);
/* driver.c: the unit's memory and each region's dependence model. */
void unit_free(Unit *u);

/* ---- analysis/sets.c: integer sets over [r, c, s] (plan/libcall.c) ----------------- */

/* Sets of points [r, c, s] (dimensions SET_R, SET_C, SET_S) whose
 * parameters are Vars, built through isl's API: a parameter is known by its
 * Var, never by its name.  An affine form is read in a frame: a term whose
 * Var is frame->dim[d] is dimension d, any other term a parameter.  Every
 * set lives in its GfSets and is freed with it.  After an isl failure (or
 * a NULL argument) every set is NULL and every answer false. */
enum { SET_R, SET_C, SET_S };
typedef struct GfSets GfSets;
typedef struct GfSet GfSet;
typedef struct SetFrame {
    const Var *dim[3];           /* the Var standing for r, c and s (NULL: none) */
} SetFrame;

/* One isl context and the sets made in it; NULL when out of memory. */
GfSets *sets_new(void);
void sets_free(GfSets *S);
/* Bounds isl's operations (tests: forces a failure). */
void sets_max_operations(GfSets *S, unsigned long n);
GfSet *sets_universe(GfSets *S);
/* { dim < hi }, { dim >= lo }, { lo <= dim < hi }, { dim = e } */
GfSet *sets_below(GfSets *S, const SetFrame *f, int dim, const Aff *hi);
GfSet *sets_above(GfSets *S, const SetFrame *f, int dim, const Aff *lo);
GfSet *sets_range(GfSets *S, const SetFrame *f, const Aff *lo, int dim, const Aff *hi);
GfSet *sets_fix(GfSets *S, const SetFrame *f, int dim, const Aff *e);
GfSet *sets_meet(GfSets *S, const GfSet *p, const GfSet *q);
GfSet *sets_union(GfSets *S, const GfSet *p, const GfSet *q);
bool sets_subset(GfSets *S, const GfSet *p, const GfSet *q);
bool sets_equal(GfSets *S, const GfSet *p, const GfSet *q);
/* s with dimension d projected out and put back fixed at 0. */
GfSet *sets_zero_dim(GfSets *S, const GfSet *s, int d);
/* s with dimension d unconstrained, intersected with t. */
GfSet *sets_free_dim_meet(GfSets *S, const GfSet *s, int d, const GfSet *t);
/* Whether p and p & q hold for the same parameter values. */
bool sets_same_params(GfSets *S, const GfSet *p, const GfSet *q);

/* ---- deps.c: isl dependences ------------------------------------------------- */

typedef struct DepInfo {
    char *isl_domain, *isl_schedule, *isl_deps;
    void *priv;                  /* deps.c's model, with its isl objects */
} DepInfo;

/* Builds the polyhedral model, marks parallel and reduction loops and the
 * atomic updates (Stmt.atomic), and rejects the region (diagnosed) when no
 * loop of a nest can be parallel. */
bool deps_analyze(Unit *u, Region *r);
/* deps_analyze in two halves: the model and the loop marks (never fails),
 * then the check that every nest has a parallel loop (diagnosed). */
void deps_model(Unit *u, Region *r);
bool deps_check(Region *r);
/* Privatisation (priv.c): whether every value read from array t inside
 * `loop` was written earlier in the same iteration of the loop (and of the
 * loops around it), by isl's value-based flow analysis (accesses that may
 * or may not happen count as possible sources, writes outside the loop
 * too).  Reads outside the loop are not looked at: whether they can see the
 * loop's values is the caller's question (priv.c, live_after).  NULL when
 * so, else why not. */
const char *deps_private_flow(Region *r, Var *t, Stmt *loop);
/* Whether `loop` carries no dependence once the accesses of the n arrays
 * in skip are left out. */
bool deps_parallel_without(Region *r, Stmt *loop, Var *const *skip, int n);
/* The reads of array x under `loop` (at most max, distinct expressions)
 * that see only values from before the loop, when reading them from a copy
 * taken before it leaves the loop carrying no dependence; 0 otherwise. */
int deps_old_reads(Region *r, Var *x, Stmt *loop, Expr **reads, int max);
/* Distribution (priv.c): the dependence graph of the n statements kids[]
 * of `loop`'s body, for one iteration of the loops around it.
 * edge[a*n+b]: a dependence goes from (a statement inside) kids[a] to
 * kids[b]; carried[a*n+b]: one of them is carried by `loop`. */
void deps_body_graph(Region *r, Stmt *loop, Stmt *const *kids, int n, bool *edge, bool *carried);
/* Library calls (libcall.c): whether every instance of statement a runs
 * before every instance of statement b that touches the same element of v
 * (the order a nest updates each output element in). */
bool deps_before_on(Region *r, Stmt *a, Stmt *b, Var *v);
/* Whether every element of v that statement s reads, other than the one each
 * instance writes, still holds its value from before `nest` (no statement of
 * the nest wrote it earlier): an in-place update reading the old values. */
bool deps_reads_initial(Region *r, Stmt *nest, Stmt *s, Var *v);
/* Whether the statements ser[] (Stmt*: a serial kernel's assignments) may
 * run in every thread of the 1-D map nests[] at its start, their stores
 * made after it: within one iteration of the loops around both, the two
 * touch no element in common but the map's reads at a subscript in kept[]
 * (Expr*: elements ser[] writes, read from a register). */
bool deps_absorbable(Region *r, const Vec *ser, const Vec *nests, const Vec *kept);
/* Whether `loop` carries no dependence between (statements inside) the n
 * statements stmts[] (distribution: a piece holding only those). */
bool deps_parallel_among(Region *r, Stmt *loop, Stmt *const *stmts, int n);
/* Releases the region's isl objects (unit_free does it). */
void deps_free(Region *r);
/* Whether every dependence between statements of the two nests keeps the
 * first `dims` loop indices equal (fusing them keeps those loops parallel). */
bool deps_fusable(Region *r, Stmt *a, Stmt *b, int dims);
/* Swaps a sequential loop with the parallel loop that is its whole body
 * when every dependence keeps the inner index equal (Stmt.interchanged);
 * true if any was swapped: the caller analyses the region again. */
bool deps_interchange(Region *r);
/* Nests in which some statement has no parallel loop around it, run in the
 * order isl's scheduler finds when that order has fewer such statements
 * (lu, cholesky, triangular solves); the C body keeps the loops as written.
 * Returns whether a nest changed (the caller analyses the region again). */
bool deps_reschedule(Region *r);
/* Fuses a parallel loop with the next one in the same loop body when they
 * have the same header and every dependence between them keeps the index
 * equal (Stmt.fused_line; the C body is kept in Region.seq_body); true if
 * any was fused: the caller analyses the region again and calls it again. */
bool deps_fuse_siblings(Region *r);
/* The bounding box of the elements of `v` that the region touches: per
 * dimension, the first and last index as expressions in the integer
 * parameters, typed long long (parameters cast to it); isl's floor
 * division, min and max are E_CALLs of gf_floord, gf_min and gf_max
 * (templates/common.h, host and device).  *lo = NULL when v is not
 * touched; false if isl cannot bound it. */
bool deps_extent(Unit *u, Region *r, Var *v, Expr ***lo, Expr ***hi);
/* Whether the region writes every element of array `v` its call copies
 * before anything reads it (so the launcher need not copy v in): *always
 * when it does for every parameter value; else the condition on the
 * integer parameters under which it does (an expression like deps_extent's),
 * or NULL: never, or not known. */
Expr *deps_write_first(Region *r, Var *v, bool *always);
/* Tests: a limit on isl's operations per model (0: none), to make isl
 * fail; a failed model answers every question with the worst case and
 * deps_check refuses the region. */
extern unsigned long deps_isl_max_operations;
/* e = P*outer + inner with P an integer parameter (outer NULL when e is
 * plain affine); false if not that shape (flattened 2-D subscripts). */
bool deps_split_flat(Arena *a, Expr *e, Var **P, Aff **outer, Aff **inner);

/* ---- args.c: extents and aliasing of array arguments ---------------------- */

/* Fills Var.ext_lo/ext_hi/ext_whole/alias_class of the array parameters;
 * false (diagnosed) when an extent cannot be known. */
bool args_plan(Unit *u, Region *r);

/* ---- inspect.c: extents found at run time ------------------------------------- */

/* One host pass before the call stages anything: the loops of the C body
 * with only the statements in keep, recording the subscripts of targets. */
typedef struct InspectPass {
    Vec targets;                 /* Var*: Var.ext_run is this pass */
    Vec keep;                    /* Stmt*: what the pass runs (loops, ifs, blocks, the scalars it needs) */
    Vec reads;                   /* Var*: the array parameters it reads */
    Vec skip;                    /* Expr*: accesses of targets it need not record (an equal one
                                    in the condition of the if around was recorded) */
    Vec ends;                    /* Stmt*: loops it runs at their first and last iterations only
                                    (what it records there is monotone in the index) */
    Vec par;                     /* Stmt*: outermost loops it runs in threads (no scalar handed
                                    from one iteration to the next, no break) */
} InspectPass;

typedef struct Inspect {
    InspectPass *passes;         /* pass l is passes[l - 1] */
    int npasses;
    int nslots;                  /* Var.ext_slot: 0 .. nslots - 1 */
} Inspect;

/* The passes that find the extents of cands (array parameters declared as
 * plain pointers whose elements isl cannot bound); fills Var.ext_run and
 * ext_slot and Region.inspect.  False with the array and the reason when
 * one cannot be found that way. */
bool inspect_plan(Region *r, const Vec *cands, Var **bad, const char **why);
bool inspect_keeps(const InspectPass *p, const Stmt *s);
bool inspect_ends(const InspectPass *p, const Stmt *s);
bool inspect_parallel(const InspectPass *p, const Stmt *s);
/* Whether e is an access pass (an InspectPass) records (an ExprPred). */
bool inspect_site(const Expr *e, const void *pass);

/* ---- fuse.c: the fusion plan -------------------------------------------------- */

/* K_SERIAL: statements outside every parallel loop, run in order by one
 * thread (a run of them, loops with no parallel loop inside included). */
typedef enum KernelKind { K_MAP, K_REDUCE, K_ROW, K_SERIAL } KernelKind;
extern const char *const kernel_kind_names[];

typedef struct LibCall LibCall;

typedef struct Kernel {
    KernelKind kind;
    int id;
    const char *name;            /* <function>_k<id> */
    Vec nests;                   /* Stmt* S_FOR fused, in order */
    int pdims;                   /* parallel dimensions mapped to the grid */
    Stmt *loops[3];              /* the parallel loops of the first nest */
    Vec reds;                    /* Stmt* reduction statements to scalars */
    Vec red_vars;                /* Var* their accumulators */
    Vec reg_temps;               /* Var* temporaries kept in registers */
    Vec atomics;                 /* Var*: arrays it updates atomically */
    bool vec4;                   /* 1-D, every array at [i]: the 16-byte (_v4) form */
    int vecw;                    /* with vec4: elements a thread, 16 bytes of the smallest (16, 8, 4, 2) */
    Vec dev_in;                  /* Var*: scalar results it reads from device memory */
    Vec results;                 /* K_SERIAL: Var* scalars it assigns that are used outside
                                    it: left in device memory (gf_out_<name>), like
                                    reduction results */
    Vec fresh;                   /* K_SERIAL: Var* declared outside it that it assigns
                                    before any read: no starting value passed in */
    Vec red_dev_init;            /* Var*: accumulators whose starting value is already
                                    in their device slot (a result of an earlier kernel) */
    Vec dev_prelude;             /* Stmt*: scalar statements recomputed at its start */
    int first_line, last_line;
    Vec lines;                   /* source line spans fused: int pairs */
    LibCall *lib;                /* library calls compute the nest (cuBLAS): the kernel is their fallback */
    struct Kernel *folded_into;  /* this kernel is that one's cuBLASLt epilogue, or the
                                    scaling its library call's beta takes in (LibCall.init) */
    struct Step *fft_step;       /* folded into that FFT builtin's cuFFT callback (fftfold.c) */
} Kernel;

/* libcall.c: the library calls a BLAS-shaped nest becomes.  Operands are
 * row-major (the runtime turns them into cuBLAS's column-major calls). */
typedef enum LibKind {
    L_GEMM,                      /* C = alpha op(A) op(B) + beta C         (m x n, sum over k) */
    L_GEMV,                      /* c = alpha op(A) b + beta c             (A m x n; c has m, or n with ta) */
    L_GER,                       /* C = alpha a b^T + C                    (m x n) */
    L_SYRK,                      /* C = alpha op(A) op(A)^T + beta C       (one triangle of n x n, sum over k) */
    L_SYR2K,                     /* C = alpha (op(A) op(B)^T + op(B) op(A)^T) + beta C */
    L_SYMM,                      /* C = alpha S B + beta C (or B S): S symmetric, one triangle of A stored */
    L_TRMM,                      /* C = alpha op(T) B (or B op(T)): T triangular in A; C may be B (in place) */
    L_GEAM                       /* C = alpha A + beta C                   (m x n; a vector is 1 x n) */
} LibKind;

/* The elements of C a call writes: rows [0, m) by columns [0, n) (n NULL:
 * a vector of m), or one triangle of an m x m matrix. */
typedef enum LibShape { LS_BOX, LS_LOWER, LS_UPPER } LibShape;
typedef struct LibElems {
    LibShape shape;
    Expr *m, *n;
} LibElems;

/* A loop-invariant scale: num * f[0] * f[1] ... (scalar parameters, literals). */
typedef struct LibCoef {
    double num;
    Expr *f[4];
    int nf;
} LibCoef;

typedef struct LibOp {
    LibKind kind;
    Var *a, *b, *c;              /* operands as in LibKind; c is written */
    Expr *lda, *ldb, *ldc;       /* row strides in elements (NULL for a vector) */
    Expr *m, *n, *k;             /* sizes as C expressions (NULL when the kind has none) */
    bool ta, tb;                 /* op(A) = A^T, op(B) = B^T (SYRK/SYR2K: ta = sum over A's rows) */
    bool upper;                  /* SYRK/SYR2K: C's triangle j >= i; SYMM/TRMM: A's triangle read */
    bool right;                  /* SYMM/TRMM: A multiplies from the right */
    bool unit;                   /* TRMM: A's diagonal taken as ones (not read) */
    LibCoef alpha, beta;
    LibElems elems;              /* the elements of c it writes (libcall.c compares them as sets) */
} LibOp;

/* A kernel whose nest library calls compute: the launcher makes them when
 * cuBLAS can take the sizes and strides, and runs the kernel otherwise. */
struct LibCall {
    Vec ops;                     /* LibOp*, in the order they run */
    int epi;                     /* one L_GEMM with a cuBLASLt epilogue: GF_EPI_BIAS | RELU | GELU */
    Var *bias;                   /* GF_EPI_BIAS: one value per column of C */
    Kernel *epilogue;            /* the next kernel, when it is the folded epilogue */
    Kernel *init;                /* an earlier kernel that only scales or clears the output,
                                    folded into the first call's beta */
    int first_line, last_line;   /* the nest it replaces */
};

/* P_LOOP: a sequential for or while loop on the host around kernels;
 * P_IF: an if on the host whose branches launch kernels or return. */
typedef enum StepKind { P_KERNEL, P_HOST, P_LOOP, P_LIB, P_IF } StepKind;

typedef struct Step {
    StepKind kind;
    Kernel *kernel;              /* P_KERNEL */
    Stmt *stmt;                  /* P_HOST: scalar statement; P_LOOP: the loop; P_LIB: the S_LIB;
                                    P_IF: the if */
    Vec body;                    /* P_LOOP: Step*; P_IF: the then branch */
    Vec els;                     /* P_IF: the else branch */
    /* scalar results left on the device and copied to the host just before
     * this step (a host statement reads them); at the end of each iteration
     * of a P_LOOP (the next iteration reads them) or of a P_IF's then
     * branch; after a P_LOOP that ran at least once (read after it); at the
     * end of a P_IF's else branch */
    Vec sync_before, sync_end, sync_after, sync_els;
    /* P_LOOP: scalars every iteration finds on the device (a kernel of the
     * body computes them, the next iteration reads them first): copied to
     * their device slot before the loop when the host holds them, and at
     * the end of an iteration that left them on the host */
    Vec upload_before, upload_end;
    Vec host_prelude;            /* Stmt*: deferred scalar statements run just before */
    bool deferred;               /* P_HOST: runs in the kernels that need it instead */
    /* P_LIB of gf_fft_c2c_n (fftfold.c): kernels folded into cuFFT's load
     * and store callbacks, the loops each maps onto the transform's
     * elements, and whether the store callback still stores the spectrum */
    Kernel *fft_load, *fft_store;
    Stmt *fft_loops[2][3];
    int fft_depth[2];
    bool fft_keep;
} Step;

/* A loop of the plan that stays on the host and launches kernels in each
 * iteration (its note in Plan.notes says how many; the report adds how
 * many of them the GPU launches: lower.c may run one in another's threads). */
typedef struct HostLoop {
    const Stmt *loop;
    int note;                    /* its note's index in Plan.notes */
    int launches;                /* the kernels and library calls of its body, as the note counts them */
    Vec kernels;                 /* Kernel*: the plan's kernels in its body */
} HostLoop;

typedef struct Plan {
    Vec steps;                   /* Step* */
    Vec kernels;                 /* Kernel* */
    Vec notes;                   /* const char*: what was not fused and why */
    Vec host_loops;              /* HostLoop*: loops on the host launching kernels, in note order */
    Vec dead_temps;              /* Var*: temporaries never allocated */
    int nests;                   /* parallel nests before fusion */
    bool has_lib;                /* a P_LIB step: the host code calls libgpufuse */
    bool cost_model;             /* kernels launched per iteration of a host loop, or a
                                    serial kernel with loops: the launcher weighs launches
                                    against work before choosing the GPU (emit_cuda.c) */
    double bytes_unfused, bytes_fused;   /* per element-estimates for --report */
} Plan;

void fuse_region(Unit *u, Region *r);
/* fftfold.c: element-wise kernels next to a c2c FFT builtin folded into its
 * cuFFT load/store callbacks (Step.fft_load/fft_store; notes say why not). */
void fft_fold(Arena *a, Region *r, Plan *p);
/* 0/1: e is the real/imaginary part of z's complex element that the
 * iteration of `loops` owns (z[i0]..[2 * i_last + 0/1]), -1: not. */
int fft_own_part(Arena *a, Var *z, Stmt *const *loops, int d, Expr *e);

/* ---- share.c: calls of helpers that compute the same values, inlined ----------------------- */

/* Inlines the calls of helpers with a form (Func.ret) in blocks where they
 * compute a costly value twice, up to a negation that IEEE arithmetic
 * undoes exactly (cnd(x) and cnd(-x)); the value is then computed once.
 * Runs on the IR as parsed; notes go to Region.notes. */
void share_helpers(Unit *u, Region *r);

/* ---- inline.c: cheap producers recomputed in their consumers ---------------------------- */

void inline_producers(Unit *u, Region *r);

/* ---- priv.c: privatisation of scratch arrays, loop distribution ----------------------- */

/* Run between deps_model and deps_check: privatises temporaries that each
 * iteration of a loop overwrites before reading, and distributes loops whose
 * dependences come only from the order of their statements; both only when
 * isl proves it legal and it makes a loop parallel.  Notes go to
 * Region.notes.  True when the IR changed (the caller re-runs the analyses). */
bool priv_region(Unit *u, Region *r);
/* Run after deps_fuse_siblings: one outermost parallel loop whose body holds
 * an inner parallel loop among statements that run in order (no parallel
 * loop inside them) split into loops of their own, so that the inner loop is
 * a map dimension (ir_hides_parallel); the statements' scalars must not
 * cross the pieces.  True when the IR changed (the caller analyses the
 * region again and calls it again). */
bool priv_split_parallel(Unit *u, Region *r);

/* ---- libcall.c: nests a library computes ------------------------------------------- */

/* The library calls that compute `nest` (a kernel's only nest), or NULL;
 * *why (may be NULL) then says why a nest that looks like one (a sum of
 * products, a rank-1 update) stays a kernel, NULL when it does not look
 * like one. */
LibCall *lib_match(Arena *a, Region *r, Stmt *nest, const char **why);
/* Takes kernel k (the one right after lc's) into the call as a cuBLASLt
 * epilogue when it is only C = relu(C + bias[j]) or a part of that. */
bool lib_fold_epilogue(Arena *a, LibCall *lc, Kernel *k);
/* Takes kernel k (an earlier one, nothing between touches lc's output) into
 * the first call's beta when it only sets the output to 0 or scales it by
 * a loop-invariant value over the same elements. */
bool lib_fold_init(Arena *a, Region *r, LibCall *lc, Kernel *k);
/* "C = alpha * A * B^T + beta * C (double, cuBLAS GEMM)" for --report. */
const char *lib_describe_op(Arena *a, const LibCall *lc, const LibOp *op);
/* All of lc's calls, "; "-separated. */
const char *lib_describe(Arena *a, const LibCall *lc);
/* The cuBLAS routine an op calls ("GEMM", "SYRK" ...). */
const char *lib_kind_name(LibKind k);

/* ---- builtins.c ---- */

/* Library builtins callable in a region (gf_sgemm, gf_dgemm,
 * gf_gemm_epilogue, gf_fft_c2c_n, gf_fft_r2c_n): one letter per argument,
 * 'S' a scalar, 'O' a gf_op, 'D' a gf_dtype, 'R' an array it
 * reads, 'N' an array it reads or NULL, 'W' an array it reads and writes.
 * NULL when `name` is not one. */
const char *lib_builtin_roles(const char *name);
/* __builtin_popcount, clz, ctz, ffs, parity (and l, ll): the name generated
 * code calls (gf_popcount, ...: templates/common.h), or NULL for another name. */
const char *builtin_bits(const char *name);
const char *lib_builtin_library(const char *name);   /* "cuBLAS", "cuBLASLt", "cuFFT" */
/* A role that is not an array. */
#define LIB_SCALAR_ROLE(r) ((r) == 'S' || (r) == 'O' || (r) == 'D')

/* ---- emit_c.c: expressions and statements as C/CUDA text ------------------------ */

typedef struct EmitCtx EmitCtx;
struct EmitCtx {
    Region *r;
    bool device;                 /* CUDA device code */
    bool fast_math;              /* device code: CUDA's fast intrinsics (--fast-math) */
    Kernel *k;                   /* kernel being emitted (NULL on host) */
    /* replaces an E_VAR/E_INDEX (registers, cached rows); NULL = default */
    const char *(*override)(EmitCtx *, const Expr *);
    /* emits a statement its own way; returns false to let emit_stmt do it */
    bool (*stmt_hook)(Buf *, EmitCtx *, const Stmt *);
    void *user;
};

void emit_expr(Buf *b, EmitCtx *cx, const Expr *e);
/* A condition (or any operand): a stored _Float16 read as float. */
void emit_cond(Buf *b, EmitCtx *cx, const Expr *e);
void emit_stmt(Buf *b, EmitCtx *cx, const Stmt *s);
/* An `=` assignment as `reg = rhs; lhs = reg;` (reg declared by the caller). */
void emit_assign_via(Buf *b, EmitCtx *cx, const Stmt *s, const char *reg);
/* A colliding update (Stmt.atomic) made atomic among the device's threads
 * (cx->device) or the OpenMP threads of the host plan. */
void emit_atomic_update(Buf *b, EmitCtx *cx, const Stmt *s);
void emit_type_decl(Buf *b, const Type *t, const char *name);
/* The C prototype of the region with another name. */
void emit_prototype(Buf *b, Region *r, const char *name);
/* The parameter list, arrays as flat pointers (or only the names). */
void emit_params(Buf *b, Region *r, bool cuda, bool names_only);
/* Flattened element offset of an E_INDEX (row-major over Var.dims). */
void emit_index(Buf *b, EmitCtx *cx, const Expr *e);

/* ---- emit_host.c / emit_cuda.c ------------------------------------------------------ */

typedef struct EmitOptions {
    const char *prefix;          /* names of the emitted definitions: prefix + name */
    const char *input_name;      /* for comments */
    bool openmp;
    bool fast_math;
    bool atomic_reductions;      /* grid reductions finish with atomics (non-deterministic order) */
} EmitOptions;

/* Plain C: the fused plan with OpenMP (name = prefix+function), plus the
 * sequential body (gf_seq_<name>). */
void emit_host_unit(Buf *b, Unit *u, const EmitOptions *o);
/* Host functions for one region (used by both back ends). */
void emit_host_region(Buf *b, Unit *u, Region *r, const char *name, bool fused, bool openmp);
void emit_cuda_unit(Buf *b, Unit *u, const EmitOptions *o);
/* emit_fftcb.c: FFT builtins with kernels folded into cuFFT callbacks: the
 * file-scope descriptors before the launcher of r, the launcher's caller
 * info (and in `cover` the elements the nests cover, -1 when they do not
 * match the array), and the callbacks' CUDA source. */
void fftcb_emit_descriptors(Buf *b, Arena *a, Region *r, const char *base);
void fftcb_emit_info(Buf *b, EmitCtx *cx, Arena *a, Region *r, Step *st, const char *base, Buf *cover);
char *fftcb_source(Arena *a, Region *r, Step *st, const char *base);
/* emit_verify.c: the extern "C" entry point `name` of region r, which calls
 * the (static) launcher `launcher` and, with GPUFUSE_VERIFY set, checks it
 * against gf_seq_<name> (gpufuse/entry.h); printed before the launcher. */
void emit_verify_entry(Buf *b, Region *r, const char *name, const char *launcher);
/* emit_verify.c: after the prelude, the check that <gpufuse/launch.h> and
 * the linked runtime are of GFC_LAUNCH_ABI, and the unit's link anchor
 * unit_symbol() (gpufuse_unit_<stem>, see gpufuse.h's GPUFUSE_UNIT). */
void emit_abi_check(Buf *b, Unit *u);
/* emit_verify.c: at the end of a .gf.cu, the constructor that starts the
 * runtime's warm-up (gf_prewarm) with the cuBLAS routines and types the
 * unit's launchers call. */
void emit_prewarm(Buf *b, Unit *u);
/* emit_kernel.c: a GPUFUSE_CUDA region in a .gf.cu: the user's kernel
 * declared, the C body (the CPU path), the entry point and the launcher that
 * stages the arguments and launches the kernel by the region's rule. */
void emit_user_kernel_region(Buf *b, Unit *u, Region *r, const EmitOptions *o);
/* report.c: a hand-written kernel's launch rule in words (report, remarks). */
const char *cuda_rule_text(Arena *a, const CudaRule *cr);
/* remarks.c: -Rgpufuse remarks for an accepted region (after args_plan). */
void remarks_region(Region *r, bool atomic_reductions);
const char *unit_symbol(Arena *a, const char *path);
/* Shared by both back ends (emit_host.c). */
void emit_prelude(Buf *b, Unit *u, bool cuda);
Stmt *nest_inner_body(Stmt *nest, int pdims);
void emit_iv_aliases(Buf *b, Kernel *k, Stmt *nest);
void emit_source_comment(Buf *b, Unit *u, Kernel *k);
void emit_extent(Buf *b, Region *r, Var *v, const char *lo, const char *hi);
/* Every array parameter's extent (gf_lo_<name>, gf_hi_<name>), the passes
 * of Region.inspect included, reading through gf_call_host_view(call, ...)
 * (call NULL: the host target's plain pointers). */
void emit_extents(Buf *b, Region *r, const char *call);
/* The passes of Region.inspect as static functions, before their callers. */
void emit_inspectors(Buf *b, Region *r);
const char *emit_arg_mode(Region *r, const Var *v);
void emit_call_args(Buf *b, Region *r, bool big);
void emit_device_ptrs(Buf *b, Region *r, bool by_written);
void emit_loop_head(Buf *b, EmitCtx *cx, const Stmt *l, const char *what);
/* host_cost.c: the host plan against the C body, per call.  emit_host_cost
 * prints gf_host_work_<f> and gf_host_wins_<f>(scalar parameters);
 * host_cost_call is the latter's call (NULL when the region has no model:
 * host_cost_none says why), host_cost_work_call the former's for the CUDA
 * launcher's weighing of CPU against GPU (NULL: not weighed). */
void emit_host_cost(Buf *b, Region *r);
const char *host_cost_call(Region *r);
const char *host_cost_work_call(Region *r);
const char *host_cost_none(Region *r);
/* In the CUDA launcher, before gf_call_map: without a GPU, the C body when
 * the host plan cannot win. */
void emit_host_choice(Buf *b, Region *r);
/* emit_host.c: the sequential loop the host plan runs outside blocks of
 * kernel k's innermost parallel loop (column sums), or NULL. */
Stmt *host_block_loop(Kernel *k);

/* ---- report.c / irdump.c --------------------------------------------------------------- */

void report_text(FILE *f, Unit *u);
void report_json(FILE *f, Unit *u);
void ir_dump(FILE *f, Unit *u);

#endif /* GFC_H */
