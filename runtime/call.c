/* call.c - the launcher interface (gpufuse/launch.h): a per-thread call
 * object that classifies pointer arguments (pool/device memory as is, data
 * region mirrors, plain host memory staged), detects overlap hazards, and
 * copies staged outputs back.  The call's scratch is allocated together with
 * the staging, before any kernel runs; when either does not fit, the call
 * runs on the host if its arguments allow it, else does nothing (reported).
 * The device-pointer path does no malloc and no CUDA call besides what the
 * launcher itself makes; pool pointers are recognised by a lookup under the
 * pool's mutex. */
#include "rt.h"

#include <gpufuse/launch.h>
#include <nvtx3/nvToolsExt.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define INLINE_ARGS 16

enum { K_NONE, K_DEVICE, K_MANAGED, K_MIRROR, K_STAGED };

struct gf_call {
    gf_site *site;
    int nargs, cap;
    int path;
    int device;
    cudaStream_t stream;
    gf_argdesc *a;
    void **dptr;
    unsigned char *kind;
    int *stage_idx, *group;
    gf_span *spans;
    void **span_dev;
    int nspans;
    int host_involved;
    size_t staged_in, staged_out; /* host bytes copied to / from the device */
    int broken;                  /* gf_call_begin could not hold every argument */
    int checks;                  /* gf_call_check calls: device work the launcher queued */
    int prefer_c_body;           /* the GPU cannot win this call: 1 the C body (gf_call_prefer_c_body),
                                    2 the host plan (gf_call_prefer_host) */
    int weighed;                 /* gf_call_weigh: the launcher's estimates below */
    int cpu_plan;                /* the CPU's way: the host plan (1) or the C body (0) */
    double gpu_ns, cpu_ns;
    void **scratch;              /* gf_call_scratch: allocated when asked */
    int nscratch, capscratch;
    gf_scratch res;              /* gf_call_reserve: allocated by gf_call_map */
    void *views;                 /* gf_call_host_view's copies of device memory: a list, freed
                                    by gf_call_end */
    /* profiling */
    int timing;
    cudaEvent_t ev0, ev1;
    double t0, t_mapped, t_launched; /* gf_now_ms at gf_call_begin, after gf_call_map, at gf_call_end */
    /* inline storage for the common case */
    gf_argdesc a_in[INLINE_ARGS];
    void *dptr_in[INLINE_ARGS];
    unsigned char kind_in[INLINE_ARGS];
    int stage_in[INLINE_ARGS], group_in[INLINE_ARGS];
    gf_span spans_in[INLINE_ARGS];
    void *span_dev_in[INLINE_ARGS];
};

/* Generated code refers to gf_launch_abi_<N> for the GF_LAUNCH_ABI it was
 * written for: a libgpufuse of another ABI makes the link, or the dynamic
 * loader, name the missing symbol instead of the program misbehaving. */
_Static_assert(GF_LAUNCH_ABI == 7, "rename gf_launch_abi_7 with GF_LAUNCH_ABI");
const int gf_launch_abi_7 = GF_LAUNCH_ABI;

static _Thread_local gf_call tl_call;
static _Thread_local int tl_last_path = -1;

int gf_call_last_path(void) { return tl_last_path; }
static pthread_key_t call_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void free_args(gf_call *c)
{
    if (c->a && c->a != c->a_in) {
        free(c->a);
        free(c->dptr);
        free(c->kind);
        free(c->stage_idx);
        free(c->group);
        free(c->spans);
        free(c->span_dev);
    }
    c->a = NULL;
    c->cap = 0;
}

static void free_heap(gf_call *c)
{
    free_args(c);
    free(c->scratch);
    c->scratch = NULL;
    c->capscratch = 0;
    gf_scratch_fini(&c->res);
}

/* gf_call_host_slot's pinned buffer, per thread */
static _Thread_local void *tl_pin;
static _Thread_local size_t tl_pin_cap;

static void thread_exit(void *arg)
{
    free_heap(arg);
    if (tl_pin)
        cudaFreeHost(tl_pin);
    tl_pin = NULL;
    tl_pin_cap = 0;
}

static void make_key(void) { pthread_key_create(&call_key, thread_exit); }

static void use_inline(gf_call *c)
{
    c->a = c->a_in;
    c->dptr = c->dptr_in;
    c->kind = c->kind_in;
    c->stage_idx = c->stage_in;
    c->group = c->group_in;
    c->spans = c->spans_in;
    c->span_dev = c->span_dev_in;
    c->cap = INLINE_ARGS;
}

