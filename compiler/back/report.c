/* report.c - `--report`: per region, each kernel with the source lines it
 * fused, what was not fused and why, temporaries that were never allocated,
 * and the global-memory traffic against the unfused plan; text or JSON. */
#include "lower.h"

#include <string.h>

static void kernel_nest_lines(FILE *f, Kernel *k, bool json)
{
    if (k->kind == K_SERIAL && !json) {
        fprintf(f, "%d-%d", k->first_line, k->last_line);
        return;
    }
    for (int i = 0; i < k->nests.len; i++) {
        Stmt *s = vec_at(&k->nests, i);
        if (json)
            fprintf(f, "%s[%d, %d]", i ? ", " : "", s->loc.line, s->end_line);
        else
            fprintf(f, "%s%d-%d", i ? ", " : "", s->loc.line, s->end_line);
    }
}

/* The launches per iteration on the GPU of the host loop whose note is
 * r's plan note j, when some of its kernels run in another's threads. */
static const char *host_loop_note(Unit *u, Region *r, int j)
{
    const Plan *p = r->plan;
    for (int i = 0; i < p->host_loops.len; i++) {
        const HostLoop *hl = vec_at(&p->host_loops, i);
        if (hl->note == j)
            return lower_host_loop_text(u, r, hl);
    }
    return NULL;
}

static const char *shape(Unit *u, Region *r, Kernel *k)
{
    if (k->kind == K_SERIAL) {
        const char *absorbed = lower_absorbed_text(u, r, k);
        return absorbed ? arena_printf(u->arena, "one thread, in order; %s", absorbed) : "one thread, in order";
    }
    const char *tiled = lower_tiled_text(u, r, k);
    if (tiled)
        return arena_printf(u->arena, "2-D, %s%s",
                            k->lib ? (k->lib->epi ? "cuBLASLt, else its kernel " : "cuBLAS, else its kernel ") : "", tiled);
    int x = lower_grid_x(k);
    return arena_printf(u->arena, "%d-D%s%s%s%s%s%s", k->pdims, k->vec4 ? ", 128-bit vectors" : "",
                        x != k->pdims - 1 ? arena_printf(u->arena, ", threads along '%s' (contiguous)", k->loops[x]->iv->name)
                                          : "",
                        k->kind == K_ROW      ? ", a warp per row up to 512, else a block"
                        : k->kind == K_REDUCE ? ", deterministic reduction"
                                              : "",
                        k->lib ? (k->lib->epi ? ", cuBLASLt"
                                  : lower_symm_tiled(k) ? ", cuBLAS, else a tiled symmetric product (64x64, 4x4 per thread)"
                                                        : ", cuBLAS")
                               : "",
                        !k->folded_into                      ? ""
                        : k->folded_into->lib->init == k ? ", folded into the beta of the library calls of "
                                                         : ", folded into the cuBLASLt call of ",
                        k->folded_into ? k->folded_into->name : "");
}

/* The atomic updates of v in the region: their operator (deps.c makes them
 * all the same) and whether one is a ?: min/max that lets a NaN value win. */
static RedOp atomic_op(const Region *r, const Var *v, bool *nan_wins)
{
    RedOp op = RED_NONE;
    *nan_wins = false;
    for (int i = 0; i < r->stmts.len; i++) {
        const Stmt *s = vec_at(&r->stmts, i);
        if (s->kind != S_ASSIGN || !s->atomic || s->lhs->var != v)
            continue;
        op = s->atomic;
        Expr *val;
        bool nw = false;
        if ((op == RED_MIN || op == RED_MAX) && ir_minmax_update(s, &val, &nw) && nw)
            *nan_wins = true;
    }
    return op;
}

/* Integer atomics give the sequential result, and so do min and max;
 * floating-point sums and products round in whatever order the threads
 * arrive. */
static const char *atomic_note(const Region *r, const Var *v, bool *deterministic)
{
    bool nan_wins;
    RedOp op = atomic_op(r, v, &nan_wins);
    bool fp = type_is_float(type_elem(v->ty));
    *deterministic = true;
    if (op == RED_MIN || op == RED_MAX) {
        if (nan_wins) {
            *deterministic = false;
            return op == RED_MIN ? "min: the order does not matter unless a value is NaN, which this '?:' form "
                                   "lets replace the element"
                                 : "max: the order does not matter unless a value is NaN, which this '?:' form "
                                   "lets replace the element";
        }
        return op == RED_MIN ? "min: exact, the order does not matter" : "max: exact, the order does not matter";
    }
    if (!fp)
        return "integer: exact";
    *deterministic = false;
    return op == RED_MUL ? "floating point: the order of the multiplications, and so the rounding, is not "
                           "deterministic"
                         : "floating point: the order of the additions, and so the rounding, is not deterministic";
}

