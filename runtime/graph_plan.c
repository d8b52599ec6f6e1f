/* graph_plan.c - when a launcher call becomes a CUDA graph, without CUDA
 * (graph.c is the CUDA side): per thread, a table of sites (launchers) with
 * the key of their last call.  The calls of a site with an identical key
 * (its launcher, device and shapes) run directly until the (GF_GRAPH_AFTER
 * + 1)-th in a row, whose launches are recorded and built into a graph;
 * later calls with that key replay it, the parameters of each kernel node
 * updated in place when pointers or scalars changed.  A replayed call whose
 * launches differ from the graph's (another kernel, another geometry, more
 * or fewer launches) runs directly: nothing was launched before the end of
 * the call, so the launches seen so far run first, in order. */
#include "rt.h"

#include <stdlib.h>
#include <string.h>

uint64_t gf_gmix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

void gf_gtab_init(gf_gtable *t, const gf_graph_backend *be)
{
    memset(t, 0, sizeof *t);
    t->be = be;
    t->after = GF_GRAPH_AFTER;
}

static void drop_exec(gf_gtable *t, gf_gentry *e)
{
    if (e->exec)
        t->be->destroy(t->be->ctx, e->exec);
    e->exec = NULL;
}

static void free_node(gf_gnode *n)
{
    free(n->mem);
    memset(n, 0, sizeof *n);
}

static void free_entry(gf_gtable *t, gf_gentry *e)
{
    drop_exec(t, e);
    for (int i = 0; i < e->cap; i++)
        free_node(&e->nodes[i]);
    free(e->nodes);
    memset(e, 0, sizeof *e);
}

void gf_gtab_clear(gf_gtable *t)
{
    for (int i = 0; i < GF_GRAPH_SITES; i++)
        free_entry(t, &t->e[i]);
    free_node(&t->tmp);
    t->mode = GF_GRAPH_DIRECT;
    t->cur = NULL;
}

/* The entry of `site`: found, or a free slot, or (the table full) the one
 * at its hash position, evicted. */
static gf_gentry *entry_of(gf_gtable *t, const void *site)
{
    unsigned h = (unsigned)(gf_gmix(0, (uint64_t)(uintptr_t)site) >> 32) % GF_GRAPH_SITES;
    for (int k = 0; k < GF_GRAPH_SITES; k++) {
        gf_gentry *e = &t->e[(h + (unsigned)k) % GF_GRAPH_SITES];
        if (e->site == site)
            return e;
        if (!e->site) {
            e->site = site;
            return e;
        }
    }
    gf_gentry *e = &t->e[h];
    free_entry(t, e);
    e->site = site;
    return e;
}

int gf_gtab_begin(gf_gtable *t, const void *site, uint64_t key, void *stream)
{
    gf_gentry *e = entry_of(t, site);
    t->cur = e;
    t->next = 0;
    t->stream = stream;
    if (e->exec && e->exec_key == key) {
        e->key = key;
        return t->mode = GF_GRAPH_REPLAY;
    }
    if (e->key == key && e->seen > 0) {
        if (e->seen < t->after + 1)
            e->seen++;
    } else {
        e->key = key;
        e->seen = 1;
    }
    if (e->seen > t->after && e->failures < GF_GRAPH_MAX_FAILURES) {
        drop_exec(t, e); /* the nodes are about to be rewritten */
        e->n = 0;
        return t->mode = GF_GRAPH_CAPTURE;
    }
    return t->mode = GF_GRAPH_DIRECT;
}

#define ALIGN 16
static size_t up(size_t n) { return (n + ALIGN - 1) / ALIGN * ALIGN; }

/* Copies launch l into node n (its storage grown when needed); -1 out of memory. */
static int set_node(gf_gnode *n, const gf_glaunch *l)
{
    size_t args = 0;
    for (int i = 0; i < l->nparams; i++)
        args += up(l->size[i]);
    size_t need = args + (size_t)l->nparams * (sizeof(size_t) + sizeof(void *)) + ALIGN;
    if (need > n->bytes) {
        void *m = malloc(need);
        if (!m)
            return -1;
        free(n->mem);
        n->mem = m;
        n->bytes = need;
    }
    n->args = n->mem;
    n->size = (size_t *)(void *)(n->args + up(args));
    n->ptrs = (void **)(void *)(n->size + l->nparams);
    n->func = l->func;
    n->name = l->name;
    memcpy(n->grid, l->grid, sizeof n->grid);
    memcpy(n->block, l->block, sizeof n->block);
    n->shmem = l->shmem;
    n->nparams = l->nparams;
    n->handle = NULL;
    size_t off = 0;
    for (int i = 0; i < l->nparams; i++) {
        n->size[i] = l->size[i];
        n->ptrs[i] = n->args + off;
        memcpy(n->ptrs[i], l->params[i], l->size[i]);
        off += up(l->size[i]);
    }
    return 0;
}

/* Runs nodes [0, upto) of the current entry directly, in order. */
static void run_prefix(gf_gtable *t, int upto)
{
    for (int i = 0; i < upto; i++)
        t->be->run(t->be->ctx, &t->cur->nodes[i], t->stream);
}

