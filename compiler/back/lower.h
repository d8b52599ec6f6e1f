/* lower.h - the CUDA back end's lowering (lower.c): each kernel's shape and
 * every fact its printers need, decided once, before any text is printed.
 * emit_cuda.c only prints what a KernelLow says; it never writes into the plan. */
#ifndef GF_LOWER_H
#define GF_LOWER_H

#include "gfc.h"

/* The shapes of a kernel: one printer of the kernel and one of its launch
 * each (emit_cuda.c's table, indexed by the shape).  A new shape is a value
 * here, a rule in lower_kernel and two printers. */
#define GF_SHAPES(X)                                                                                      \
    X(SH_SERIAL, "serial", "one thread runs the statements in order")                                    \
    X(SH_FLAT, "flat", "1-D grid-stride map or map-reduce, with a 16-byte form when vec4")             \
    X(SH_GRID, "grid", "2-D/3-D map: x over the innermost loop, each block walks GF_ROWS outer indices") \
    X(SH_ROW, "row", "a row per warp or block; its inner loops shared by the group")                      \
    X(SH_TILED, "tiled", "2-D output tiles per block; the inner k loop in chunks, operands staged in shared memory")

typedef enum Shape {
#define GF_SHAPE_ENUM(e, name, what) e,
    GF_SHAPES(GF_SHAPE_ENUM)
#undef GF_SHAPE_ENUM
    SH_COUNT
} Shape;
extern const char *const shape_names[SH_COUNT];

/* How the launcher reaches the kernel. */
typedef enum LaunchVia {
    VIA_KERNEL,                  /* launched as it is */
    VIA_LIBRARY,                 /* library calls when cuBLAS takes the sizes, else the kernel (Kernel.lib) */
    VIA_FOLDED,                  /* run only when the library call it folds into did not take it (Kernel.folded_into) */
    VIA_ABSORBED                 /* a serial kernel the next kernel's threads run (KernelLow.absorbed): no launch */
} LaunchVia;

/* The launch geometry (the sizes themselves: templates/device.cuh). */
typedef enum Geom {
    GEOM_SINGLE,                 /* <<<1, 1>>> */
    GEOM_COVER,                  /* enough blocks of GF_THREADS to cover the elements (maps) */
    GEOM_RESIDENT,               /* as many blocks as stay resident (grid reductions: one partial per block) */
    GEOM_ROWS,                   /* a warp or a block per row (gf_row_geometry) */
    GEOM_TILES                   /* a GF_TILE x GF_TILE block per output tile (gf_tile_grid) */
} Geom;

/* What a kernel uses. */
typedef struct Uses {
    Vec arrays;                  /* Var* params and temporaries */
    Vec scalars;                 /* Var* free scalars: params, host locals, outer ivs */
    Vec declared;                /* Var* declared inside */
    Vec stored;                  /* Var* arrays the kernel stores to */
    Vec loaded;                  /* Var* arrays the kernel reads */
} Uses;

/* a[i + lo .. i + hi][col]: rows of one column a 2-D map reads around i; as
 * a thread walks consecutive i, each row value moves down one register and
 * only a[i + hi][col] is loaded (predictive commoning). */
typedef struct Rot {
    Var *v;
    Expr *col;                   /* the second subscript (does not use i) */
    long long lo, hi;
    int id;
} Rot;

/* softmax's `s += expf(x[i][j] - m)` and then `y[i][j] = expf(x[i][j] - m) / s`:
 * a value an inner loop of a row computes for every j and a later inner
 * loop computes again, kept in registers. */
typedef struct RowVal {
    int id;
    const Expr *def;             /* computed here, in `loop`, for every j */
    Stmt *loop;
    Vec uses;                    /* Expr*: the same value in later loops */
    Var *slot;                   /* a cached row whose registers hold the value in place (its
                                    elements are read nowhere after the definition), or NULL:
                                    registers of its own */
} RowVal;

/* An inner loop of a row kernel, shared by the row's group of threads. */
typedef struct RowLoop {
    Stmt *loop;
    Vec reds;                    /* Var*: row accumulators it reduces, the last update first */
    RedOp *ops;                  /* their operators */
    Vec vstores;                 /* Var*: stores gathered into 16-byte writes (4-wide form only) */
    Vec vloads;                  /* Expr*: reads of an uncached float array at [j] or [row][j] that every
                                    iteration makes, loaded 16 bytes at a time (4-wide form only) */
    bool sync_after;             /* a later statement of the row reads what it stored */
} RowLoop;