/* More than INLINE_ARGS arguments: heap arrays, kept for the thread. */
static int grow(gf_call *c, int n)
{
    size_t m = (size_t)n;
    gf_argdesc *a = calloc(m, sizeof *a);
    void **d = calloc(m, sizeof *d);
    unsigned char *k = calloc(m, 1);
    int *si = calloc(m, sizeof *si), *g = calloc(m, sizeof *g);
    gf_span *sp = calloc(m, sizeof *sp);
    void **sd = calloc(m, sizeof *sd);
    if (!a || !d || !k || !si || !g || !sp || !sd) {
        free(a), free(d), free(k), free(si), free(g), free(sp), free(sd);
        return -1;
    }
    free_args(c);
    c->a = a, c->dptr = d, c->kind = k, c->stage_idx = si, c->group = g, c->spans = sp,
    c->span_dev = sd, c->cap = n;
    pthread_once(&key_once, make_key);
    pthread_setspecific(call_key, c);
    return 0;
}

gf_call *gf_call_begin(gf_site *site, int nargs)
{
    gf_call *c = &tl_call;
    gf_runtime_get();
    if (!c->a)
        use_inline(c);
    if (nargs < 0)
        nargs = 0;
    if (nargs > c->cap && grow(c, nargs) != 0) {
        gf_tl_site = (const struct gf_site *)site;
        gf_report(GF_ERROR_OUT_OF_MEMORY, "gf_call_begin: %d arguments: out of host memory", nargs);
        nargs = c->cap;
        c->broken = 1;
    } else {
        c->broken = 0;
    }
    c->site = site;
    c->nargs = nargs;
    c->views = NULL;
    for (int i = 0; i < nargs; i++) {
        c->a[i] = (gf_argdesc){NULL, 0, 0, 0, 0};
        c->dptr[i] = NULL;
        c->kind[i] = K_NONE;
    }
    c->path = -1;
    c->nspans = 0;
    c->nscratch = 0;
    gf_scratch_reset(&c->res);
    c->host_involved = 0;
    c->staged_in = c->staged_out = 0;
    c->checks = 0;
    c->prefer_c_body = 0;
    c->weighed = 0;
    c->timing = 0;
    gf_tl_site = (const struct gf_site *)site;
    nvtxRangePushA(site->function ? site->function : "gpufuse call");
    if (gf_profiling) {
        c->t0 = gf_now_ms();
        gf_tl_stage = (gf_stage_stats){0};
    }
    return c;
}

void gf_call_arg(gf_call *c, int idx, const void *p, ptrdiff_t lo, ptrdiff_t hi, int mode,
                 int alias_class)
{
    if (idx < 0 || idx >= c->nargs)
        return;
    if (hi < lo)
        hi = lo;
    c->a[idx] = (gf_argdesc){p, lo, hi, mode, alias_class};
}

static void report_site(gf_call *c, gf_status s, const char *what);

int gf_call_arg_bounds(gf_call *c, const void *p, ptrdiff_t *lo, ptrdiff_t *hi)
{
    (void)c;
    if (!p || gf_runtime_get()->cpu)
        return 0;
    const char *base = NULL;
    size_t size = 0;
    gf_import im;
    gf_pool *pool = gf_device_pool_if_any(gf_current_device());
    if (pool && gf_pool_contains(pool, p)) {
        if (!gf_pool_block_at(pool, p, &base, &size))
            return 0;
    } else if (gf_imports_count() && gf_imports_find(p, 1, &im) > 0 && im.kind == GF_IMPORT_DEVICE) {
        base = im.lo;        /* an imported DLPack tensor: its own bytes */
        size = im.bytes;
    } else {
        /* host memory, a data region, or memory allocated elsewhere (whose
         * allocation, cuMemGetAddressRange's, may hold other arrays of the
         * call: a caching allocator's segment): the launcher's pass */
        return 0;
    }
    *lo = base - (const char *)p;
    *hi = base + size - (const char *)p;
    return 1;
}

/* A copy of device memory for gf_call_host_view: the next one, then the bytes. */
typedef struct view_copy {
    struct view_copy *next;
    max_align_t bytes[];
} view_copy;

static void free_view_list(void *list)
{
    for (view_copy *v = list, *next; v; v = next) {
        next = v->next;
        free(v);
    }
}

