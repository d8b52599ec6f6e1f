/* diag.c - diagnostics in clang's format: file:line:col, level, message,
 * flag, then the source line and a caret under the column; and the warning
 * options (-Wno-gpufuse-NAME, -Werror=gpufuse-NAME, -Werror, -w) that
 * decide what a flagged warning becomes, the later option winning. */
#include "gfc.h"

#include <stdlib.h>
#include <string.h>

DiagEngine gfc_diag = {.out = NULL};

/* Every -Wgpufuse-NAME a diagnostic carries (tests/cli checks the sources
 * use no other). */
static const char *const warning_names[] = {
    "alloc", "asm", "call", "const", "control", "dependence", "empty", "extent", "global", "index", "io",
    "loop", "param", "pointer", "rank", "size", "static", "syntax", "temp", "type", "volatile",
};
enum { NWARN = sizeof warning_names / sizeof *warning_names };

/* Per warning: shown (1) or hidden (0); made an error (1), kept a warning
 * (0) or as -Werror says (-1). */
static signed char shown[NWARN], as_error[NWARN];
static bool policy_set;

static void init_policy(void)
{
    if (policy_set)
        return;
    for (int i = 0; i < NWARN; i++)
        shown[i] = 1, as_error[i] = -1;
    policy_set = true;
}

static int warning_index(const char *name)
{
    for (int i = 0; i < NWARN; i++)
        if (!strcmp(warning_names[i], name))
            return i;
    return -1;
}

/* clang's "unknown warning option" warning, with the closest name. */
static void unknown_warning(const char *opt, const char *prefix, const char *name)
{
    int best = -1, bd = 3;
    for (int i = 0; i < NWARN; i++) {
        /* a cheap distance: differing characters plus the length difference */
        const char *a = name, *b = warning_names[i];
        int d = abs((int)strlen(a) - (int)strlen(b));
        for (; *a && *b; a++, b++)
            d += *a != *b;
        if (d < bd)
            bd = d, best = i;
    }
    fprintf(stderr, "gpufuse: warning: unknown warning option '%s'", opt);
    if (best >= 0)
        fprintf(stderr, "; did you mean '%sgpufuse-%s'?", prefix, warning_names[best]);
    fprintf(stderr, " [-Wunknown-warning-option]\n");
}

int diag_option(const char *opt)
{
    init_policy();
    if (!strcmp(opt, "-w"))
        return gfc_diag.no_warnings = true, 0;
    if (!strcmp(opt, "-Werror") || !strcmp(opt, "-Wno-error")) {
        gfc_diag.strict = opt[2] == 'e';
        return 0;
    }
    static const struct {
        const char *prefix;
        int shown, error;      /* what it sets; -2: leaves alone */
    } forms[] = {
        {"-Wno-error=gpufuse-", -2, 0}, {"-Werror=gpufuse-", 1, 1}, {"-Wno-gpufuse-", 0, -2}, {"-Wgpufuse-", 1, -2},
    };
    for (size_t f = 0; f < sizeof forms / sizeof *forms; f++) {
        size_t n = strlen(forms[f].prefix);
        if (strncmp(opt, forms[f].prefix, n))
            continue;
        int i = warning_index(opt + n);
        if (i < 0) {
            char prefix[32];
            snprintf(prefix, sizeof prefix, "%.*s", (int)(n - 8), forms[f].prefix);
            unknown_warning(opt, prefix, opt + n);
            return 0;
        }
        if (forms[f].shown != -2)
            shown[i] = (signed char)forms[f].shown;
        if (forms[f].error != -2)
            as_error[i] = (signed char)forms[f].error;
        return 0;
    }
    return -1;
}

/* What a warning carrying `flag` ("-Wgpufuse-NAME") becomes: a warning, an
 * error, or nothing (-1). */
