/* host_cost.c - the host plan's cost model: whether the fused OpenMP plan
 * of a region can beat its C body at this call (docs/performance.md, "The
 * host plan against the C body").  Per region, a function
 * gf_host_wins_<f>(scalar parameters) counts from the loop bounds at the
 * call the OpenMP regions the plan opens (a fork and a join each), the
 * statement instances of its parallel loops and those of them that are
 * atomic updates, and asks gf_host_plan_wins (emitted with the prelude)
 * whether the plan costs less than the C body running them on one core.
 * The entry point of --target=host and the CUDA launcher's CPU path call
 * it; when the plan cannot win, the C body (gf_seq_<f>) runs.
 *
 * A loop's trip count is taken at the middle of the ranges of the loops
 * around it (exact for rectangular nests, about right for triangular
 * ones), a while loop counts once, an if both branches: the same counts
 * as the CUDA launcher's cost block (emit_cuda.c). */
#include "gfc.h"

#include <stdlib.h>
#include <string.h>

typedef struct HCost {
    Arena *a;
    Buf *b;
    Vec loops;                   /* Stmt*: the loops around, innermost last */
    Vec ids;                     /* their numbers, as (intptr_t): gf_ct<N> trips, gf_cm<N> middle index */
    int n;
} HCost;

static int loop_id(HCost *k, const Var *iv)
{
    for (int i = k->loops.len - 1; i >= 0; i--)
        if (((Stmt *)vec_at(&k->loops, i))->iv == iv)
            return (int)(intptr_t)vec_at(&k->ids, i);
    return -1;
}

/* A variable of a cost bound: a loop index at the middle of its range. */
static const char *cost_name(void *cx, const Var *v)
{
    HCost *k = cx;
    int id = v->kind == V_IV ? loop_id(k, v) : -2;
    return id >= 0 ? arena_printf(k->a, "gf_cm%d", id) : id == -1 ? "0.0" : arena_printf(k->a, "(double)%s", v->cname);
}

/* A bound in doubles, loop indices at the middle of their range. */
static void cost_bound(HCost *k, Expr *e, Buf *out)
{
    bool ok = bound_print(k->a, e, cost_name, k, out);
    gfc_assert(ok);              /* host_cost_none checked every bound */
}

/* Declares loop l's trip count and middle index; the caller pops it. */
static int push_loop(HCost *k, Stmt *l)
{
    Buf lb = {0}, ub = {0};
    cost_bound(k, l->lb, &lb);
    cost_bound(k, l->ub, &ub);
    int id = k->n++;
    buf_line(k->b, "const double gf_ct%d = gf_host_trips(%s, %s, %lld); /* trips of line %d */", id, lb.data, ub.data,
             l->step, l->loc.line);
    const char *from = strcmp(lb.data, "0") ? arena_printf(k->a, "%s + ", lb.data) : "";
    const char *step = l->step == 1 ? "" : arena_printf(k->a, "%lld * ", l->step);
    buf_line(k->b, "GF_UNUSED const double gf_cm%d = %s%sgf_host_half(gf_ct%d); /* its middle index */", id, from, step,
             id);
    buf_free(&lb);
    buf_free(&ub);
    vec_push(k->a, &k->loops, l);
    vec_push(k->a, &k->ids, (void *)(intptr_t)id);
    return id;
}

static void pop_loop(HCost *k)
{
    k->loops.len--;
    k->ids.len--;
}

static const char *times(HCost *k, const char *mult, const char *x)
{
    if (!strcmp(x, "0"))
        return "0";
    if (!mult)
        return x;
    if (!strcmp(x, "1"))
        return mult;
    return arena_printf(k->a, strchr(x, ' ') ? "%s * (%s)" : "%s * %s", mult, x);
}

static const char *plus(HCost *k, const char *x, const char *y)
{
    if (!strcmp(x, "0"))
        return y;
    if (!strcmp(y, "0"))
        return x;
    char *ex, *ey;
    long long a = strtoll(x, &ex, 10), c = strtoll(y, &ey, 10);
    if (!*ex && !*ey)            /* two constants: their sum */
        return arena_printf(k->a, "%lld", a + c);
    return arena_printf(k->a, "%s + %s", x, y);
}

/* The statement instances under s and those of them that are atomic
 * updates, folded bottom-up: each statement's pair is pushed after its
 * children's, which it pops. */
typedef struct Work {
    const char *all, *atom;
} Work;

typedef struct WorkCx {
    IrVisitor v;
    HCost *k;
    Vec vals;                    /* Work*: the counts of the statements done */
} WorkCx;

static Work *pop_val(WorkCx *w, const Stmt *child)
{
    static Work none = {"0", "0"};
    return child ? vec_at(&w->vals, --w->vals.len) : &none;
}

