/* ir.c - names of the IR's kinds, type predicates, structural equality,
 * and the --emit=ir dump. */
#include "gfc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const expr_kind_names[] = {
#define X(k) #k,
    GF_EXPR_KINDS(X)
#undef X
};
const char *const stmt_kind_names[] = {
#define X(k) #k,
    GF_STMT_KINDS(X)
#undef X
};
const char *const red_op_names[] = {"none", "+", "*", "min", "max", "&&", "||", "&", "|", "^"};
const char *const kernel_kind_names[] = {"map", "reduce", "row", "serial"};

/* ---- operators ---------------------------------------------------------- */

static const struct {
    const char *spelling;
    int prec;
} op_table[] = {
#define X(k, s, p) {s, p},
    GF_OPS(X)
#undef X
};

const char *op_spelling(Op op)
{
    gfc_assert(op >= 0 && op < OP_COUNT);
    return op_table[op].spelling;
}

int op_prec(Op op)
{
    gfc_assert(op >= 0 && op < OP_COUNT);
    return op_table[op].prec;
}

bool op_is_compare(Op op)
{
    return op >= OP_LT && op <= OP_NE;
}

bool op_is_assign(Op op)
{
    return op >= OP_ASSIGN && op <= OP_BOR_ASSIGN;
}

/* The compound assignments in the order of their binary operators. */
static const Op compound_pairs[][2] = {
    {OP_MUL, OP_MUL_ASSIGN}, {OP_DIV, OP_DIV_ASSIGN}, {OP_MOD, OP_MOD_ASSIGN}, {OP_ADD, OP_ADD_ASSIGN},
    {OP_SUB, OP_SUB_ASSIGN}, {OP_SHL, OP_SHL_ASSIGN}, {OP_SHR, OP_SHR_ASSIGN}, {OP_BAND, OP_BAND_ASSIGN},
    {OP_BXOR, OP_BXOR_ASSIGN}, {OP_BOR, OP_BOR_ASSIGN},
};

Op op_assign_base(Op op)
{
    for (size_t i = 0; i < sizeof compound_pairs / sizeof *compound_pairs; i++)
        if (compound_pairs[i][1] == op)
            return compound_pairs[i][0];
    return OP_NONE;
}

Op op_compound_of(Op op)
{
    for (size_t i = 0; i < sizeof compound_pairs / sizeof *compound_pairs; i++)
        if (compound_pairs[i][0] == op)
            return compound_pairs[i][1];
    return OP_NONE;
}

Op op_binary_of(const char *s)
{
    for (int op = OP_MUL; op <= OP_COMMA; op++)
        if (!strcmp(op_table[op].spelling, s))
            return (Op)op;
    return OP_NONE;
}

Op op_unary_of(const char *s, bool postfix)
{
    static const Op prefix[] = {OP_NEG, OP_PLUS, OP_NOT, OP_BNOT, OP_PREINC, OP_PREDEC, OP_ADDR, OP_DEREF};
    static const Op post[] = {OP_POSTINC, OP_POSTDEC};
    const Op *t = postfix ? post : prefix;
    size_t n = postfix ? sizeof post / sizeof *post : sizeof prefix / sizeof *prefix;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(op_table[t[i]].spelling, s))
            return t[i];
    return OP_NONE;
}

bool type_is_integer(const Type *t)
{
    return t && t->kind >= TY_BOOL && t->kind <= TY_ULLONG;
}

bool type_is_unsigned(const Type *t)
{
    return t && (t->kind == TY_BOOL || t->kind == TY_UCHAR || t->kind == TY_USHORT || t->kind == TY_UINT ||
                 t->kind == TY_ULONG || t->kind == TY_ULLONG);
}

bool cast_wraps(const Expr *e)
{
    if (e->kind != E_CAST || !type_is_integer(e->ty) || e->kids[0]->kind == E_INT)
        return false;
    const Type *to = e->ty, *from = e->kids[0]->ty;
    if (!from || !type_is_integer(from) || type_size(to) >= 4)
        return false;
    /* a narrower target keeps every value of a source that is no wider and,
     * if signed, goes to a signed type (or is unsigned and strictly narrower) */
    bool fits = type_size(from) < type_size(to) ||
                (type_size(from) == type_size(to) && type_is_unsigned(from) == type_is_unsigned(to));
    if (type_size(from) < type_size(to) && !type_is_unsigned(from) && type_is_unsigned(to))
        fits = false;        /* a negative value wraps */
    return !fits || to->kind == TY_BOOL;
}

bool type_is_float(const Type *t)
{
    return t && (t->kind == TY_FLOAT || t->kind == TY_DOUBLE || t->kind == TY_F16 || t->kind == TY_BF16);
}

bool type_is_half(const Type *t)
{
    return t && (t->kind == TY_F16 || t->kind == TY_BF16);
}

bool type_is_complex(const Type *t)
{
    return t && (t->kind == TY_CF || t->kind == TY_CD);
}

