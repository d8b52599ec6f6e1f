/* emit_c.c - expressions and statements of the IR printed back as C (and
 * CUDA, which shares C's expression syntax): minimal parentheses, arrays
 * flattened to row-major offsets, hooks for registers that replace arrays. */
#include "gfc.h"

#include <string.h>

static void emit_bare(Buf *b, EmitCtx *cx, const Expr *e);

static int prec_of(const Expr *e)
{
    switch (e->kind) {
    case E_BINARY: return op_prec(e->op);
    case E_COND: return 3;
    case E_INT:
    case E_FLOAT: return e->text[0] == '-' ? 14 : 16;   /* a negative constant is a unary minus */
    case E_UNARY:
    case E_CAST: return 14;
    default: return 16;
    }
}

/* _Float16 as C evaluates it (FLT_EVAL_METHOD 0 for float, _Float16 in
 * float: gcc 12 and clang 16 on x86-64): a stored value (a variable, an
 * element, a field, a cast, a ?: between those) is gf_f16 storage; an
 * operator on it computes in float, so its operands are read through
 * gf_h2f and its result stays a float until a store or a cast rounds it
 * (gf_to_f16).  CUDA's __half operators would round after each one. */
static bool half_storage(const Expr *e)
{
    if (!e->ty || e->ty->kind != TY_F16)
        return false;
    switch (e->kind) {
    case E_VAR: case E_INDEX: case E_FIELD: case E_CALL: case E_CAST: return true;
    case E_COND: return half_storage(e->kids[1]) && half_storage(e->kids[2]);
    default: return false;
    }
}

/* e as an operand of an operator: stored halves read as float. */
static void emit_sub(Buf *b, EmitCtx *cx, const Expr *e, int min_prec)
{
    if (half_storage(e)) {
        buf_puts(b, "gf_h2f(");
        emit_bare(b, cx, e);
        buf_puts(b, ")");
        return;
    }
    bool paren = prec_of(e) < min_prec;
    if (paren)
        buf_puts(b, "(");
    emit_bare(b, cx, e);
    if (paren)
        buf_puts(b, ")");
}

void emit_cond(Buf *b, EmitCtx *cx, const Expr *e)
{
    emit_sub(b, cx, e, 0);
}

/* e as an object (++, --, &): never converted. */
static void emit_lvalue(Buf *b, EmitCtx *cx, const Expr *e, int min_prec)
{
    bool paren = prec_of(e) < min_prec;
    buf_puts(b, paren ? "(" : "");
    emit_bare(b, cx, e);
    buf_puts(b, paren ? ")" : "");
}

/* e stored into an object of type `to`: a float-valued half rounded. */
static void emit_stored(Buf *b, EmitCtx *cx, const Expr *e, const Type *to)
{
    if (half_storage(e) && !(to && to->kind == TY_F16)) {   /* converted from half */
        emit_sub(b, cx, e, 0);
        return;
    }
    if (to && to->kind == TY_F16 && !half_storage(e)) {
        buf_puts(b, "gf_to_f16(");
        emit_bare(b, cx, e);
        buf_puts(b, ")");
        return;
    }
    emit_bare(b, cx, e);
}

void emit_index(Buf *b, EmitCtx *cx, const Expr *e)
{
    Var *v = e->var;
    if (e->nkids == 1) {
        emit_bare(b, cx, e->kids[0]);
        return;
    }
    /* ((i0 * d1 + i1) * d2 + i2), in 64 bits */
    for (int i = 0; i < e->nkids - 1; i++)
        buf_puts(b, "(");
    /* kernels are templates over their index type GF_I (int when every
     * extent fits in 31 bits) */
    buf_puts(b, cx->device ? "(GF_I)" : "(long long)");
    emit_sub(b, cx, e->kids[0], 15);
    for (int i = 1; i < e->nkids; i++) {
        buf_puts(b, " * ");
        emit_sub(b, cx, v->dims[i], 14);
        buf_puts(b, " + ");
        emit_sub(b, cx, e->kids[i], 13);
        buf_puts(b, ")");
    }
}

/* --fast-math: float functions with a CUDA intrinsic (a few ulp, reduced
 * range; see the CUDA programming guide's intrinsic functions). */
