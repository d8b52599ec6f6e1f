/* rt.h - libgpufuse's internal header: every type and function shared
 * between the runtime's files, grouped by the file that implements it.
 * Everything here is hidden (GF_HIDDEN); only gpufuse.h/launch.h export. */
#ifndef GPUFUSE_RT_H
#define GPUFUSE_RT_H

#include <gpufuse.h>
#include <gpufuse/entry.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#define GF_HIDDEN __attribute__((visibility("hidden")))
#define GF_MAX_DEVICES 16

/* ---- error.c (no CUDA) ---------------------------------------------------- */

/* Records `s` and a printf-style detail as this thread's last error; returns s. */
GF_HIDDEN gf_status gf_fail(gf_status s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Records the error and reports it through the error handler (launchers). */
GF_HIDDEN void gf_report(gf_status s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The user function a launcher on this thread is in (NULL outside a call),
 * so that errors name it: "(in blend at blend.c:3)". */
struct gf_site;
GF_HIDDEN extern _Thread_local const struct gf_site *gf_tl_site;
/* Writes "(in FN at FILE:LINE)" naming the user's function when inside a call,
 * else the runtime's own function and line. */
GF_HIDDEN void gf_where(char *buf, size_t n, const char *func, const char *file, int line);
/* A failed library call `expr` (its source text: the name before the first
 * '(' is kept): "cublasGemmEx failed: <why> (in f at f.c:3)", status s. */
GF_HIDDEN gf_status gf_lib_fail(gf_status s, const char *expr, const char *why, const char *func, const char *file,
                                int line);
/* Parses a byte count with an optional K/M/G/T suffix (powers of 1024).
 * Returns 0 on success, -1 on a malformed string. */
GF_HIDDEN int gf_parse_size(const char *s, size_t *out);
/* A switch's environment value: on unless "0", "off", "no" or "false" (any
 * case); unset (NULL) is on. */
GF_HIDDEN int gf_env_on(const char *v);
/* CLOCK_MONOTONIC in milliseconds: the profile's phases, CPU-mode events
 * (stream.c), verify mode's timings. */
GF_HIDDEN double gf_now_ms(void);

/* ---- cudacheck.c ------------------------------------------------------------ */

/* The one checking macro for CUDA calls: on failure records
 * "cudaXxx failed: <message> (in <function> at <file>:<line>)" and yields
 * GF_ERROR_CUDA (GF_ERROR_OUT_OF_MEMORY for cudaErrorMemoryAllocation). */
#define GF_CUDA(call) gf_cuda_check((int)(call), #call, __func__, __FILE__, __LINE__)
GF_HIDDEN gf_status gf_cuda_check(int err, const char *expr, const char *func,
                                  const char *file, int line);

/* ---- pool.c (backend-agnostic caching allocator, no CUDA) ------------------ */

/* What the pool needs from the memory it caches.  `ctx` is passed back.  The
 * CUDA backend is pool_cuda.c (device) and hostpool.c (pinned); tests use a
 * mock.  Events may be NULL when the pool never sees a second stream. */
typedef struct gf_pool_backend {
    void *ctx;
    gf_status (*alloc)(void *ctx, void **ptr, size_t bytes); /* OOM: GF_ERROR_OUT_OF_MEMORY */
    void (*free)(void *ctx, void *ptr, size_t bytes);
    gf_status (*event_create)(void *ctx, void **ev);
    gf_status (*event_record)(void *ctx, void *ev, void *stream);
    int (*event_query)(void *ctx, void *ev);                 /* 1 done, 0 pending */
    void (*event_destroy)(void *ctx, void *ev);
    void (*synchronize)(void *ctx);                          /* wait for all work */
} gf_pool_backend;

typedef struct gf_pool_config {
    size_t round;            /* allocation granularity (512) */
    size_t small_max;        /* requests up to this come from the small pool (1 MiB) */
    size_t small_segment;    /* segment size of the small pool (2 MiB) */
    size_t large_round;      /* large segments are rounded to this (2 MiB) */
    size_t limit;            /* reserved bytes may not exceed this (0 = none) */
    int bypass;              /* 1: every alloc/free goes straight to the backend */
} gf_pool_config;

typedef struct gf_pool gf_pool;
GF_HIDDEN void gf_pool_default_config(gf_pool_config *cfg);
GF_HIDDEN gf_pool *gf_pool_create(const gf_pool_backend *be, const gf_pool_config *cfg);
/* Waits for pending events and returns every segment to the backend. */
GF_HIDDEN void gf_pool_destroy(gf_pool *p);
/* A block of at least `bytes` owned by `stream` (an opaque handle). */
GF_HIDDEN gf_status gf_pool_alloc(gf_pool *p, void **ptr, size_t bytes, void *stream);
GF_HIDDEN gf_status gf_pool_free(gf_pool *p, void *ptr);
/* Notes that the block at `ptr` is used on `stream` too: its free then waits
 * for events recorded on those streams before the block is reused. */
GF_HIDDEN gf_status gf_pool_record_stream(gf_pool *p, void *ptr, void *stream);
/* 1 when `addr` lies inside memory this pool obtained from its backend. */
GF_HIDDEN int gf_pool_contains(gf_pool *p, const void *addr);
/* gf_pool_contains, and when addr lies in a live block owned by another
 * stream, gf_pool_record_stream of that block on `stream`. */
GF_HIDDEN int gf_pool_use(gf_pool *p, const void *addr, void *stream);
/* The live block holding `addr` (any byte of it): its start and size; 0
 * when addr is in no live block of this pool. */
GF_HIDDEN int gf_pool_block_at(gf_pool *p, const void *addr, const char **base, size_t *size);
/* Size of the allocated block at `ptr` (0 if `ptr` is not a live block). */
GF_HIDDEN size_t gf_pool_block_size(gf_pool *p, const void *ptr);
GF_HIDDEN void gf_pool_stats_read(gf_pool *p, gf_pool_stats *st);
/* Releases every wholly free segment (pending frees are waited for first). */
GF_HIDDEN void gf_pool_trim_cached(gf_pool *p);
/* The stream is going away (synchronised): its free blocks and live blocks
 * move to `to`, and blocks used on it (gf_pool_record_stream) forget it. */
GF_HIDDEN void gf_pool_retire_stream(gf_pool *p, void *stream, void *to);
/* The stream is going away: cuBLAS handles (blas.c) and cuFFT plans (fft.c)
 * bound to it are destroyed.  The caller has synchronised it. */
GF_HIDDEN void gf_blas_retire_stream(void *stream);
GF_HIDDEN void gf_fft_retire_stream(void *stream);
/* fft.c: CUDA source -> LTO-IR for sm_<arch> with NVRTC (dlopen), malloc'd; NULL with why. */
/* parts: GF_FFTCB_PART_LOAD | GF_FFTCB_PART_STORE, the callbacks the LTO-IR
 * defines (the source guards each with #ifdef GF_FFTCB_LOAD / _STORE) */
enum { GF_FFTCB_PART_LOAD = 1, GF_FFTCB_PART_STORE = 2 };
GF_HIDDEN char *gf_fft_cb_compile(const char *source, int arch, int parts, size_t *size, char *why, size_t nwhy);
/* Reads GPUFUSE_POOL / GPUFUSE_POOL_LIMIT into a config (bad values: fail). */
GF_HIDDEN gf_status gf_pool_config_from_env(gf_pool_config *cfg);

/* 1 when the pool hands every request straight to the backend (GPUFUSE_POOL=off). */
GF_HIDDEN int gf_pool_bypassed(gf_pool *p);

/* ---- scratch.c (a launcher call's device scratch, no CUDA) ----------------- */

/* The device memory one launcher call needs besides its arguments: pieces
 * declared before the call is mapped (gf_call_reserve) and obtained together,
 * so that running out of memory is found before any kernel runs.  From one
 * pool block carved at GF_SCRATCH_ALIGN, or, when the pool is bypassed (for
 * compute-sanitizer), one exactly sized block per piece so that an overrun of
 * one piece is not hidden inside the next. */
#define GF_SCRATCH_ALIGN 256
#define GF_SCRATCH_INLINE 16
typedef struct gf_scratch {
    size_t *size;            /* requested bytes per piece */
    void **ptr;              /* its device address once allocated, else NULL */
    int n, cap;
    int lost;                /* a piece could not be recorded (out of host memory) */
    void *block;             /* the carved block (NULL when none or bypassed) */
    size_t size_in[GF_SCRATCH_INLINE];
    void *ptr_in[GF_SCRATCH_INLINE];
} gf_scratch;

/* No pieces (keeps heap arrays for reuse).  A zeroed gf_scratch is valid. */
GF_HIDDEN void gf_scratch_reset(gf_scratch *s);
/* Frees the heap arrays (not the device memory: release it first). */
GF_HIDDEN void gf_scratch_fini(gf_scratch *s);
/* Declares the next piece.  Out of host memory: GF_ERROR_OUT_OF_MEMORY, and
 * gf_scratch_alloc will fail too, so no piece is ever silently missing. */
GF_HIDDEN gf_status gf_scratch_add(gf_scratch *s, size_t bytes);
/* Bytes of the carved block (each piece at least 1 byte, rounded up to
 * GF_SCRATCH_ALIGN); GF_ERROR_OUT_OF_MEMORY when that overflows. */
GF_HIDDEN gf_status gf_scratch_total(const gf_scratch *s, size_t *total);
/* All pieces or none: on failure nothing stays allocated and the status of
 * the pool (GF_ERROR_OUT_OF_MEMORY, GF_ERROR_LIMIT) is returned. */
GF_HIDDEN gf_status gf_scratch_alloc(gf_scratch *s, gf_pool *p, void *stream);
/* Stream-ordered free of whatever gf_scratch_alloc obtained. */
GF_HIDDEN void gf_scratch_release(gf_scratch *s, gf_pool *p);
/* Device address of piece k (NULL when not allocated or out of range). */
GF_HIDDEN void *gf_scratch_ptr(const gf_scratch *s, int k);

/* ---- region.c (data-region bookkeeping, no CUDA) -------------------------- */

typedef struct gf_region {
    char *host;
    size_t bytes;
    char *dev;               /* device mirror of [host, host+bytes) */
    int refs;
    int flags;               /* GF_COPYIN|GF_COPYOUT|GF_CREATE, or'ed over entries */
} gf_region;

/* How regions get device memory and move data; the real one is data.c. */
typedef struct gf_region_ops {
    void *ctx;
    gf_status (*alloc)(void *ctx, void **dev, size_t bytes);
    void (*free)(void *ctx, void *dev);
    gf_status (*to_device)(void *ctx, void *dev, const void *host, size_t bytes);
    gf_status (*to_host)(void *ctx, void *host, const void *dev, size_t bytes);
} gf_region_ops;

typedef struct gf_region_table {
    gf_region *v;            /* sorted by host, never overlapping */
    int n, cap;
} gf_region_table;

/* The region containing [p, p+bytes) (bytes may be 0: contains p).  *partial
 * is set when no region contains it but one overlaps it. */
GF_HIDDEN gf_region *gf_regions_find(const gf_region_table *t, const void *p,
                                     size_t bytes, int *partial);
GF_HIDDEN gf_status gf_regions_enter(gf_region_table *t, const gf_region_ops *ops,
                                     void *p, size_t bytes, int flags);
GF_HIDDEN gf_status gf_regions_exit(gf_region_table *t, const gf_region_ops *ops, void *p);
GF_HIDDEN gf_status gf_regions_update(gf_region_table *t, const gf_region_ops *ops,
                                      void *p, size_t bytes, int to_device);
/* Drops every region without copying (shutdown, tests). */
GF_HIDDEN void gf_regions_clear(gf_region_table *t, const gf_region_ops *ops);

/* ---- args.c (launcher argument analysis, no CUDA) ------------------------- */

typedef struct gf_argdesc {
    const char *p;
    ptrdiff_t lo, hi;
    int mode;                /* GF_ARG_READ | GF_ARG_WRITE */
    int alias;
} gf_argdesc;

/* A run of host bytes staged as one device buffer. */
typedef struct gf_span {
    const char *lo, *hi;     /* union of the members' touched ranges */
    const char *wlo, *whi;   /* union hull of the written members (wlo==whi: none) */
    int read;                /* some member reads: copy in */
} gf_span;

/* 1 when the declared arguments overlap in a way launch.h calls a hazard. */
GF_HIDDEN int gf_args_hazard(const gf_argdesc *a, int n);
/* Groups the arguments listed in idx[0..m) whose touched ranges overlap;
 * group[k] is the span index of idx[k].  Returns the number of spans. */
GF_HIDDEN int gf_args_group(const gf_argdesc *a, const int *idx, int m, int *group,
                            gf_span *spans);
/* The bytes a call's copies move for these spans: each read span copied in
 * whole, each written span's hull copied back (stage_in, gf_call_end).
 * Overlapping arguments are one span: counted once. */
GF_HIDDEN size_t gf_args_copy_bytes(const gf_span *spans, int ns);

/* ---- verify_cmp.c (verify mode's comparison and messages, no CUDA) ------- */

#define GF_VERIFY_MAXDIMS 16     /* deeper arrays print a flat index */

/* Relative tolerances [GF_VTOL_ELEMENT or GF_VTOL_REDUCED][float, double]
 * and an ulp distance; a floating-point pair agrees within either. */
typedef struct gf_vtol {
    double rtol[2][2];
    long long ulp;
} gf_vtol;
GF_HIDDEN void gf_vtol_default(gf_vtol *t);
/* The defaults, overridden by GPUFUSE_VERIFY_RTOL / GPUFUSE_VERIFY_ULP;
 * -1 (gf_last_error says why) on a malformed value. */
GF_HIDDEN int gf_vtol_from_env(gf_vtol *t);
/* 1 when two scalars of a gf_vkind agree: NaN only with NaN, infinities
 * exactly, else within t->ulp ulps or |got - ref| <= rtol * max(|got|,
 * |ref|, 1); integers and bytes exactly, booleans as truth values. */
GF_HIDDEN int gf_vclose(int kind, size_t size, const void *got, const void *ref, const gf_vtol *t, int cls);
/* A scalar as text ("%.9g" floats, "%.17g" doubles, integers, else hex). */
GF_HIDDEN void gf_vvalue(char *buf, size_t n, int kind, size_t size, const void *p);
/* Flat element index `flat` as [i][j][k] over the inner dimension sizes. */
GF_HIDDEN void gf_vindex(char *buf, size_t n, long long flat, int ndims, const long long *dims);

/* An array argument as compared: `bytes` from element `first` on. */
typedef struct gf_varray {
    const char *name;
    size_t elem, bytes;
    const gf_vfield *fields;
    int nfields, tol, ndims;
    const long long *dims;
    long long first;
} gf_varray;
typedef struct gf_vdiff {
    long long count;             /* differing elements */
    long long elem;              /* the first, from the start of the range (-1: none) */
    int field;                   /* which of its scalars */
} gf_vdiff;
/* Compares `bytes` of elements (fields nf; 0: whole elements as bytes);
 * returns the number of differing elements. */
GF_HIDDEN long long gf_vcompare(const char *got, const char *ref, size_t bytes, size_t elem, const gf_vfield *f,
                                int nf, const gf_vtol *t, int cls, gf_vdiff *d);
/* "'y' differs from the C body in 1 of 64 elements; first at y[3][5]: 11.5
 * (launcher), 10.75 (C body); tolerance ..." */
GF_HIDDEN void gf_vdescribe(char *buf, size_t n, const gf_varray *a, const char *got, const char *ref,
                            const gf_vdiff *d, const gf_vtol *t);
GF_HIDDEN void gf_vdescribe_return(char *buf, size_t n, int kind, size_t size, const void *got, const void *ref,
                                   const gf_vtol *t, int cls);

/* ---- imports.c (extents of memory from other frameworks, no CUDA) ------- */

/* Memory gf_from_dlpack took: [lo, lo + bytes) of a kind, owned by a tensor. */
enum { GF_IMPORT_DEVICE = 1, GF_IMPORT_MANAGED, GF_IMPORT_PINNED, GF_IMPORT_HOST };
typedef struct gf_import {
    const char *lo;
    size_t bytes;
    int kind;                /* GF_IMPORT_* */
    int device;              /* CUDA device of GF_IMPORT_DEVICE, else -1 */
    const void *owner;       /* the DLManagedTensor */
} gf_import;
/* Fails (GF_ERROR_INVALID_VALUE) when the owner is already registered. */
GF_HIDDEN gf_status gf_imports_add(const gf_import *im);
/* Drops the owner's entry into *out (may be NULL); 0 when it had none. */
GF_HIDDEN int gf_imports_remove(const void *owner, gf_import *out);
/* 1 (*out set) when an import holds all of [p, p + bytes); -1 (*out: one
 * that overlaps) when imports overlap the range but none holds it all; 0
 * when none overlaps it (always for bytes == 0). */
GF_HIDDEN int gf_imports_find(const void *p, size_t bytes, gf_import *out);
GF_HIDDEN int gf_imports_count(void);

/* ---- graph_plan.c (CUDA graphs of repeated launcher calls, no CUDA) ------ */

/* What a call with graphs does (gf_gtab_begin); also the outcome of a
 * finished call (gf_gtab_end): DIRECT = plain launches, CAPTURE = a graph
 * was built from this call's launches and launched, REPLAY = the graph
 * captured before was launched (its kernels' parameters updated in place). */
enum { GF_GRAPH_DIRECT = 0, GF_GRAPH_CAPTURE = 1, GF_GRAPH_REPLAY = 2 };
/* Identical-key calls of a site before the next one is captured. */
#define GF_GRAPH_AFTER 2
/* A site whose graph failed this often is not captured again. */
#define GF_GRAPH_MAX_FAILURES 3
#define GF_GRAPH_SITES 64

/* One kernel launch: the function, its geometry, and its parameters copied
 * (ptrs[i] points at parameter i inside args: CUDA's kernelParams). */
typedef struct gf_gnode {
    const void *func;
    const char *name;            /* for error messages */
    unsigned grid[3], block[3];
    size_t shmem;
    int nparams;
    size_t *size;                /* nparams sizes */
    void **ptrs;                 /* nparams pointers into args */
    unsigned char *args;
    size_t bytes;                /* capacity of the one block that holds them all */
    void *mem;
    void *handle;                /* the backend's node */
} gf_gnode;

/* A launch as the generated code hands it over (parameters not yet copied). */
typedef struct gf_glaunch {
    const void *func;
    const char *name;
    unsigned grid[3], block[3];
    size_t shmem;
    int nparams;
    void *const *params;
    const size_t *size;
} gf_glaunch;

/* How graphs are built and run; the real one is graph.c (CUDA), tests use a
 * mock.  Nonzero returns are failures. */
typedef struct gf_graph_backend {
    void *ctx;
    int (*build)(void *ctx, gf_gnode *nodes, int n, void **exec);  /* a chain of the nodes */
    int (*update)(void *ctx, void *exec, gf_gnode *node);          /* its parameters changed */
    int (*launch)(void *ctx, void *exec, void *stream);
    void (*run)(void *ctx, const gf_gnode *node, void *stream);   /* one kernel now; reports failure */
    void (*destroy)(void *ctx, void *exec);
} gf_graph_backend;

typedef struct gf_gentry {
    const void *site;
    uint64_t key;                /* the key of the last call */
    int seen;                    /* consecutive calls with that key */
    void *exec;                  /* the captured graph, for exec_key */
    uint64_t exec_key;
    gf_gnode *nodes;
    int n, cap;
    int failures;
} gf_gentry;

/* Per thread: the graphs of up to GF_GRAPH_SITES sites, and the call in progress. */
typedef struct gf_gtable {
    const gf_graph_backend *be;
    int after;                   /* GF_GRAPH_AFTER, tests may change it */
    gf_gentry e[GF_GRAPH_SITES];
    int mode;                    /* the call in progress: GF_GRAPH_* */
    gf_gentry *cur;
    int next;                    /* REPLAY: the node the next launch must match */
    void *stream;
    gf_gnode tmp;                /* a launch that did not match, run directly */
} gf_gtable;

GF_HIDDEN void gf_gtab_init(gf_gtable *t, const gf_graph_backend *be);
/* Starts a call of `site` whose shapes hash to `key`; returns the mode. */
GF_HIDDEN int gf_gtab_begin(gf_gtable *t, const void *site, uint64_t key, void *stream);
/* A launch of the call in progress (mode CAPTURE or REPLAY): recorded, or
 * matched against the captured node; a launch that does not match makes
 * the call run directly from here on (what was recorded runs first). */
GF_HIDDEN void gf_gtab_kernel(gf_gtable *t, const gf_glaunch *l);
/* Ends the call: builds and launches, or replays; falls back to running the
 * recorded launches directly when the graph cannot.  Returns the outcome. */
GF_HIDDEN int gf_gtab_end(gf_gtable *t);
/* Drops every graph and node (thread exit, tests). */
GF_HIDDEN void gf_gtab_clear(gf_gtable *t);
/* Mixes v into a running 64-bit hash. */
GF_HIDDEN uint64_t gf_gmix(uint64_t h, uint64_t v);

/* ---- graph.c ------------------------------------------------------------- */

struct gf_call;
/* Ends the graph of the call in progress (gf_call_end, gf_call_cancel):
 * launches it, or runs what was recorded; returns the outcome, GF_GRAPH_*. */
GF_HIDDEN int gf_graph_finish(struct gf_call *c);
/* call.c: the call's site, and *key mixed with the site, the device and the
 * extents of the arguments (-1 when the call is not on the device path). */
GF_HIDDEN const void *gf_call_site(struct gf_call *c);
GF_HIDDEN int gf_call_graph_key(struct gf_call *c, unsigned long long *key);

/* ---- device.c ---------------------------------------------------------------- */

typedef struct gf_runtime {
    int cpu;                 /* 1: no GPU or GPUFUSE_DEVICE=cpu */
    int cpu_chosen;          /* ... because GPUFUSE_DEVICE=cpu (no notice) */
    gf_status config_error;  /* GPUFUSE_DEVICE cannot be honoured: nothing runs */
    int quiet;               /* GPUFUSE_QUIET: no notice */
    int ndev;
    int default_device;
    int profile_env;         /* GPUFUSE_PROFILE set */
    gf_device_props props[GF_MAX_DEVICES]; /* name, total_memory, peak: gf_device_props_named */
} gf_runtime;

GF_HIDDEN extern gf_runtime gf_rt;
/* Lazily initialises (pthread_once); returns &gf_rt. */
GF_HIDDEN const gf_runtime *gf_runtime_get(void);
/* props[device] with its name, memory size and peak bandwidth (slow
 * queries: made at the first question, not at the first call). */
GF_HIDDEN const gf_device_props *gf_device_props_named(int device);
/* Why the runtime runs on the CPU ("" when it does not). */
GF_HIDDEN const char *gf_cpu_reason(void);
/* Called where work falls back to the CPU because there is no GPU: prints
 * the one-time notice (unless GPUFUSE_DEVICE=cpu or GPUFUSE_QUIET); returns
 * the configuration error when GPUFUSE_DEVICE cannot be honoured (the
 * caller must then not run anything), else GF_SUCCESS. */
GF_HIDDEN gf_status gf_cpu_fallback(void);
/* The calling thread's device (cached; gf_device_select changes it). */
GF_HIDDEN int gf_current_device(void);

/* ---- pool_cuda.c / hostpool.c -------------------------------------------- */

GF_HIDDEN gf_pool *gf_device_pool(int device);   /* NULL in CPU mode */
GF_HIDDEN gf_pool *gf_device_pool_if_any(int device);
GF_HIDDEN gf_pool *gf_pinned_pool(void);
GF_HIDDEN gf_pool *gf_pinned_pool_if_any(void); /* NULL until gf_pinned_pool made it */
/* 1 when addr is in device memory from a gf pool on any device. */
GF_HIDDEN int gf_pool_owns_device_ptr(const void *addr);
/* gf_malloc's pool in CPU mode (host memory; NULL in GPU mode or when it
 * cannot be created). */
GF_HIDDEN gf_pool *gf_cpu_pool(void);

/* ---- stream.c -------------------------------------------------------------- */

/* The CUDA stream of the thread's current gf_stream (0: default stream). */
GF_HIDDEN void *gf_current_cuda_stream(void);

/* ---- threadpool.c ---------------------------------------------------------- */

/* gf_host_team's function (declared for generated code in gpufuse/launch.h,
 * which needs CUDA's headers; this part of the runtime builds without them). */
#ifndef GF_TEAM_FN_DEFINED
#define GF_TEAM_FN_DEFINED
typedef int (*gf_team_fn)(void (*part)(void *ctx, int i, int n), void *ctx);
#endif
void gf_host_team(gf_team_fn fn, int on);

/* memcpy split over the staging threads (GPUFUSE_STAGING_THREADS), or over
 * the program's OpenMP team when one is registered (gf_host_team). */
GF_HIDDEN void gf_parallel_memcpy(void *dst, const void *src, size_t n);
/* Where a thread's staged copies spent their time (GPUFUSE_PROFILE=calls:
 * gf_call_begin clears it, the call's profile line prints it): waiting for
 * the staging ring (made by the warm-up), the CPU's part (pageable<->pinned
 * copies, and faulting in fresh output pages before the copies back),
 * waiting for the DMA of a ring buffer, the driver's own pageable path; and
 * how many of the CPU's jobs (gf_parallel_memcpy, gf_parallel_pages) ran on
 * the program's OpenMP team, on the helper threads, on the calling thread
 * alone. */
typedef struct gf_stage_stats {
    double ring_ms, cpu_ms, dma_ms, driver_ms;
    int on_team, on_helpers, alone;
} gf_stage_stats;
GF_HIDDEN extern _Thread_local gf_stage_stats gf_tl_stage;
/* fn on parts of [p, p+n) (each a multiple of `unit` bytes from p) split
 * over the same threads: transfer.c populates fresh output pages with it. */
GF_HIDDEN void gf_parallel_pages(void *p, size_t n, size_t unit, void (*fn)(void *p, size_t n));
/* Starts the staging threads now (the warm-up; otherwise the first big
 * job that needs them does); once per process; not while a registered team
 * takes the jobs. */
GF_HIDDEN void gf_threadpool_start(void);
/* A team region that ends more than `ns` after the calling thread's part
 * (2 ms by default) makes the team lag: the jobs of the next 0.5 s are
 * copied by the calling thread alone.  Setting it ends a lag (the tests);
 * gf_team_lags: how many regions lagged so far. */
GF_HIDDEN void gf_team_late_limit(long long ns);
GF_HIDDEN int gf_team_lags(void);

/* ---- lazy.c ------------------------------------------------------------------ */

/* A resource made once by the first thread that needs it, used under its
 * lock (lazy.c).  Initialise with GF_LAZY_INIT. */
enum { GF_LAZY_NONE, GF_LAZY_READY, GF_LAZY_FAILED };
typedef struct gf_lazy {
    pthread_mutex_t mu;
    int state; /* GF_LAZY_*, changed under mu */
} gf_lazy;
#define GF_LAZY_INIT {PTHREAD_MUTEX_INITIALIZER, GF_LAZY_NONE}
/* Locks l; makes the resource (make(ctx) != 0: made) if nobody tried yet.
 * Returns 1 with l locked when the resource is ready, 0 (unlocked) when its
 * making failed, now or before. */
GF_HIDDEN int gf_lazy_acquire(gf_lazy *l, int (*make)(void *ctx), void *ctx);
GF_HIDDEN void gf_lazy_release(gf_lazy *l);
/* gf_lazy_acquire and release: makes it now if nobody did; 1: it is ready. */
GF_HIDDEN int gf_lazy_prepare(gf_lazy *l, int (*make)(void *ctx), void *ctx);
GF_HIDDEN int gf_lazy_state(gf_lazy *l);

/* ---- transfer.c -------------------------------------------------------------- */

/* Host memory kinds as far as copies care. */
enum { GF_MEM_PAGEABLE = 0, GF_MEM_PINNED = 1, GF_MEM_DEVICE = 2 };
GF_HIDDEN int gf_host_kind(const void *p);
/* Copies between pageable host memory and the device through the pinned
 * staging ring, pipelined in chunks, ordered on `stream`.  h2d returns once
 * the last chunk is queued; d2h returns once the data is in `dst`. */
GF_HIDDEN gf_status gf_stage_h2d(void *dst, const void *src, size_t n, void *stream);
GF_HIDDEN gf_status gf_stage_d2h(void *dst, const void *src, size_t n, void *stream);
/* Registers (once) the exit hook that frees staging rings and returns cached
 * pool segments; call only after CUDA is initialised. */
GF_HIDDEN void gf_release_at_exit(void);
/* Allocates `device`'s staging ring now unless it exists or failed (the
 * warm-up, on its own thread; a copy that needs the ring meanwhile waits for
 * it).  The calling thread's current device must be `device`. */
GF_HIDDEN void gf_stage_prepare(int device);

/* ---- data.c ------------------------------------------------------------------ */

/* Device address for host [p, p+bytes) when it lies in a data region (NULL
 * otherwise); *partial is set when the range straddles a region's edge. */
GF_HIDDEN void *gf_data_lookup(const void *p, size_t bytes, int *partial);
/* A sequential fallback is about to write host [p, p+bytes) of a region:
 * its mirror is refreshed at the next region operation (gf_data_flush). */
GF_HIDDEN gf_status gf_data_defer_push(const void *p, size_t bytes);
GF_HIDDEN void gf_data_flush(void);

/* ---- profile.c ------------------------------------------------------------- */

GF_HIDDEN extern int gf_profiling;
GF_HIDDEN extern int gf_profile_calls; /* GPUFUSE_PROFILE=calls */
GF_HIDDEN void gf_profile_init_env(void);
/* Adds one call of `site` (allocating its slot on first use). */
/* One launcher call as gf_call_end saw it. */
typedef struct gf_call_stats {
    int path;                    /* gf_path */
    int timed;                   /* gpu_ms is the kernels' time (events) */
    double gpu_ms;
    double wall_ms;              /* < 0: the entry point records it (gf_profile_wall) */
    size_t bytes;                /* what the launcher reports it moved (GB/s) */
    size_t staged_in, staged_out; /* host bytes copied to and from the device */
    int graph;                   /* GF_GRAPH_*: how its kernels ran (graph.c) */
    /* GPUFUSE_PROFILE=calls, device path: wall ms of the call's phases */
    double map_ms;               /* gf_call_map: pointer queries, pool, staging in */
    double launch_ms;            /* the launcher's kernels and library calls queued
                                    (a library's first use and the warm-up it waits for) */
    double end_ms;               /* copies out queued, the stream synchronised */
    struct gf_stage_stats *stage; /* the staged copies' breakdown (transfer.c), or NULL */
} gf_call_stats;
/* Adds one call of `site` (allocating its slot on first use). */
GF_HIDDEN void gf_profile_add(struct gf_site *site, const gf_call_stats *st);
/* Frees the copies gf_call_host_view(NULL, ...) made for an entry point
 * (call.c; verify.c's gf_entry_end calls it). */
GF_HIDDEN void gf_entry_views_free(void);

/* The whole call's wall time, measured by its entry point (verify.c). */
GF_HIDDEN void gf_profile_wall(struct gf_site *site, double wall_ms);
/* Set by an entry point while its launcher runs: gf_call_end leaves the
 * wall time to it, since a host path's body runs after gf_call_end. */
GF_HIDDEN extern _Thread_local int gf_tl_entry_timing;
/* Counts one verified call of `site` (verify.c), and whether it differed. */
GF_HIDDEN void gf_profile_verified(struct gf_site *site, int differed);

/* ---- blas.c (also used by fft.c) --------------------------------------------- */

/* Runs each cuBLAS routine of `what` (GF_WARM_*) once at a small size on a
 * handle and stream of its own, on the calling thread's current device,
 * and returns when they have run (prewarm.c).  Touches no pool. */
GF_HIDDEN void gf_blas_warm(unsigned what);
/* GPUFUSE_BLAS (gf_blas_use): */
enum { GF_BLAS_OFF, GF_BLAS_ON, GF_BLAS_AUTO };
GF_HIDDEN int gf_blas_mode(void);
/* cuBLAS's first use in a process, in ns (handle and modules: 25-65 ms
 * measured on the H200, bench/libprobe): the price gf_blas_use rents against. */
#define GF_BLAS_FIRST_USE_NS 50e6

/* A pointer argument of a library call (gf_gemm, gf_fft_*): bytes touched
 * from p, and GF_ARG_READ/GF_ARG_WRITE. */
typedef struct gf_libarg {
    const void *p;
    size_t bytes;
    int mode;
} gf_libarg;
#define GF_LIB_MAXARGS 8
struct gf_call;
/* Starts a library call through the launcher machinery (call.c): rejects
 * an output overlapping another argument (GF_ERROR_INVALID_VALUE), then in
 * GPU mode maps the arguments (device pointers as they are, data-region
 * mirrors, host memory staged) into dev[] and sets *call.  In CPU mode it
 * sets *call to NULL and dev[] to the arguments themselves. */
/* The path the calling thread's last launcher call took (gf_path), -1 if none. */
GF_HIDDEN int gf_call_last_path(void);
/* Reports a failure inside a launcher's call, naming its function and line. */
struct gf_call;
GF_HIDDEN void gf_call_fail(struct gf_call *c, gf_status s, const char *what);
GF_HIDDEN gf_status gf_lib_begin(struct gf_site *site, const gf_libarg *a, int n,
                                 struct gf_call **call, void **dev);
/* Copies staged outputs back (waiting for them), releases staging. */
GF_HIDDEN void gf_lib_end(struct gf_call *call, size_t bytes);
/* IEEE binary16 and bfloat16 <-> float, round to nearest even. */
GF_HIDDEN float gf_half_to_float(uint16_t h);
GF_HIDDEN uint16_t gf_float_to_half(float x);
GF_HIDDEN float gf_bf16_to_float(uint16_t h);
GF_HIDDEN uint16_t gf_float_to_bf16(float x);

#endif /* GPUFUSE_RT_H */
