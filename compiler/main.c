/* main.c - the gpufuse command line as gcc and clang users expect it:
 * getopt_long options (--opt V and --opt=V), gcc's -W, -M and -std flags,
 * "did you mean" for misspelt options, compile_commands.json through
 * libclang (compdb.c), exit codes (0 success, 1 errors in the input, 2
 * usage errors). */
#define _DEFAULT_SOURCE
#include "driver.h"

#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
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
    "options (--opt=V and --opt V are the same):\n"
    "  -o FILE              output file ('-' for standard output)\n"
    "  -p DIR               take the file's flags from compile_commands.json in DIR or\n"
    "                       a directory above it (without -p and without '--': the\n"
    "                       first one found above the input file, if it has the file)\n"
    "  --target cuda|host   CUDA kernels (default), or the same plan as C with OpenMP\n"
    "  --emit cu|c|ir|report  what to write (default: cu for cuda, c for host)\n"
    "  --report[=text|json] also print the fusion report on standard output (standard\n"
    "                       error when the output goes to standard output)\n"
    "  --fast-math          kernels use CUDA's fast float intrinsics (__expf,\n"
    "                       __sinf, __fdividef, ...): faster, a few ulp less exact\n"
    "  --atomic-reductions  grid-wide sums (and | ^) finish with atomics instead of\n"
    "                       a deterministic pass: floating-point sums may differ\n"
    "                       in the last bits from run to run\n"
    "  --prefix P           name the emitted definitions P<function> instead of\n"
    "                       replacing the functions (to call both side by side)\n"
    "  -MD                  write a Make depfile of the headers read (FILE.d for -o FILE.x)\n"
    "  -MF FILE             ... to FILE (implies -MD); --depfile FILE is the same\n"
    "  -MT TARGET, -MQ TARGET  the depfile's target (-MQ escapes it for Make)\n"
    "  -MP                  a phony target for every header\n"
    "  -Wno-gpufuse-NAME, -Wgpufuse-NAME   hide or show warning NAME (dependence, loop, ...)\n"
    "  -Werror, -Werror=gpufuse-NAME, -Wno-error=gpufuse-NAME\n"
    "                       warnings (functions kept on the CPU) as errors\n"
    "  -w                   no warnings\n"
    "  --strict             the same as -Werror\n"
    "  -I DIR, -D NAME[=V], -U NAME, -std=STD   passed to clang\n"
    "  --resource-dir DIR   clang's builtin headers (default " GFC_RESOURCE_DIR ")\n"
    "  --color[=auto|always|never]  colours in diagnostics (NO_COLOR and\n"
    "                       CLICOLOR_FORCE are honoured)\n"
    "  -v, --verbose        print the clang arguments and the database entry used\n"
    "  -h, --help           this help\n"
    "  --version            print the version\n"
    "\n"
    "examples:\n"
    "  gpufuse saxpy.c                      # writes saxpy.gf.cu\n"
    "  gpufuse --report saxpy.c -o build/saxpy.gf.cu\n"
    "  gpufuse --target=host saxpy.c        # writes saxpy.gf.c (OpenMP)\n"
    "  gpufuse --emit=ir saxpy.c            # the region IR and isl dependences\n"
    "  gpufuse -p build src/model.c         # flags from build/compile_commands.json\n"
    "  gpufuse src/model.c -o model.gf.cu -MD -MP -- -Iinclude -O2\n"
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

/* ---- usage errors and "did you mean" --------------------------------------- */

static int usage_error(const char *note, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int usage_error(const char *note, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "gpufuse: error: ");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    if (note)
        fprintf(stderr, "gpufuse: note: %s\n", note);
    fprintf(stderr, "(try 'gpufuse --help')\n");
    return 2;
}

/* The spellings a misspelt option is compared with. */
static const char *const spellings[] = {
    "--output", "--target=", "--emit=", "--report", "--report=", "--fast-math", "--atomic-reductions", "--prefix=",
    "--depfile=", "--resource-dir=", "--color", "--color=", "--strict", "--verbose", "--help", "--version",
    "-MD", "-MF", "-MT", "-MQ", "-MP", "-Werror", "-Wno-error", "-std=",
};

/* Levenshtein distance, for "did you mean" (short strings). */
static int distance(const char *a, const char *b)
{
    size_t m = strlen(a), n = strlen(b);
    if (m > 64 || n > 64)
        return 99;
    int d[65][65];
    for (size_t i = 0; i <= m; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= n; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= m; i++)
        for (size_t j = 1; j <= n; j++) {
            int c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            int x = d[i - 1][j] + 1, y = d[i][j - 1] + 1;
            d[i][j] = c < x ? (c < y ? c : y) : (x < y ? x : y);
        }
    return d[m][n];
}