static const char *const fast_fns[][2] = {
    {"expf", "__expf"},     {"exp10f", "__exp10f"}, {"logf", "__logf"}, {"log2f", "__log2f"},
    {"log10f", "__log10f"}, {"sinf", "__sinf"},     {"cosf", "__cosf"}, {"tanf", "__tanf"},
    {"powf", "__powf"},
};

static const char *call_name(EmitCtx *cx, const Expr *e)
{
    (void)cx;
    if (!strcmp(e->text, "__builtin_inff") || !strcmp(e->text, "__builtin_huge_valf"))
        return "INFINITY";
    if (!strcmp(e->text, "__builtin_inf") || !strcmp(e->text, "__builtin_huge_val"))
        return "((double)INFINITY)";
    if (!strcmp(e->text, "__builtin_nanf"))
        return "NAN";
    if (!strcmp(e->text, "__builtin_nan"))
        return "((double)NAN)";
    return NULL;
}

static void emit_bare(Buf *b, EmitCtx *cx, const Expr *e)
{
    switch (e->kind) {
    case E_INT:
    case E_FLOAT:
        buf_puts(b, e->text);
        return;
    case E_VAR:
        if (cx->override) {
            const char *o = cx->override(cx, e);
            if (o) {
                buf_puts(b, o);
                return;
            }
        }
        buf_puts(b, e->var->cname);
        return;
    case E_INDEX: {
        if (cx->override) {
            const char *o = cx->override(cx, e);
            if (o) {
                buf_puts(b, o);
                return;
            }
        }
        if (e->var->kind == V_TABLE) {
            /* the table's copy in this file keeps its C shape: t[i][j] */
            buf_puts(b, e->var->cname);
            for (int i = 0; i < e->nkids; i++) {
                buf_puts(b, "[");
                emit_bare(b, cx, e->kids[i]);
                buf_puts(b, "]");
            }
            return;
        }
        buf_printf(b, "%s[", e->var->cname);
        emit_index(b, cx, e);
        buf_puts(b, "]");
        return;
    }
    case E_FIELD:
        emit_sub(b, cx, e->kids[0], 15);
        buf_printf(b, ".%s", decls_cname(cx->r->unit->arena, e->text));
        return;
    case E_UNARY: {
        if (e->op == OP_POSTINC || e->op == OP_POSTDEC) {
            emit_lvalue(b, cx, e->kids[0], 15);
            buf_puts(b, op_spelling(e->op));
            return;
        }
        const char *sp = op_spelling(e->op);
        buf_puts(b, sp);
        /* keep "- -x" (and "- -2", a negative constant) from becoming "--x" */
        const Expr *k = e->kids[0];
        char next = k->kind == E_UNARY ? op_spelling(k->op)[0] : (k->kind == E_INT || k->kind == E_FLOAT) ? k->text[0] : 0;
        if ((sp[0] == '-' || sp[0] == '+') && next == sp[0])
            buf_puts(b, " ");
        if (e->op == OP_PREINC || e->op == OP_PREDEC || e->op == OP_ADDR)
            emit_lvalue(b, cx, k, 14);
        else
            emit_sub(b, cx, k, 14);
        return;
    }
    case E_BINARY: {
        if (cx->device && cx->fast_math && e->op == OP_DIV && e->ty && e->ty->kind == TY_FLOAT) {
            buf_puts(b, "__fdividef(");
            emit_bare(b, cx, e->kids[0]);
            buf_puts(b, ", ");
            emit_bare(b, cx, e->kids[1]);
            buf_puts(b, ")");
            return;
        }
        int p = op_prec(e->op);
        emit_sub(b, cx, e->kids[0], p);
        buf_printf(b, " %s ", op_spelling(e->op));
        emit_sub(b, cx, e->kids[1], p + 1);
        return;
    }
    case E_COND:
        emit_sub(b, cx, e->kids[0], 4);
        buf_puts(b, " ? ");
        if (half_storage(e)) {   /* a choice between stored halves: no conversion */
            emit_bare(b, cx, e->kids[1]);
            buf_puts(b, " : ");
            emit_bare(b, cx, e->kids[2]);
            return;
        }
        emit_sub(b, cx, e->kids[1], 3);
        buf_puts(b, " : ");
        emit_sub(b, cx, e->kids[2], 3);
        return;
    case E_CAST:
        if (e->ty->kind == TY_F16) {   /* the cast rounds: storage again */
            if (half_storage(e->kids[0])) {
                emit_bare(b, cx, e->kids[0]);
                return;
            }
            buf_puts(b, "gf_to_f16(");
            emit_bare(b, cx, e->kids[0]);
            buf_puts(b, ")");
            return;
        }
        buf_printf(b, "(%s)", type_c_name(e->ty));
        emit_sub(b, cx, e->kids[0], 14);
        return;
    case E_CALL: {
        if (cx->override) {
            const char *o = cx->override(cx, e);
            if (o) {
                buf_puts(b, o);
                return;
            }
        }
        const char *n = call_name(cx, e);
        if (n) {
            buf_puts(b, n);
            return;
        }
        const char *fn = e->callee ? e->callee->cname : e->text;
        if (!e->callee && builtin_bits(fn))
            fn = builtin_bits(fn);   /* the builtin on the host, CUDA's intrinsic on the device */
        for (size_t i = 0; cx->device && cx->fast_math && !e->callee && i < sizeof fast_fns / sizeof fast_fns[0]; i++)
            if (!strcmp(fn, fast_fns[i][0]))
                fn = fast_fns[i][1];
        buf_printf(b, "%s(", fn);
        for (int i = 0; i < e->nkids; i++) {
            if (i)
                buf_puts(b, ", ");
            emit_sub(b, cx, e->kids[i], 0);
        }
        buf_puts(b, ")");
        return;
    }
    case E_SIZEOF:
        buf_printf(b, "sizeof(%s)", type_c_name(e->ty));
        return;
    }
}

