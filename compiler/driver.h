/* driver.h - the compiler's options and its one entry point. */
#ifndef GFC_DRIVER_H
#define GFC_DRIVER_H

#include "gfc.h"

typedef enum EmitKind { EMIT_CU, EMIT_C, EMIT_IR, EMIT_REPORT } EmitKind;
typedef enum ReportKind { REPORT_NONE, REPORT_TEXT, REPORT_JSON } ReportKind;

typedef struct Options {
    const char *input;
    const char *output;          /* "-" = stdout */
    const char *depfile;         /* -MD/-MF/--depfile: where; NULL = none */
    const char **dep_targets;    /* -MT/-MQ, already in Make syntax; none: the output */
    int ndep_targets;
    bool dep_phony;              /* -MP: a phony target per header */
    const char *prefix;          /* names of the emitted definitions */
    const char *resource_dir;
    const char **clang_args;
    int nclang_args;
    EmitKind emit;
    ReportKind report;
    bool fast_math;
    bool atomic_reductions;      /* --atomic-reductions */
} Options;

/* output.c: refuses an output or depfile that is the input (or the two the
 * same file), with a diagnostic. */
bool gfc_check_outputs(const Options *o);
/* Writes text to path ("-": stdout) as gcc would, with no partial file on
 * failure and an unchanged file left untouched; diagnoses failures. */
bool gfc_write_output(const char *path, const char *text, size_t len);


/* A file name in Make's syntax (spaces, '#', '$' escaped), for depfiles. */
const char *make_escape(Arena *a, const char *s);

/* Runs the pipeline; returns the process exit status (0 ok, 1 input errors). */
int gfc_run(const Options *o);

#endif