static void free_views(gf_call *c)
{
    free_view_list(c->views);
    c->views = NULL;
}

/* The copies made for an entry point (c NULL: verify.c's gf_entry), freed
 * by its gf_entry_end. */
static _Thread_local void *tl_entry_views;

void gf_entry_views_free(void)
{
    free_view_list(tl_entry_views);
    tl_entry_views = NULL;
}

const void *gf_call_host_view(gf_call *c, const void *p, ptrdiff_t lo, ptrdiff_t hi)
{
    if (c && c->broken)
        return NULL;
    if (!p || hi <= lo)
        return p;
    const gf_runtime *rt = gf_runtime_get();
    if (rt->cpu)
        return p; /* no device: every argument is host memory */
    const char *at = (const char *)p + lo;
    size_t n = (size_t)(hi - lo);
    int partial;
    gf_status st = GF_SUCCESS;
    if (gf_data_lookup(at, n, &partial)) {
        /* a data region's host copy may be older than its mirror */
        st = gf_update_host((void *)at, n);
    } else {
        struct cudaPointerAttributes a;
        gf_pool *pool = gf_device_pool_if_any(gf_current_device());
        int device = pool && gf_pool_contains(pool, at);
        if (!device && gf_host_kind(at) == GF_MEM_DEVICE) {
            if (cudaPointerGetAttributes(&a, at) != cudaSuccess) {
                cudaGetLastError();
                a.type = cudaMemoryTypeDevice;
            }
            device = a.type != cudaMemoryTypeManaged;
        }
        cudaStream_t s = (cudaStream_t)gf_current_cuda_stream();
        if (device) {
            /* device memory: the bytes come to the host, after the work queued before */
            view_copy *v = malloc(sizeof *v + n);
            if (!v) {
                st = gf_fail(GF_ERROR_OUT_OF_MEMORY, "out of host memory for a copy of %zu bytes", n);
            } else {
                void **list = c ? &c->views : &tl_entry_views;
                v->next = *list;
                *list = v;
                st = GF_CUDA(cudaMemcpyAsync(v->bytes, at, n, cudaMemcpyDeviceToHost, s));
                if (st == GF_SUCCESS)
                    st = GF_CUDA(cudaStreamSynchronize(s));
                if (st == GF_SUCCESS)
                    return (const char *)v->bytes - lo;
            }
        } else if (gf_host_kind(at) == GF_MEM_DEVICE) {
            st = GF_CUDA(cudaStreamSynchronize(s)); /* managed memory: earlier kernels may write it */
        }
    }
    if (st == GF_SUCCESS)
        return p;
    char msg[768];
    snprintf(msg, sizeof msg, "reading the indices that decide which elements the call touches: %s: the call "
                              "did nothing", gf_last_error());
    if (c) {
        report_site(c, st, msg);
        c->broken = 1;
    } else {
        gf_report(st, "%s", msg);
    }
    return NULL;
}

static void report_site(gf_call *c, gf_status s, const char *what)
{
    gf_site *site = c->site;
    char copy[1024]; /* `what` is often gf_last_error(), which gf_report overwrites */
    snprintf(copy, sizeof copy, "%s", what);
    gf_report(s, "%s (in %s at %s:%d)", copy, site->function, site->file, site->line);
}

void gf_call_fail(gf_call *c, gf_status s, const char *what) { report_site(c, s, what); }

/* 1 when argument i lies in device memory a host body cannot touch (pool or
 * cudaMalloc memory; managed memory and data-region mirrors are fine). */
static int device_only(gf_call *c, int i)
{
    gf_argdesc *d = &c->a[i];
    const char *lo = d->p + d->lo;
    int partial;
    gf_pool *pool = gf_device_pool_if_any(c->device);
    if (pool && gf_pool_contains(pool, lo))
        return 1;
    if (gf_data_lookup(lo, (size_t)(d->hi - d->lo), &partial))
        return 0;
    if (gf_host_kind(lo) != GF_MEM_DEVICE)
        return 0;
    struct cudaPointerAttributes at;
    if (cudaPointerGetAttributes(&at, lo) != cudaSuccess) {
        cudaGetLastError();
        return 1;
    }
    return at.type != cudaMemoryTypeManaged;
}