void emit_type_decl(Buf *b, const Type *t, const char *name)
{
    buf_printf(b, "%s %s", type_c_name(t), name);
}

/* ---- atomic updates ------------------------------------------------------------
 * A colliding update (deps.c, Stmt.atomic).  On the device: CUDA's atomics
 * where one computes exactly the C statement (add, and, or, xor; integer
 * min/max), else a compare-and-swap loop that evaluates the statement's own
 * expression on the element's current value until no other thread changed
 * it in between (floating-point min/max, every `*=`).  On the host (OpenMP
 * threads): `omp atomic update` for the compound operators, the same
 * compare-and-swap loop with the GCC/Clang __atomic builtins for min/max. */

/* e with the element `elem` read as `old` and the value `val` as `v`. */
static Expr *subst_update(Arena *a, const Expr *e, const Expr *elem, Expr *old, const Expr *val, Expr *v)
{
    if (expr_equal(e, elem))
        return old;
    if (val && expr_equal(e, val))
        return v;
    Expr *c = arena_alloc(a, sizeof *c);
    *c = *e;
    if (e->nkids) {
        c->kids = arena_alloc(a, sizeof(Expr *) * (size_t)e->nkids);
        for (int i = 0; i < e->nkids; i++)
            c->kids[i] = subst_update(a, e->kids[i], elem, old, val, v);
    }
    return c;
}

static Expr *named(Arena *a, const char *name, Type *ty)
{
    Var *v = arena_alloc(a, sizeof *v);
    v->name = v->cname = name;
    v->ty = ty;
    v->kind = V_LOCAL;
    v->id = -1;
    Expr *e = arena_alloc(a, sizeof *e);
    e->kind = E_VAR;
    e->var = v;
    e->ty = ty;
    return e;
}