static int warning_level(const char *flag)
{
    init_policy();
    int i = flag && !strncmp(flag, "-Wgpufuse-", 10) ? warning_index(flag + 10) : -1;
    if (i >= 0 && as_error[i] == 1)
        return DIAG_ERROR;
    if (gfc_diag.no_warnings || (i >= 0 && !shown[i]))
        return -1;
    if (gfc_diag.strict && (i < 0 || as_error[i] != 0))
        return DIAG_ERROR;
    return DIAG_WARNING;
}

/* Reads line `line` of `file` (1-based) into buf; false if unavailable. */
static bool source_line(const char *file, int line, char *buf, size_t size)
{
    FILE *f = fopen(file, "r");
    if (!f)
        return false;
    int cur = 1;
    bool ok = false;
    while (fgets(buf, (int)size, f)) {
        size_t n = strlen(buf);
        bool whole = n && buf[n - 1] == '\n';
        if (cur == line) {
            if (whole)
                buf[n - 1] = '\0';
            ok = true;
            break;
        }
        if (whole)
            cur++;
    }
    fclose(f);
    return ok;
}

static void vdiag(DiagLevel level, Loc loc, const char *flag, const char *fmt, va_list ap)
{
    bool promoted = false;
    if (level == DIAG_WARNING) {
        int l = warning_level(flag);
        if (l < 0)
            return; /* hidden: the region is still kept on the CPU */
        promoted = l == DIAG_ERROR;
        level = (DiagLevel)l;
    }
    FILE *out = gfc_diag.out ? gfc_diag.out : stderr;
    static const char *names[] = {"note", "warning", "error"};
    static const char *colors[] = {"\033[1;30m", "\033[1;35m", "\033[1;31m"};
    bool c = gfc_diag.color;
    if (loc.file)
        fprintf(out, "%s%s:%d:%d: ", c ? "\033[1m" : "", loc.file, loc.line, loc.col);
    else
        fprintf(out, "%sgpufuse: ", c ? "\033[1m" : "");
    fprintf(out, "%s%s:%s ", c ? colors[level] : "", names[level], c ? "\033[0m\033[1m" : "");
    vfprintf(out, fmt, ap);
    if (flag)
        fprintf(out, " [%s%s]", promoted ? "-Werror," : "", flag);
    fprintf(out, "%s\n", c ? "\033[0m" : "");
    char line[4096];
    if (loc.file && loc.line > 0 && source_line(loc.file, loc.line, line, sizeof line)) {
        fprintf(out, "%s\n", line);
        /* the caret keeps tabs so it lines up under the column */
        int col = loc.col > 0 ? loc.col : 1;
        for (int i = 0; i < col - 1 && line[i]; i++)
            fputc(line[i] == '\t' ? '\t' : ' ', out);
        fprintf(out, "%s^%s\n", c ? "\033[1;32m" : "", c ? "\033[0m" : "");
    }
    if (level == DIAG_WARNING)
        gfc_diag.warnings++;
    else if (level == DIAG_ERROR)
        gfc_diag.errors++;
}

void diag_at(DiagLevel level, Loc loc, const char *flag, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vdiag(level, loc, flag, fmt, ap);
    va_end(ap);
}

void diag_reject(Loc loc, const char *flag, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vdiag(DIAG_WARNING, loc, flag, fmt, ap);
    va_end(ap);
}

/* Shell-quoted where needed, so the line can be pasted. */
static void print_arg(FILE *f, const char *a)
{
    if (*a && !a[strcspn(a, " \t\n'\"\\$`*?[]{}()<>|&;#~!")]) {
        fprintf(f, " %s", a);
        return;
    }
    fputs(" '", f);
    for (; *a; a++)
        *a == '\'' ? fputs("'\\''", f) : fputc(*a, f);
    fputc('\'', f);
}

void diag_clang_args(const char *path, const char *const *args, int n)
{
    if (!gfc_diag.verbose)
        return;
    FILE *f = gfc_diag.out ? gfc_diag.out : stderr;
    fprintf(f, "gpufuse: libclang parses:");
    for (int i = 0; i < n; i++)
        print_arg(f, args[i]);
    print_arg(f, path);
    fputc('\n', f);
}
