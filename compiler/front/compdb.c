/* compdb.c - a file's compile flags from compile_commands.json, read by
 * libclang's compilation-database API (the reader clang-tidy uses): in
 * -p DIR or a directory above it, or above the input file.  Kept are the
 * flags that change how the file parses; relative paths in them are made
 * absolute against the entry's directory, so that the input keeps the name
 * it was given on the command line (and that name stays in the output). */
#define _DEFAULT_SOURCE
#include "gfc.h"

#include <clang-c/CXCompilationDatabase.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The directory at or above `start` that holds compile_commands.json, as
 * a real path (heap), or NULL. */
static char *find_db(const char *start)
{
    char *dir = realpath(start, NULL);
    while (dir) {
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/compile_commands.json", strcmp(dir, "/") ? dir : "");
        if (access(path, R_OK) == 0)
            return dir;
        char *slash = strrchr(dir, '/');
        if (!slash || !strcmp(dir, "/")) {
            free(dir);
            return NULL;
        }
        slash[slash == dir] = '\0'; /* the parent; "/" stays "/" */
    }
    return NULL;
}

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
}

static char *str(CXString s)
{
    char *out = strdup(clang_getCString(s) ? clang_getCString(s) : "");
    clang_disposeString(s);
    return out;
}

/* The command whose file, resolved against its directory, is `real`. */
static CXCompileCommand find_entry(CXCompileCommands all, const char *real)
{
    unsigned n = clang_CompileCommands_getSize(all);
    for (unsigned i = 0; i < n; i++) {
        CXCompileCommand cmd = clang_CompileCommands_getCommand(all, i);
        char *file = str(clang_CompileCommand_getFilename(cmd)), *dir = str(clang_CompileCommand_getDirectory(cmd));
        char *joined = malloc(strlen(dir) + strlen(file) + 2), *r = NULL;
        if (joined) {
            sprintf(joined, "%s/%s", dir, file);
            r = realpath(file[0] == '/' ? file : joined, NULL);
        }
        bool same = r && !strcmp(r, real);
        free(file), free(dir), free(joined), free(r);
        if (same)
            return cmd;
    }
    return NULL;
}

/* Flags kept from an entry: those taking a path (made absolute), then the
 * others that change how the file parses. */
static const char *const path_flags[] = {"-I", "-isystem", "-iquote", "-idirafter", "-include", "-imacros",
                                         "--sysroot", "-isysroot"};
static const char *const value_flags[] = {"-D", "-U"};

static const char *absolute(Arena *a, const char *dir, const char *p)
{
    return p[0] == '/' ? arena_strdup(a, p) : arena_printf(a, "%s/%s", dir, p);
}

static void keep_flags(CXCompileCommand cmd, const char *dir, Arena *a, StrVec *out)
{
    unsigned n = clang_CompileCommand_getNumArgs(cmd);
    char **v = calloc(n ? n : 1, sizeof *v);
    for (unsigned i = 0; v && i < n; i++)
        v[i] = str(clang_CompileCommand_getArg(cmd, i));
    for (unsigned i = 1; v && i < n; i++) { /* v[0] is the compiler */
        const char *arg = v[i];
        bool done = false;
        for (size_t k = 0; k < sizeof path_flags / sizeof *path_flags && !done; k++) {
            size_t len = strlen(path_flags[k]);
            if (strncmp(arg, path_flags[k], len))
                continue;
            /* -I DIR, -IDIR, --sysroot=DIR */
            const char *val = arg[len] == '=' ? arg + len + 1 : arg[len] ? arg + len : i + 1 < n ? v[++i] : NULL;
            if (val) {
                strvec_push(out, arena_strdup(a, path_flags[k]));
                strvec_push(out, absolute(a, dir, val));
            }
            done = true;
        }
        for (size_t k = 0; k < sizeof value_flags / sizeof *value_flags && !done; k++)
            if (!strncmp(arg, value_flags[k], 2)) {
                strvec_push(out, arena_strdup(a, arg));
                if (!arg[2] && i + 1 < n)
                    strvec_push(out, arena_strdup(a, v[++i]));
                done = true;
            }
        if (!done && !strncmp(arg, "-std=", 5))
            strvec_push(out, arena_strdup(a, arg));
    }
    for (unsigned i = 0; v && i < n; i++)
        free(v[i]);
    free(v);
}

bool compdb_flags(const char *dir, const char *input, bool required, bool verbose, Arena *a, StrVec *out)
{
    char *start = dir ? strdup(dir) : dir_of(input);
    char *found = start ? find_db(start) : NULL, *real = realpath(input, NULL);
    bool ok = false;
    if (!found) {
        if (required)
            fprintf(stderr, "gpufuse: error: no compile_commands.json in '%s' or a directory above it\n", dir);
    } else {
        CXCompilationDatabase_Error err;
        CXCompilationDatabase db = clang_CompilationDatabase_fromDirectory(found, &err);
        CXCompileCommands all = db && err == CXCompilationDatabase_NoError
                                    ? clang_CompilationDatabase_getAllCompileCommands(db) : NULL;
        CXCompileCommand cmd = all && real ? find_entry(all, real) : NULL;
        if (!all && (required || verbose))
            fprintf(stderr, "gpufuse: %s: '%s/compile_commands.json' cannot be read\n", required ? "error" : "note",
                    found);
        else if (!cmd && (required || verbose))
            fprintf(stderr, "gpufuse: %s: '%s/compile_commands.json' has no entry for '%s'\n",
                    required ? "error" : "note", found, input);
        if (cmd) {
            char *edir = str(clang_CompileCommand_getDirectory(cmd));
            if (verbose)
                fprintf(stderr, "gpufuse: flags for '%s' from '%s/compile_commands.json' (directory '%s')\n", input,
                        found, edir);
            keep_flags(cmd, edir, a, out);
            free(edir);
            ok = true;
        }
        if (all)
            clang_CompileCommands_dispose(all);
        if (db)
            clang_CompilationDatabase_dispose(db);
    }
    free(start), free(found), free(real);
    return ok;
}
