/* clang_compat.h - what differs between libclang versions, in one place.
 * libclang < 17 has no operator-kind API: operators are read from tokens. */
#ifndef GFC_CLANG_COMPAT_H
#define GFC_CLANG_COMPAT_H

#include <clang-c/Index.h>
#include <stdbool.h>

struct Arena;
/* The operator of a BinaryOperator/CompoundAssignOperator ("+", "<<=", ...). */
const char *gfc_binary_op(CXTranslationUnit tu, CXCursor c, struct Arena *a);
/* The operator of a UnaryOperator; *postfix set for i++ / i--. */
const char *gfc_unary_op(CXTranslationUnit tu, CXCursor c, CXCursor operand, struct Arena *a, bool *postfix);

#endif