/* The call cannot run on the GPU (`why`): makes the host ready to run `path`
 * (the host plan, or the original body for a hazard) on the arguments
 * themselves.  `s` is the error, GF_SUCCESS for a hazard (not an error by
 * itself); it is reported unless `reported` (gf_call_scratch did).  When an
 * argument is device memory a host body cannot run at all: reported, and
 * GF_PATH_FAILED (the launcher then does nothing, so no output is written). */
static gf_path host_fallback(gf_call *c, gf_path path, gf_status s, const char *why, int reported)
{
    for (int i = 0; i < c->nargs; i++) {
        gf_argdesc *d = &c->a[i];
        if (!d->p || d->hi <= d->lo || !device_only(c, i))
            continue;
        char msg[768];
        snprintf(msg, sizeof msg, "%s, and argument %d is device memory, so the host fallback cannot "
                                  "run: the call did nothing", why, i);
        report_site(c, s != GF_SUCCESS ? s : GF_ERROR_OVERLAP, msg);
        return (gf_path)(c->path = GF_PATH_FAILED);
    }
    if (s != GF_SUCCESS && !reported) {
        char msg[768];
        snprintf(msg, sizeof msg, "%s: running on the host instead", why);
        report_site(c, s, msg);
    }
    int need_sync = 0;
    for (int i = 0; i < c->nargs; i++) {
        gf_argdesc *d = &c->a[i];
        c->kind[i] = K_NONE;
        if (!d->p || d->hi <= d->lo)
            continue;
        const char *lo = d->p + d->lo;
        size_t n = (size_t)(d->hi - d->lo);
        int partial;
        if (gf_data_lookup(lo, n, &partial)) {
            /* bring the host copy up to date; what the body writes goes back
             * to the mirror at the next region operation */
            gf_status st = gf_update_host((void *)lo, n);
            if (st != GF_SUCCESS)
                report_site(c, st, gf_last_error());
            c->kind[i] = K_MIRROR;
            continue;
        }
        need_sync = 1; /* host or managed memory: earlier GPU work may still use it */
    }
    if (need_sync) {
        gf_status st = GF_CUDA(cudaStreamSynchronize(c->stream));
        if (st != GF_SUCCESS)
            report_site(c, st, gf_last_error());
    }
    /* registered last: every region operation (the lookups and updates
     * above included) flushes what is registered */
    for (int i = 0; i < c->nargs; i++) {
        gf_argdesc *d = &c->a[i];
        if (c->kind[i] == K_MIRROR && (d->mode & GF_ARG_WRITE)) {
            gf_status st = gf_data_defer_push(d->p + d->lo, (size_t)(d->hi - d->lo));
            if (st != GF_SUCCESS)
                report_site(c, st, gf_last_error());
        }
    }
    return (gf_path)(c->path = path);
}

/* Releases staging buffers and scratch (stream-ordered frees). */
static void release(gf_call *c)
{
    gf_pool *pool = gf_device_pool_if_any(c->device);
    if (!pool)
        return;
    for (int s = 0; s < c->nspans; s++)
        if (c->span_dev[s])
            gf_pool_free(pool, c->span_dev[s]);
    for (int i = 0; i < c->nscratch; i++)
        gf_pool_free(pool, c->scratch[i]);
    gf_scratch_release(&c->res, pool);
    c->nspans = 0;
    c->nscratch = 0;
}

/* Stages the first m of stage_idx, grouped (gf_args_group) into c->spans[0, ns). */
static gf_status stage_in(gf_call *c, int m, int ns)
{
    gf_pool *pool = gf_device_pool(c->device);
    if (!pool)
        return gf_fail(GF_ERROR_OUT_OF_MEMORY, "cannot create the device pool");
    for (int s = 0; s < ns; s++)
        c->span_dev[s] = NULL;
    c->nspans = ns;
    for (int s = 0; s < ns; s++) {
        gf_span *sp = &c->spans[s];
        size_t n = (size_t)(sp->hi - sp->lo);
        gf_status st = gf_pool_alloc(pool, &c->span_dev[s], n, (void *)c->stream);
        if (st != GF_SUCCESS)
            return st;
        if (sp->read) {
            int pinned = gf_host_kind(sp->lo) == GF_MEM_PINNED;
            st = pinned ? GF_CUDA(cudaMemcpyAsync(c->span_dev[s], sp->lo, n, cudaMemcpyHostToDevice,
                                                  c->stream))
                        : gf_stage_h2d(c->span_dev[s], sp->lo, n, (void *)c->stream);
            if (st != GF_SUCCESS)
                return st;
            c->staged_in += n;
        }
    }
    for (int k = 0; k < m; k++) {
        int i = c->stage_idx[k];
        gf_span *sp = &c->spans[c->group[k]];
        /* the address of p itself, even if only [p+lo, p+hi) was staged */
        c->dptr[i] = (char *)c->span_dev[c->group[k]] + (c->a[i].p - sp->lo);
    }
    c->host_involved = 1;
    return GF_SUCCESS;
}