void emit_atomic_update(Buf *b, EmitCtx *cx, const Stmt *s)
{
    Arena *a = cx->r->unit->arena;
    Type *et = type_elem(s->lhs->var->ty);
    const char *tn = type_c_name(et);
    Buf l = {0}, r = {0};
    emit_bare(&l, cx, s->lhs);
    Expr *val = s->rhs;
    if (s->atomic == RED_MIN || s->atomic == RED_MAX) {
        if (!ir_minmax_update(s, &val, NULL))
            unreachable();
    }
    emit_bare(&r, cx, val);
    const char *mm = s->atomic == RED_MIN ? "min" : s->atomic == RED_MAX ? "max" : NULL;
    if (cx->device && (!mm || type_is_integer(et)) && s->atomic != RED_MUL) {
        /* the device template's overloads pick the CUDA atomic for the
         * element type; integer min/max are computed in the element's type
         * (deps.c), so the value converted to it gives the same result */
        const char *fn = s->atomic == RED_ADD ? "add" : s->atomic == RED_BAND ? "and" : s->atomic == RED_BOR ? "or" :
                         s->atomic == RED_BXOR ? "xor" : mm;
        if (!fn)
            unreachable();
        buf_line(b, "gf_atomic_%s(&%s, %s(%s)(%s));", fn, l.data, s->op == OP_SUB_ASSIGN ? "-" : "", tn, r.data);
    } else if (!cx->device && !mm) {
        buf_puts(b, "#if defined(_OPENMP)\n");
        buf_line(b, "#pragma omp atomic update");
        buf_puts(b, "#endif\n");
        buf_line(b, "%s %s %s;", l.data, op_spelling(s->op), r.data);
    } else {
        /* compare-and-swap: the new value from the current one, as the C
         * statement computes it */
        Type *vt = val->ty ? val->ty : et;
        Expr *old = named(a, "gf_old", et), *v = named(a, "gf_v", vt);
        Expr *nv;
        if (mm) {
            nv = subst_update(a, s->rhs, s->lhs, old, val, v);
        } else {
            /* a op= e is a = a op (e) */
            nv = arena_alloc(a, sizeof *nv);
            nv->kind = E_BINARY;
            nv->op = op_assign_base(s->op);
            nv->ty = et;
            nv->kids = arena_alloc(a, 2 * sizeof(Expr *));
            nv->kids[0] = old;
            nv->kids[1] = v;
            nv->nkids = 2;
        }
        Buf n = {0};
        emit_bare(&n, cx, nv);
        buf_line(b, "{ /* atomic %s: compare-and-swap until no other thread changed the element */",
                 mm ? mm : op_spelling(s->op));
        b->indent++;
        buf_line(b, "%s *gf_p = &%s;", tn, l.data);
        buf_line(b, "const %s gf_v = %s;", type_c_name(vt), r.data);
        if (cx->device) {
            buf_line(b, "%s gf_old = gf_atomic_load(gf_p), gf_new;", tn);
            buf_line(b, "do");
            buf_line(b, "    gf_new = %s;", n.data);
            buf_line(b, "while (!gf_cas(gf_p, &gf_old, gf_new));");
        } else {
            buf_line(b, "%s gf_old, gf_new;", tn);
            buf_line(b, "gf_host_load(gf_p, &gf_old);");
            buf_line(b, "do");
            buf_line(b, "    gf_new = %s;", n.data);
            buf_line(b, "while (!gf_host_cas(gf_p, &gf_old, &gf_new));");
        }
        b->indent--;
        buf_line(b, "}");
        buf_free(&n);
    }
    buf_free(&l);
    buf_free(&r);
}

