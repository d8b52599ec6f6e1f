/* driver.c - the pipeline, one pass per line:
 *   parse -> dependences -> fusion plan -> argument facts -> codegen,
 * then the output (output.c: atomically, no partial file on failure). */
#include "driver.h"

#include <stdlib.h>
#include <string.h>

static void reject_region(Unit *u, int i)
{
    Region *r = vec_at(&u->regions, i);
    r->rejected = true;
    diag_take_reject(u->arena, &r->why);
    vec_push(u->arena, &u->rejected, r);
    for (int j = i; j < u->regions.len - 1; j++)
        u->regions.data[j] = u->regions.data[j + 1];
    u->regions.len--;
}

/* The unit's memory and each region's dependence model. */
void unit_free(Unit *u)
{
    if (!u)
        return;
    for (int i = 0; i < u->regions.len; i++)
        deps_free(vec_at(&u->regions, i));
    for (int i = 0; i < u->rejected.len; i++)
        deps_free(vec_at(&u->rejected, i));
    free(u->launched.v);
    arena_free(u->arena);
}

/* A file name as Make reads it in a rule (as gcc writes depfiles): spaces
 * and '#' escaped with a backslash (and the backslashes before them
 * doubled), '$' as '$$'. */
const char *make_escape(Arena *a, const char *s)
{
    Buf b = {0};
    for (const char *p = s; *p; p++) {
        if (*p == ' ' || *p == '\t' || *p == '#') {
            for (const char *q = p - 1; q >= s && *q == '\\'; q--)
                buf_puts(&b, "\\");
            buf_puts(&b, "\\");
        }
        if (*p == '$')
            buf_puts(&b, "$");
        buf_printf(&b, "%c", *p);
    }
    const char *out = arena_strdup(a, b.data ? b.data : "");
    buf_free(&b);
    return out;
}

/* target: input header...  (each file once), and with -MP "header:" for
 * each header, so that make does not fail when one is deleted. */
static bool write_depfile(const Options *o, Unit *u)
{
    Buf b = {0};
    if (o->ndep_targets)
        for (int i = 0; i < o->ndep_targets; i++)
            buf_printf(&b, "%s%s", i ? " " : "", o->dep_targets[i]);
    else
        buf_puts(&b, make_escape(u->arena, o->output));
    buf_printf(&b, ": %s", make_escape(u->arena, u->path));
    Vec deps = {0};
    for (int i = 0; i < u->includes.len; i++) {
        const char *inc = vec_at(&u->includes, i);
        bool seen = !strcmp(inc, u->path);
        for (int j = 0; j < deps.len && !seen; j++)
            seen = !strcmp(vec_at(&deps, j), inc);
        if (!seen)
            vec_push(u->arena, &deps, (void *)inc);
    }
    for (int i = 0; i < deps.len; i++)
        buf_printf(&b, " \\\n  %s", make_escape(u->arena, vec_at(&deps, i)));
    buf_puts(&b, "\n");
    for (int i = 0; o->dep_phony && i < deps.len; i++)
        buf_printf(&b, "\n%s:\n", make_escape(u->arena, vec_at(&deps, i)));
    bool ok = gfc_write_output(o->depfile, b.data, b.len);
    buf_free(&b);
    return ok;
}

/* A hand-written kernel (GPUFUSE_CUDA): the C body is only the CPU fallback
 * and the source of the arguments' extents, so its dependences do not
 * matter and gpufuse plans no kernels (an empty plan); the model is built
 * for args_plan alone. */
static bool cuda_region(Unit *u, Region *r)
{
    if (!cuda_rule_check(u, r))
        return false;
    deps_model(u, r);
    r->plan = arena_alloc(u->arena, sizeof *r->plan);
    if (!args_plan(u, r))
        return false;
    if (r->cuda->threads || r->cuda->ngrid)
        return true;
    for (int i = 0; i < r->params.len; i++) {
        Var *v = vec_at(&r->params, i);
        if (v->is_array && v->written)
            return true;
    }
    diag_reject(r->cuda->loc, "-Wgpufuse-cuda", "'%s' writes no array, so the default launch rule (a thread per "
                "element of the first written array) has no extent; give the thread count with "
                "GPUFUSE_CUDA_THREADS(%s, count); '%s' keeps its CPU body", r->name, r->cuda->kernel, r->name);
    return false;
}

/* The IR verifier after each pass that rewrites the IR: in builds with
 * assertions (the default and CI's), never in release builds. */
#ifndef NDEBUG
#define VERIFY(r, pass) ir_verify(r, pass)
#else
#define VERIFY(r, pass) ((void)0)
#endif

