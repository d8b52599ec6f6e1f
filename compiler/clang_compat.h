/* clang_compat.h - what differs between libclang versions, in one place.
 * libclang < 17 has no operator-kind API (clang_getCursorBinaryOperatorKind
 * came with 17, and clang_getCursorPrettyPrinted prints declarations only):
 * operators are read from tokens here, and mapped to the IR's Op once. */
#ifndef GFC_CLANG_COMPAT_H
#define GFC_CLANG_COMPAT_H

#include <clang-c/Index.h>
#include <stdbool.h>

#include "gfc.h"

/* The operator of a BinaryOperator or CompoundAssignOperator; OP_NONE when
 * it cannot be read. */
Op gfc_binary_op(CXTranslationUnit tu, CXCursor c);
/* The operator of a UnaryOperator with the given operand (prefix or
 * postfix); OP_NONE for __extension__, __real__ and the like. */
Op gfc_unary_op(CXTranslationUnit tu, CXCursor c, CXCursor operand);

#endif
