/* driver.c - the pipeline, one pass per line:
 *   parse -> dependences -> fusion plan -> argument facts -> codegen,
 * and writing the output atomically (no partial file on failure). */
#include "driver.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void reject_region(Unit *u, int i)
{
    Region *r = vec_at(&u->regions, i);
    r->rejected = true;
    vec_push(u->arena, &u->rejected, r);
    for (int j = i; j < u->regions.len - 1; j++)
        u->regions.data[j] = u->regions.data[j + 1];
    u->regions.len--;
}

/* Writes text to path through a temporary file and a rename. */
static bool write_atomic(const char *path, const char *text, size_t len)
{
    if (!strcmp(path, "-")) {
        fwrite(text, 1, len, stdout);
        return true;
    }
    size_t n = strlen(path) + 32;
    char *tmp = malloc(n);
    snprintf(tmp, n, "%s.tmp.%d", path, (int)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) {
        diag_at(DIAG_ERROR, (Loc){0}, NULL, "cannot write '%s': %s", path, strerror(errno));
        free(tmp);
        return false;
    }
    bool ok = fwrite(text, 1, len, f) == len;
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        diag_at(DIAG_ERROR, (Loc){0}, NULL, "cannot write '%s': %s", path, strerror(errno));
        unlink(tmp);
        free(tmp);
        return false;
    }
    free(tmp);
    return true;
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
    bool ok = write_atomic(o->depfile, b.data, b.len);
    buf_free(&b);
    return ok;
}

/* The IR verifier after each pass that rewrites the IR: in builds with
 * assertions (the default and CI's), never in release builds. */
#ifndef NDEBUG
#define VERIFY(r, pass) ir_verify(r, pass)
#else
#define VERIFY(r, pass) ((void)0)
#endif

int gfc_run(const Options *o)
{
    ParseOptions po = {o->clang_args, o->nclang_args, o->resource_dir};
    Unit *u = parse_unit(o->input, &po);
    if (!u)
        return 1;
    for (int i = 0; i < u->regions.len; i++) {
        Region *r = vec_at(&u->regions, i);
        VERIFY(r, "parse");
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
        fuse_region(u, r);
        VERIFY(r, "fuse_region");
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
    EmitOptions eo = {.prefix = o->prefix, .input_name = stem, .openmp = true, .fast_math = o->fast_math,
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
    bool ok = write_atomic(o->output, out.data ? out.data : "", out.len);
    if (ok && o->depfile)
        ok = write_depfile(o, u);
    buf_free(&out);
    unit_free(u);
    return ok ? 0 : 1;
}