int type_size(const Type *t)
{
    static const int sizes[] = {[TY_BOOL] = 1, [TY_CHAR] = 1, [TY_SCHAR] = 1, [TY_UCHAR] = 1,
                                [TY_SHORT] = 2, [TY_USHORT] = 2, [TY_INT] = 4, [TY_UINT] = 4,
                                [TY_LONG] = 8, [TY_ULONG] = 8, [TY_LLONG] = 8, [TY_ULLONG] = 8,
                                [TY_FLOAT] = 4, [TY_DOUBLE] = 8, [TY_F16] = 2, [TY_BF16] = 2,
                                [TY_CF] = 8, [TY_CD] = 16};
    return t && t->kind > TY_VOID && t->kind <= TY_CD ? sizes[t->kind] : 0;
}

bool type_is_arith(const Type *t)
{
    return type_is_integer(t) || type_is_float(t) || type_is_complex(t);
}

Type *type_elem(Type *t)
{
    while (t && (t->kind == TY_PTR || t->kind == TY_ARRAY))
        t = t->base;
    return t;
}

int type_rank(const Type *t)
{
    int n = 0;
    while (t && (t->kind == TY_PTR || t->kind == TY_ARRAY)) {
        n++;
        t = t->base;
    }
    return n;
}

const char *type_c_name(const Type *t)
{
    static const char *const names[] = {
        [TY_VOID] = "void", [TY_BOOL] = "_Bool", [TY_CHAR] = "char", [TY_SCHAR] = "signed char",
        [TY_UCHAR] = "unsigned char", [TY_SHORT] = "short", [TY_USHORT] = "unsigned short",
        [TY_INT] = "int", [TY_UINT] = "unsigned int", [TY_LONG] = "long", [TY_ULONG] = "unsigned long",
        [TY_LLONG] = "long long", [TY_ULLONG] = "unsigned long long", [TY_FLOAT] = "float",
        [TY_DOUBLE] = "double", [TY_F16] = "gf_f16", [TY_BF16] = "gf_bf16",
        [TY_CF] = "gf_c32", [TY_CD] = "gf_c64"};
    if (t->kind == TY_STRUCT)
        return t->name;
    if (t->kind > TY_CD)
        return "?";
    return names[t->kind];
}

const char *type_src_name(const Type *t)
{
    return t->kind == TY_F16 ? "_Float16" : t->kind == TY_BF16 ? "__bf16" : t->kind == TY_CF ? "float _Complex" :
           t->kind == TY_CD ? "double _Complex" : type_c_name(t);
}

/* The same C type, for casts and sizeof (types are not interned). */
static bool type_same(const Type *a, const Type *b)
{
    if (a == b)
        return true;
    if (!a || !b || a->kind != b->kind)
        return false;
    if (a->kind == TY_STRUCT)
        return a->name && b->name && !strcmp(a->name, b->name);
    if (a->kind == TY_PTR || a->kind == TY_ARRAY)
        return type_same(type_elem((Type *)a), type_elem((Type *)b));
    return true;
}

bool expr_cast_types_equal(const Expr *a, const Expr *b)
{
    return (a->kind != E_CAST && a->kind != E_SIZEOF) || type_same(a->ty, b->ty);
}

bool expr_equal_renamed(const Expr *a, const Expr *b, const Var *va, const Var *vb)
{
    if (a == b)
        return true;
    if (!a || !b || a->kind != b->kind || a->nkids != b->nkids || a->op != b->op || !expr_cast_types_equal(a, b))
        return false;
    if (a->var != b->var && !(va && a->var == va && b->var == vb))
        return false;
    if ((a->text || b->text) && (!a->text || !b->text || strcmp(a->text, b->text)))
        return false;
    if (a->kind == E_CALL && a->callee != b->callee)
        return false;
    for (int i = 0; i < a->nkids; i++)
        if (!expr_equal_renamed(a->kids[i], b->kids[i], va, vb))
            return false;
    return true;
}

bool expr_equal(const Expr *a, const Expr *b)
{
    return expr_equal_renamed(a, b, NULL, NULL);
}

static const Expr *no_casts(const Expr *e)
{
    while (e && e->kind == E_CAST)
        e = e->kids[0];
    return e;
}

/* Bytes and signedness of an integer kind (LP64). */
static int int_bytes(TypeKind k, bool *is_signed)
{
    *is_signed = k == TY_CHAR || k == TY_SCHAR || k == TY_SHORT || k == TY_INT || k == TY_LONG || k == TY_LLONG;
    switch (k) {
    case TY_BOOL: case TY_CHAR: case TY_SCHAR: case TY_UCHAR: return 1;
    case TY_SHORT: case TY_USHORT: return 2;
    case TY_INT: case TY_UINT: return 4;
    default: return 8;
    }
}

/* Whether every value of `from` converts to `to` exactly (so a max or min
 * of the converted values is the converted max or min). */
static bool exact_conversion(const Type *from, const Type *to)
{
    if (!from || !to)
        return false;
    if (from->kind == to->kind)
        return true;
    if (from->kind == TY_FLOAT)
        return to->kind == TY_DOUBLE;
    if (!type_is_integer(from))
        return false;
    bool fs, ts;
    int fb = int_bytes(from->kind, &fs);
    if (to->kind == TY_FLOAT)
        return fb <= 2;          /* 24-bit significand */
    if (to->kind == TY_DOUBLE)
        return fb <= 4;          /* 53-bit significand */
    if (!type_is_integer(to))
        return false;
    int tb = int_bytes(to->kind, &ts);
    return fs == ts ? tb >= fb : !fs && ts && tb > fb;
}

