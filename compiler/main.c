/* main.c - the gpufuse command line: options, compile_commands.json, exit
 * codes (0 success, 1 errors in the input, 2 usage errors). */
#define _DEFAULT_SOURCE
#include "driver.h"

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef GFC_RESOURCE_DIR
#define GFC_RESOURCE_DIR "/usr/lib/llvm-16/lib/clang/16"
#endif
#ifndef GFC_INCLUDE_DIR
#define GFC_INCLUDE_DIR "/usr/local/include"
#endif
#ifndef GFC_INSTALL_INCLUDE_DIR
#define GFC_INSTALL_INCLUDE_DIR GFC_INCLUDE_DIR
#endif

static bool has_gpufuse_h(const char *dir)
{
    char path[PATH_MAX + 16];
    int n = snprintf(path, sizeof path, "%s/gpufuse.h", dir);
    return n > 0 && (size_t)n < sizeof path && access(path, R_OK) == 0;
}

/* Where gpufuse.h is, as "-IDIR": beside the binary (<bindir>/../include, so
 * an installed tree works wherever it was installed or moved to), else the
 * source tree it was built from, else the configured install directory. */
static const char *default_include_arg(void)
{
    static char arg[PATH_MAX + 2] = "-I";
    char exe[PATH_MAX], dir[PATH_MAX + 16];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash = n > 0 ? (exe[n] = '\0', strrchr(exe, '/')) : NULL;
    if (slash) {
        *slash = '\0';
        snprintf(dir, sizeof dir, "%s/../include", exe);
        if (has_gpufuse_h(dir) && realpath(dir, arg + 2))
            return arg;
    }
    if (!has_gpufuse_h(GFC_INCLUDE_DIR) && has_gpufuse_h(GFC_INSTALL_INCLUDE_DIR))
        return "-I" GFC_INSTALL_INCLUDE_DIR;
    return "-I" GFC_INCLUDE_DIR;
}

static const char usage[] =
    "usage: gpufuse [options] file.c [-- clang arguments]\n"
    "\n"
    "Fuses the loop nests of every GPUFUSE-marked function of file.c into as few\n"
    "CUDA kernels as the dependences allow, and writes file.gf.cu: the kernels and\n"
    "extern \"C\" launchers that replace the marked functions at link time.\n"
    "\n"
    "options:\n"
    "  -o FILE              output file ('-' for standard output)\n"
    "  -p DIR               take the file's flags from DIR/compile_commands.json\n"
    "  --target=cuda|host   CUDA kernels (default), or the same plan as C with OpenMP\n"
    "  --emit=cu|c|ir|report  what to write (default: cu for cuda, c for host)\n"
    "  --report[=text|json] also print the fusion report on standard output\n"
    "  --arch=sm_90[,...]   GPU architectures the output is meant for (checked,\n"
    "                       recorded in the output's build line)\n"
    "  --strict             make every 'kept on the CPU' warning an error\n"
    "  --fast-math          kernels use CUDA's fast float intrinsics (__expf,\n"
    "                       __sinf, __fdividef, ...): faster, a few ulp less exact\n"
    "  --atomic-reductions  grid-wide sums (and | ^) finish with atomics instead of\n"
    "                       a deterministic pass: floating-point sums may differ\n"
    "                       in the last bits from run to run\n"
    "  --prefix=P           name the emitted definitions P<function> instead of\n"
    "                       replacing the functions (to call both side by side)\n"
    "  --depfile=FILE       write a Make depfile of the headers read\n"
    "  -I DIR, -D NAME[=V], -U NAME, -std=STD   passed to clang\n"
    "  --resource-dir=DIR   clang's builtin headers (default " GFC_RESOURCE_DIR ")\n"
    "  --color=auto|always|never\n"
    "  -h, --help           this help\n"
    "  --version            print the version\n"
    "\n"
    "examples:\n"
    "  gpufuse saxpy.c                      # writes saxpy.gf.cu\n"
    "  gpufuse --report saxpy.c -o build/saxpy.gf.cu\n"
    "  gpufuse --target=host saxpy.c        # writes saxpy.gf.c (OpenMP)\n"
    "  gpufuse --emit=ir saxpy.c            # the region IR and isl dependences\n"
    "  gpufuse -p build src/model.c         # flags from build/compile_commands.json\n"
    "\n"
    "exit status: 0 success (warnings included), 1 errors in the input, 2 usage errors\n";

