/* names.c - how generated code names a user identifier, and the input's
 * path as generated code prints it.  decls_cname renames an identifier that
 * C++ reserves (new, class), that the generated file's headers declare (max,
 * y0, dim3, stdin, M_PI: reserved_names.h, from scripts/reserved_names.py),
 * that is in gpufuse's own namespace (gf_, GF_), or that is not ASCII (nvcc
 * refuses it in device entities).  The front end (decls.c) and every later
 * pass ask here; nothing here knows libclang. */
#include "gfc.h"
#include "reserved_names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* C++ keywords and alternative tokens that C lets a program use as names. */
static const char *const cxx_keywords[] = {
    "alignas", "alignof", "and", "and_eq", "asm", "bitand", "bitor", "bool", "catch", "char8_t", "char16_t",
    "char32_t", "class", "co_await", "co_return", "co_yield", "compl", "concept", "const_cast", "consteval",
    "constexpr", "constinit", "decltype", "delete", "dynamic_cast", "explicit", "export", "false", "friend",
    "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr", "operator", "or", "or_eq", "private",
    "protected", "public", "reinterpret_cast", "requires", "static_assert", "static_cast", "template", "this",
    "thread_local", "throw", "true", "try", "typeid", "typename", "using", "virtual", "wchar_t", "xor", "xor_eq",
    NULL};

bool names_in_list(const char *const *l, const char *s)
{
    for (int i = 0; l[i]; i++)
        if (!strcmp(l[i], s))
            return true;
    return false;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool reserved(const char *s)
{
    return bsearch(&s, gf_reserved_names, sizeof gf_reserved_names / sizeof *gf_reserved_names,
                   sizeof *gf_reserved_names, cmp_name) != NULL;
}

static bool ascii_alnum(unsigned c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

bool names_plain_ident(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (!ascii_alnum(*p) && *p != '_')
            return false;
    return *s != '\0';
}

/* One UTF-8 sequence at p: its code point, and its length (1 for a stray byte). */
static int utf8_next(const unsigned char *p, unsigned *cp)
{
    int n = *p >= 0xf0 ? 4 : *p >= 0xe0 ? 3 : *p >= 0xc0 ? 2 : 1;
    unsigned c = n == 1 ? *p : *p & (0x3fu >> (n - 1));
    for (int i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80) {
            *cp = *p;
            return 1;
        }
        c = c << 6 | (p[i] & 0x3fu);
    }
    *cp = c;
    return n;
}

/* An identifier that is not plain ASCII, in ASCII: letters and digits kept,
 * '_' as "_x", any other character as "_u" and six hex digits (one to one). */
static const char *mangle(Arena *a, const char *s)
{
    Buf b = {0};
    buf_puts(&b, "gf_x_");
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        unsigned cp;
        if (ascii_alnum(*p)) {
            buf_printf(&b, "%c", *p++);
        } else if (*p == '_') {
            buf_puts(&b, "_x");
            p++;
        } else {
            p += utf8_next(p, &cp);
            buf_printf(&b, "_u%06x", cp);
        }
    }
    const char *r = arena_strdup(a, b.data);
    buf_free(&b);
    return r;
}

const char *decls_cname(Arena *a, const char *name)
{
    if (!names_plain_ident(name))
        return mangle(a, name);
    if (names_in_list(cxx_keywords, name) || !strncmp(name, "gf_", 3) || !strncmp(name, "GF_", 3) || reserved(name))
        return arena_printf(a, "gf_u_%s", name);
    return name;
}

const char *decls_gen_path(Arena *a, const char *path)
{
    const char *p = path;
    if (p[0] == '/')
        p = strrchr(p, '/') + 1;
    return c_escape(a, p);       /* safe in a comment and in a string literal */
}

/* ---- libclang helpers ---------------------------------------------------------------- */

/* ---- escaping ------------------------------------------------------------------ */

/* One form that is safe both inside a comment and inside a string literal:
 * backslash, quote and control characters as C escapes; the '/' of a '*' '/'
 * pair and the '?' that would complete a trigraph as octal escapes (inside a
 * string they read back as the same character, inside a comment they are
 * inert text). */
static bool needs_escape(const char *s)
{
    for (const char *p = s; *p; p++) {
        unsigned char ch = (unsigned char)*p;
        if (ch == '\\' || ch == '"' || ch < 0x20 || ch == 0x7f || (ch == '/' && p > s && p[-1] == '*') ||
            (ch == '?' && p > s && p[-1] == '?'))
            return true;
    }
    return false;
}

const char *c_escape(Arena *a, const char *s)
{
    if (!s || !needs_escape(s))
        return s;
    size_t n = strlen(s);
    char *out = arena_alloc(a, 4 * n + 1), *q = out;
    for (const char *p = s; *p; p++) {
        unsigned char ch = (unsigned char)*p;
        if (ch == '\\' || ch == '"') {
            *q++ = '\\';
            *q++ = (char)ch;
        } else if (ch == '\n') {
            *q++ = '\\';
            *q++ = 'n';
        } else if (ch == '\t') {
            *q++ = '\\';
            *q++ = 't';
        } else if (ch < 0x20 || ch == 0x7f || (ch == '/' && p > s && p[-1] == '*') ||
                   (ch == '?' && p > s && p[-1] == '?')) {
            q += sprintf(q, "\\%03o", ch);
        } else {
            *q++ = (char)ch;
        }
    }
    *q = '\0';
    return out;
}