static int gfc_run_(const Options *o)
{
    if (!gfc_check_outputs(o))
        return 1;
    ParseOptions po = {o->clang_args, o->nclang_args, o->resource_dir};
    Unit *u = parse_unit(o->input, &po);
    if (!u)
        return 1;
    for (int i = 0; i < u->regions.len; i++) {
        Region *r = vec_at(&u->regions, i);
        VERIFY(r, "parse");
        if (r->cuda) {
            if (!cuda_region(u, r))
                reject_region(u, i--);
            else
                remarks_region(r, o->atomic_reductions); /* -Rgpufuse */
            continue;
        }
        share_helpers(u, r);
        VERIFY(r, "share_helpers");
        inline_producers(u, r);
        VERIFY(r, "inline_producers");
        deps_model(u, r);
        if (priv_region(u, r)) {
            /* privatised or distributed: pieces may recompute again */
            VERIFY(r, "priv_region");
            inline_producers(u, r);
            VERIFY(r, "inline_producers");
            deps_free(r);
            deps_model(u, r);
        }
        if (deps_reschedule(r)) {
            /* isl's order for nests without parallel loops: analyse it */
            VERIFY(r, "deps_reschedule");
            deps_free(r);
            deps_model(u, r);
        }
        if (!deps_check(r)) {
            reject_region(u, i--);
            continue;
        }
        if (deps_interchange(r)) {
            /* the parallel loop is outside now: analyse the new order */
            VERIFY(r, "deps_interchange");
            deps_free(r);
            if (!deps_analyze(u, r)) {
                reject_region(u, i--);
                continue;
            }
        }
        bool refused = false;
        for (int round = 0; round < 8 && !refused && deps_fuse_siblings(r); round++) {
            /* one loop where there were two: analyse the new body */
            VERIFY(r, "deps_fuse_siblings");
            deps_free(r);
            refused = !deps_analyze(u, r);
        }
        for (int round = 0; round < 8 && !refused && priv_split_parallel(u, r); round++) {
            /* an inner parallel loop taken out of a parallel loop's body */
            VERIFY(r, "priv_split_parallel");
            deps_free(r);
            refused = !deps_analyze(u, r);
        }
        if (refused) {
            reject_region(u, i--);
            continue;
        }
        fuse_region(u, r);
        VERIFY(r, "fuse_region");
        if (!args_plan(u, r))
            reject_region(u, i--);
        else
            remarks_region(r, o->atomic_reductions); /* -Rgpufuse */
    }
    if (gfc_diag.errors) {
        unit_free(u);
        return 1;
    }
    /* the report goes to stdout, or to stderr when the output is there */
    FILE *rep = strcmp(o->output, "-") ? stdout : stderr;
    if (o->emit != EMIT_REPORT && o->report == REPORT_TEXT)
        report_text(rep, u);
    else if (o->emit != EMIT_REPORT && o->report == REPORT_JSON)
        report_json(rep, u);

    Buf out = {0};
    const char *base = strrchr(o->input, '/');
    base = base ? base + 1 : o->input;
    char *stem = arena_strdup(u->arena, base);
    size_t sl = strlen(stem);
    if (sl > 2 && !strcmp(stem + sl - 2, ".c"))
        stem[sl - 2] = '\0';
    EmitOptions eo = {.prefix = o->prefix, .input_name = c_escape(u->arena, stem), .openmp = true, .fast_math = o->fast_math,
                      .atomic_reductions = o->atomic_reductions};
    switch (o->emit) {
    case EMIT_CU: emit_cuda_unit(&out, u, &eo); break;
    case EMIT_C: emit_host_unit(&out, u, &eo); break;
    case EMIT_IR: {
        char *text;
        size_t len;
        FILE *m = open_memstream(&text, &len);
        ir_dump(m, u);
        fclose(m);
        buf_puts(&out, text);
        free(text);
        break;
    }
    case EMIT_REPORT: {
        char *text;
        size_t len;
        FILE *m = open_memstream(&text, &len);
        if (o->report == REPORT_JSON)
            report_json(m, u);
        else
            report_text(m, u);
        fclose(m);
        buf_puts(&out, text);
        free(text);
        break;
    }
    }
    bool ok = gfc_write_output(o->output, out.data ? out.data : "", out.len);
    if (ok && o->depfile)
        ok = write_depfile(o, u);
    buf_free(&out);
    unit_free(u);
    return ok ? 0 : 1;
}

typedef struct {
    const Options *o;
    int rc;
} RunCall;

static void run_call(void *p)
{
    RunCall *c = p;
    c->rc = gfc_run_(c->o);
}

/* Every pass recurses over the expression tree: the whole compilation runs
 * on a deep stack (gfc_with_stack). */
int gfc_run(const Options *o)
{
    RunCall c = {o, 1};
    gfc_with_stack(run_call, &c);
    return c.rc;
}