/* GPUFUSE_COST_MODEL=0: launchers ignore their cost model (tests that run
 * kernels at sizes where the C body would win). */
static int cost_model_on(void)
{
    static int on = -1;
    if (on < 0) {
        const char *v = getenv("GPUFUSE_COST_MODEL");
        on = !(v && !strcmp(v, "0"));
    }
    return on;
}

void gf_call_prefer_c_body(gf_call *c) { c->prefer_c_body = cost_model_on(); }
void gf_call_prefer_host(gf_call *c) { c->prefer_c_body = 2 * cost_model_on(); }

void gf_call_weigh(gf_call *c, double gpu_ns, double cpu_ns, int plan)
{
    c->weighed = cost_model_on();
    c->gpu_ns = gpu_ns;
    c->cpu_ns = cpu_ns;
    c->cpu_plan = plan;
}

/* Copies of host arguments against the CPU's time (gf_call_weigh): a byte
 * staged in or out through the pinned ring (64 MiB in 1.5-2.1 ms measured on
 * the H200, bench/first_call), and what the process's first device call pays
 * beyond its copies and its GPU time (the device pool's first block, the
 * stream's first work: 1.4-3.7 ms measured, "extra" in docs/performance.md). */
#define GF_COST_STAGE_NS_PER_BYTE 0.025
#define GF_COST_FIRST_CALL_NS 2.0e6

/* Whether the CPU runs the call sooner than the GPU with its copies: only when
 * every argument with bytes is plain host memory about to be staged (the
 * first m of stage_idx, grouped into c->spans[0, ns)).  `first`: no device
 * pool yet. */
static int cpu_sooner(gf_call *c, int m, int ns, int first)
{
    if (!c->weighed || !m)
        return 0;
    int with_bytes = 0;
    for (int i = 0; i < c->nargs; i++)
        with_bytes += c->a[i].p && c->a[i].hi > c->a[i].lo;
    if (with_bytes != m)
        return 0;                /* some argument already lives on the device */
    /* the spans stage_in would copy (overlapping arguments are one copy;
     * counted per argument, an array passed twice cost twice) */
    double bytes = (double)gf_args_copy_bytes(c->spans, ns);
    double gpu = c->gpu_ns + bytes * GF_COST_STAGE_NS_PER_BYTE + (first ? GF_COST_FIRST_CALL_NS : 0);
    return c->cpu_ns < gpu;
}

/* Whether the host can run the call on its arguments (none is device memory). */
static int host_can_run(gf_call *c)
{
    for (int i = 0; i < c->nargs; i++)
        if (c->a[i].p && c->a[i].hi > c->a[i].lo && device_only(c, i))
            return 0;
    return 1;
}

/* Memory imported from another framework (imports.c, gf_from_dlpack) has
 * a known extent: a call that would touch bytes outside it is refused. */
static int outside_import(gf_call *c)
{
    for (int i = 0; gf_imports_count() && i < c->nargs; i++) {
        gf_argdesc *d = &c->a[i];
        gf_import im;
        if (!d->p || d->hi <= d->lo || gf_imports_find(d->p + d->lo, (size_t)(d->hi - d->lo), &im) >= 0)
            continue;
        char msg[512];
        snprintf(msg, sizeof msg, "argument %d touches bytes [%p, %p), outside the imported DLPack tensor "
                                  "[%p, %p): the call did nothing", i, (const void *)(d->p + d->lo),
                 (const void *)(d->p + d->hi), (const void *)im.lo, (const void *)(im.lo + im.bytes));
        report_site(c, GF_ERROR_INVALID_VALUE, msg);
        return 1;
    }
    return 0;
}