/* e without the conversions that keep every value (short -> int, float ->
 * double); a narrowing one (int -> short, float -> int) stays. */
static const Expr *no_exact_casts(const Expr *e)
{
    while (e && e->kind == E_CAST && exact_conversion(e->kids[0]->ty, e->ty))
        e = e->kids[0];
    return e;
}

RedOp ir_minmax_update(const Stmt *s, Expr **val, bool *nan_wins)
{
    if (nan_wins)
        *nan_wins = false;
    if (s->kind != S_ASSIGN || s->op != OP_ASSIGN || s->lhs->kind != E_INDEX)
        return RED_NONE;
    const Expr *el = s->lhs, *e = no_casts(s->rhs);
    const Var *v = el->var;
    if (e->kind == E_CALL && e->nkids == 2 && !e->callee) {
        RedOp r = !strcmp(e->text, "fmaxf") || !strcmp(e->text, "fmax") ? RED_MAX :
                  !strcmp(e->text, "fminf") || !strcmp(e->text, "fmin") ? RED_MIN : RED_NONE;
        for (int side = 0; r && side < 2; side++) {
            if (expr_equal(no_exact_casts(e->kids[side]), el)) {
                *val = e->kids[1 - side];
                return r;
            }
        }
        return RED_NONE;
    }
    if (e->kind != E_COND || e->kids[0]->kind != E_BINARY)
        return RED_NONE;
    /* c ? A : B with c comparing the element and x, {A, B} = {element, x} */
    const Expr *c = e->kids[0];
    bool gt = c->op == OP_GT || c->op == OP_GE, lt = c->op == OP_LT || c->op == OP_LE;
    if (!gt && !lt)
        return RED_NONE;
    for (int side = 0; side < 2; side++) {
        const Expr *mine = c->kids[side], *x = c->kids[1 - side];
        if (!expr_equal(no_exact_casts(mine), el))
            continue;
        /* element OP x ? element : x is a max for OP = > (the element kept
         * when larger); the mirrored forms follow */
        bool keep_first = expr_equal(e->kids[1], mine) && expr_equal(e->kids[2], x);
        bool take_first = expr_equal(e->kids[1], x) && expr_equal(e->kids[2], mine);
        if (!keep_first && !take_first)
            return RED_NONE;
        bool elem_left = side == 0;
        /* "element > x ? element : x" -> max; swapping the comparison's
         * operands or the branches turns max into min */
        bool is_max = gt == elem_left;
        if (take_first)
            is_max = !is_max;
        *val = (Expr *)x;
        if (nan_wins)
            *nan_wins = keep_first && type_is_float(v->ty ? type_elem(v->ty) : NULL);
        return is_max ? RED_MAX : RED_MIN;
    }
    return RED_NONE;
}

/* ---- the one traversal ------------------------------------------------------
 * ir_visit_stmt walks a statement and everything it owns: child statements
 * and every expression slot (loop bounds, break flags, conditions, targets,
 * values, the sizes of declared arrays).  A new field of Stmt is added here
 * once and every pass built on the visitor sees it. */

/* The expression slots a statement owns, in source order. */
static int stmt_expr_slots(Stmt *s, Expr **slot[], int max)
{
    int n = 0;
#define SLOT(x) do { gfc_assert(n < max); slot[n++] = &(x); } while (0)
    switch (s->kind) {
    case S_FOR: SLOT(s->lb); SLOT(s->ub); SLOT(s->brk); break;
    case S_WHILE: SLOT(s->brk); SLOT(s->cond); break;
    case S_IF: SLOT(s->cond); break;
    case S_DECL:
        /* array sizes may be shared with the Var: visited, not owned twice */
        SLOT(s->rhs);
        break;
    case S_ASSIGN: SLOT(s->lhs); SLOT(s->rhs); break;
    case S_RETURN:
    case S_LIB: SLOT(s->rhs); break;
    case S_BLOCK:
    case S_FREE: break;
    }
#undef SLOT
    return n;
}

/* The child statement slots of a statement other than a block, in order. */
static int stmt_child_slots(Stmt *s, Stmt **slot[2])
{
    switch (s->kind) {
    case S_FOR:
    case S_WHILE: slot[0] = &s->body; return 1;
    case S_IF: slot[0] = &s->then; slot[1] = &s->els; return 2;
    default: return 0;
    }
}

Expr *ir_visit_expr(IrVisitor *v, Expr *e, Stmt *owner)
{
    if (!e || v->done)
        return e;
    v->skip = false;
    if (v->expr) {
        Expr *r = v->expr(v, e, owner);
        if (r != e || v->done) {
            v->skip = false;
            return r;            /* replaced: the replacement is not walked */
        }
    }
    bool skip = v->skip;
    v->skip = false;
    for (int i = 0; i < e->nkids && !skip && !v->done; i++)
        e->kids[i] = ir_visit_expr(v, e->kids[i], owner);
    if (v->expr_after && !v->done)
        return v->expr_after(v, e, owner);
    return e;
}