/* Statements: plain C semantics, one per line. */
void emit_stmt(Buf *b, EmitCtx *cx, const Stmt *s)
{
    if (!s)
        return;
    if (cx->stmt_hook && cx->stmt_hook(b, cx, s))
        return;
    switch (s->kind) {
    case S_BLOCK:
        for (int i = 0; i < s->list.len; i++)
            emit_stmt(b, cx, vec_at(&s->list, i));
        return;
    case S_FOR: {
        Buf lb = {0}, ub = {0};
        emit_expr(&lb, cx, s->lb);
        emit_expr(&ub, cx, s->ub);
        if (s->brk) {
            /* the loop stops after the iteration that breaks */
            buf_puts(&ub, " && !");
            emit_bare(&ub, cx, s->brk);
        }
        if (s->step == 1)
            buf_line(b, "for (%s %s = %s; %s < %s; %s++) {", type_c_name(s->iv->ty), s->iv->cname, lb.data,
                     s->iv->cname, ub.data, s->iv->cname);
        else
            buf_line(b, "for (%s %s = %s; %s < %s; %s += %lld) {", type_c_name(s->iv->ty), s->iv->cname, lb.data,
                     s->iv->cname, ub.data, s->iv->cname, s->step);
        buf_free(&lb);
        buf_free(&ub);
        b->indent++;
        emit_stmt(b, cx, s->body);
        b->indent--;
        buf_line(b, "}");
        return;
    }
    case S_WHILE: {
        Buf c = {0};
        if (s->brk) {
            /* the condition is not evaluated again after a break */
            buf_puts(&c, "!");
            emit_bare(&c, cx, s->brk);
            buf_puts(&c, " && ");
            emit_sub(&c, cx, s->cond, 6);
        } else {
            emit_sub(&c, cx, s->cond, 0);   /* a bare _Float16 condition read as float */
        }
        buf_line(b, "while (%s) {", c.data);
        buf_free(&c);
        b->indent++;
        emit_stmt(b, cx, s->body);
        b->indent--;
        buf_line(b, "}");
        return;
    }
    case S_IF: {
        Buf c = {0};
        emit_sub(&c, cx, s->cond, 0);
        buf_line(b, "if (%s) {", c.data);
        buf_free(&c);
        b->indent++;
        emit_stmt(b, cx, s->then);
        b->indent--;
        if (s->els) {
            buf_line(b, "} else {");
            b->indent++;
            emit_stmt(b, cx, s->els);
            b->indent--;
        }
        buf_line(b, "}");
        return;
    }
    case S_DECL: {
        Var *v = s->var;
        if (v->is_private) {
            /* private to each iteration: a plain array (per thread on the GPU) */
            buf_line(b, "%s %s[%lld]; /* private to each iteration */", type_c_name(type_elem(v->ty)), v->cname,
                     v->priv_elems > 0 ? v->priv_elems : 1);
            return;
        }
        if (v->is_array) {
            /* a temporary: heap memory on the host (VLAs are not C++) */
            Buf n = {0};
            if (v->ndims > 1)
                emit_sub(&n, cx, v->dims[0], 13);   /* the left operand of '*' */
            else
                emit_bare(&n, cx, v->dims[0]);
            for (int i = 1; i < v->ndims; i++) {
                buf_puts(&n, " * ");
                Buf d = {0};
                emit_bare(&d, cx, v->dims[i]);
                buf_printf(&n, "(size_t)(%s)", d.data);
                buf_free(&d);
            }
            const char *et = type_c_name(type_elem(v->ty));
            buf_line(b, "%s *%s = (%s *)gf_tmp_alloc((size_t)(%s) * sizeof(%s));", et, v->cname, et, n.data, et);
            buf_free(&n);
            return;
        }
        if (s->rhs) {
            Buf r = {0};
            emit_stored(&r, cx, s->rhs, v->ty);
            buf_line(b, "%s %s = %s;", type_c_name(v->ty), v->cname, r.data);
            buf_free(&r);
        } else {
            buf_line(b, "%s %s;", type_c_name(v->ty), v->cname);
        }
        return;
    }
    case S_ASSIGN: {
        if (cx->device && s->atomic) {
            emit_atomic_update(b, cx, s);
            return;
        }
        Buf l = {0}, r = {0};
        emit_bare(&l, cx, s->lhs);
        if (s->op != OP_ASSIGN && s->lhs->ty && s->lhs->ty->kind == TY_F16) {
            /* h op= v is h = (_Float16)(h op v), computed in float (or double) */
            emit_sub(&r, cx, s->rhs, op_prec(op_assign_base(s->op)) + 1);
            buf_line(b, "%s = gf_to_f16(gf_h2f(%s) %s %s);", l.data, l.data, op_spelling(op_assign_base(s->op)), r.data);
        } else {
            emit_stored(&r, cx, s->rhs, s->op == OP_ASSIGN ? s->lhs->ty : NULL);
            buf_line(b, "%s %s %s;", l.data, op_spelling(s->op), r.data);
        }
        buf_free(&l);
        buf_free(&r);
        return;
    }
    case S_RETURN:
        if (s->rhs) {
            Buf r = {0};
            emit_stored(&r, cx, s->rhs, cx->r->ret);
            buf_line(b, "return %s;", r.data);
            buf_free(&r);
        } else {
            buf_line(b, "return;");
        }
        return;
    case S_FREE:
        /* a temporary priv.c made private is not on the heap any more
         * (the original body, gf_seq_, still frees it) */
        if ((!s->var->is_temp || s->var->decl) && !s->var->is_private)
            buf_line(b, "gf_tmp_free(%s);", s->var->cname);
        return;
    case S_LIB: {
        /* as in the C body: the status is the caller's to ignore */
        const char *roles = lib_builtin_roles(s->rhs->text);
        Buf r = {0};
        buf_printf(&r, "%s(", s->rhs->text);
        for (int i = 0; i < s->rhs->nkids; i++) {
            buf_puts(&r, i ? ", " : "");
            /* C++ wants the enums */
            buf_puts(&r, roles[i] == 'O' ? "(gf_op)(" : roles[i] == 'D' ? "(gf_dtype)(" : "");
            emit_bare(&r, cx, s->rhs->kids[i]);
            buf_puts(&r, roles[i] == 'O' || roles[i] == 'D' ? ")" : "");
        }
        /* gcc cannot see that the loops before it filled a temporary the
         * call reads through a const pointer */
        buf_line(b, "GF_LIB_CALL_BEGIN");
        buf_line(b, "(void)%s); /* library call, line %d */", r.data, s->loc.line);
        buf_line(b, "GF_LIB_CALL_END");
        buf_free(&r);
        return;
    }
    }
}