gf_path gf_call_map(gf_call *c)
{
    const gf_runtime *rt = gf_runtime_get();
    int hazard = c->broken || gf_args_hazard(c->a, c->nargs);
    if (outside_import(c))
        return (gf_path)(c->path = GF_PATH_FAILED);
    if (rt->cpu) {
        gf_status st = gf_cpu_fallback(); /* the notice, or GPUFUSE_DEVICE's error */
        if (st != GF_SUCCESS) {
            report_site(c, st, gf_last_error());
            return (gf_path)(c->path = GF_PATH_FAILED);
        }
        return (gf_path)(c->path = hazard || c->prefer_c_body == 1 ? GF_PATH_SEQUENTIAL : GF_PATH_HOST);
    }
    c->device = gf_current_device();
    c->stream = (cudaStream_t)gf_current_cuda_stream();
    if (c->broken) /* reported by gf_call_begin; the arguments are not all known */
        return (gf_path)(c->path = GF_PATH_FAILED);
    if (hazard)
        return host_fallback(c, GF_PATH_SEQUENTIAL, GF_SUCCESS, "arguments overlap", 0);
    if (c->prefer_c_body && host_can_run(c)) /* the cost model: not an error, no report */
        return host_fallback(c, c->prefer_c_body == 2 ? GF_PATH_HOST : GF_PATH_SEQUENTIAL, GF_SUCCESS,
                             "the GPU cannot win this call", 0);
    gf_pool *pool = gf_device_pool_if_any(c->device);
    int m = 0;
    for (int i = 0; i < c->nargs; i++) {
        gf_argdesc *d = &c->a[i];
        if (!d->p)
            continue;
        const char *lo = d->p + d->lo;
        size_t n = (size_t)(d->hi - d->lo);
        if (pool && gf_pool_use(pool, lo, (void *)c->stream)) {
            c->kind[i] = K_DEVICE;
            c->dptr[i] = (void *)d->p;
            continue;
        }
        gf_import im; /* imported device memory: as it is, with no pointer query */
        if (gf_imports_find(lo, n, &im) > 0 && im.kind == GF_IMPORT_DEVICE && im.device == c->device) {
            c->kind[i] = K_DEVICE;
            c->dptr[i] = (void *)d->p;
            continue;
        }
        int partial;
        char *mirror = gf_data_lookup(lo, n, &partial);
        if (mirror) {
            c->kind[i] = K_MIRROR;
            c->dptr[i] = mirror - d->lo;
            continue;
        }
        if (partial) {
            char msg[160];
            snprintf(msg, sizeof msg, "argument %d straddles the edge of a data region "
                                      "(enter the whole range it touches)", i);
            report_site(c, GF_ERROR_NOT_MAPPED, msg);
        }
        struct cudaPointerAttributes at;
        if (cudaPointerGetAttributes(&at, lo) != cudaSuccess) {
            cudaGetLastError();
            at.type = cudaMemoryTypeUnregistered;
        }
        if (at.type == cudaMemoryTypeDevice || at.type == cudaMemoryTypeManaged) {
            c->kind[i] = at.type == cudaMemoryTypeDevice ? K_DEVICE : K_MANAGED;
            c->dptr[i] = (void *)d->p;
            continue;
        }
        if (n == 0) { /* untouched host pointer: passed through, never dereferenced */
            c->dptr[i] = (void *)d->p;
            continue;
        }
        c->kind[i] = K_STAGED;
        c->stage_idx[m++] = i;
    }
    /* the spans stage_in copies (overlapping arguments are one span) */
    int ns = m ? gf_args_group(c->a, c->stage_idx, m, c->group, c->spans) : 0;
    if (cpu_sooner(c, m, ns, !pool))   /* the cost model: not an error, no report */
        return host_fallback(c, c->cpu_plan ? GF_PATH_HOST : GF_PATH_SEQUENTIAL, GF_SUCCESS,
                             "the CPU runs this call on host arrays sooner than the copies and the GPU", 0);
    if (m) {
        gf_status st = stage_in(c, m, ns);
        if (st != GF_SUCCESS) {
            char why[640];
            snprintf(why, sizeof why, "staging host arguments failed: %s", gf_last_error());
            release(c);
            c->host_involved = 0;
            return host_fallback(c, GF_PATH_HOST, st, why, 0);
        }
    }
    if (c->res.n) {
        /* all the scratch now, so that no kernel runs unless every one can */
        gf_pool *dp = gf_device_pool(c->device);
        gf_status st = dp ? gf_scratch_alloc(&c->res, dp, (void *)c->stream)
                          : gf_fail(GF_ERROR_OUT_OF_MEMORY, "cannot create the device pool");
        if (st != GF_SUCCESS) {
            char why[640];
            snprintf(why, sizeof why, "no device memory for the call's scratch: %s", gf_last_error());
            release(c); /* staged inputs are dropped; nothing was copied back */
            c->host_involved = 0;
            return host_fallback(c, GF_PATH_HOST, st, why, 0);
        }
    }
    if (gf_profiling) {
        if (!c->ev0 && (cudaEventCreate(&c->ev0) != cudaSuccess || cudaEventCreate(&c->ev1) != cudaSuccess))
            cudaGetLastError();
        if (c->ev1 && cudaEventRecord(c->ev0, c->stream) == cudaSuccess)
            c->timing = 1;
        c->t_mapped = gf_now_ms();
    }
    return (gf_path)(c->path = GF_PATH_DEVICE);
}