/* The expressions s owns itself: the sizes of an array it declares, then its slots. */
static void visit_own_exprs(IrVisitor *v, Stmt *s)
{
    if (!v->expr && !v->expr_after)
        return;
    if (s->kind == S_DECL && s->var->is_array)
        for (int i = 0; i < s->var->ndims && !v->done; i++)
            s->var->dims[i] = ir_visit_expr(v, s->var->dims[i], s);
    Expr **slot[4];
    int n = stmt_expr_slots(s, slot, 4);
    for (int i = 0; i < n && !v->done; i++)
        *slot[i] = ir_visit_expr(v, *slot[i], s);
}

void ir_visit_stmt(IrVisitor *v, Stmt *s)
{
    if (!s || v->done)
        return;
    v->skip = false;
    if (v->stmt && !v->stmt(v, s)) {
        v->skip = false;
        return;
    }
    bool skip = v->skip;
    v->skip = false;
    if (!skip)
        visit_own_exprs(v, s);
    IrFrame f = {s, v->up};
    v->up = &f;
    /* a block's list is read afresh each time: a callback may edit it */
    for (int i = 0; s->kind == S_BLOCK && i < s->list.len && !v->done; i++)
        ir_visit_stmt(v, vec_at(&s->list, i));
    Stmt **kid[2];
    int n = stmt_child_slots(s, kid);
    for (int i = 0; i < n && !v->done; i++)
        ir_visit_stmt(v, *kid[i]);
    v->up = f.up;
    if (v->stmt_after && !v->done)
        v->stmt_after(v, s);
}

typedef struct AnyCx {
    IrVisitor v;
    ExprPred f;
    const void *arg;
} AnyCx;

static Expr *any_expr(IrVisitor *v, Expr *e, Stmt *owner)
{
    (void)owner;
    AnyCx *a = (AnyCx *)v;
    if (a->f(e, a->arg))
        v->done = true;
    return e;
}

bool ir_expr_any(const Expr *e, ExprPred f, const void *arg)
{
    AnyCx a = {{.expr = any_expr}, f, arg};
    ir_visit_expr(&a.v, (Expr *)e, NULL);
    return a.v.done;
}

bool ir_stmt_any(const Stmt *s, ExprPred f, const void *arg)
{
    AnyCx a = {{.expr = any_expr}, f, arg};
    ir_visit_stmt(&a.v, (Stmt *)s);
    return a.v.done;
}

/* Only the root's own expressions: every statement below it is skipped. */
typedef struct OwnCx {
    AnyCx any;
    const Stmt *root;
} OwnCx;

static bool own_stmt(IrVisitor *v, Stmt *s)
{
    return s == ((OwnCx *)v)->root;
}

bool ir_own_any(const Stmt *s, ExprPred f, const void *arg)
{
    OwnCx o = {{{.stmt = own_stmt, .expr = any_expr}, f, arg}, s};
    ir_visit_stmt(&o.any.v, (Stmt *)s);
    return o.any.v.done;
}

typedef struct FindCx {
    IrVisitor v;
    StmtPred f;
    const void *arg;
    Stmt *found;
} FindCx;

static bool find_stmt(IrVisitor *v, Stmt *s)
{
    FindCx *c = (FindCx *)v;
    IrFind r = c->f(s, c->arg);
    if (r == IR_FOUND) {
        c->found = s;
        v->done = true;
    }
    return r == IR_NEXT;
}

Stmt *ir_stmt_find(const Stmt *s, StmtPred f, const void *arg)
{
    FindCx c = {{.stmt = find_stmt}, f, arg, NULL};
    ir_visit_stmt(&c.v, (Stmt *)s);
    return c.found;
}

/* ---- copies and removals -------------------------------------------------- */

Expr *ir_copy_expr(Arena *a, const Expr *e)
{
    if (!e)
        return NULL;
    Expr *c = arena_alloc(a, sizeof *c);
    *c = *e;
    c->aff = NULL;               /* recomputed by the analyses */
    if (e->nkids) {
        c->kids = arena_alloc(a, sizeof(Expr *) * (size_t)e->nkids);
        for (int i = 0; i < e->nkids; i++)
            c->kids[i] = ir_copy_expr(a, e->kids[i]);
    }
    return c;
}

void ir_add_var(Arena *a, Region *r, Var *v)
{
    const char *base = v->cname;
    for (int i = 0, n = 1; i < r->vars.len; i++)
        if (!strcmp(((Var *)vec_at(&r->vars, i))->cname, v->cname)) {
            v->cname = arena_printf(a, "%s_%d", base, n++);
            i = -1;
        }
    v->id = r->vars.len;
    vec_push(a, &r->vars, v);
}