/* The closest of `list` to `bad` (compared up to '='), or NULL. */
static const char *closest(const char *bad, const char *const *list, int n)
{
    char key[80];
    snprintf(key, sizeof key, "%.*s", (int)strcspn(bad, "="), bad);
    const char *best = NULL;
    int bd = (int)strlen(key) / 3 + 1; /* accepted distance + 1 */
    if (bd > 3)
        bd = 3;
    for (int i = 0; i < n; i++) {
        char cand[80];
        snprintf(cand, sizeof cand, "%.*s", (int)strcspn(list[i], "="), list[i]);
        int d = distance(key, cand);
        if (d < bd && d > 0)
            best = list[i], bd = d;
    }
    return best;
}

/* Flags of a C compiler that belong after '--' (or to nvcc/the linker). */
static bool compiler_flag(const char *a)
{
    static const char *const prefixes[] = {"-O", "-f", "-m", "-g", "-W", "-x", "-c", "-S", "-E", "-l", "-L",
                                           "-isystem", "-iquote", "-include", "-idirafter", "-pthread", "-pedantic",
                                           "-ansi", "-nostdinc", "--std", "-arch", "-rdc", "--arch"};
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
        if (!strncmp(a, prefixes[i], strlen(prefixes[i])))
            return true;
    return false;
}

static int unknown_option(const char *a)
{
    if (!strncmp(a, "--arch", 6))
        return usage_error("the output is the same for every GPU: give nvcc the architecture "
                           "(-arch=sm_90, CMAKE_CUDA_ARCHITECTURES)",
                           "'--arch' was removed");
    const char *guess = closest(a, spellings, (int)(sizeof spellings / sizeof *spellings));
    if (guess) {
        char note[160];
        snprintf(note, sizeof note, "did you mean '%.*s'?", (int)strcspn(guess, "="), guess);
        return usage_error(note, "unknown option '%s'", a);
    }
    if (compiler_flag(a))
        return usage_error("compiler flags go to clang after '--': gpufuse file.c -o file.gf.cu -- FLAGS",
                           "unknown option '%s'", a);
    return usage_error(NULL, "unknown option '%s'", a);
}

/* ---- arguments ------------------------------------------------------------------ */

typedef struct Cmd {
    Options o;
    StrVec clang, targets;
    Arena *arena;
    bool emit_set, host, md, verbose;
    const char *compdb, *color, *mf;
} Cmd;

/* gcc's flags that getopt cannot spell: -M..., -W..., -w, -std=.  Returns
 * the number of argv entries used (0: not one of them, -1: usage error). */
static int gcc_flag(Cmd *c, char **argv, int i, int argc)
{
    const char *a = argv[i];
    if (!strcmp(a, "-MD")) {
        c->md = true;
        return 1;
    }
    if (!strcmp(a, "-MP")) {
        c->o.dep_phony = true;
        return 1;
    }
    if (!strcmp(a, "-MF") || !strcmp(a, "-MT") || !strcmp(a, "-MQ")) {
        if (i + 1 >= argc) {
            usage_error(NULL, "'%s' needs an argument", a);
            return -1;
        }
        const char *v = argv[i + 1];
        if (a[2] == 'F')
            c->mf = v, c->md = true;
        else
            strvec_push(&c->targets, a[2] == 'Q' ? make_escape(c->arena, v) : v);
        return 2;
    }
    if (!strcmp(a, "-w") || !strncmp(a, "-W", 2)) {
        int rc = diag_option(a);
        if (rc < 0) {
            unknown_option(a);
            return -1;
        }
        return 1;
    }
    if (!strncmp(a, "-std=", 5)) {
        strvec_push(&c->clang, a);
        return 1;
    }
    return 0;
}

enum { OPT_TARGET = 256, OPT_EMIT, OPT_REPORT, OPT_FAST_MATH, OPT_ATOMIC, OPT_PREFIX, OPT_DEPFILE, OPT_RESOURCE,
       OPT_COLOR, OPT_STRICT, OPT_VERSION };