static bool work_before(IrVisitor *v, Stmt *s)
{
    if (s->kind == S_FOR)
        push_loop(((WorkCx *)v)->k, s);
    return true;
}

static void work_after(IrVisitor *v, Stmt *s)
{
    WorkCx *w = (WorkCx *)v;
    HCost *k = w->k;
    Work *r = arena_alloc(k->a, sizeof *r);
    bool one = s->kind == S_DECL || s->kind == S_ASSIGN;
    r->all = one ? "1" : "0";
    r->atom = one && s->atomic ? "1" : "0";
    if (s->kind == S_BLOCK) {
        int n = 0;
        for (int i = 0; i < s->list.len; i++)
            n += vec_at(&s->list, i) != NULL;
        for (int i = w->vals.len - n; i < w->vals.len; i++) {
            Work *x = vec_at(&w->vals, i);
            r->all = plus(k, r->all, x->all);
            r->atom = plus(k, r->atom, x->atom);
        }
        w->vals.len -= n;
    } else if (s->kind == S_FOR) {
        Work *body = pop_val(w, s->body);
        const char *ct = arena_printf(k->a, "gf_ct%d", (int)(intptr_t)vec_at(&k->ids, k->ids.len - 1));
        pop_loop(k);
        r->all = times(k, ct, body->all);
        r->atom = times(k, ct, body->atom);
    } else if (s->kind == S_WHILE) {
        *r = *pop_val(w, s->body);
    } else if (s->kind == S_IF) {
        Work *els = pop_val(w, s->els), *then = pop_val(w, s->then);
        r->all = plus(k, "1", plus(k, then->all, els->all));
        r->atom = plus(k, then->atom, els->atom);
    }
    vec_push(k->a, &w->vals, r);
}

static Work *stmt_work(HCost *k, Stmt *s)
{
    WorkCx w = {{.stmt = work_before, .stmt_after = work_after}, k, {0}};
    ir_visit_stmt(&w.v, s);
    return pop_val(&w, s);
}

static void kernel_cost(HCost *k, Kernel *kn, const char *mult)
{
    const char *all = "0", *atom = "0";
    for (int i = 0; i < kn->nests.len; i++) {
        Work *x = stmt_work(k, vec_at(&kn->nests, i));
        all = plus(k, all, x->all);
        atom = plus(k, atom, x->atom);
    }
    if (kn->kind == K_SERIAL) {  /* the same statements in the same order as the C body's */
        if (strcmp(all, "0"))
            buf_line(k->b, "gf_seq += %s; /* %s, in order */", times(k, mult, all), kn->name);
        return;
    }
    buf_line(k->b, "gf_forks += %s; gf_par += %s; /* %s */", times(k, mult, "1"), times(k, mult, all),
             kn->name);
    if (strcmp(atom, "0"))
        buf_line(k->b, "gf_atom += %s; /* its atomic updates */", times(k, mult, atom));
}

static void steps_cost(HCost *k, Vec *steps, const char *mult)
{
    for (int i = 0; i < steps->len; i++) {
        Step *st = vec_at(steps, i);
        switch (st->kind) {
        case P_HOST: {           /* run as in the C body: a run of them on one line */
            const char *all = "0";
            int first = st->stmt->loc.line, last = first;
            for (; i < steps->len && ((Step *)vec_at(steps, i))->kind == P_HOST; i++) {
                Stmt *h = ((Step *)vec_at(steps, i))->stmt;
                all = plus(k, all, stmt_work(k, h)->all);
                last = h->loc.line > last ? h->loc.line : last;
            }
            i--;
            if (first == last)
                buf_line(k->b, "gf_seq += %s; /* scalar statements of line %d, in order */", times(k, mult, all), first);
            else
                buf_line(k->b, "gf_seq += %s; /* scalar statements of lines %d-%d, in order */", times(k, mult, all),
                         first, last);
            break;
        }
        case P_LIB: break;       /* not counted: such a region is not weighed (host_cost_work_call) */
        case P_KERNEL: kernel_cost(k, st->kernel, mult); break;
        case P_LOOP:
            if (st->stmt->kind == S_FOR) {
                int id = push_loop(k, st->stmt);
                steps_cost(k, &st->body, times(k, mult, arena_printf(k->a, "gf_ct%d", id)));
                pop_loop(k);
            } else {
                steps_cost(k, &st->body, mult);
            }
            break;
        case P_IF:
            steps_cost(k, &st->body, mult);
            steps_cost(k, &st->els, mult);
            break;
        }
    }
}

