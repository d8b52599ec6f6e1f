/* emit_kernel.c - a GPUFUSE_CUDA region in the .gf.cu: the user's own
 * kernel declared (extern "C" __global__: defined in a .cu of the
 * program's, launched through its host stub, so no relocatable device code
 * is needed), the C body as the CPU path, the entry point (emit_verify.c:
 * GPUFUSE_VERIFY compares the kernel with the C body) and a launcher that
 * stages the arguments as every launcher does (extents from the C body,
 * args.c), launches the kernel by the region's rule and checks it.
 * docs/cuda-kernels.md. */
#include "gfc.h"

#include <string.h>

#define GF_USER_THREADS 256      /* the block of the default and GPUFUSE_CUDA_THREADS rules */

/* The first array the C body writes: the default rule's extent. */
static Var *first_written(Region *r)
{
    for (int i = 0; i < r->params.len; i++) {
        Var *v = vec_at(&r->params, i);
        if (v->is_array && v->written)
            return v;
    }
    return NULL;
}

/* gf_grid[3] and gf_block[3]: the region's rule evaluated at this call. */
static void emit_geometry(Buf *b, Region *r)
{
    const CudaRule *cr = r->cuda;
    if (cr->ngrid) {
        buf_line(b, "/* the launch rule: GPUFUSE_CUDA_GRID */");
        const char *g[3] = {"1", "1", "1"}, *k[3] = {"1", "1", "1"};
        for (int d = 0; d < cr->ngrid; d++)
            g[d] = cr->grid[d];
        for (int d = 0; d < cr->nblock; d++)
            k[d] = cr->block[d];
        buf_line(b, "const long long gf_grid[3] = {(long long)(%s), (long long)(%s), (long long)(%s)};", g[0], g[1],
                 g[2]);
        buf_line(b, "const long long gf_block[3] = {(long long)(%s), (long long)(%s), (long long)(%s)};", k[0], k[1],
                 k[2]);
        return;
    }
    if (cr->threads) {
        buf_line(b, "/* the launch rule: GPUFUSE_CUDA_THREADS, %d threads a block */", GF_USER_THREADS);
        buf_line(b, "const long long gf_threads = (long long)(%s);", cr->threads);
    } else {
        Var *w = first_written(r);
        buf_line(b, "/* the default launch rule: %d threads a block, a thread per element of '%s' up to the last "
                    "one written */", GF_USER_THREADS, w->name);
        buf_line(b, "const long long gf_threads = gf_hi_%s / (long long)sizeof(%s);", w->cname,
                 type_c_name(type_elem(w->ty)));
    }
    buf_line(b, "const long long gf_grid[3] = {gf_threads > 0 ? (gf_threads + %d) / %d : 0, 1, 1};",
             GF_USER_THREADS - 1, GF_USER_THREADS);
    buf_line(b, "const long long gf_block[3] = {%d, 1, 1};", GF_USER_THREADS);
}

/* The kernel's launch: skipped when the grid or block is empty (nothing to
 * do, as the C body's loops do nothing); sizes beyond what a dim3 holds are
 * clamped, so that CUDA refuses them ("invalid argument" in CUDA 13)
 * instead of running a wrapped grid. */
static void emit_kernel_launch(Buf *b, Region *r)
{
    const CudaRule *cr = r->cuda;
    Buf args = {0};
    for (int i = 0; i < r->params.len; i++) {
        Var *v = vec_at(&r->params, i);
        buf_printf(&args, "%s%s%s", i ? ", " : "", v->is_array ? "gf_d_" : "", v->cname);
    }
    buf_line(b, "if (gf_grid[0] > 0 && gf_grid[1] > 0 && gf_grid[2] > 0 && gf_block[0] > 0 && gf_block[1] > 0 && "
                "gf_block[2] > 0) {");
    b->indent++;
    buf_line(b, "const dim3 gf_g((unsigned)gf_min(gf_grid[0], 0xffffffffLL), (unsigned)gf_min(gf_grid[1], "
                "0xffffffffLL), (unsigned)gf_min(gf_grid[2], 0xffffffffLL));");
    buf_line(b, "const dim3 gf_b((unsigned)gf_min(gf_block[0], 0xffffffffLL), (unsigned)gf_min(gf_block[1], "
                "0xffffffffLL), (unsigned)gf_min(gf_block[2], 0xffffffffLL));");
    buf_line(b, "%s<<<gf_g, gf_b, 0, gf_s>>>(%s);", cr->kernel, args.data ? args.data : "");
    buf_line(b, "gf_call_check(gf_c, cudaGetLastError(), \"%s (hand-written, for %s() at %s:%d)\");", cr->kernel,
             r->name, r->unit->gen_path, cr->loc.line);
    b->indent--;
    buf_line(b, "}");
    buf_free(&args);
}

