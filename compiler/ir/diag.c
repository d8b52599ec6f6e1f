/* diag.c - diagnostics in clang's format: file:line:col, level, message,
 * flag, then the source line and a caret under the column; the warning
 * options (-Wno-gpufuse-NAME, -Werror=gpufuse-NAME, -Werror, -w) that
 * decide what a flagged warning becomes, the later option winning; remarks
 * (-Rgpufuse); and SARIF 2.1.0 (--diagnostics-format=sarif) for editors
 * and code scanning. */
#include "gfc.h"

#include <stdlib.h>
#include <string.h>

DiagEngine gfc_diag = {.out = NULL};

/* ---- SARIF: diagnostics collected, one log at the end ------------------------ */

typedef struct Record {
    DiagLevel level;
    char *file, *flag, *msg;
    int line, col;
} Record;

static struct {
    Record *v;
    int n, cap;
    char *stray;                 /* what was printed to gfc_diag.out meanwhile */
    size_t nstray;
    FILE *capture;
} sarif;

static void record(DiagLevel level, Loc loc, const char *flag, const char *msg)
{
    if (sarif.n == sarif.cap) {
        int cap = sarif.cap ? 2 * sarif.cap : 16;
        Record *v = realloc(sarif.v, (size_t)cap * sizeof *v);
        if (!v)
            return; /* out of memory: the diagnostic is lost, its count is not */
        sarif.v = v;
        sarif.cap = cap;
    }
    sarif.v[sarif.n++] = (Record){level, loc.file ? strdup(loc.file) : NULL, flag ? strdup(flag) : NULL,
                                  strdup(msg), loc.line, loc.col};
}

/* gfc_diag.out is a memory stream from the first diagnostic on, so that
 * text printed to it directly (clang's own errors) is not mixed into the
 * SARIF log; it becomes results too. */
static void capture_stray(void)
{
    if (!sarif.capture && !gfc_diag.out)
        gfc_diag.out = sarif.capture = open_memstream(&sarif.stray, &sarif.nstray);
}

/* Every -Wgpufuse-NAME a diagnostic carries (tests/cli checks the sources
 * use no other). */
static const char *const warning_names[] = {
    "alloc", "asm", "call", "const", "control", "cuda", "dependence", "empty", "extent", "global", "index", "io",
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

static void count(DiagLevel level)
{
    if (level == DIAG_WARNING)
        gfc_diag.warnings++;
    else if (level == DIAG_ERROR)
        gfc_diag.errors++;
}

static void vdiag(DiagLevel level, Loc loc, const char *flag, const char *fmt, va_list ap)
{
    bool promoted = false;
    if (level == DIAG_REMARK && !gfc_diag.remarks)
        return;
    if (level == DIAG_WARNING) {
        int l = warning_level(flag);
        if (l < 0)
            return; /* hidden: the region is still kept on the CPU */
        promoted = l == DIAG_ERROR;
        level = (DiagLevel)l;
    }
    if (gfc_diag.sarif) {
        char msg[4096];
        vsnprintf(msg, sizeof msg, fmt, ap);
        record(level, loc, flag, msg);
        count(level);
        return;
    }
    FILE *out = gfc_diag.out ? gfc_diag.out : stderr;
    static const char *names[] = {"note", "warning", "error", "remark"};
    static const char *colors[] = {"\033[1;30m", "\033[1;35m", "\033[1;31m", "\033[1;34m"};
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
    if (level != DIAG_REMARK && loc.file && loc.line > 0 && source_line(loc.file, loc.line, line, sizeof line)) {
        fprintf(out, "%s\n", line);
        /* the caret keeps tabs so it lines up under the column */
        int col = loc.col > 0 ? loc.col : 1;
        for (int i = 0; i < col - 1 && line[i]; i++)
            fputc(line[i] == '\t' ? '\t' : ' ', out);
        fprintf(out, "%s^%s\n", c ? "\033[1;32m" : "", c ? "\033[0m" : "");
    }
    count(level);
}

void diag_at(DiagLevel level, Loc loc, const char *flag, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vdiag(level, loc, flag, fmt, ap);
    va_end(ap);
}

/* The last rejection, kept (even when its warning is hidden) until the
 * region that it rejected takes it. */
static struct {
    bool set;
    Loc loc;
    const char *flag;
    char *message;
} last_reject;

void diag_reject(Loc loc, const char *flag, const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    char *m = malloc((size_t)(n < 0 ? 0 : n) + 1);
    if (m) {
        va_copy(ap2, ap);
        vsnprintf(m, (size_t)n + 1, fmt, ap2);
        va_end(ap2);
    }
    free(last_reject.message);
    last_reject.set = true;
    last_reject.loc = loc;
    last_reject.flag = flag;
    last_reject.message = m;
    vdiag(DIAG_WARNING, loc, flag, fmt, ap);
    va_end(ap);
}

bool diag_take_reject(Arena *a, Reject *why)
{
    if (!last_reject.set)
        return false;
    why->loc = last_reject.loc;
    why->flag = last_reject.flag ? arena_strdup(a, last_reject.flag) : NULL;
    why->message = arena_strdup(a, last_reject.message ? last_reject.message : "");
    if (last_reject.loc.file)
        why->loc.file = arena_strdup(a, last_reject.loc.file);
    free(last_reject.message);
    last_reject.message = NULL;
    last_reject.set = false;
    return true;
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

/* ---- the SARIF log ------------------------------------------------------------ */

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", f);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

/* A file name as a URI reference (RFC 3986): unreserved characters and '/'
 * as they are, the rest percent-encoded. */
static void uri(FILE *f, const char *path)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr("-._~/", *p))
            fputc(*p, f);
        else
            fprintf(f, "%%%02X", *p);
    }
    fputc('"', f);
}