/* SH_TILED: an array read in the k loop at a subscript of k and of one tile
 * index only (row i or column j), staged per chunk of k in shared memory
 * gf_s<id>[tile index][k - chunk start]. */
typedef struct Staged {
    const Expr *e;               /* the access (every equal access reads the buffer) */
    int side;                    /* 0: indexed by the row index (i), 1: by the column index (j) */
    bool along_x;                /* its last subscript moves with the tile index: threadIdx.x walks it when loading */
    int id;
} Staged;

/* An array element a sequential loop updates, kept in a register over the
 * loop (lower.c: every other access of the array there touches another
 * element): gf_a<id>, loaded before the loop and stored after it. */
typedef struct RegAcc {
    Stmt *loop;
    const Expr *elem;
    int id;
} RegAcc;

/* An element a sequential loop stores at every step and reads back at the
 * next (lower.c): the read is gf_p<id>, the value the store left in
 * gf_w<id> at the step before; memory still gets every store. */
typedef struct Carried {
    Stmt *loop;
    const Stmt *write;           /* X[f(iv)] = v: the loop's one store to X, at every step */
    Vec reads;                   /* Expr*: its accesses of X[f(iv - step)] */
    int id;
} Carried;

/* An element a serial kernel absorbed into this one stores (lower_absorb):
 * every thread computes it into gf_q<id> at the start, the kernel's reads
 * of it read the register, and the last block to finish stores it. */
typedef struct Pro {
    const Expr *elem;
    int id;
} Pro;

typedef struct KernelLow {
    Kernel *k;
    Shape shape;
    LaunchVia via;
    Geom geom;
    Uses uses;
    bool red_atomic;             /* its grid reductions finish with atomics (--atomic-reductions) */
    /* A serial kernel of the same host loop body, launched just before, whose
     * statements this kernel's threads run at its start instead (lower_absorb;
     * SH_FLAT maps): its stores made by the last block (a ticket, as grid
     * reductions have), the elements in pro (Pro*).  The absorbed kernel's
     * via is VIA_ABSORBED. */
    Kernel *absorbed;
    Vec pro;
    Kernel *into;                /* VIA_ABSORBED: the kernel whose threads run this one */
    Vec align16;                 /* Var*: arrays whose 16-byte alignment the launch checks (4-wide forms) */
    /* SH_FLAT */
    Vec vec_loads;               /* Var*: arrays the float4 body loads (read, or stored only conditionally) */
    bool spread;                 /* a map whose sequential loops access across rows: blocks of fewer
                                    threads until they cover the SMs (gf_cover_threads) */
    /* SH_FLAT, SH_GRID */
    Vec reg_accs;                /* RegAcc*: elements in registers over sequential loops */
    Vec carried;                 /* Carried*: values handed from one step of a sequential loop to the next */
    /* SH_GRID */
    Stmt *grid[3];               /* the parallel loops in grid order: k->loops with the x loop (lower_grid_x) moved
                                    last, the others in their order (y) */
    int skew;                    /* the innermost loop starts at this small constant: threads start aligned */
    Vec rots;                    /* Rot*: row windows kept in registers (2-D, one nest) */
    /* SH_ROW */
    Var *row;                    /* the row index */
    Stmt *inner;                 /* the first inner loop: its trip count sizes the group */
    Vec cached;                  /* Var*: read-only rows held in registers (every inner loop reads [row][j]) */
    bool row_vec;                /* a 4-wide instantiation (float rows, unit stride from 0) */
    Vec rowvals;                 /* RowVal*: values reused across inner loops */
    Vec row_loops;               /* RowLoop*: the inner loops at row level */
    /* SH_TILED */
    Stmt *tile_i, *tile_j;       /* the row loop (k->loops[0]) and the column loop */
    bool tri;                    /* the column loop is inside a 1-D kernel, its bounds may use i */
    bool lo_i, hi_i;             /* tri: its lower / upper bound is i + lo_c / i + hi_c (else free of i) */
    long long lo_c, hi_c;
    Vec outer;                   /* tri: Stmt*: array stores of the row around the column loop (run once per row) */
    Vec pre, post;               /* Stmt*: the column body before and after the k loop */
    Stmt *kloop;                 /* the sequential k loop, strip-mined */
    Stmt *acc;                   /* its one statement, an update of an element fixed over k
                                    (cov[i][j] += ...): the element kept in a register */
    Vec staged;                  /* Staged* */
    Stmt *acc_decl;              /* acc updates a scalar this statement of pre declares (int s = 0), or NULL */
    int tile_r[2];               /* register block: outputs per thread along i and j; 1, 1: one output per
                                    thread, the GF_TILE x GF_TILE form */
    int tile_kc;                 /* register blocks: k values per chunk */
} KernelLow;

