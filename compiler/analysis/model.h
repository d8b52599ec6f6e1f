/* model.h - the polyhedral model deps.c builds, for the analysis files
 * that work on it (resched.c); nothing outside compiler/analysis/ includes
 * it.  deps.c documents the model; gfc.h has the region-level interface. */
#ifndef GF_MODEL_H
#define GF_MODEL_H

#include "gfc.h"

#include <isl/ast.h>
#include <isl/id.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/union_map.h>
#include <isl/union_set.h>

/* One access of a polyhedral statement. */
typedef struct Access {
    Var *var;
    Expr *e;                     /* the element read or written (NULL: a whole array) */
    isl_map *map;                /* statement instance -> element (not restricted to the domain) */
    bool write, red;             /* red: a reduction statement's own accumulator */
    bool exact;                  /* every subscript affine */
    bool ctl;                    /* read by a loop bound or condition around the statement that
                                    a header (Model.hdrs) also reads: extents take the header's */
} Access;

typedef struct PStmt {
    Stmt *s;
    Stmt **loops;                /* the loops around it, outermost first */
    int nloops;
    isl_space *space;            /* [params] -> S<id>[iv, ...] */
    isl_set *dom;                /* its instances */
    bool exact_domain;
    bool exact_cond;             /* every enclosing condition is in dom exactly */
    bool wrap_cond;              /* one orders unsigned values that may wrap (wraps_in_order): dom
                                    holds instances C skips, where an unsigned subscript may be below 0 */
    int ord;
    Vec acc;                     /* Access* */
} PStmt;

/* An enclosing condition (negated in an else branch). */
typedef struct Cond {
    Expr *e;
    bool neg;
} Cond;

typedef struct Model {
    Unit *u;
    Region *r;
    Arena *a;
    isl_ctx *ctx;                /* one per model: freed with it */
    isl_space *params;           /* the integer parameters, ids carrying their Var */
    isl_set *pctx;               /* what they are known to satisfy (pvar_context), NULL: nothing */
    Vec pvars;                   /* Var*: the parameters by position */
    Vec ps;                      /* PStmt* */
    /* PStmt*: where a loop's bounds or an if's condition are evaluated, one
     * per loop or if, over the loops and conditions outside it, with the
     * reads of those expressions; only the extents use them (touched) */
    Vec hdrs;
    Vec covered;                 /* Expr*: the bounds and conditions a header reads */
    Vec loops;                   /* Stmt*: the loops around the statement being built */
    Vec conds;                   /* Cond*: the conditions around it */
    Vec cexprs;                  /* Expr*: conditions and bounds around: their reads */
                                 /* belong to every statement inside */
    int inexact;                 /* loops around that may stop early (break) */
    int ord;
    int maxdepth;
    isl_union_set *domain;
    isl_union_map *sched;        /* statement instance -> time */
    isl_union_map *deps;         /* all memory dependences, reductions excluded */
    isl_union_map *deps_t;       /* the same in time space */
    bool redo;                   /* a flattened array turned out not to split */
    const char **not_atomic;     /* by Var.id: why its colliding updates are not atomic */
    const char *failed;          /* isl failed (its message): every answer assumes the worst */
    /* while resched.c converts isl's AST: the IR for an identifier that is
     * one of the new loops' indices (NULL: not one) */
    Expr *(*ast_iv)(void *cx, isl_id *id);
    void *ast_iv_cx;
} Model;

typedef struct DepPriv {
    Model m;
} DepPriv;

/* Whether statement ps is inside loop nest. */
bool model_under(const PStmt *ps, const Stmt *nest);
/* D(X, Y): the dependences from accesses X (earlier in `before`) to Y. */
isl_union_map *model_deps_between(Model *m, isl_union_map *wx, isl_union_map *rx, isl_union_map *wy,
                                  isl_union_map *ry, isl_union_map *before);
/* An IR node of type long long at the region's location (kids allocated). */
Expr *model_ext_node(Model *m, ExprKind k, Op op, int nkids);
/* fn(x, y): gf_min, gf_max, gf_floord (templates/common.h). */
Expr *model_ext_call(Model *m, const char *fn, Expr *x, Expr *y);
/* isl's AST expression as IR: parameters, the new loop indices through
 * Model.ast_iv, integers, arithmetic, comparisons, min, max, floor
 * division; NULL for anything else. */
Expr *model_ast_expr(Model *m, isl_ast_expr *a);

#endif