Stmt *ir_block_of(Arena *a, Stmt *s, Stmt *parent)
{
    Stmt *b = arena_alloc(a, sizeof *b);
    b->kind = S_BLOCK;
    b->loc = s->loc;
    b->end_line = s->end_line;
    b->id = -1;
    b->depth = s->depth;
    b->parent = parent;
    vec_push(a, &b->list, s);
    s->parent = b;
    return b;
}

Stmt *ir_copy_stmt(Arena *a, const Stmt *s, Stmt *parent)
{
    if (!s)
        return NULL;
    Stmt *c = arena_alloc(a, sizeof *c);
    *c = *s;
    c->parent = parent;
    Expr **slot[4];
    int n = stmt_expr_slots(c, slot, 4);
    for (int i = 0; i < n; i++)
        *slot[i] = ir_copy_expr(a, *slot[i]);
    if (s->kind == S_BLOCK) {
        memset(&c->list, 0, sizeof c->list);
        for (int i = 0; i < s->list.len; i++)
            vec_push(a, &c->list, ir_copy_stmt(a, vec_at(&s->list, i), c));
    }
    Stmt **kid[2];
    n = stmt_child_slots(c, kid);
    for (int i = 0; i < n; i++)
        *kid[i] = ir_copy_stmt(a, *kid[i], c);
    return c;
}

static IrFind assigns_stmt(const Stmt *s, const void *v)
{
    bool hit = (s->kind == S_FOR && s->iv == v) || (s->kind == S_DECL && s->var == v) ||
               (s->kind == S_ASSIGN && s->lhs->kind == E_VAR && s->lhs->var == v);
    return hit ? IR_FOUND : IR_NEXT;
}

bool ir_assigns_var(const Stmt *s, const Var *v)
{
    return ir_stmt_find(s, assigns_stmt, v) != NULL;
}

/* ---- map loops ------------------------------------------------------------------ */

static bool reads_iv(const Expr *e, const void *arg)
{
    return e->kind == E_VAR && e->var == arg;
}

Stmt *ir_sole_loop(Stmt *body)
{
    while (body && body->kind == S_BLOCK && body->list.len == 1)
        body = vec_at(&body->list, 0);
    return body && body->kind == S_FOR ? body : NULL;
}

/* ir_map_loops of loop s with `body` (s's own when NULL) as its body */
static int map_loops_with(Stmt *s, Stmt *body, Stmt **loops)
{
    Stmt *in[3];
    int n = 0;
    for (Stmt *l = s; l && l->kind == S_FOR && l->parallel && n < 3;
         l = ir_sole_loop(l == s && body ? body : l->body)) {
        for (int i = 0; i < n; i++)
            if (ir_expr_any(l->lb, reads_iv, in[i]->iv) || ir_expr_any(l->ub, reads_iv, in[i]->iv))
                goto done;
        in[n++] = l;
    }
done:
    for (int i = 0; loops && i < n; i++)
        loops[i] = in[i];
    return n;
}

int ir_map_loops(Stmt *s, Stmt **loops) { return map_loops_with(s, NULL, loops); }

/* Whether loop l runs a constant number of times, at most n. */
static bool few_trips(const Stmt *l, long long n)
{
    if (l->lb->kind != E_INT || l->ub->kind != E_INT || l->step <= 0)
        return false;
    long long lb = strtoll(l->lb->text, NULL, 0), ub = strtoll(l->ub->text, NULL, 0);
    return ub <= lb || (ub - lb + l->step - 1) / l->step <= n;
}

/* The loops a and b (b_body: b's body, NULL for its own) differ in map
 * depth by a loop that does not run a few constant times. */
static bool hides_parallel(Stmt *a, Stmt *b, Stmt *b_body)
{
    Stmt *la[3], *lb[3];
    int na = ir_map_loops(a, la), nb = map_loops_with(b, b_body, lb);
    if (na == nb)
        return false;
    Stmt *extra = na > nb ? la[nb] : lb[na];
    return !few_trips(extra, 16);
}

bool ir_hides_parallel(Stmt *a, Stmt *b) { return hides_parallel(a, b, NULL); }

bool ir_kid_hides_parallel(Stmt *loop, Stmt *kid) { return hides_parallel(loop, loop, kid); }

/* ---- renaming, the original body ---------------------------------------------- */

typedef struct Rename {
    IrVisitor v;
    const Var *from;
    Var *to;
} Rename;

static bool rename_stmt(IrVisitor *v, Stmt *s)
{
    Rename *c = (Rename *)v;
    if ((s->kind == S_DECL || s->kind == S_FREE) && s->var == c->from)
        s->var = c->to;
    if (s->kind == S_FOR && s->iv == c->from)
        s->iv = c->to;
    return true;
}

static Expr *rename_expr(IrVisitor *v, Expr *e, Stmt *owner)
{
    (void)owner;
    Rename *c = (Rename *)v;
    if ((e->kind == E_VAR || e->kind == E_INDEX) && e->var == c->from)
        e->var = c->to;
    if (e->kind == E_INDEX)
        e->aff = NULL;           /* its subscripts may name `from`: recomputed by the analyses */
    return e;
}

void ir_rename_var(Stmt *s, const Var *from, Var *to)
{
    Rename c = {{.stmt = rename_stmt, .expr = rename_expr}, from, to};
    ir_visit_stmt(&c.v, s);
}

