/* fuzz_gpufuse.c - libFuzzer harness for the gpufuse compiler pipeline.
 *
 * Arbitrary bytes are written to a temporary .c file and run through the
 * whole pipeline exactly as compiler/driver.c does: parse_unit (libclang) ->
 * deps_analyze (isl) -> fuse_region -> args_plan -> emit_cuda_unit and
 * emit_host_unit (into memory), the IR dump and both reports, then
 * everything is freed.  Any crash, sanitizer report, gfc_panic (abort) or
 * leak is a bug: bad input must only ever produce diagnostics.
 *
 * Built by tests/fuzz/build.sh with clang-16
 * -fsanitize=fuzzer,address,undefined from every compiler source but main.c. */
#define _GNU_SOURCE
#include "gfc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef GFC_RESOURCE_DIR
#define GFC_RESOURCE_DIR "/usr/lib/llvm-16/lib/clang/16"
#endif
#ifndef GFC_INCLUDE_DIR
#define GFC_INCLUDE_DIR "include"
#endif

static char path[64];
static FILE *devnull;

static void reject_region(Unit *u, int i)
{
    Region *r = vec_at(&u->regions, i);
    r->rejected = true;
    vec_push(u->arena, &u->rejected, r);
    for (int j = i; j < u->regions.len - 1; j++)
        u->regions.data[j] = u->regions.data[j + 1];
    u->regions.len--;
}

static void emit_into_memory(void (*fn)(FILE *, Unit *), Unit *u)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    fn(m, u);
    fclose(m);
    free(text);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    snprintf(path, sizeof path, "/tmp/gf-fuzz-%d.c", (int)getpid());
    devnull = fopen("/dev/null", "w");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);

    gfc_diag = (DiagEngine){.out = devnull};
    static const char *args[] = {"-I" GFC_INCLUDE_DIR};
    ParseOptions po = {args, 1, GFC_RESOURCE_DIR};
    Unit *u = parse_unit(path, &po);
    if (u) {
        for (int i = 0; i < u->regions.len; i++) {
            Region *r = vec_at(&u->regions, i);
            if (!deps_analyze(u, r)) {
                reject_region(u, i--);
                continue;
            }
            fuse_region(u, r);
            if (!args_plan(u, r))
                reject_region(u, i--);
        }
        if (!gfc_diag.errors) {
            EmitOptions eo = {.prefix = (size & 1) ? "gf_" : NULL, .input_name = "fuzz.c", .openmp = true,
                              .fast_math = false};
            Buf b = {0};
            emit_cuda_unit(&b, u, &eo);
            buf_free(&b);
            Buf h = {0};
            emit_host_unit(&h, u, &eo);
            buf_free(&h);
            emit_into_memory(ir_dump, u);
            emit_into_memory(report_text, u);
            emit_into_memory(report_json, u);
        }
        unit_free(u);
    }
    unlink(path);
    return 0;
}