static bool any_kernel(Vec *steps)
{
    for (int i = 0; i < steps->len; i++) {
        Step *st = vec_at(steps, i);
        if ((st->kind == P_KERNEL && st->kernel->kind != K_SERIAL) || any_kernel(&st->body) || any_kernel(&st->els))
            return true;
    }
    return false;
}

/* Why region r has no host cost model (its plan always runs), or NULL. */
const char *host_cost_none(Region *r)
{
    if (!any_kernel(&r->plan->steps))
        return "no parallel loop: the plan runs its statements in order, as the C body does";
    const Stmt *bad = bound_uncounted(r->unit->arena, r->body);
    if (bad)
        return arena_printf(r->unit->arena, "the bounds of the loop over '%s' (line %d) are not affine in the parameters "
                            "and loop indices (nor their minimum, maximum or floor division): the plan always runs",
                            bad->iv->name, bad->loc.line);
    return NULL;
}

static void scalar_params(Buf *b, Region *r, bool names)
{
    bool any = false;
    for (int i = 0; i < r->params.len; i++) {
        Var *v = vec_at(&r->params, i);
        if (v->is_array)
            continue;
        if (names)
            buf_printf(b, "%s%s", any ? ", " : "", v->cname);
        else
            buf_printf(b, "%s%s %s", any ? ", " : "", type_c_name(v->ty), v->cname);
        any = true;
    }
    if (!any && !names)
        buf_puts(b, "void");
}

/* A call of gf_host_<what>_<f> with the region's scalar parameters. */
static const char *call_of(Region *r, const char *what)
{
    Buf a = {0};
    scalar_params(&a, r, true);
    const char *s = arena_printf(r->unit->arena, "gf_host_%s_%s(%s)", what, r->cname, a.data ? a.data : "");
    buf_free(&a);
    return s;
}

void emit_host_cost(Buf *b, Region *r)
{
    if (host_cost_none(r))
        return;
    Buf ps = {0};
    scalar_params(&ps, r, false);
    buf_printf(b, "/* The work of the host plan of %s() at this call (host_cost.c) */\n"
                  "GF_UNUSED static gf_host_work gf_host_work_%s(%s)\n{\n", r->name, r->cname, ps.data ? ps.data : "");
    b->indent = 1;
    for (int i = 0; i < r->params.len; i++) {
        Var *v = vec_at(&r->params, i);
        if (!v->is_array)
            buf_line(b, "(void)%s;", v->cname);
    }
    buf_line(b, "double gf_forks = 0, gf_par = 0, gf_atom = 0, gf_seq = 0;");
    HCost k = {.a = r->unit->arena, .b = b};
    steps_cost(&k, &r->plan->steps, NULL);
    buf_line(b, "const gf_host_work gf_w = {gf_forks, gf_par, gf_atom, gf_seq};");
    buf_line(b, "return gf_w;");
    b->indent = 0;
    buf_puts(b, "}\n\n");
    buf_printf(b, "/* Whether the host plan of %s() can beat its C body at this call */\n"
                  "GF_UNUSED static int gf_host_wins_%s(%s)\n{\n", r->name, r->cname, ps.data ? ps.data : "");
    buf_printf(b, "    const gf_host_work gf_w = %s;\n", call_of(r, "work"));
    buf_puts(b, "    return gf_host_plan_wins(gf_w.forks, gf_w.par, gf_w.atom);\n}\n\n");
    buf_free(&ps);
}

const char *host_cost_call(Region *r)
{
    return host_cost_none(r) ? NULL : call_of(r, "wins");
}

static bool any_lib(Vec *steps)
{
    for (int i = 0; i < steps->len; i++) {
        Step *st = vec_at(steps, i);
        if (st->kind == P_LIB || any_lib(&st->body) || any_lib(&st->els))
            return true;
    }
    return false;
}

/* gf_host_work_<f>(scalar arguments), for the CUDA launcher to weigh the CPU
 * against the GPU and the copies (gf_call_weigh), or NULL: no host model, or
 * a library builtin (gf_sgemm ...) whose time on the CPU is not counted. */
const char *host_cost_work_call(Region *r)
{
    return host_cost_none(r) || any_lib(&r->plan->steps) ? NULL : call_of(r, "work");
}

/* The CUDA launcher's CPU path (no GPU): the C body when the host plan
 * cannot win, through gf_call_prefer_c_body, so that the profile counts the
 * call as a C-body call. */
void emit_host_choice(Buf *b, Region *r)
{
    const char *wins = host_cost_call(r);
    if (!wins)
        return;
    buf_line(b, "if (!gf_have_device() && !%s)", wins);
    buf_line(b, "    gf_call_prefer_c_body(gf_c); /* no GPU, and the host plan cannot beat the C body here */");
}