void ir_seq_snapshot(Region *r, Arena *a)
{
    if (r->seq_body)
        return;
    r->seq_body = ir_copy_stmt(a, r->body, NULL);
    for (int i = 0; i < r->vars.len; i++) {
        Var *t = vec_at(&r->vars, i);
        if (!t->is_temp || !t->decl)
            continue;
        Var *o = arena_alloc(a, sizeof *o);
        *o = *t;
        /* sizes of its own too: the renaming reaches into them */
        o->dims = arena_alloc(a, sizeof(Expr *) * (size_t)(t->ndims ? t->ndims : 1));
        for (int d = 0; d < t->ndims; d++)
            o->dims[d] = ir_copy_expr(a, t->dims[d]);
        ir_rename_var(r->seq_body, t, o);
    }
}

typedef struct TakeCx {
    IrVisitor v;
    const Var *var;
    Stmt *decl;
} TakeCx;

static bool take_in_block(IrVisitor *v, Stmt *s)
{
    TakeCx *c = (TakeCx *)v;
    if (s->kind != S_BLOCK)
        return true;
    int k = 0;
    for (int i = 0; i < s->list.len; i++) {
        Stmt *x = vec_at(&s->list, i);
        if ((x->kind == S_DECL || x->kind == S_FREE) && x->var == c->var) {
            if (x->kind == S_DECL)
                c->decl = x;
            continue;
        }
        s->list.data[k++] = x;
    }
    s->list.len = k;
    return true;
}

Stmt *ir_take_decl(Stmt *s, const Var *v)
{
    TakeCx c = {{.stmt = take_in_block}, v, NULL};
    ir_visit_stmt(&c.v, s);
    return c.decl;
}

/* ---- ir_verify: the IR's invariants, checked after each pass -------------- */

typedef struct VerifyCx {
    IrVisitor v;
    Region *r;
    Vec scope;                   /* Var*: declared and visible here */
    Vec marks;                   /* scope lengths at each open block or loop */
    Vec seen_ids;                /* Stmt* by polyhedral id */
    const char *pass;
} VerifyCx;

_Noreturn static void verify_fail(VerifyCx *c, const Stmt *s, const char *what, const char *name)
{
    char msg[512];
    snprintf(msg, sizeof msg, "IR invariant broken after %s in '%s' (line %d): %s%s%s", c->pass, c->r->name,
             s ? s->loc.line : 0, what, name ? " " : "", name ? name : "");
    gfc_panic(__FILE__, __LINE__, msg);
}

static bool in_scope(VerifyCx *c, const Var *v)
{
    for (int i = 0; i < c->scope.len; i++)
        if (vec_at(&c->scope, i) == v)
            return true;
    return false;
}

static Expr *verify_expr(IrVisitor *v, Expr *e, Stmt *owner)
{
    VerifyCx *c = (VerifyCx *)v;
    if ((unsigned)e->kind > E_SIZEOF)
        verify_fail(c, owner, "expression of unknown kind", NULL);
    if ((e->kind == E_BINARY && e->nkids != 2) || (e->kind == E_UNARY && e->nkids != 1) ||
        (e->kind == E_COND && e->nkids != 3))
        verify_fail(c, owner, "operator with the wrong number of operands", NULL);
    if ((e->kind == E_BINARY || e->kind == E_UNARY) && (e->op <= OP_NONE || e->op >= OP_COUNT))
        verify_fail(c, owner, "operator node without an operator", NULL);
    if (e->kind == E_VAR || e->kind == E_INDEX) {
        Var *x = e->var;
        if (!x)
            verify_fail(c, owner, "variable reference without a variable", NULL);
        if (x->id >= 0 && (x->id >= c->r->vars.len || vec_at(&c->r->vars, x->id) != x))
            verify_fail(c, owner, "variable missing from the region's table:", x->name);
        if (x->id >= 0 && x->kind != V_PARAM && x->kind != V_TABLE && !in_scope(c, x))
            verify_fail(c, owner, "variable used where it is not declared:", x->name);
    }
    return e;
}

