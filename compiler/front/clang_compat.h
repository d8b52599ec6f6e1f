/* clang_compat.h - what differs between libclang versions, in one place:
 * the operator of an expression node.  libclang 17 has an operator-kind
 * query; before it, the operators of the marked functions are read from
 * clang's own printed form of each function (clang_compat.c says how).
 * Either way they come from the AST, macros expanded, never from the
 * source's tokens. */
#ifndef GFC_CLANG_COMPAT_H
#define GFC_CLANG_COMPAT_H

#include <clang-c/Index.h>
#include <stdbool.h>

#include "gfc.h"

/* An `__extension__` marker: no operator, the operand itself. */
#define GFC_OP_EXTENSION OP_COUNT

typedef struct GfcOps GfcOps;

/* The file as parsed: what re-parsing it needs. */
typedef struct GfcSource {
    CXTranslationUnit tu;
    const char *path;            /* as given to clang */
    const char *text;            /* the file's contents */
    const char *const *args;     /* clang's arguments */
    int nargs;
} GfcSource;

/* Reads the operators of the function definitions fns[0..n) of src.tu
 * (the marked functions: their parameters and bodies). */
GfcOps *gfc_ops_read(Arena *a, const GfcSource *src, const CXCursor *fns, int n);

/* The operator of a BinaryOperator, CompoundAssignOperator or
 * UnaryOperator inside one of those functions: true and *op (OP_NONE for
 * an operator the IR has no enum for, GFC_OP_EXTENSION for __extension__),
 * or false when it was not read: an integer constant the printer wrote as
 * its value (read it with clang_Cursor_Evaluate), or a node after the
 * point where the printed form stopped matching (gfc_ops_failure). */
bool gfc_op(const GfcOps *t, CXCursor c, Op *op);

/* Why some operators of function fn could not be read (NULL when all
 * were), and where in the source (*at). */
const char *gfc_ops_failure(const GfcOps *t, CXCursor fn, CXCursor *at);

/* Whether cursor c was written in the main file, directly or through a
 * macro expanded there (`GPUFUSE void NAME(f)(...)`, whose name clang
 * places in the macro's expansion, not in the file). */
bool gfc_from_main_file(CXCursor c);

#endif