typedef struct Job {
    const Options *o;
    int rc;
} Job;

static void *job_main(void *arg)
{
    Job *j = arg;
    j->rc = gfc_run(j->o);
    return NULL;
}

/* The front end and the printers recurse on expressions: deep ones need
 * more than the default 8 MiB of stack.  libclang parses on its own thread. */
static int run_big_stack(const Options *o)
{
    Job j = {o, 1};
    pthread_attr_t attr;
    pthread_t t;
    if (pthread_attr_init(&attr) == 0 && pthread_attr_setstacksize(&attr, (size_t)256 << 20) == 0 &&
        pthread_create(&t, &attr, job_main, &j) == 0) {
        pthread_join(t, NULL);
        pthread_attr_destroy(&attr);
        return j.rc;
    }
    return gfc_run(o);
}

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "gpufuse: error: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(try 'gpufuse --help')\n");
    return 2;
}

typedef struct Args {
    const char **v;
    int n, cap;
} Args;

static void args_push(Args *a, const char *s)
{
    if (a->n == a->cap) {
        a->cap = a->cap ? 2 * a->cap : 16;
        a->v = realloc(a->v, sizeof(char *) * (size_t)a->cap);
        if (!a->v) {
            fprintf(stderr, "gpufuse: out of memory\n");
            exit(1);
        }
    }
    a->v[a->n++] = s;
}

/* ---- compile_commands.json: just enough JSON ---------------------------------- */

typedef struct J {
    const char *p;
    bool bad;
} J;

static void ws(J *j)
{
    while (*j->p == ' ' || *j->p == '\n' || *j->p == '\t' || *j->p == '\r')
        j->p++;
}

static char *jstring(J *j)
{
    ws(j);
    if (*j->p != '"') {
        j->bad = true;
        return NULL;
    }
    j->p++;
    size_t cap = 64, n = 0;
    char *s = malloc(cap);
    while (*j->p && *j->p != '"') {
        char c = *j->p++;
        if (c == '\\') {
            c = *j->p++;
            if (c == 'n')
                c = '\n';
            else if (c == 't')
                c = '\t';
            else if (c == 'u') {
                c = '?';
                for (int k = 0; k < 4 && *j->p; k++)
                    j->p++;
            }
        }
        if (n + 2 > cap)
            s = realloc(s, cap *= 2);
        s[n++] = c;
    }
    if (*j->p != '"')
        j->bad = true;
    else
        j->p++;
    s[n] = '\0';
    return s;
}

static void jskip(J *j)
{
    ws(j);
    if (*j->p == '"') {
        free(jstring(j));
    } else if (*j->p == '{' || *j->p == '[') {
        char open = *j->p, close = open == '{' ? '}' : ']';
        j->p++;
        ws(j);
        while (*j->p && *j->p != close && !j->bad) {
            if (open == '{') {
                free(jstring(j));
                ws(j);
                if (*j->p++ != ':')
                    j->bad = true;
            }
            jskip(j);
            ws(j);
            if (*j->p == ',')
                j->p++;
            ws(j);
        }
        if (*j->p == close)
            j->p++;
        else
            j->bad = true;
    } else {
        while (*j->p && *j->p != ',' && *j->p != '}' && *j->p != ']')
            j->p++;
    }
}

/* Splits a shell-like command line (quotes and backslashes). */
static void split_command(const char *cmd, Args *out)
{
    const char *p = cmd;
    while (*p) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            break;
        size_t cap = strlen(p) + 1, n = 0;
        char *w = malloc(cap);
        char q = 0;
        while (*p && (q || (*p != ' ' && *p != '\t'))) {
            if (q && *p == q) {
                q = 0;
                p++;
            } else if (!q && (*p == '"' || *p == '\'')) {
                q = *p++;
            } else if (*p == '\\' && p[1] && q != '\'') {
                w[n++] = p[1];
                p += 2;
            } else {
                w[n++] = *p++;
            }
        }
        w[n] = '\0';
        args_push(out, w);
    }
}

static bool same_file(const char *dir, const char *file, const char *input)
{
    char a[4096], b[4096];
    char path[8192];
    if (file[0] == '/')
        snprintf(path, sizeof path, "%s", file);
    else
        snprintf(path, sizeof path, "%s/%s", dir, file);
    if (!realpath(path, a) || !realpath(input, b))
        return false;
    return !strcmp(a, b);
}