/* clang's own "file:line:col: error: message" lines, printed by the front
 * end, as records. */
static void parse_stray(void)
{
    if (!sarif.capture)
        return;
    fclose(sarif.capture);
    sarif.capture = NULL;
    gfc_diag.out = NULL;
    for (char *line = sarif.stray ? strtok(sarif.stray, "\n") : NULL; line; line = strtok(NULL, "\n")) {
        char file[2048], lvl[32];
        int ln, col, used = 0;
        if (sscanf(line, "%2047[^:]:%d:%d: %31[a-z ]: %n", file, &ln, &col, lvl, &used) == 4 && used) {
            DiagLevel l = strstr(lvl, "error") ? DIAG_ERROR : strstr(lvl, "warning") ? DIAG_WARNING : DIAG_NOTE;
            record(l, (Loc){file, ln, col}, "clang", line + used);
        }
    }
    free(sarif.stray);
    sarif.stray = NULL;
}

static const char *level_name(DiagLevel l)
{
    return l == DIAG_ERROR ? "error" : l == DIAG_WARNING ? "warning" : "note";
}

static void sarif_rules(FILE *f)
{
    fputs("\"rules\": [", f);
    for (int i = 0; i < NWARN; i++)
        fprintf(f, "%s{\"id\": \"gpufuse-%s\", \"shortDescription\": {\"text\": \"a function kept on the CPU "
                   "(-Wgpufuse-%s)\"}}", i ? ", " : "", warning_names[i], warning_names[i]);
    fputs(", {\"id\": \"gpufuse-remark\", \"shortDescription\": {\"text\": \"what gpufuse did (-Rgpufuse)\"}}"
          ", {\"id\": \"gpufuse\", \"shortDescription\": {\"text\": \"an error of gpufuse itself\"}}"
          ", {\"id\": \"clang\", \"shortDescription\": {\"text\": \"the C front end (libclang)\"}}]", f);
}

static void sarif_result(FILE *f, const Record *r)
{
    const char *rule = !r->flag ? "gpufuse" : !strcmp(r->flag, "-Rgpufuse") ? "gpufuse-remark"
                       : !strncmp(r->flag, "-W", 2) ? r->flag + 2 : r->flag;
    fprintf(f, "{\"ruleId\": \"%s\", \"level\": \"%s\", \"message\": {\"text\": ", rule, level_name(r->level));
    json_string(f, r->msg);
    fputc('}', f);
    if (r->file) {
        fputs(", \"locations\": [{\"physicalLocation\": {\"artifactLocation\": {\"uri\": ", f);
        uri(f, r->file);
        fprintf(f, "}, \"region\": {\"startLine\": %d, \"startColumn\": %d}}}]", r->line > 0 ? r->line : 1,
                r->col > 0 ? r->col : 1);
    }
    fputc('}', f);
}

void diag_finish(void)
{
    if (!gfc_diag.sarif)
        return;
    parse_stray();
    FILE *f = stderr;
    fprintf(f, "{\"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\", \"version\": \"2.1.0\", "
               "\"runs\": [{\"tool\": {\"driver\": {\"name\": \"gpufuse\", \"version\": \"%s\", ", GFC_VERSION);
    sarif_rules(f);
    fputs("}}, \"results\": [", f);
    for (int i = 0; i < sarif.n; i++) {
        fputs(i ? ",\n  " : "\n  ", f);
        sarif_result(f, &sarif.v[i]);
        free(sarif.v[i].file), free(sarif.v[i].flag), free(sarif.v[i].msg);
    }
    fputs("]}]}\n", f);
    free(sarif.v);
    sarif.v = NULL;
    sarif.n = sarif.cap = 0;
}

/* --diagnostics-format=sarif: from now on diagnostics are collected. */
void diag_use_sarif(void)
{
    gfc_diag.sarif = true;
    capture_stray();
}
