/* clang_compat.c - operator spelling for libclang 14-19.  From 17 on,
 * clang_getCursorBinaryOperatorKind exists; before it, the operator is the
 * first token after the left operand (binary) or the token before/after the
 * operand (unary).  Tokens are read from the cursor's extent. */
#include "clang_compat.h"
#include "gfc.h"

#include <string.h>

static unsigned offset_of(CXSourceLocation l)
{
    unsigned off;
    clang_getSpellingLocation(l, NULL, NULL, NULL, &off);
    return off;
}

typedef struct FirstKid {
    CXCursor c;
    int n;
} FirstKid;

static enum CXChildVisitResult first_kid(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    FirstKid *f = d;
    if (f->n++ == 0)
        f->c = c;
    return CXChildVisit_Break;
}

const char *gfc_binary_op(CXTranslationUnit tu, CXCursor c, Arena *a)
{
    FirstKid fk = {.n = 0};
    clang_visitChildren(c, first_kid, &fk);
    if (!fk.n)
        return NULL;
    unsigned lhs_end = offset_of(clang_getRangeEnd(clang_getCursorExtent(fk.c)));
    CXToken *toks;
    unsigned n;
    clang_tokenize(tu, clang_getCursorExtent(c), &toks, &n);
    const char *op = NULL;
    for (unsigned i = 0; i < n; i++) {
        if (clang_getTokenKind(toks[i]) != CXToken_Punctuation)
            continue;
        if (offset_of(clang_getRangeStart(clang_getTokenExtent(tu, toks[i]))) < lhs_end)
            continue;
        CXString s = clang_getTokenSpelling(tu, toks[i]);
        op = arena_strdup(a, clang_getCString(s));
        clang_disposeString(s);
        break;
    }
    clang_disposeTokens(tu, toks, n);
    /* a closing bracket of the operand is not an operator */
    if (op && (!strcmp(op, ")") || !strcmp(op, "]")))
        return NULL;
    return op;
}

const char *gfc_unary_op(CXTranslationUnit tu, CXCursor c, CXCursor operand, Arena *a, bool *postfix)
{
    unsigned start = offset_of(clang_getRangeStart(clang_getCursorExtent(c)));
    unsigned ostart = offset_of(clang_getRangeStart(clang_getCursorExtent(operand)));
    CXToken *toks;
    unsigned n;
    clang_tokenize(tu, clang_getCursorExtent(c), &toks, &n);
    const char *op = NULL;
    if (n) {
        *postfix = ostart <= start;
        CXToken t = *postfix ? toks[n - 1] : toks[0];
        if (clang_getTokenKind(t) == CXToken_Punctuation) {
            CXString s = clang_getTokenSpelling(tu, t);
            op = arena_strdup(a, clang_getCString(s));
            clang_disposeString(s);
        } else if (clang_getTokenKind(t) == CXToken_Keyword) {
            op = NULL;       /* sizeof, __extension__, __real__ ... */
        }
    }
    clang_disposeTokens(tu, toks, n);
    return op;
}