static bool verify_stmt(IrVisitor *v, Stmt *s)
{
    VerifyCx *c = (VerifyCx *)v;
    Arena *a = c->r->unit->arena;
    if ((unsigned)s->kind > S_LIB)
        verify_fail(c, s, "statement of unknown kind", NULL);
    Stmt **kid[2];
    int nkids = stmt_child_slots(s, kid);
    for (int i = 0; i < nkids; i++)
        if (*kid[i] && (*kid[i])->parent != s)
            verify_fail(c, *kid[i], "a child statement's parent link is wrong", NULL);
    if (s->kind == S_BLOCK)
        for (int i = 0; i < s->list.len; i++)
            if (((Stmt *)vec_at(&s->list, i))->parent != s)
                verify_fail(c, vec_at(&s->list, i), "a block item's parent link is wrong", NULL);
    if (s->kind == S_FOR && (!s->iv || !s->lb || !s->ub || !s->body || s->step <= 0))
        verify_fail(c, s, "loop without index, bounds, body or a positive step", NULL);
    if (s->kind == S_ASSIGN && (!s->lhs || !s->rhs || !op_is_assign(s->op)))
        verify_fail(c, s, "assignment without target, value or assignment operator", NULL);
    if (s->kind == S_ASSIGN && s->lhs->var && s->lhs->var->kind == V_TABLE)
        verify_fail(c, s, "a read-only table is written:", s->lhs->var->name);
    if (s->id >= 0) {
        if (s->id >= c->r->nstmts || s->id >= c->r->stmts.len || vec_at(&c->r->stmts, s->id) != s)
            verify_fail(c, s, "statement id does not index Region.stmts", NULL);
        for (int i = 0; i < c->seen_ids.len; i++)
            if (vec_at(&c->seen_ids, i) == s)
                verify_fail(c, s, "statement reached twice", NULL);
        vec_push(a, &c->seen_ids, s);
    }
    /* scopes: a block or a loop opens one; its declarations end with it */
    if (s->kind == S_BLOCK || s->kind == S_FOR || s->kind == S_WHILE || s->kind == S_IF)
        vec_push(a, &c->marks, (void *)(intptr_t)c->scope.len);
    if (s->kind == S_FOR)
        vec_push(a, &c->scope, s->iv);
    if (s->kind == S_DECL) {
        /* its own initialiser and sizes see it too (harmless); later statements must */
        vec_push(a, &c->scope, s->var);
    }
    return true;
}

static void verify_after(IrVisitor *v, Stmt *s)
{
    VerifyCx *c = (VerifyCx *)v;
    if (s->kind == S_BLOCK || s->kind == S_FOR || s->kind == S_WHILE || s->kind == S_IF)
        c->scope.len = (int)(intptr_t)vec_at(&c->marks, --c->marks.len);
}

void ir_verify(Region *r, const char *pass)
{
    VerifyCx c = {{.stmt = verify_stmt, .stmt_after = verify_after, .expr = verify_expr}, .r = r, .pass = pass};
    if (!r->body || r->body->kind != S_BLOCK)
        verify_fail(&c, r->body, "the region's body is not a block", NULL);
    for (int i = 0; i < r->vars.len; i++)
        if (((Var *)vec_at(&r->vars, i))->id != i)
            verify_fail(&c, NULL, "Region.vars and Var.id disagree for", ((Var *)vec_at(&r->vars, i))->name);
    ir_visit_stmt(&c.v, r->body);
}

/* ---- --emit=ir ------------------------------------------------------------ */

static void dump_expr(FILE *f, const Expr *e)
{
    if (!e) {
        fprintf(f, "<null>");
        return;
    }
    switch (e->kind) {
    case E_INT:
    case E_FLOAT: fprintf(f, "%s", e->text); break;
    case E_VAR: fprintf(f, "%s", e->var->cname); break;
    case E_INDEX:
        fprintf(f, "%s", e->var->cname);
        for (int i = 0; i < e->nkids; i++) {
            fprintf(f, "[");
            dump_expr(f, e->kids[i]);
            fprintf(f, "]");
        }
        break;
    case E_FIELD:
        dump_expr(f, e->kids[0]);
        fprintf(f, ".%s", e->text);
        break;
    case E_UNARY:
        if (e->op == OP_POSTINC || e->op == OP_POSTDEC) {
            fprintf(f, "(");
            dump_expr(f, e->kids[0]);
            fprintf(f, "%s)", op_spelling(e->op));
            break;
        }
        fprintf(f, "(%s", op_spelling(e->op));
        dump_expr(f, e->kids[0]);
        fprintf(f, ")");
        break;
    case E_BINARY:
        fprintf(f, "(");
        dump_expr(f, e->kids[0]);
        fprintf(f, " %s ", op_spelling(e->op));
        dump_expr(f, e->kids[1]);
        fprintf(f, ")");
        break;
    case E_COND:
        fprintf(f, "(");
        dump_expr(f, e->kids[0]);
        fprintf(f, " ? ");
        dump_expr(f, e->kids[1]);
        fprintf(f, " : ");
        dump_expr(f, e->kids[2]);
        fprintf(f, ")");
        break;
    case E_CAST:
        fprintf(f, "(%s)", type_src_name(e->ty));
        dump_expr(f, e->kids[0]);
        break;
    case E_CALL:
        fprintf(f, "%s(", e->text);
        for (int i = 0; i < e->nkids; i++) {
            if (i)
                fprintf(f, ", ");
            dump_expr(f, e->kids[i]);
        }
        fprintf(f, ")");
        break;
    case E_SIZEOF: fprintf(f, "sizeof(%s)", type_src_name(e->ty)); break;
    }
}