static const struct option longopts[] = {
    {"output", required_argument, NULL, 'o'},
    {"target", required_argument, NULL, OPT_TARGET},
    {"emit", required_argument, NULL, OPT_EMIT},
    {"report", optional_argument, NULL, OPT_REPORT},
    {"fast-math", no_argument, NULL, OPT_FAST_MATH},
    {"atomic-reductions", no_argument, NULL, OPT_ATOMIC},
    {"prefix", required_argument, NULL, OPT_PREFIX},
    {"depfile", required_argument, NULL, OPT_DEPFILE},
    {"resource-dir", required_argument, NULL, OPT_RESOURCE},
    {"color", optional_argument, NULL, OPT_COLOR},
    {"strict", no_argument, NULL, OPT_STRICT},
    {"verbose", no_argument, NULL, 'v'},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, OPT_VERSION},
    {NULL, 0, NULL, 0},
};

/* One option from getopt_long: 0 to go on, else the exit status. */
static int take(Cmd *c, int opt, const char *arg, const char *spelled)
{
    switch (opt) {
    case 'o': c->o.output = arg; return 0;
    case 'p': c->compdb = arg; return 0;
    case 'I':
    case 'D':
    case 'U': {
        char *flag = arena_printf(c->arena, "-%c%s", opt, arg);
        strvec_push(&c->clang, flag);
        return 0;
    }
    case 'v': c->verbose = true; return 0;
    case 'h': fputs(usage, stdout); return -1;
    case OPT_VERSION: printf("gpufuse %s (libclang 16, isl; launcher ABI %d)\n", GFC_VERSION, GFC_LAUNCH_ABI); return -1;
    case OPT_TARGET:
        if (strcmp(arg, "cuda") && strcmp(arg, "host"))
            return usage_error(NULL, "unknown target '%s' (cuda or host)", arg);
        c->host = !strcmp(arg, "host");
        return 0;
    case OPT_EMIT: {
        static const char *const kinds[] = {"cu", "c", "ir", "report"};
        for (int k = 0; k < 4; k++)
            if (!strcmp(arg, kinds[k])) {
                c->o.emit = (EmitKind)k;
                c->emit_set = true;
                return 0;
            }
        return usage_error(NULL, "unknown --emit kind '%s' (cu, c, ir or report)", arg);
    }
    case OPT_REPORT:
        if (!arg || !strcmp(arg, "text"))
            c->o.report = REPORT_TEXT;
        else if (!strcmp(arg, "json"))
            c->o.report = REPORT_JSON;
        else
            return usage_error(NULL, "unknown report format '%s' (text or json)", arg);
        return 0;
    case OPT_FAST_MATH: c->o.fast_math = true; return 0;
    case OPT_ATOMIC: c->o.atomic_reductions = true; return 0;
    case OPT_PREFIX: c->o.prefix = arg; return 0;
    case OPT_DEPFILE: c->mf = arg, c->md = true; return 0;
    case OPT_RESOURCE: c->o.resource_dir = arg; return 0;
    case OPT_COLOR:
        c->color = arg ? arg : "always";
        if (strcmp(c->color, "auto") && strcmp(c->color, "always") && strcmp(c->color, "never"))
            return usage_error(NULL, "unknown --color value '%s' (auto, always or never)", c->color);
        return 0;
    case OPT_STRICT: diag_option("-Werror"); return 0;
    case ':': return usage_error(NULL, "'%s' needs an argument", spelled);
    default: return unknown_option(spelled);
    }
}

/* NO_COLOR (set and not empty) turns colours off, CLICOLOR_FORCE (not "0")
 * on; --color=always|never overrides both; else colours on a terminal. */
static bool use_color(const char *color)
{
    if (color && strcmp(color, "auto"))
        return !strcmp(color, "always");
    const char *no = getenv("NO_COLOR"), *force = getenv("CLICOLOR_FORCE");
    if (no && *no)
        return false;
    if (force && *force && strcmp(force, "0"))
        return true;
    return isatty(2);
}

/* The output's default name: the input's base name, .c -> .gf.cu / .gf.c. */
static const char *default_output(Cmd *c)
{
    if (c->o.emit == EMIT_IR || c->o.emit == EMIT_REPORT)
        return "-";
    const char *base = strrchr(c->o.input, '/');
    base = base ? base + 1 : c->o.input;
    char *out = arena_printf(c->arena, "%s%s", base, c->o.emit == EMIT_CU ? ".gf.cu" : ".gf.c");
    size_t n = strlen(base);
    if (n > 2 && !strcmp(base + n - 2, ".c"))
        strcpy(out + n - 2, c->o.emit == EMIT_CU ? ".gf.cu" : ".gf.c");
    return out;
}