/* The host plan (--target=host, and the CUDA target's CPU fallback): its
 * column-blocked kernels, and how each call chooses between it and the C
 * body (host_cost.c). */
static void report_host_plan(FILE *f, Region *r)
{
    Plan *p = r->plan;
    int par = 0;
    for (int j = 0; j < p->kernels.len; j++) {
        Kernel *k = vec_at(&p->kernels, j);
        par += k->kind != K_SERIAL;
        Stmt *q = host_block_loop(k);
        if (q)
            fprintf(f, "  host plan: kernel %s runs '%s' by blocks inside the loop over '%s' (rows read contiguously)\n",
                    k->name, k->loops[k->pdims - 1]->iv->name, q->iv->name);
    }
    const char *none = host_cost_none(r);
    if (none)
        fprintf(f, "  host plan: always runs (%s)\n", none);
    else
        fprintf(f, "  host plan: %d OpenMP parallel loop%s; at each call the C body runs instead when the forks and "
                   "atomic updates cost more than the threads save (cost model)\n",
                par, par == 1 ? "" : "s");
}

static void json_str(FILE *f, const char *s);

static void json_host_plan(FILE *f, Region *r)
{
    const char *none = host_cost_none(r);
    fprintf(f, ", \"host_plan\": {\"cost_model\": %s, \"always_because\": ", none ? "false" : "true");
    if (none)
        json_str(f, none);
    else
        fprintf(f, "null");
    fprintf(f, ", \"column_blocked\": [");
    int n = 0;
    for (int j = 0; j < r->plan->kernels.len; j++) {
        Kernel *k = vec_at(&r->plan->kernels, j);
        if (host_block_loop(k)) {
            fprintf(f, "%s", n++ ? ", " : "");
            json_str(f, k->name);
        }
    }
    fprintf(f, "]}");
}

/* A hand-written kernel's launch rule, as the report and remarks say it. */
const char *cuda_rule_text(Arena *a, const CudaRule *cr)
{
    if (cr->threads)
        return arena_printf(a, "%s threads, blocks of 256", cr->threads);
    if (!cr->ngrid)
        return "a thread per element of the first written array, blocks of 256";
    const char *t = "grid (";
    for (int d = 0; d < cr->ngrid; d++)
        t = arena_printf(a, "%s%s%s", t, d ? ", " : "", cr->grid[d]);
    t = arena_printf(a, "%s), block (", t);
    for (int d = 0; d < cr->nblock; d++)
        t = arena_printf(a, "%s%s%s", t, d ? ", " : "", cr->block[d]);
    return arena_printf(a, "%s)", t);
}

/* Whether the launcher may replay a CUDA graph, or why not (lower.c decides). */
static const RegionLow *graph_of(Unit *u, Region *r)
{
    LowerOptions o = {0};
    return lower_region(u, r, &o);
}

/* Extents the launcher finds before each call (plan/inspect.c). */
static void report_run_extents(FILE *f, Region *r)
{
    for (int l = 0; r->inspect && l < r->inspect->npasses; l++) {
        InspectPass *p = &r->inspect->passes[l];
        fprintf(f, "  extents found at run time, pass %d (a host pass over the loops before the call):", l + 1);
        for (int i = 0; i < p->targets.len; i++)
            fprintf(f, "%s '%s'", i ? "," : "", ((Var *)vec_at(&p->targets, i))->name);
        for (int i = 0; i < p->reads.len; i++)
            fprintf(f, "%s'%s'", i ? ", " : "; it reads ", ((Var *)vec_at(&p->reads, i))->name);
        fprintf(f, "\n");
    }
}

static void report_graph(FILE *f, Unit *u, Region *r)
{
    report_run_extents(f, r);
    if (!r->plan->kernels.len)
        return;
    const RegionLow *l = graph_of(u, r);
    if (l->graph)
        fprintf(f, "  CUDA graph: a repeated call with the same shapes replays its launches (GPUFUSE_GRAPHS=0: off)\n");
    else
        fprintf(f, "  CUDA graph: none (line %d: %s)\n", l->graph_line, l->graph_why);
    if (l->block)
        fprintf(f, "  one block: when every kernel has at most %d elements, one launch of %s_blk runs the %d kernels in "
                   "one thread block, __syncthreads() between them\n",
                GF_BLOCK_ELEMS_MAX, r->cname, l->kernels.len);
}

