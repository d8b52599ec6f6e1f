/* cuda_rule.h - GPUFUSE_CUDA's annotations, read by parse.c (cuda_rule.c). */
#ifndef GFC_CUDA_RULE_H
#define GFC_CUDA_RULE_H

#include "gfc.h"

#include <clang-c/Index.h>

/* After the parameters of r are parsed: when `fn` carries GPUFUSE_CUDA's
 * annotations, checks the kernel's name and launch rule and sets r->cuda.
 * False when they are wrong (diagnosed with diag_reject, -Wgpufuse-cuda):
 * the region keeps its CPU body. */
bool cuda_rule_read(Unit *u, Region *r, CXCursor fn);

#endif
