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
    vec_push(u->arena, &u->rejected, r);
    for (int j = i; j < u->regions.len - 1; j++)
        u->regions.data[j] = u->regions.data[j + 1];
    u->regions.len--;
}

static bool write_depfile(const Options *o, Unit *u)
{
    Buf b = {0};
    buf_printf(&b, "%s:", o->output);
    buf_printf(&b, " %s", u->path);
    for (int i = 0; i < u->includes.len; i++) {
        const char *inc = vec_at(&u->includes, i);
        if (strcmp(inc, u->path))
            buf_printf(&b, " \\\n  %s", inc);
    }
    buf_puts(&b, "\n");
    bool ok = gfc_write_output(o->depfile, b.data, b.len);
    buf_free(&b);
    return ok;
}

int gfc_run(const Options *o)
{
    if (!gfc_check_outputs(o))
        return 1;
    ParseOptions po = {o->clang_args, o->nclang_args, o->resource_dir};
    Unit *u = parse_unit(o->input, &po);
    if (!u)
        return 1;
    for (int i = 0; i < u->regions.len; i++) {
        Region *r = vec_at(&u->regions, i);
        inline_producers(u, r);
        deps_model(u, r);
        if (priv_region(u, r)) {
            /* privatised or distributed: pieces may recompute again */
            inline_producers(u, r);
            deps_free(r);
            deps_model(u, r);
        }
        if (!deps_check(r)) {
            reject_region(u, i--);
            continue;
        }
        if (deps_interchange(r)) {
            /* the parallel loop is outside now: analyse the new order */
            deps_free(r);
            if (!deps_analyze(u, r)) {
                reject_region(u, i--);
                continue;
            }
        }
        fuse_region(u, r);
        if (!args_plan(u, r))
            reject_region(u, i--);
    }
    if (gfc_diag.errors) {
        unit_free(u);
        return 1;
    }
    if (o->emit != EMIT_REPORT && o->report == REPORT_TEXT)
        report_text(stdout, u);
    else if (o->emit != EMIT_REPORT && o->report == REPORT_JSON)
        report_json(stdout, u);

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
