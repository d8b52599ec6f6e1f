/* gpufuse/entry.h - what the extern "C" entry point of every generated
 * launcher calls: the whole call's time for the profile (GPUFUSE_PROFILE),
 * and verify mode (GPUFUSE_VERIFY=1), which checks the call against the
 * function's C body.  Part of the launcher interface (gpufuse/launch.h
 * includes it, GF_LAUNCH_ABI versions it); free of CUDA. */
#ifndef GPUFUSE_ENTRY_H
#define GPUFUSE_ENTRY_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct gf_site;

/* The entry point asks gf_entry_begin whether the call is timed or
 * checked; when neither, it only calls the launcher.  A checked call: every pointer argument's touched bytes
 * are copied to host memory before the launcher runs (from the device when
 * the argument is device memory or in a data region), the launcher runs as
 * usual, what it wrote is read back, the function's C body (gf_seq_<f>)
 * runs on the copies, and the two results are compared element by element:
 * integers exactly, floating point within the tolerance of docs/runtime.md.
 * The first difference per array is reported on stderr with the function,
 * its source line, the parameter, the element's index and both values. */

/* The scalar kinds an element (or a field of a struct element) compares as. */
typedef enum gf_vkind {
    GF_VK_BYTES = 0,             /* compared bit for bit, printed in hex */
    GF_VK_BOOL,
    GF_VK_INT,                   /* signed integer of `size` bytes (1, 2, 4, 8) */
    GF_VK_UINT,                  /* unsigned integer */
    GF_VK_FLOAT                  /* IEEE float (size 4) or double (size 8) */
} gf_vkind;

/* One scalar inside an element: the element itself (name "") or a field of a
 * struct element (".x", ".pos.y", ".v[2]"), at `offset` bytes into it. */
typedef struct gf_vfield {
    const char *name;
    size_t offset, size;
    int kind;                    /* gf_vkind */
} gf_vfield;

/* How far a floating-point result may move: GF_VTOL_ELEMENT for values each
 * computed by the same expression (math functions and contraction differ by
 * a few ulp), GF_VTOL_REDUCED for results of reductions and atomic updates
 * (summed in another order). */
enum { GF_VTOL_ELEMENT = 0, GF_VTOL_REDUCED = 1 };

typedef struct gf_entry gf_entry;

/* NULL when neither profiling nor verify mode is on (the entry point then
 * only calls the launcher), else one call of `site` with `nargs` pointer
 * arguments, owned by the caller until gf_entry_end. */
gf_entry *gf_entry_begin(struct gf_site *site, int nargs);
/* Pointer argument `idx`, parameter `name`: bytes [p+lo, p+hi) as for
 * gf_call_arg, elements of `elem_size` bytes made of `fields` (nfields
 * scalars; 0: compared as bytes), floating point within tolerance class
 * `tol`; `dims` holds the sizes of its ndims inner dimensions (a[n][rows][cols]:
 * {rows, cols}) so that indices are printed as [i][j][k]. */
void gf_entry_arg(gf_entry *v, int idx, const char *name, const void *p, ptrdiff_t lo, ptrdiff_t hi, int mode,
                   size_t elem_size, const gf_vfield *fields, int nfields, int tol, int ndims,
                   const long long *dims);
/* Verify mode: copies every argument's touched bytes (arguments that
 * overlap share one copy, so the C body sees the same aliasing) and
 * returns 1.  0 when the call is only timed, or when the copies failed
 * (reported): the launcher then runs unchecked, followed by gf_entry_end.
 * The call's time starts here. */
int gf_entry_snapshot(gf_entry *v);
/* Where argument idx's pointer points in the copies (p itself when the
 * argument is untouched). */
void *gf_entry_copy(gf_entry *v, int idx);
/* The launcher has returned (its time ends here): reads back what it wrote. */
void gf_entry_ran(gf_entry *v);
/* Compares the launcher's return value with the C body's (`kind` and `size`
 * as in gf_vfield). */
void gf_entry_return(gf_entry *v, int kind, size_t size, int tol, const void *got, const void *ref);
/* Compares the written arguments (after the C body ran on the copies),
 * reports, counts the call for the profile and the exit summary, frees v;
 * for a call not checked, records its time. */
void gf_entry_end(gf_entry *v);

#ifdef __cplusplus
}
#endif
#endif /* GPUFUSE_ENTRY_H */
