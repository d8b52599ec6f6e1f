/* graph.c - CUDA graphs of repeated launcher calls: the CUDA backend of
 * graph_plan.c and the launcher interface (gf_graph_begin, gf_graph_on,
 * gf_graph_kernel; gf_call_end finishes).  A graph is built from the
 * launches recorded during one call (explicit kernel nodes in a chain, no
 * stream capture, so any stream works, the legacy default one included) and
 * launched on the call's stream; staging copies and scratch stay outside it,
 * ordered on the same stream.  GPUFUSE_GRAPHS=0 turns graphs off. */
#include "rt.h"

#include <gpufuse/launch.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct exec {
    cudaGraph_t g;
    cudaGraphExec_t x;
} exec;

static _Thread_local gf_call *tl_graph_call; /* the call whose launches run, for reports */

static void params_of(const gf_gnode *n, struct cudaKernelNodeParams *p)
{
    memset(p, 0, sizeof *p);
    p->func = (void *)n->func;
    p->gridDim = (dim3){n->grid[0], n->grid[1], n->grid[2]};
    p->blockDim = (dim3){n->block[0], n->block[1], n->block[2]};
    p->sharedMemBytes = (unsigned)n->shmem;
    p->kernelParams = n->ptrs;
}

static void destroy(void *ctx, void *e)
{
    (void)ctx;
    exec *x = e;
    if (x->x)
        cudaGraphExecDestroy(x->x);
    if (x->g)
        cudaGraphDestroy(x->g);
    free(x);
}

static int build(void *ctx, gf_gnode *nodes, int n, void **out)
{
    exec *x = calloc(1, sizeof *x);
    if (!x)
        return -1;
    cudaGraphNode_t prev = NULL;
    cudaError_t err = cudaGraphCreate(&x->g, 0);
    for (int i = 0; err == cudaSuccess && i < n; i++) {
        struct cudaKernelNodeParams p;
        params_of(&nodes[i], &p);
        cudaGraphNode_t node;
        err = cudaGraphAddKernelNode(&node, x->g, prev ? &prev : NULL, prev ? 1 : 0, &p);
        nodes[i].handle = node;
        prev = node;
    }
    if (err == cudaSuccess)
        err = cudaGraphInstantiate(&x->x, x->g, 0);
    if (err != cudaSuccess) {
        cudaGetLastError();
        destroy(ctx, x);
        return -1;
    }
    *out = x;
    return 0;
}

static int update(void *ctx, void *e, gf_gnode *n)
{
    (void)ctx;
    struct cudaKernelNodeParams p;
    params_of(n, &p);
    if (cudaGraphExecKernelNodeSetParams(((exec *)e)->x, (cudaGraphNode_t)n->handle, &p) != cudaSuccess) {
        cudaGetLastError();
        return -1;
    }
    return 0;
}

static int launch(void *ctx, void *e, void *stream)
{
    (void)ctx;
    if (cudaGraphLaunch(((exec *)e)->x, (cudaStream_t)stream) != cudaSuccess) {
        cudaGetLastError();
        return -1;
    }
    return 0;
}

/* A kernel run directly: its failure is reported as the launcher's own
 * check would have ("kernel NAME failed: ..."). */
static void run(void *ctx, const gf_gnode *n, void *stream)
{
    (void)ctx;
    dim3 g = {n->grid[0], n->grid[1], n->grid[2]}, b = {n->block[0], n->block[1], n->block[2]};
    cudaError_t err = cudaLaunchKernel(n->func, g, b, n->ptrs, n->shmem, (cudaStream_t)stream);
    if (err == cudaSuccess)
        return;
    cudaGetLastError();
    if (tl_graph_call)
        gf_call_check(tl_graph_call, err, n->name);
}

static const gf_graph_backend cuda_backend = {NULL, build, update, launch, run, destroy};

static _Thread_local gf_gtable *tl_tab;
static pthread_key_t tab_key;
static pthread_once_t tab_once = PTHREAD_ONCE_INIT;

static void tab_exit(void *t)
{
    gf_gtab_clear(t);
    free(t);
}

static void make_key(void) { pthread_key_create(&tab_key, tab_exit); }

/* GPUFUSE_GRAPHS=0 (or off, no, false): every call launches directly. */
static int graphs_on(void)
{
    static int on = -1;
    if (on < 0)
        on = gf_env_on(getenv("GPUFUSE_GRAPHS"));
    return on;
}

static gf_gtable *table(void)
{
    if (tl_tab)
        return tl_tab;
    gf_gtable *t = malloc(sizeof *t);
    if (!t)
        return NULL;
    gf_gtab_init(t, &cuda_backend);
    pthread_once(&tab_once, make_key);
    pthread_setspecific(tab_key, t);
    return tl_tab = t;
}

void gf_graph_begin(gf_call *c, unsigned long long key)
{
    if (!graphs_on() || gf_call_graph_key(c, &key) != 0)
        return;
    gf_gtable *t = table();
    if (!t)
        return;
    tl_graph_call = c;
    if (t->cur) /* a call that never reached gf_call_end: what it recorded runs now */
        gf_gtab_end(t);
    gf_gtab_begin(t, gf_call_site(c), key, gf_call_stream(c));
}

int gf_graph_on(gf_call *c)
{
    (void)c;
    return tl_tab && tl_tab->mode != GF_GRAPH_DIRECT;
}

void gf_graph_kernel(gf_call *c, const char *name, const void *func, dim3 grid, dim3 block, size_t shmem,
                     void *const *params, const size_t *sizes, int nparams)
{
    gf_glaunch l = {func, name, {grid.x, grid.y, grid.z}, {block.x, block.y, block.z}, shmem, nparams, params,
                    sizes};
    tl_graph_call = c;
    if (gf_graph_on(c)) {
        gf_gtab_kernel(tl_tab, &l);
        return;
    }
    gf_gnode n = {.func = func, .name = name, .shmem = shmem, .nparams = nparams, .ptrs = (void **)params,
                  .size = (size_t *)sizes};
    memcpy(n.grid, l.grid, sizeof n.grid);
    memcpy(n.block, l.block, sizeof n.block);
    run(NULL, &n, gf_call_stream(c));
}

int gf_graph_finish(gf_call *c)
{
    if (!tl_tab || !tl_tab->cur)
        return GF_GRAPH_DIRECT;
    tl_graph_call = c;
    int out = gf_gtab_end(tl_tab);
    tl_graph_call = NULL;
    return out;
}