/* The call's launches left the graph (or could not be recorded): what was
 * seen so far runs now, then `l` (if any), and the rest of the call runs
 * directly.  A replayed graph that does not fit the call is dropped. */
static void diverge(gf_gtable *t, int upto, const gf_glaunch *l)
{
    gf_gentry *e = t->cur;
    run_prefix(t, upto);
    if (l) {
        if (set_node(&t->tmp, l) == 0) {
            t->be->run(t->be->ctx, &t->tmp, t->stream);
        } else { /* no host memory even for one node: the parameters as they are */
            gf_gnode n = {.func = l->func, .name = l->name, .shmem = l->shmem, .nparams = l->nparams,
                          .ptrs = (void **)l->params, .size = (size_t *)l->size};
            memcpy(n.grid, l->grid, sizeof n.grid);
            memcpy(n.block, l->block, sizeof n.block);
            t->be->run(t->be->ctx, &n, t->stream);
        }
    }
    if (t->mode == GF_GRAPH_REPLAY) {
        drop_exec(t, e);
        e->seen = 1;
    }
    e->n = 0;
    t->mode = GF_GRAPH_DIRECT;
}

static int same_shape(const gf_gnode *n, const gf_glaunch *l)
{
    if (n->func != l->func || n->shmem != l->shmem || n->nparams != l->nparams ||
        memcmp(n->grid, l->grid, sizeof n->grid) || memcmp(n->block, l->block, sizeof n->block))
        return 0;
    for (int i = 0; i < l->nparams; i++)
        if (n->size[i] != l->size[i])
            return 0;
    return 1;
}

static void record(gf_gtable *t, const gf_glaunch *l)
{
    gf_gentry *e = t->cur;
    if (e->n == e->cap) {
        int cap = e->cap ? e->cap * 2 : 4;
        gf_gnode *v = realloc(e->nodes, (size_t)cap * sizeof *v);
        if (!v) {
            diverge(t, e->n, l);
            return;
        }
        memset(v + e->cap, 0, (size_t)(cap - e->cap) * sizeof *v);
        e->nodes = v;
        e->cap = cap;
    }
    if (set_node(&e->nodes[e->n], l) != 0) {
        diverge(t, e->n, l);
        return;
    }
    e->n++;
}

static void replay(gf_gtable *t, const gf_glaunch *l)
{
    gf_gentry *e = t->cur;
    if (t->next >= e->n || !same_shape(&e->nodes[t->next], l)) {
        diverge(t, t->next, l);
        return;
    }
    gf_gnode *n = &e->nodes[t->next];
    int changed = 0;
    for (int i = 0; i < l->nparams; i++)
        if (memcmp(n->ptrs[i], l->params[i], l->size[i])) {
            memcpy(n->ptrs[i], l->params[i], l->size[i]);
            changed = 1;
        }
    t->next++;
    if (changed && t->be->update(t->be->ctx, e->exec, n) != 0) {
        e->failures++;
        diverge(t, t->next, NULL); /* n holds the new parameters: it runs too */
    }
}

void gf_gtab_kernel(gf_gtable *t, const gf_glaunch *l)
{
    if (t->mode == GF_GRAPH_CAPTURE)
        record(t, l);
    else if (t->mode == GF_GRAPH_REPLAY)
        replay(t, l);
}

/* The graph could not run: its launches run directly, and it is dropped. */
static int fail_graph(gf_gtable *t, gf_gentry *e)
{
    e->failures++;
    run_prefix(t, e->n);
    drop_exec(t, e);
    e->seen = 1;
    e->n = 0;
    return GF_GRAPH_DIRECT;
}

static int end_capture(gf_gtable *t, gf_gentry *e)
{
    drop_exec(t, e);
    if (e->n == 0) /* no launches (empty shapes): nothing worth a graph */
        return GF_GRAPH_DIRECT;
    void *exec = NULL;
    if (t->be->build(t->be->ctx, e->nodes, e->n, &exec) != 0 || !exec)
        return fail_graph(t, e);
    e->exec = exec;
    e->exec_key = e->key;
    if (t->be->launch(t->be->ctx, exec, t->stream) != 0)
        return fail_graph(t, e);
    return GF_GRAPH_CAPTURE;
}

int gf_gtab_end(gf_gtable *t)
{
    gf_gentry *e = t->cur;
    int mode = t->mode, out = GF_GRAPH_DIRECT;
    t->mode = GF_GRAPH_DIRECT;
    t->cur = NULL;
    if (!e)
        return out;
    if (mode == GF_GRAPH_CAPTURE) {
        t->cur = e;
        out = end_capture(t, e);
    } else if (mode == GF_GRAPH_REPLAY) {
        t->cur = e;
        if (t->next != e->n) { /* fewer launches than the graph has */
            t->mode = GF_GRAPH_REPLAY;
            diverge(t, t->next, NULL);
        } else if (t->be->launch(t->be->ctx, e->exec, t->stream) != 0) {
            out = fail_graph(t, e);
        } else {
            out = GF_GRAPH_REPLAY;
        }
    }
    t->mode = GF_GRAPH_DIRECT;
    t->cur = NULL;
    return out;
}