void *gf_call_ptr(gf_call *c, int idx)
{
    return idx >= 0 && idx < c->nargs ? c->dptr[idx] : NULL;
}

void gf_call_reserve(gf_call *c, size_t bytes)
{
    gf_scratch_add(&c->res, bytes); /* on failure gf_call_map falls back */
    if (c->res.cap > GF_SCRATCH_INLINE) {
        pthread_once(&key_once, make_key);
        pthread_setspecific(call_key, c);
    }
}

void *gf_call_reserved(gf_call *c, int k)
{
    return gf_scratch_ptr(&c->res, k);
}

void *gf_call_scratch(gf_call *c, size_t bytes)
{
    gf_pool *pool = gf_device_pool(c->device);
    void *p = NULL;
    if (c->nscratch == c->capscratch) {
        int cap = c->capscratch ? c->capscratch * 2 : 8;
        void **v = realloc(c->scratch, (size_t)cap * sizeof *v);
        if (!v) {
            report_site(c, GF_ERROR_OUT_OF_MEMORY, "gf_call_scratch: out of host memory");
            return NULL;
        }
        c->scratch = v;
        c->capscratch = cap;
        pthread_once(&key_once, make_key);
        pthread_setspecific(call_key, c);
    }
    gf_status st = pool ? gf_pool_alloc(pool, &p, bytes ? bytes : 1, (void *)c->stream)
                        : gf_fail(GF_ERROR_NO_DEVICE, "gf_call_scratch: no GPU");
    if (st != GF_SUCCESS) {
        report_site(c, st, gf_last_error());
        return NULL;
    }
    c->scratch[c->nscratch++] = p;
    return p;
}

gf_path gf_call_cancel(gf_call *c)
{
    gf_path p = GF_PATH_FAILED;
    if (c->path == GF_PATH_DEVICE) {
        gf_graph_finish(c); /* what was recorded runs before the scratch goes */
        const char *why = "no device memory for a temporary"; /* the details: gf_call_scratch's report */
        release(c); /* stream-ordered: work already queued finishes first */
        c->host_involved = 0;
        if (!c->checks) {
            p = host_fallback(c, GF_PATH_HOST, GF_ERROR_OUT_OF_MEMORY, why, 1);
        } else {
            c->path = GF_PATH_FAILED;
            char msg[512];
            snprintf(msg, sizeof msg, "%s: call abandoned after kernels ran; staged host arguments were not "
                                      "copied back and keep their values, but arguments in device memory or "
                                      "data regions may hold results of those kernels", why);
            report_site(c, GF_ERROR_OUT_OF_MEMORY, msg);
        }
    }
    gf_call_end(c, 0, 0);
    return p;
}

cudaStream_t gf_call_stream(gf_call *c) { return c->stream; }

const void *gf_call_site(gf_call *c) { return c->site; }

int gf_call_graph_key(gf_call *c, unsigned long long *key)
{
    if (c->path != GF_PATH_DEVICE)
        return -1;
    uint64_t h = gf_gmix(*key, (uint64_t)(uintptr_t)c->site);
    h = gf_gmix(h, (uint64_t)c->device);
    for (int i = 0; i < c->nargs; i++) {
        h = gf_gmix(h, (uint64_t)c->a[i].lo);
        h = gf_gmix(h, (uint64_t)c->a[i].hi);
    }
    *key = h;
    return 0;
}

/* The exiting thread's slot (the main thread's: its thread-local
 * destructors never run), from an atexit handler registered after CUDA
 * initialised, so before CUDA's own teardown. */
