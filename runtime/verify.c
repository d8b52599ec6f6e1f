/* verify.c - the launchers' entry points (gpufuse/entry.h): the whole
 * call's time for the profile, and verify mode (GPUFUSE_VERIFY=1): the
 * pointer arguments are copied to host memory before the call (from the
 * device for device memory and data-region mirrors), what the launcher
 * wrote is read back, the C body runs on the copies and the results are
 * compared (verify_cmp.c).  Differences go to stderr; the profile and an
 * exit summary count the checked calls. */
#include "rt.h"

#include <cuda_runtime_api.h>
#include <gpufuse/launch.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Differing calls reported in full; later ones are only counted. */
#define MAX_REPORTS 20

typedef struct varg {
    gf_argdesc d;
    gf_varray cmp;
    long long *dims;
    char *got;                   /* what the launcher wrote (read back) */
} varg;

struct gf_entry {
    gf_site *site;
    int check;                   /* verify mode (else only timed) */
    int heap;                    /* allocated (verify mode), else the thread's */
    double t0, t1;               /* the launcher's wall time */
    int nargs;
    varg *a;
    int *group, *idx;
    gf_span *spans;
    char **copy;                 /* one host copy per span of overlapping arguments */
    int nspans;
    int copied;                  /* the copies exist: the C body may run */
    int ok;                      /* ... and the results can be compared */
    int path;                    /* the path the launcher took */
    int differ;
    char ret_msg[512];
};

static struct {
    pthread_once_t once;
    int mode;                    /* 0 off, 1 report, 2 report and abort */
    gf_vtol tol;
    pthread_mutex_t mu;
    unsigned long long checked, differed, unchecked;
    int reports;
} g = {PTHREAD_ONCE_INIT, 0, {{{0}}, 0}, PTHREAD_MUTEX_INITIALIZER, 0, 0, 0, 0};

_Thread_local int gf_tl_entry_timing;
static _Thread_local gf_entry tl_timed; /* a timed call: launchers are not re-entrant */

static void summary_at_exit(void)
{
    pthread_mutex_lock(&g.mu);
    if (g.differed)
        fprintf(stderr, "gpufuse: verify: %llu call%s checked against the C body, %llu differed\n", g.checked,
                g.checked == 1 ? "" : "s", g.differed);
    else
        fprintf(stderr, "gpufuse: verify: %llu call%s checked against the C body, all agree\n", g.checked,
                g.checked == 1 ? "" : "s");
    if (g.unchecked)
        fprintf(stderr, "gpufuse: verify: %llu call%s could not be checked (see above)\n", g.unchecked,
                g.unchecked == 1 ? "" : "s");
    pthread_mutex_unlock(&g.mu);
}

static void init_once(void)
{
    const char *v = getenv("GPUFUSE_VERIFY");
    if (!v || !*v || !strcmp(v, "0"))
        return;
    if (!strcmp(v, "1"))
        g.mode = 1;
    else if (!strcmp(v, "abort"))
        g.mode = 2;
    else {
        gf_report(GF_ERROR_INVALID_VALUE, "GPUFUSE_VERIFY=%s: expected 0, 1 or abort", v);
        return;
    }
    if (gf_vtol_from_env(&g.tol) != 0) {
        g.mode = 0;
        gf_report(GF_ERROR_INVALID_VALUE, "%s", gf_last_error());
        return;
    }
    atexit(summary_at_exit);
}

static void vfree(gf_entry *v)
{
    if (!v || !v->heap)
        return;
    for (int i = 0; i < v->nargs; i++) {
        free(v->a[i].dims);
        free(v->a[i].got);
    }
    for (int s = 0; s < v->nspans; s++)
        free(v->copy[s]);
    free(v->a), free(v->group), free(v->idx), free(v->spans), free(v->copy);
    free(v);
}

static void count_unchecked(void)
{
    pthread_mutex_lock(&g.mu);
    g.unchecked++;
    pthread_mutex_unlock(&g.mu);
}

/* A call that is only timed (profiling without verify mode, or verify mode
 * out of host memory). */
static gf_entry *timed(gf_site *site)
{
    gf_entry *v = &tl_timed;
    *v = (gf_entry){.site = site, .path = -1};
    return v;
}