/* An `=` assignment through the register `reg`: reg = rhs, then lhs = reg
 * (a value also kept for later, emit_cuda.c's carried values). */
void emit_assign_via(Buf *b, EmitCtx *cx, const Stmt *s, const char *reg)
{
    gfc_assert(s->kind == S_ASSIGN && s->op == OP_ASSIGN && !s->atomic);
    Buf l = {0}, r = {0};
    emit_bare(&l, cx, s->lhs);
    emit_stored(&r, cx, s->rhs, s->lhs->ty);
    buf_line(b, "%s = %s;", reg, r.data);
    buf_line(b, "%s = %s;", l.data, reg);
    buf_free(&l);
    buf_free(&r);
}

/* Parameter list with arrays as flat pointers (ABI-identical to the C
 * declarations, valid C++). */
void emit_params(Buf *b, Region *r, bool cuda, bool names_only)
{
    buf_puts(b, "");             /* text even without parameters: f() calls f with none */
    for (int i = 0; i < r->params.len; i++) {
        Var *v = vec_at(&r->params, i);
        if (i)
            buf_puts(b, ", ");
        if (names_only) {
            buf_puts(b, v->cname);
            continue;
        }
        if (v->is_array) {
            Type *et = type_elem(v->ty);
            bool cst = et->is_const;
            bool rst = v->ty->kind == TY_PTR && v->ty->is_restrict;
            buf_printf(b, "%s%s *%s%s", cst ? "const " : "", type_c_name(et),
                       rst ? (cuda ? "__restrict__ " : "restrict ") : "", v->cname);
        } else {
            buf_printf(b, "%s %s", type_c_name(v->ty), v->cname);
        }
    }
    if (!r->params.len && !names_only)
        buf_puts(b, "void");
}

void emit_prototype(Buf *b, Region *r, const char *name)
{
    buf_printf(b, "%s %s(", type_c_name(r->ret), name);
    emit_params(b, r, false, false);
    buf_puts(b, ")");
}

/* e where the caller embeds it in text of its own (a loop bound in
 * `i < %s`, a start in `%s + t * step`, a cast's operand): parenthesised
 * unless it binds at least as tightly as + and -, so that a ?: or a
 * comparison stays one operand (`i < (k < m ? k + 1 : m)`).  Callers that
 * use a bound as a factor or after a minus add parentheses of their own. */
void emit_expr(Buf *b, EmitCtx *cx, const Expr *e)
{
    bool paren = prec_of(e) < op_prec(OP_ADD);
    if (paren)
        buf_puts(b, "(");
    emit_bare(b, cx, e);
    if (paren)
        buf_puts(b, ")");
}