static void json_graph(FILE *f, Unit *u, Region *r)
{
    const RegionLow *l = graph_of(u, r);
    bool on = r->plan->kernels.len && l->graph;
    fprintf(f, ", \"one_block\": %s", r->plan->kernels.len && l->block ? "true" : "false");
    fprintf(f, ", \"cuda_graph\": %s, \"cuda_graph_why\": ", on ? "true" : "false");
    if (on)
        fprintf(f, "null");
    else if (!r->plan->kernels.len)
        json_str(f, "no kernels");
    else {
        char *why = arena_printf(u->arena, "line %d: %s", l->graph_line, l->graph_why);
        json_str(f, why);
    }
}

void report_text(FILE *f, Unit *u)
{
    fprintf(f, "gpufuse report: %s\n", u->path);
    for (int i = 0; i < u->regions.len; i++) {
        Region *r = vec_at(&u->regions, i);
        Plan *p = r->plan;
        if (r->cuda) {
            fprintf(f, "\nregion %s (%s:%d): the hand-written kernel %s (%s), the C body on the CPU\n", r->name, u->path,
                    r->loc.line, r->cuda->kernel, cuda_rule_text(u->arena, r->cuda));
            continue;
        }
        fprintf(f, "\nregion %s (%s:%d): %d loop nest%s -> %d kernel%s\n", r->name, u->path, r->loc.line, p->nests,
                p->nests == 1 ? "" : "s", p->kernels.len, p->kernels.len == 1 ? "" : "s");
        for (int j = 0; j < p->kernels.len; j++) {
            Kernel *k = vec_at(&p->kernels, j);
            fprintf(f, "  kernel %s [%s, %s]: lines ", k->name, kernel_kind_names[k->kind], shape(u, r, k));
            kernel_nest_lines(f, k, false);
            fprintf(f, "\n");
            for (int m = 0; m < k->red_vars.len; m++)
                fprintf(f, "    reduces into '%s'\n", ((Var *)vec_at(&k->red_vars, m))->name);
            for (int m = 0; m < k->results.len; m++) {
                const Var *v = vec_at(&k->results, m);
                if (v->decl && v->decl->id < 0 && !strcmp(v->name, "gf_result"))
                    fprintf(f, "    leaves the return value in device memory\n");
                else
                    fprintf(f, "    leaves '%s' in device memory\n", v->name);
            }
            for (int m = 0; m < k->atomics.len; m++) {
                Var *v = vec_at(&k->atomics, m);
                bool det;
                const char *why = atomic_note(r, v, &det);
                fprintf(f, "    atomic updates to '%s' (%s)\n", v->name, why);
            }
        }
        for (int j = 0; j < p->dead_temps.len; j++) {
            Var *v = vec_at(&p->dead_temps, j);
            fprintf(f, "  temporary '%s' (line %d) lives in registers: never allocated\n", v->name, v->loc.line);
        }
        for (int j = 0; j < p->notes.len; j++) {
            fprintf(f, "  %s\n", (const char *)vec_at(&p->notes, j));
            const char *launches = host_loop_note(u, r, j);
            if (launches)
                fprintf(f, "  %s\n", launches);
        }
        if (p->bytes_unfused > 0)
            fprintf(f, "  global traffic per element: %.0f B unfused (a pass per statement) -> %.0f B fused "
                       "(%.0f%% saved)\n",
                    p->bytes_unfused, p->bytes_fused, 100.0 * (1 - p->bytes_fused / p->bytes_unfused));
        report_graph(f, u, r);
        report_host_plan(f, r);
    }
    for (int i = 0; i < u->rejected.len; i++) {
        Region *r = vec_at(&u->rejected, i);
        fprintf(f, "\nregion %s (%s:%d): kept on the CPU (see the warning above)\n", r->name, u->path, r->loc.line);
    }
}

/* The JSON report's version (docs/cli.md, "The JSON report"): raised when a
 * field changes meaning or goes away; new fields keep it. */
#define GF_REPORT_VERSION 1

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", *s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