static void free_pin_at_exit(void)
{
    if (tl_pin)
        cudaFreeHost(tl_pin);
    tl_pin = NULL;
    tl_pin_cap = 0;
}

static pthread_once_t pin_once = PTHREAD_ONCE_INIT;
static void register_pin_exit(void) { atexit(free_pin_at_exit); }

void *gf_call_host_slot(gf_call *c, size_t bytes)
{
    (void)c;
    if (bytes <= tl_pin_cap)
        return tl_pin;
    size_t cap = 256;
    while (cap < bytes)
        cap *= 2;
    void *p = NULL;
    if (cudaHostAlloc(&p, cap, cudaHostAllocDefault) != cudaSuccess) {
        cudaGetLastError();
        return NULL;
    }
    if (tl_pin)
        cudaFreeHost(tl_pin); /* the launcher synchronised before reusing it */
    pthread_once(&pin_once, register_pin_exit);
    tl_pin = p;
    tl_pin_cap = cap;
    pthread_once(&key_once, make_key);
    pthread_setspecific(call_key, c);
    return p;
}

int gf_call_sm_count(gf_call *c)
{
    const gf_runtime *rt = &gf_rt;
    if (rt->cpu)
        return 1;
    int n = rt->props[c->device].multiprocessors;
    return n > 0 ? n : 1;
}

void gf_call_check(gf_call *c, cudaError_t err, const char *what)
{
    c->checks++;
    if (err == cudaSuccess)
        return;
    char msg[512];
    snprintf(msg, sizeof msg, "kernel %s failed: %s", what ? what : "?", cudaGetErrorString(err));
    report_site(c, GF_ERROR_CUDA, msg);
}

static gf_status copy_out(gf_call *c)
{
    for (int s = 0; s < c->nspans; s++) {
        gf_span *sp = &c->spans[s];
        if (sp->wlo == sp->whi)
            continue;
        size_t n = (size_t)(sp->whi - sp->wlo);
        const char *src = (const char *)c->span_dev[s] + (sp->wlo - sp->lo);
        gf_status st = gf_host_kind(sp->wlo) == GF_MEM_PINNED
                           ? GF_CUDA(cudaMemcpyAsync((void *)sp->wlo, src, n, cudaMemcpyDeviceToHost,
                                                     c->stream))
                           : gf_stage_d2h((void *)sp->wlo, src, n, (void *)c->stream);
        if (st != GF_SUCCESS)
            return st;
        c->staged_out += n;
    }
    return GF_SUCCESS;
}

void gf_call_end(gf_call *c, size_t bytes, int sync)
{
    free_views(c);
    double gpu_ms = 0, t_ended = 0;
    int graph = GF_GRAPH_DIRECT;
    if (gf_profiling)
        c->t_launched = gf_now_ms();
    if (c->path == GF_PATH_DEVICE) {
        graph = gf_graph_finish(c); /* the graph, or the launches it recorded, before the copies back */
        if (c->timing)
            cudaEventRecord(c->ev1, c->stream);
        gf_status st = copy_out(c);
        if (st != GF_SUCCESS)
            report_site(c, st, gf_last_error());
        release(c);
        if (c->host_involved || sync) {
            st = GF_CUDA(cudaStreamSynchronize(c->stream));
            if (st != GF_SUCCESS)
                report_site(c, st, gf_last_error());
        }
        if (c->timing) {
            float ms = 0;
            if (cudaEventSynchronize(c->ev1) == cudaSuccess &&
                cudaEventElapsedTime(&ms, c->ev0, c->ev1) == cudaSuccess)
                gpu_ms = ms;
            else
                cudaGetLastError();
        }
    }
    if (gf_profiling)
        t_ended = gf_now_ms();
    if (gf_profiling && c->site) {
        int dev = c->path == GF_PATH_DEVICE && c->timing;
        gf_call_stats st = {c->path, dev, gpu_ms, gf_tl_entry_timing ? -1.0 : t_ended - c->t0, bytes,
                            c->staged_in, c->staged_out, graph,
                            dev ? c->t_mapped - c->t0 : 0, dev ? c->t_launched - c->t_mapped : 0,
                            dev ? t_ended - c->t_launched : 0, &gf_tl_stage};
        gf_profile_add(c->site, &st);
    }
    nvtxRangePop();
    gf_tl_site = NULL;
    tl_last_path = c->path;
    c->path = -1;
    c->timing = 0;
}