static void dump_stmt(FILE *f, const Stmt *s, int ind)
{
    if (!s)
        return;
    fprintf(f, "%*s", ind * 2, "");
    switch (s->kind) {
    case S_BLOCK:
        fprintf(f, "block\n");
        for (int i = 0; i < s->list.len; i++)
            dump_stmt(f, vec_at(&s->list, i), ind + 1);
        return;
    case S_FOR:
        fprintf(f, "for %s in [", s->iv->cname);
        dump_expr(f, s->lb);
        fprintf(f, ", ");
        dump_expr(f, s->ub);
        fprintf(f, ") step %lld", s->step);
        if (s->brk) {
            fprintf(f, " until ");
            dump_expr(f, s->brk);
        }
        fprintf(f, "  ; line %d, %s\n", s->loc.line,
                s->parallel ? (s->reduction ? "parallel reduction" : "parallel") : "sequential");
        dump_stmt(f, s->body, ind + 1);
        return;
    case S_WHILE:
        fprintf(f, "S%d: while ", s->id);
        dump_expr(f, s->cond);
        if (s->brk) {
            fprintf(f, " until ");
            dump_expr(f, s->brk);
        }
        fprintf(f, "\n");
        dump_stmt(f, s->body, ind + 1);
        return;
    case S_IF:
        fprintf(f, "if ");
        dump_expr(f, s->cond);
        fprintf(f, "\n");
        dump_stmt(f, s->then, ind + 1);
        if (s->els) {
            fprintf(f, "%*selse\n", ind * 2, "");
            dump_stmt(f, s->els, ind + 1);
        }
        return;
    case S_DECL:
        fprintf(f, "S%d: decl %s %s", s->id, type_src_name(type_elem(s->var->ty)), s->var->cname);
        for (int i = 0; s->var->is_array && i < s->var->ndims; i++) {
            fprintf(f, "[");
            dump_expr(f, s->var->dims[i]);
            fprintf(f, "]");
        }
        if (s->is_malloc)
            fprintf(f, " (malloc)");
        if (s->rhs) {
            fprintf(f, " = ");
            dump_expr(f, s->rhs);
        }
        break;
    case S_ASSIGN:
        fprintf(f, "S%d: ", s->id);
        dump_expr(f, s->lhs);
        fprintf(f, " %s ", op_spelling(s->op));
        dump_expr(f, s->rhs);
        if (s->red)
            fprintf(f, "  ; reduction %s on %s", red_op_names[s->red], s->red_var->cname);
        if (s->atomic)
            fprintf(f, "  ; atomic %s on %s", red_op_names[s->atomic], s->lhs->var->cname);
        break;
    case S_RETURN:
        fprintf(f, "S%d: return ", s->id);
        dump_expr(f, s->rhs);
        break;
    case S_FREE: fprintf(f, "free %s", s->var->cname); break;
    case S_LIB:
        fprintf(f, "S%d: library call ", s->id);
        dump_expr(f, s->rhs);
        break;
    }
    fprintf(f, "\n");
}

void ir_dump(FILE *f, Unit *u)
{
    for (int i = 0; i < u->regions.len; i++) {
        Region *r = vec_at(&u->regions, i);
        fprintf(f, "region %s  ; %s:%d\n", r->name, u->path, r->loc.line);
        if (r->cuda) {
            /* GPUFUSE_CUDA: the user's kernel and its launch rule as generated code computes it */
            fprintf(f, "  cuda kernel %s", r->cuda->kernel);
            if (r->cuda->threads)
                fprintf(f, " threads (%s)", r->cuda->threads);
            for (int d = 0; d < r->cuda->ngrid; d++)
                fprintf(f, "%s%s", d ? ", " : " grid (", r->cuda->grid[d]);
            for (int d = 0; d < r->cuda->nblock; d++)
                fprintf(f, "%s%s", d ? ", " : ") block (", r->cuda->block[d]);
            fprintf(f, "%s\n", r->cuda->ngrid ? ")" : "");
        }
        for (int j = 0; j < r->params.len; j++) {
            Var *v = vec_at(&r->params, j);
            fprintf(f, "  param %s %s", type_src_name(type_elem(v->ty)), v->cname);
            for (int d = 0; v->is_array && d < v->ndims; d++) {
                fprintf(f, "[");
                if (v->dims[d])
                    dump_expr(f, v->dims[d]);
                fprintf(f, "]");
            }
            if (v->is_array)
                fprintf(f, " %s%s", v->written ? (v->read ? "inout" : "out") : "in",
                        v->ty->kind == TY_PTR && v->ty->is_restrict ? " restrict" : "");
            fprintf(f, "\n");
        }
        for (int j = 0; j < r->vars.len; j++) {
            Var *v = vec_at(&r->vars, j);
            if (v->kind != V_TABLE)
                continue;
            fprintf(f, "  table %s %s", type_src_name(type_elem(v->ty)), v->cname);
            for (int d = 0; d < v->ndims; d++) {
                fprintf(f, "[");
                dump_expr(f, v->dims[d]);
                fprintf(f, "]");
            }
            fprintf(f, " ; '%s', line %d\n", v->name, v->loc.line);
        }
        dump_stmt(f, r->body, 1);
        if (r->deps) {
            fprintf(f, "  domain:   %s\n", r->deps->isl_domain);
            fprintf(f, "  schedule: %s\n", r->deps->isl_schedule);
            fprintf(f, "  deps:     %s\n", r->deps->isl_deps);
        }
        fprintf(f, "\n");
    }
}