void report_json(FILE *f, Unit *u)
{
    fprintf(f, "{\"format\": \"gpufuse-report\", \"version\": %d, \"file\": ", GF_REPORT_VERSION);
    json_str(f, u->path);
    fprintf(f, ", \"regions\": [");
    int n = 0;
    for (int i = 0; i < u->regions.len; i++) {
        Region *r = vec_at(&u->regions, i);
        Plan *p = r->plan;
        fprintf(f, "%s\n  {\"name\": ", n++ ? "," : "");
        json_str(f, r->name);
        if (r->cuda) {
            fprintf(f, ", \"line\": %d, \"status\": \"cuda\", \"kernel\": ", r->loc.line);
            json_str(f, r->cuda->kernel);
            fprintf(f, ", \"launch\": ");
            json_str(f, cuda_rule_text(u->arena, r->cuda));
            fprintf(f, "}");
            continue;
        }
        fprintf(f, ", \"line\": %d, \"status\": \"fused\", \"nests\": %d, \"kernels\": [", r->loc.line, p->nests);
        for (int j = 0; j < p->kernels.len; j++) {
            Kernel *k = vec_at(&p->kernels, j);
            fprintf(f, "%s\n    {\"name\": \"%s\", \"kind\": \"%s\", \"dims\": %d, \"vector\": %s, \"lines\": [",
                    j ? "," : "", k->name, kernel_kind_names[k->kind], k->pdims, k->vec4 ? "true" : "false");
            kernel_nest_lines(f, k, true);
            fprintf(f, "], \"library\": ");
            if (k->lib)
                json_str(f, k->lib->epi ? "cublasLt" : "cublas");
            else
                fprintf(f, "null");
            if (k->lib) {
                /* the nest replaced and each call: {"routine": "GEMM", "computes": "C = A * B (double, ...)"} */
                fprintf(f, ", \"replaces_lines\": [%d, %d], \"library_calls\": [", k->lib->first_line, k->lib->last_line);
                for (int m = 0; m < k->lib->ops.len; m++) {
                    const LibOp *op = vec_at(&k->lib->ops, m);
                    fprintf(f, "%s{\"routine\": ", m ? ", " : "");
                    json_str(f, lib_kind_name(op->kind));
                    fprintf(f, ", \"computes\": ");
                    json_str(f, lib_describe_op(u->arena, k->lib, op));
                    fputc('}', f);
                }
                fputc(']', f);
            }
            fprintf(f, ", \"epilogue_of\": ");
            if (k->folded_into)
                json_str(f, k->folded_into->name);
            else
                fprintf(f, "null");
            fprintf(f, ", \"reduces\": [");
            for (int m = 0; m < k->red_vars.len; m++) {
                fprintf(f, "%s", m ? ", " : "");
                json_str(f, ((Var *)vec_at(&k->red_vars, m))->name);
            }
            fprintf(f, "], \"results\": [");
            for (int m = 0; m < k->results.len; m++) {
                fprintf(f, "%s", m ? ", " : "");
                json_str(f, ((Var *)vec_at(&k->results, m))->name);
            }
            fprintf(f, "], \"atomics\": [");
            for (int m = 0; m < k->atomics.len; m++) {
                Var *v = vec_at(&k->atomics, m);
                fprintf(f, "%s{\"array\": ", m ? ", " : "");
                json_str(f, v->name);
                bool det;
                atomic_note(r, v, &det);
                fprintf(f, ", \"deterministic\": %s}", det ? "true" : "false");
            }
            fprintf(f, "]}");
        }
        fprintf(f, "],\n   \"temporaries_eliminated\": [");
        for (int j = 0; j < p->dead_temps.len; j++) {
            fprintf(f, "%s", j ? ", " : "");
            json_str(f, ((Var *)vec_at(&p->dead_temps, j))->name);
        }
        fprintf(f, "], \"not_fused\": [");
        for (int j = 0; j < p->notes.len; j++) {
            fprintf(f, "%s", j ? ", " : "");
            json_str(f, vec_at(&p->notes, j));
            const char *launches = host_loop_note(u, r, j);
            if (launches) {
                fprintf(f, ", ");
                json_str(f, launches);
            }
        }
        fprintf(f, "], \"cost_model\": %s, \"bytes_per_iteration_unfused\": %.0f, \"bytes_per_iteration_fused\": %.0f",
                p->cost_model ? "true" : "false", p->bytes_unfused, p->bytes_fused);
        json_graph(f, u, r);
        json_host_plan(f, r);
        fprintf(f, "}");
    }
    for (int i = 0; i < u->rejected.len; i++) {
        Region *r = vec_at(&u->rejected, i);
        fprintf(f, "%s\n  {\"name\": ", n++ ? "," : "");
        json_str(f, r->name);
        fprintf(f, ", \"line\": %d, \"status\": \"cpu\", \"reason\": ", r->loc.line);
        if (!r->why.message) {
            fprintf(f, "null}");
            continue;
        }
        fprintf(f, "{\"flag\": ");
        r->why.flag ? json_str(f, r->why.flag) : (void)fprintf(f, "null");
        fprintf(f, ", \"message\": ");
        json_str(f, r->why.message);
        fprintf(f, ", \"file\": ");
        r->why.loc.file ? json_str(f, r->why.loc.file) : (void)fprintf(f, "null");
        fprintf(f, ", \"line\": %d, \"column\": %d}}", r->why.loc.line, r->why.loc.col);
    }
    fprintf(f, "\n]}\n");
}