/* -MD without -MF: the output's name with its last suffix replaced by .d. */
static const char *depfile_name(Cmd *c)
{
    if (c->mf)
        return c->mf;
    const char *slash = strrchr(c->o.output, '/'), *dot = strrchr(c->o.output, '.');
    size_t n = dot && (!slash || dot > slash) ? (size_t)(dot - c->o.output) : strlen(c->o.output);
    return arena_printf(c->arena, "%.*s.d", (int)n, c->o.output);
}

/* Everything after the options: defaults, the database, checks. */
static int finish(Cmd *c, StrVec *after)
{
    if (!c->o.input)
        return usage_error(NULL, "no input file");
    if (access(c->o.input, R_OK) != 0) {
        fprintf(stderr, "gpufuse: error: cannot read '%s'\n", c->o.input);
        return 1;
    }
    /* -p, or (as clang-tidy) a database found above the input unless '--' gave the flags */
    if (c->compdb && !compdb_flags(c->compdb, c->o.input, true, c->verbose, c->arena, &c->clang))
        return 1;
    if (!c->compdb && !after->n)
        compdb_flags(NULL, c->o.input, false, c->verbose, c->arena, &c->clang);
    for (int i = 0; i < after->n; i++)
        strvec_push(&c->clang, after->v[i]);
    if (!c->emit_set)
        c->o.emit = c->host ? EMIT_C : EMIT_CU;
    if (!c->o.output)
        c->o.output = default_output(c);
    if (c->md) {
        if (!strcmp(c->o.output, "-") && !c->mf)
            return usage_error(NULL, "-MD needs an output file (-o) or a depfile name (-MF)");
        if (!strcmp(c->o.output, "-") && !c->targets.n)
            return usage_error(NULL, "a depfile of standard output needs its target (-MT)");
        c->o.depfile = depfile_name(c);
    }
    c->o.dep_targets = c->targets.v;
    c->o.ndep_targets = c->targets.n;
    gfc_diag.color = use_color(c->color);
    gfc_diag.verbose = c->verbose;
    c->o.clang_args = c->clang.v;
    c->o.nclang_args = c->clang.n;
    return 0;
}

/* The argument getopt_long just read, for messages: a long option is the
 * element before optind; a short one may be inside a cluster (-O2) that
 * optind has not left yet. */
static const char *spelled(const StrVec *rest, int opt)
{
    const char *cur = optind < rest->n - 1 ? rest->v[optind] : NULL, *prev = rest->v[optind - 1];
    bool is_short = opt != '?' && opt != ':' ? opt < 256 : optopt > 0 && optopt < 256;
    if (is_short && cur && cur[0] == '-' && cur[1] != '-' && strchr(cur + 1, optopt ? optopt : opt))
        return cur;
    return prev;
}

int main(int argc, char **argv)
{
    Cmd c = {.o = {.prefix = "", .resource_dir = GFC_RESOURCE_DIR, .emit = EMIT_CU}, .arena = arena_new()};
    StrVec after = {0}, rest = {0};
    strvec_push(&c.clang, default_include_arg());
    /* everything after '--' is clang's; gcc's own spellings are taken out
     * first, getopt_long reads the rest */
    strvec_push(&rest, argv[0]);
    int rc = 0;
    for (int i = 1; i < argc && !rc; i++) {
        if (!strcmp(argv[i], "--")) {
            for (i++; i < argc; i++)
                strvec_push(&after, argv[i]);
            break;
        }
        int used = gcc_flag(&c, argv, i, argc);
        if (used < 0)
            rc = 2;
        else if (used)
            i += used - 1;
        else
            strvec_push(&rest, argv[i]);
    }
    strvec_push(&rest, NULL);
    opterr = 0; /* our messages; ':' first: a missing argument is ':' */
    for (int opt; !rc;) {
        if ((opt = getopt_long(rest.n - 1, (char **)rest.v, ":o:p:I:D:U:vh", longopts, NULL)) == -1)
            break;
        rc = take(&c, opt, optarg, spelled(&rest, opt));
    }
    for (int i = optind; !rc && i < rest.n - 1; i++) {
        if (c.o.input)
            rc = usage_error(NULL, "only one input file is accepted ('%s')", rest.v[i]);
        c.o.input = rest.v[i];
    }
    if (!rc)
        rc = finish(&c, &after);
    if (!rc)
        rc = run_big_stack(&c.o);
    free(c.clang.v);
    free(c.targets.v);
    free(after.v);
    free(rest.v);
    arena_free(c.arena);
    return rc < 0 ? 0 : rc;
}