/* Appends the flags clang needs from the entry for `input`; false if none. */
static bool load_compdb(const char *dir, const char *input, Args *clang)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/compile_commands.json", dir);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "gpufuse: error: cannot read '%s'\n", path);
        return false;
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)len + 1);
    size_t got = fread(text, 1, (size_t)len, f);
    text[got] = '\0';
    fclose(f);
    J j = {text, false};
    ws(&j);
    bool found = false;
    if (*j.p++ != '[')
        j.bad = true;
    while (!j.bad && !found) {
        ws(&j);
        if (*j.p == ']' || !*j.p)
            break;
        if (*j.p++ != '{') {
            j.bad = true;
            break;
        }
        char *edir = NULL, *efile = NULL, *ecmd = NULL;
        Args eargs = {0};
        ws(&j);
        while (!j.bad && *j.p != '}') {
            char *key = jstring(&j);
            ws(&j);
            if (*j.p++ != ':')
                j.bad = true;
            if (j.bad) {
                free(key);
                break;
            }
            if (!strcmp(key, "directory"))
                edir = jstring(&j);
            else if (!strcmp(key, "file"))
                efile = jstring(&j);
            else if (!strcmp(key, "command"))
                ecmd = jstring(&j);
            else if (!strcmp(key, "arguments")) {
                ws(&j);
                if (*j.p++ != '[')
                    j.bad = true;
                ws(&j);
                while (!j.bad && *j.p != ']') {
                    args_push(&eargs, jstring(&j));
                    ws(&j);
                    if (*j.p == ',')
                        j.p++;
                    ws(&j);
                }
                j.p++;
            } else
                jskip(&j);
            free(key);
            ws(&j);
            if (*j.p == ',')
                j.p++;
            ws(&j);
        }
        j.p++;
        ws(&j);
        if (*j.p == ',')
            j.p++;
        if (edir && efile && same_file(edir, efile, input)) {
            found = true;
            if (ecmd && !eargs.n)
                split_command(ecmd, &eargs);
            char *wd = malloc(strlen(edir) + 32);
            sprintf(wd, "-working-directory=%s", edir);
            args_push(clang, wd);
            /* keep what changes how the file parses; drop gcc-only flags */
            for (int i = 1; i < eargs.n; i++) {
                const char *a = eargs.v[i];
                bool two = !strcmp(a, "-I") || !strcmp(a, "-D") || !strcmp(a, "-U") || !strcmp(a, "-include") ||
                           !strcmp(a, "-isystem") || !strcmp(a, "-iquote");
                if (two && i + 1 < eargs.n) {
                    args_push(clang, a);
                    args_push(clang, eargs.v[++i]);
                } else if (!strncmp(a, "-I", 2) || !strncmp(a, "-D", 2) || !strncmp(a, "-U", 2) ||
                           !strncmp(a, "-std=", 5) || !strncmp(a, "-isystem", 8)) {
                    args_push(clang, a);
                }
            }
        }
        free(edir);
        free(efile);
        free(ecmd);
    }
    if (j.bad)
        fprintf(stderr, "gpufuse: error: '%s' is not valid JSON\n", path);
    else if (!found)
        fprintf(stderr, "gpufuse: error: '%s' has no entry for '%s'\n", path, input);
    free(text);
    return found && !j.bad;
}

static bool valid_arch(const char *list)
{
    const char *p = list;
    while (*p) {
        if (strncmp(p, "sm_", 3))
            return false;
        p += 3;
        int digits = 0;
        while (*p >= '0' && *p <= '9') {
            p++;
            digits++;
        }
        if (*p == 'a')
            p++;
        if (digits < 2)
            return false;
        if (*p == ',')
            p++;
        else if (*p)
            return false;
    }
    return true;
}

