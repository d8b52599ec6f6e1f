/* decls.h - what the front end (parse.c) asks decls.c, in libclang's terms:
 * the generated name of a record type, and the static helpers a region calls,
 * each with what its definition names (types, constants, other helpers). */
#ifndef GFC_DECLS_H
#define GFC_DECLS_H

#include "gfc.h"

#include <clang-c/Index.h>

/* Around the parse of one translation unit (the cursors of tu are valid). */
void decls_begin(Unit *u, CXTranslationUnit tu);
void decls_end(Unit *u);

/* The helper `callee` refers to: a function with internal linkage whose
 * definition the translation unit holds (in the file or a header), or NULL. */
Func *decls_helper(Unit *u, CXCursor callee);
/* Region r calls helper f: its definition (and what it names) goes into the
 * generated file.  NULL, or why the helper cannot be written for CUDA. */
const char *decls_use_helper(Unit *u, Region *r, Func *f);
/* Region r reads the table `var` (a const array with an initialiser: file
 * scope, a static local, or a local whose initialiser is constant): its
 * definition goes into the generated file, a host and a device copy under
 * one name, which this returns; NULL with *why set when it cannot be written. */
const char *decls_table(Unit *u, Region *r, CXCursor var, const char **why);
/* The name generated code gives record type t (a struct or union), whose
 * definition region r needs; NULL with *why set when it cannot be written. */
const char *decls_record(Unit *u, Region *r, CXType t, const char **why);

#endif
