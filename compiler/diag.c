/* diag.c - diagnostics in clang's format: file:line:col, level, message,
 * flag, then the source line and a caret under the column. */
#include "gfc.h"

#include <stdlib.h>
#include <string.h>

DiagEngine gfc_diag = {.out = NULL};

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
        fprintf(out, " [%s%s]", level == DIAG_ERROR && gfc_diag.strict ? "-Werror," : "", flag);
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
    vdiag(gfc_diag.strict ? DIAG_ERROR : DIAG_WARNING, loc, flag, fmt, ap);
    va_end(ap);
}