int main(int argc, char **argv)
{
    Options o = {.prefix = "", .resource_dir = GFC_RESOURCE_DIR, .emit = EMIT_CU};
    Args clang = {0};
    bool emit_set = false, host = false;
    const char *compdb = NULL, *color = "auto";
    args_push(&clang, default_include_arg());
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            for (i++; i < argc; i++)
                args_push(&clang, argv[i]);
            break;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage, stdout);
            return 0;
        }
        if (!strcmp(a, "--version")) {
            printf("gpufuse %s (libclang 16, isl)\n", GFC_VERSION);
            return 0;
        }
        if (!strcmp(a, "-o") || !strcmp(a, "-p")) {
            if (i + 1 >= argc)
                return usage_error("'%s' needs an argument", a);
            if (a[1] == 'o')
                o.output = argv[++i];
            else
                compdb = argv[++i];
        } else if (!strncmp(a, "-o", 2)) {
            o.output = a + 2;
        } else if (!strncmp(a, "--target=", 9)) {
            if (!strcmp(a + 9, "cuda"))
                host = false;
            else if (!strcmp(a + 9, "host"))
                host = true;
            else
                return usage_error("unknown target '%s' (cuda or host)", a + 9);
        } else if (!strncmp(a, "--emit=", 7)) {
            emit_set = true;
            if (!strcmp(a + 7, "cu"))
                o.emit = EMIT_CU;
            else if (!strcmp(a + 7, "c"))
                o.emit = EMIT_C;
            else if (!strcmp(a + 7, "ir"))
                o.emit = EMIT_IR;
            else if (!strcmp(a + 7, "report"))
                o.emit = EMIT_REPORT;
            else
                return usage_error("unknown --emit kind '%s' (cu, c, ir or report)", a + 7);
        } else if (!strcmp(a, "--report") || !strcmp(a, "--report=text")) {
            o.report = REPORT_TEXT;
        } else if (!strcmp(a, "--report=json")) {
            o.report = REPORT_JSON;
        } else if (!strncmp(a, "--report=", 9)) {
            return usage_error("unknown report format '%s' (text or json)", a + 9);
        } else if (!strncmp(a, "--arch=", 7)) {
            if (!valid_arch(a + 7))
                return usage_error("bad architecture list '%s' (e.g. sm_90 or sm_80,sm_90)", a + 7);
        } else if (!strcmp(a, "--strict")) {
            gfc_diag.strict = true;
        } else if (!strcmp(a, "--fast-math")) {
            o.fast_math = true;
        } else if (!strcmp(a, "--atomic-reductions")) {
            o.atomic_reductions = true;
        } else if (!strncmp(a, "--prefix=", 9)) {
            o.prefix = a + 9;
        } else if (!strncmp(a, "--depfile=", 10)) {
            o.depfile = a + 10;
        } else if (!strncmp(a, "--resource-dir=", 15)) {
            o.resource_dir = a + 15;
        } else if (!strncmp(a, "--color=", 8)) {
            color = a + 8;
            if (strcmp(color, "auto") && strcmp(color, "always") && strcmp(color, "never"))
                return usage_error("unknown --color value '%s' (auto, always or never)", color);
        } else if (!strcmp(a, "-I") || !strcmp(a, "-D") || !strcmp(a, "-U")) {
            if (i + 1 >= argc)
                return usage_error("'%s' needs an argument", a);
            args_push(&clang, a);
            args_push(&clang, argv[++i]);
        } else if (!strncmp(a, "-I", 2) || !strncmp(a, "-D", 2) || !strncmp(a, "-U", 2) || !strncmp(a, "-std=", 5)) {
            args_push(&clang, a);
        } else if (a[0] == '-' && a[1]) {
            return usage_error("unknown option '%s'", a);
        } else if (o.input) {
            return usage_error("only one input file is accepted ('%s')", a);
        } else {
            o.input = a;
        }
    }
    if (!o.input)
        return usage_error("%s", "no input file");
    if (access(o.input, R_OK) != 0) {
        fprintf(stderr, "gpufuse: error: cannot read '%s'\n", o.input);
        return 1;
    }
    if (compdb && !load_compdb(compdb, o.input, &clang))
        return 1;
    if (!emit_set)
        o.emit = host ? EMIT_C : EMIT_CU;
    if (!o.output) {
        if (o.emit == EMIT_IR || o.emit == EMIT_REPORT) {
            o.output = "-";
        } else {
            const char *base = strrchr(o.input, '/');
            base = base ? base + 1 : o.input;
            size_t n = strlen(base);
            char *out = malloc(n + 8);
            memcpy(out, base, n + 1);
            if (n > 2 && !strcmp(out + n - 2, ".c"))
                out[n - 2] = '\0';
            strcat(out, o.emit == EMIT_CU ? ".gf.cu" : ".gf.c");
            o.output = out;
        }
    }
    if (o.depfile && !strcmp(o.output, "-"))
        return usage_error("%s", "--depfile needs an output file (-o)");
    gfc_diag.color = !strcmp(color, "always") || (!strcmp(color, "auto") && isatty(2));
    o.clang_args = clang.v;
    o.nclang_args = clang.n;
    int rc = run_big_stack(&o);
    free(clang.v);
    return rc;
}