gf_entry *gf_entry_begin(gf_site *site, int nargs)
{
    pthread_once(&g.once, init_once);
    gf_runtime_get(); /* reads GPUFUSE_PROFILE */
    if (!g.mode)
        return gf_profiling ? timed(site) : NULL;
    gf_entry *v = calloc(1, sizeof *v);
    size_t n = nargs > 0 ? (size_t)nargs : 1;
    if (v) {
        v->heap = 1;
        v->a = calloc(n, sizeof *v->a), v->group = calloc(n, sizeof(int)), v->idx = calloc(n, sizeof(int));
        v->spans = calloc(n, sizeof *v->spans), v->copy = calloc(n, sizeof(char *));
    }
    if (!v || !v->a || !v->group || !v->idx || !v->spans || !v->copy) {
        vfree(v);
        fprintf(stderr, "gpufuse: verify: %s (%s:%d): out of host memory: call not checked\n", site->function,
                site->file, site->line);
        count_unchecked();
        return timed(site);
    }
    v->site = site;
    v->check = 1;
    v->nargs = nargs > 0 ? nargs : 0;
    v->path = -1;
    return v;
}

void gf_entry_arg(gf_entry *v, int idx, const char *name, const void *p, ptrdiff_t lo, ptrdiff_t hi, int mode,
                   size_t elem_size, const gf_vfield *fields, int nfields, int tol, int ndims,
                   const long long *dims)
{
    if (!v || !v->check || idx < 0 || idx >= v->nargs)
        return;
    varg *a = &v->a[idx];
    if (hi < lo)
        hi = lo;
    a->d = (gf_argdesc){p, lo, hi, mode, 0};
    if (ndims > 0 && (a->dims = malloc((size_t)ndims * sizeof *a->dims)))
        memcpy(a->dims, dims, (size_t)ndims * sizeof *a->dims);
    a->cmp = (gf_varray){name, elem_size, (size_t)(hi - lo), fields, nfields, tol, a->dims ? ndims : 0, a->dims,
                         elem_size ? (long long)(lo / (ptrdiff_t)elem_size) : 0};
}

/* Copies n bytes at src, wherever they live, into host memory at dst,
 * after the work queued on the thread's stream. */
static gf_status read_range(void *dst, const char *src, size_t n)
{
    if (!n)
        return GF_SUCCESS;
    if (gf_runtime_get()->cpu) {
        memcpy(dst, src, n);
        return GF_SUCCESS;
    }
    cudaStream_t s = (cudaStream_t)gf_current_cuda_stream();
    int partial;
    const void *mirror = gf_data_lookup(src, n, &partial);
    if (mirror || gf_host_kind(src) == GF_MEM_DEVICE) {
        gf_status st = GF_CUDA(cudaMemcpyAsync(dst, mirror ? mirror : src, n, cudaMemcpyDefault, s));
        return st != GF_SUCCESS ? st : GF_CUDA(cudaStreamSynchronize(s));
    }
    gf_status st = GF_CUDA(cudaStreamSynchronize(s));
    memcpy(dst, src, n);
    return st;
}

/* The call cannot be compared (reported, counted once). */
static void not_checked(gf_entry *v, const char *why)
{
    fprintf(stderr, "gpufuse: verify: %s (%s:%d): call not checked: %s\n", v->site->function, v->site->file,
            v->site->line, why);
    if (v->ok || !v->copied)
        count_unchecked();
    v->ok = 0;
}

/* The copies the C body runs on; they stay (and the C body runs on them)
 * even when the comparison later becomes impossible. */
static int take_copies(gf_entry *v)
{
    int m = 0;
    for (int i = 0; i < v->nargs; i++)
        if (v->a[i].d.p && v->a[i].d.hi > v->a[i].d.lo)
            v->idx[m++] = i;
    gf_argdesc *d = malloc((size_t)(v->nargs ? v->nargs : 1) * sizeof *d);
    if (!d) {
        not_checked(v, "out of host memory");
        return 0;
    }
    for (int i = 0; i < v->nargs; i++)
        d[i] = v->a[i].d;
    v->nspans = gf_args_group(d, v->idx, m, v->group, v->spans);
    free(d);
    for (int s = 0; s < v->nspans; s++) {
        size_t n = (size_t)(v->spans[s].hi - v->spans[s].lo);
        if (!(v->copy[s] = malloc(n ? n : 1))) {
            not_checked(v, "out of host memory for the copies");
            return 0;
        }
        if (read_range(v->copy[s], v->spans[s].lo, n) != GF_SUCCESS) {
            not_checked(v, gf_last_error());
            return 0;
        }
    }
    v->copied = v->ok = 1;
    return 1;
}

int gf_entry_snapshot(gf_entry *v)
{
    if (!v)
        return 0;
    if (v->check && !take_copies(v))
        v->check = 0;
    /* the launcher's own gf_call_end leaves the wall time to the entry point */
    gf_tl_entry_timing = gf_profiling;
    v->t0 = gf_now_ms();
    return v->check;
}

void *gf_entry_copy(gf_entry *v, int idx)
{
    if (!v || idx < 0 || idx >= v->nargs)
        return NULL;
    varg *a = &v->a[idx];
    for (int k = 0; k < v->nspans && v->copied; k++) {
        if (v->idx[k] != idx)
            continue;
        gf_span *sp = &v->spans[v->group[k]];
        /* the address of p itself in the copy, even if only [p+lo, p+hi) was copied */
        return v->copy[v->group[k]] + (a->d.p - sp->lo);
    }
    return (void *)a->d.p;
}