typedef struct RegionLow {
    Region *r;
    Vec kernels;                 /* KernelLow*, in the plan's order */
    Vec temps;                   /* Var*: temporaries allocated on the device, in order */
    /* The launcher may replay a CUDA graph of its launches (runtime/graph.c):
     * its device path is nothing but kernel launches and host scalar
     * statements.  Else graph_why says what keeps it out, at graph_line. */
    bool graph;
    const char *graph_why;
    int graph_line;
    /* The region in one thread block (<region>_blk): its device path is
     * nothing but 1-D maps (SH_FLAT covering their elements, no reductions)
     * and serial kernels, nothing read back, no host statement or control
     * between them but temporaries' declarations (printed before), so one
     * block can run them in order with
     * __syncthreads() between them (a serial kernel in its thread 0);
     * the launcher takes it when every trip count is at most
     * GF_BLOCK_ELEMS (templates/device.cuh): one launch instead of one per
     * kernel. */
    bool block;
} RegionLow;

typedef struct LowerOptions {
    bool atomic_reductions;
} LowerOptions;

/* Decides every kernel of r (requires r->plan and args_plan's facts; reads
 * them only). */
RegionLow *lower_region(Unit *u, Region *r, const LowerOptions *o);
KernelLow *lower_of(const RegionLow *l, const Kernel *k);
/* --report: what became of serial kernel k when the next kernel absorbed
 * it (lower_absorb), or NULL. */
const char *lower_absorbed_text(Unit *u, Region *r, const Kernel *k);
/* The kernel whose threads run serial kernel k (lower_absorb), or NULL. */
const Kernel *lower_absorbed_by(Unit *u, Region *r, const Kernel *k);
/* --report: a host loop's launches per iteration on the GPU, when some of
 * its kernels run in other kernels' threads; NULL when none does. */
const char *lower_host_loop_text(Unit *u, Region *r, const HostLoop *hl);
/* Whether temporary v's size reads parameters only: reserved before
 * gf_call_map with the staging (else allocated at its declaration). */
bool lower_temp_early(const Var *v);
/* Whether the launch of kl takes a ticket: a grid reduction finished by its
 * last block, or the stores of the serial kernel it absorbed. */
bool lower_ticket(const KernelLow *kl);
/* Whether k's grid reductions finish with atomics under --atomic-reductions. */
bool lower_red_atomic(const Kernel *k, bool atomic_reductions);
/* The atomic a reduction finishes with, or NULL (no all-zero identity, or no
 * CUDA atomic for the type). */
const char *lower_atomic_fn(RedOp op, const Type *t);
RowLoop *lower_row_loop(const KernelLow *kl, const Stmt *loop);
/* The operator of k's grid reduction into v. */
RedOp lower_red_of(const Kernel *k, const Var *v);

/* GF_TILE of templates/device.cuh: the tile's side. */
#define GF_TILE_SIDE 16
/* GF_BLOCK_ELEMS of templates/device.cuh: the most elements a kernel of a
 * region in one block may have (RegionLow.block). */
#define GF_BLOCK_ELEMS_MAX 4096
/* --report's and -Rgpufuse's words for a tiled kernel ("tiled 16x16, shared:
 * data"), or NULL when r's kernel k keeps another shape. */
const char *lower_tiled_text(Unit *u, Region *r, const Kernel *k);

/* Whether the launcher's kernel for k's library calls, when cuBLAS is not
 * used, is the tiled symmetric product of templates/device.cuh
 * (gf_symm_tiled) rather than k's own: one SYMM, nothing folded into it. */
bool lower_symm_tiled(const Kernel *k);

/* Queries shared with the printers. */
bool lower_reads_var(const Expr *e, const Var *v);
/* SH_TILED with register blocks: several outputs per thread (tile_r). */
static inline bool lower_tile_blocked(const KernelLow *kl)
{
    return kl->shape == SH_TILED && kl->tile_r[0] * kl->tile_r[1] > 1;
}
/* i + c with i = iv: c (ok); anything else: !ok. */
long long lower_row_offset(const Expr *e, const Var *iv, bool *ok);
bool lower_reg_temp(const Kernel *k, const Var *v);
/* A 1-D map whose sequential loops access across rows: its blocks spread
 * over the SMs (KernelLow.spread). */
bool lower_spread(const Kernel *k);
/* The index in k->loops of a 2-D/3-D map's x loop: the one the last subscript
 * of the most accesses moves with at stride 1 (the innermost on a tie). */
int lower_grid_x(const Kernel *k);

#endif