static void emit_user_launcher(Buf *b, Region *r, const char *name)
{
    Buf args = {0};
    emit_params(&args, r, true, true);
    buf_printf(b, "/* The launcher of %s() (%s:%d): the arguments staged, the hand-written kernel %s launched. */\n"
                  "static void %s(",
               r->name, r->unit->gen_path, r->loc.line, r->cuda->kernel, name);
    emit_params(b, r, true, false);
    buf_puts(b, ")\n{\n");
    b->indent = 1;
    emit_call_args(b, r, false);
    buf_line(b, "switch (gf_call_map(gf_c)) {");
    buf_line(b, "case GF_PATH_DEVICE:");
    buf_line(b, "    break;");
    buf_line(b, "case GF_PATH_FAILED: /* device memory and no room on the GPU (reported): nothing runs */");
    buf_line(b, "    gf_call_end(gf_c, 0, 0);");
    buf_line(b, "    return;");
    buf_line(b, "default: /* no GPU, not enough device memory, or overlapping arguments: the C body */");
    buf_line(b, "    gf_call_end(gf_c, 0, 0);");
    buf_line(b, "    gf_seq_%s(%s);", r->cname, args.data);
    buf_line(b, "    return;");
    buf_line(b, "}");
    buf_line(b, "cudaStream_t gf_s = gf_call_stream(gf_c);");
    emit_device_ptrs(b, r, false);
    emit_geometry(b, r);
    emit_kernel_launch(b, r);
    buf_line(b, "gf_call_end(gf_c, (size_t)gf_bytes, 0);");
    b->indent = 0;
    buf_puts(b, "}\n\n");
    buf_free(&args);
}

void emit_user_kernel_region(Buf *b, Unit *u, Region *r, const EmitOptions *o)
{
    const CudaRule *cr = r->cuda;
    buf_printf(b, "\n/* ==== %s (%s:%d): the hand-written kernel %s ==== */\n\n", r->name, u->gen_path, r->loc.line,
               cr->kernel);
    buf_printf(b, "/* defined in a .cu of the program's: %s()'s parameters in order, arrays as device pointers to\n"
                  " * their first element (docs/cuda-kernels.md) */\nextern \"C\" __global__ void %s(",
               r->name, cr->kernel);
    emit_params(b, r, true, false);
    buf_puts(b, ");\n\n");
    buf_puts(b, "/* the C body: the CPU path (no GPU, overlapping arguments) and GPUFUSE_VERIFY's reference */\n"
                "GF_UNUSED static ");
    emit_host_region(b, u, r, arena_printf(u->arena, "gf_seq_%s", r->cname), false, false);
    emit_inspectors(b, r);
    const char *launcher = arena_printf(u->arena, "gf_launch_%s", r->cname);
    const char *entry = arena_printf(u->arena, "%s%s", o->prefix, r->cname);
    const char *sym = arena_printf(u->arena, "%s%s", o->prefix, r->name);
    if (strcmp(entry, sym)) {
        buf_printf(b, "extern \"C\" void %s(", entry);
        emit_params(b, r, true, false);
        buf_printf(b, ") __asm__(\"%s\");\n", sym);
    }
    emit_verify_entry(b, r, entry, launcher);
    emit_user_launcher(b, r, launcher);
}