void gf_entry_ran(gf_entry *v)
{
    if (!v)
        return;
    v->t1 = gf_now_ms();
    gf_tl_entry_timing = 0;
    if (!v->check)
        return;
    v->path = gf_call_last_path();
    if (v->path == GF_PATH_FAILED) { /* reported by the launcher: it wrote nothing */
        not_checked(v, "the launcher could not run");
        return;
    }
    for (int i = 0; i < v->nargs && v->ok; i++) {
        varg *a = &v->a[i];
        size_t n = (size_t)(a->d.hi - a->d.lo);
        if (!(a->d.mode & GF_ARG_WRITE) || !n)
            continue;
        if (!(a->got = malloc(n)))
            not_checked(v, "out of host memory for the results");
        else if (read_range(a->got, a->d.p + a->d.lo, n) != GF_SUCCESS)
            not_checked(v, gf_last_error());
    }
}

void gf_entry_return(gf_entry *v, int kind, size_t size, int tol, const void *got, const void *ref)
{
    if (!v || !v->check || !v->ok || gf_vclose(kind, size, got, ref, &g.tol, tol))
        return;
    gf_vdescribe_return(v->ret_msg, sizeof v->ret_msg, kind, size, got, ref, &g.tol, tol);
    v->differ++;
}

static const char *path_name(int path)
{
    switch (path) {
    case GF_PATH_DEVICE: return "launcher on the GPU";
    case GF_PATH_HOST: return "launcher on the CPU: the fused plan";
    case GF_PATH_SEQUENTIAL: return "launcher on the CPU: the C body (arguments overlap, or too little work for the GPU)";
    default: return "launcher";
    }
}

/* Prints one line per differing array and one for the return value; only
 * the first MAX_REPORTS differing calls of the process are printed. */
static void report(gf_entry *v, char (*msgs)[768], int nmsg)
{
    pthread_mutex_lock(&g.mu);
    int n = g.reports < MAX_REPORTS ? ++g.reports : MAX_REPORTS + 1;
    pthread_mutex_unlock(&g.mu);
    if (n > MAX_REPORTS)
        return;
    gf_site *s = v->site;
    for (int i = 0; i < nmsg; i++)
        fprintf(stderr, "gpufuse: verify: %s (%s:%d, %s): %s\n", s->function, s->file, s->line, path_name(v->path),
                msgs[i]);
    if (v->ret_msg[0])
        fprintf(stderr, "gpufuse: verify: %s (%s:%d, %s): %s\n", s->function, s->file, s->line, path_name(v->path),
                v->ret_msg);
    if (n == MAX_REPORTS)
        fprintf(stderr, "gpufuse: verify: %d calls differed: later differences are counted, not printed\n",
                MAX_REPORTS);
    fflush(stderr);
}

void gf_entry_end(gf_entry *v)
{
    gf_entry_views_free();   /* the extents' passes' copies (gf_call_host_view) */
    if (!v)
        return;
    if (!v->t1)
        v->t1 = gf_now_ms();
    gf_tl_entry_timing = 0;
    if (gf_profiling)
        gf_profile_wall(v->site, v->t1 - v->t0);
    int checked = v->check && v->ok;
    char(*msgs)[768] = checked ? calloc((size_t)(v->nargs ? v->nargs : 1), sizeof *msgs) : NULL;
    int nmsg = 0;
    for (int i = 0; i < v->nargs && checked && msgs; i++) {
        varg *a = &v->a[i];
        if (!a->got)
            continue;
        const char *ref = gf_entry_copy(v, i);
        ref += a->d.lo;
        gf_vdiff d;
        if (gf_vcompare(a->got, ref, a->cmp.bytes, a->cmp.elem, a->cmp.fields, a->cmp.nfields, &g.tol, a->cmp.tol,
                        &d))
            gf_vdescribe(msgs[nmsg++], sizeof msgs[0], &a->cmp, a->got, ref, &d, &g.tol);
    }
    v->differ += nmsg;
    if (checked && v->differ)
        report(v, msgs, nmsg);
    free(msgs);
    if (checked) {
        pthread_mutex_lock(&g.mu);
        g.checked++;
        g.differed += v->differ != 0;
        pthread_mutex_unlock(&g.mu);
        if (gf_profiling)
            gf_profile_verified(v->site, v->differ != 0);
    }
    int fatal = checked && v->differ && g.mode == 2;
    vfree(v);
    if (fatal) {
        fprintf(stderr, "gpufuse: verify: GPUFUSE_VERIFY=abort: stopping at the first difference\n");
        abort();
    }
}
