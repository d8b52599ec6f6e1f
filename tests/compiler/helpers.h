/* helpers.h - shared by the compiler unit tests: temp files and parsing. */
#ifndef TEST_HELPERS_H
#define TEST_HELPERS_H
#include "gfc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpdir_path[256];

static const char *tmp_file(const char *name, const void *data, size_t len)
{
    static char path[512];
    if (!tmpdir_path[0]) {
        snprintf(tmpdir_path, sizeof tmpdir_path, "/tmp/gfc_test_XXXXXX");
        if (!mkdtemp(tmpdir_path))
            abort();
    }
    snprintf(path, sizeof path, "%s/%s", tmpdir_path, name);
    if (data) {
        FILE *f = fopen(path, "wb");
        if (!f)
            abort();
        fwrite(data, 1, len, f);
        fclose(f);
    }
    return path;
}

static Unit *parse_text(const char *name, const char *src)
{
    static const char *args[] = {"-I" TEST_INCLUDE_DIR};
    ParseOptions po = {args, 1, GFC_RESOURCE_DIR};
    FILE *devnull = fopen("/dev/null", "w");
    gfc_diag.out = devnull;      /* diagnostics are tested by tests/diag */
    Unit *u = parse_unit(tmp_file(name, src, strlen(src)), &po);
    gfc_diag.out = NULL;
    fclose(devnull);
    return u;
}

/* Parses and analyses; returns the only region (accepted) or NULL. */
static inline Region *analyse(Unit *u)
{
    if (!u || u->regions.len != 1)
        return NULL;
    Region *r = vec_at(&u->regions, 0);
    FILE *devnull = fopen("/dev/null", "w");
    gfc_diag.out = devnull;
    bool ok = deps_analyze(u, r);
    gfc_diag.out = NULL;
    fclose(devnull);
    return ok ? r : NULL;
}

/* The n-th S_FOR in pre-order. */
static Stmt *nth_loop_rec(Stmt *s, int *n)
{
    if (!s)
        return NULL;
    switch (s->kind) {
    case S_BLOCK:
        for (int i = 0; i < s->list.len; i++) {
            Stmt *r = nth_loop_rec(vec_at(&s->list, i), n);
            if (r)
                return r;
        }
        return NULL;
    case S_FOR:
        if ((*n)-- == 0)
            return s;
        return nth_loop_rec(s->body, n);
    case S_IF: {
        Stmt *r = nth_loop_rec(s->then, n);
        return r ? r : nth_loop_rec(s->els, n);
    }
    case S_WHILE: return nth_loop_rec(s->body, n);
    default: return NULL;
    }
}

static Stmt *nth_loop(Region *r, int n)
{
    return nth_loop_rec(r->body, &n);
}

static Var *param(Region *r, const char *name)
{
    for (int i = 0; i < r->params.len; i++) {
        Var *v = vec_at(&r->params, i);
        if (!strcmp(v->name, name))
            return v;
    }
    return NULL;
}
#endif
