/* clang_compat.c - the operator of an expression node on libclang 14-19.
 * Before 17 libclang has no operator-kind query: the operator is the first
 * token after the left operand (binary) or the token before/after the
 * operand (unary), read from the cursor's extent.  This fails when the
 * operator comes from a macro. */
#include "clang_compat.h"

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

Op gfc_binary_op(CXTranslationUnit tu, CXCursor c)
{
    FirstKid fk = {.n = 0};
    clang_visitChildren(c, first_kid, &fk);
    if (!fk.n)
        return OP_NONE;
    unsigned lhs_end = offset_of(clang_getRangeEnd(clang_getCursorExtent(fk.c)));
    CXToken *toks;
    unsigned n;
    clang_tokenize(tu, clang_getCursorExtent(c), &toks, &n);
    Op op = OP_NONE;
    for (unsigned i = 0; i < n; i++) {
        if (clang_getTokenKind(toks[i]) != CXToken_Punctuation)
            continue;
        if (offset_of(clang_getRangeStart(clang_getTokenExtent(tu, toks[i]))) < lhs_end)
            continue;
        CXString s = clang_getTokenSpelling(tu, toks[i]);
        op = op_binary_of(clang_getCString(s));   /* a closing bracket is none */
        clang_disposeString(s);
        break;
    }
    clang_disposeTokens(tu, toks, n);
    return op;
}

Op gfc_unary_op(CXTranslationUnit tu, CXCursor c, CXCursor operand)
{
    unsigned start = offset_of(clang_getRangeStart(clang_getCursorExtent(c)));
    unsigned ostart = offset_of(clang_getRangeStart(clang_getCursorExtent(operand)));
    CXToken *toks;
    unsigned n;
    clang_tokenize(tu, clang_getCursorExtent(c), &toks, &n);
    Op op = OP_NONE;
    if (n) {
        bool postfix = ostart <= start;
        CXToken t = postfix ? toks[n - 1] : toks[0];
        if (clang_getTokenKind(t) == CXToken_Punctuation) {
            CXString s = clang_getTokenSpelling(tu, t);
            op = op_unary_of(clang_getCString(s), postfix);
            clang_disposeString(s);
        }
    }
    clang_disposeTokens(tu, toks, n);
    return op;
}
