/* gpufuse/dlpack.h - DLPack interchange with libgpufuse (runtime/dlpack.c):
 * export memory the runtime owns as a DLManagedTensor, and take one from
 * another framework (PyTorch, CuPy, JAX, NumPy) without a copy, so that
 * launchers use it where it is.  The struct is DLPack 0.6's unversioned
 * DLManagedTensor (Debian's libdlpack-dev); include <dlpack/dlpack.h> to
 * read its fields.  See docs/dlpack.md. */
#ifndef GPUFUSE_DLPACK_H
#define GPUFUSE_DLPACK_H

#include <gpufuse.h>

#ifdef __cplusplus
extern "C" {
#endif

struct DLManagedTensor;

/* Element types gpufuse exchanges (DLPack code, bits): */
typedef enum gf_dl_type {
    GF_DL_F16 = 1,               /* kDLFloat 16 (_Float16) */
    GF_DL_BF16,                  /* kDLBfloat 16 (__bf16) */
    GF_DL_F32,                   /* kDLFloat 32 */
    GF_DL_F64,                   /* kDLFloat 64 */
    GF_DL_I8,                    /* kDLInt 8, 16, 32, 64 */
    GF_DL_I16,
    GF_DL_I32,
    GF_DL_I64,
    GF_DL_U8,                    /* kDLUInt 8, 16, 32, 64 */
    GF_DL_U16,
    GF_DL_U32,
    GF_DL_U64,
    GF_DL_BOOL,                  /* kDLBool (code 6) 8: _Bool */
    GF_DL_C64,                   /* kDLComplex 64: float _Complex */
    GF_DL_C128                   /* kDLComplex 128: double _Complex */
} gf_dl_type;

#define GF_DL_MAX_DIMS 32

/* gf_to_dlpack's flags. */
enum {
    GF_DL_BORROWED = 0,          /* the deleter frees only the tensor; the caller keeps the block
                                  * alive until the consumer has called it */
    GF_DL_OWNED = 1              /* the tensor owns the block: the last deleter (of it and of its
                                  * gf_dlpack_share copies) returns it to its pool */
};

/* Exports [ptr, ptr + bytes) as a compact row-major tensor of `ndim` (0 to
 * GF_DL_MAX_DIMS) dimensions shape[0..ndim) of `type`.  ptr must be the
 * start of a block from gf_malloc (the device's pool: kDLCUDA with the
 * block's device; in CPU mode gf_malloc's host pool: kDLCPU) or from
 * gf_host_malloc (pinned: kDLCUDAHost; in CPU mode kDLCPU), and the tensor
 * must fit in the block.  The tensor has explicit strides (in elements),
 * byte_offset 0, and its shape and strides arrays belong to it (its deleter
 * frees them).  *out is NULL on failure (GF_ERROR_INVALID_VALUE: not a
 * runtime block, too big, bad shape or type or flag). */
gf_status gf_to_dlpack(void *ptr, int ndim, const int64_t *shape, gf_dl_type type, int flags,
                       struct DLManagedTensor **out);
/* Another tensor over the same block as `t` (one gf_to_dlpack made), with
 * its own shape arrays and deleter: an owned block goes back to its pool
 * when the last of them is deleted (a reference count).  So a framework can
 * be handed a tensor while the caller keeps its own. */
gf_status gf_dlpack_share(const struct DLManagedTensor *t, struct DLManagedTensor **out);

/* Takes a tensor from another framework without a copy: checks it and
 * registers its extent, so that launchers use device memory where it is
 * (no staging, no pointer query) and refuse a call that would touch bytes
 * outside it.  *data = t->dl_tensor.data + byte_offset.  Accepted: kDLCUDA
 * on the current device, kDLCUDAManaged, kDLCUDAHost and kDLCPU (host
 * memory: launchers stage it as any host array); in CPU mode kDLCUDA is
 * refused (GF_ERROR_NO_DEVICE).  Refused (GF_ERROR_INVALID_VALUE, or
 * GF_ERROR_NOT_SUPPORTED for other devices and types), with the reason in
 * gf_last_error(): another GPU, a non-CUDA device, a type outside
 * gf_dl_type or with lanes != 1, strides that are not compact row-major, a
 * misaligned pointer, a tensor already imported.  On failure the tensor is
 * untouched and stays the caller's. */
gf_status gf_from_dlpack(struct DLManagedTensor *t, void **data);
/* Unregisters a tensor gf_from_dlpack took and calls its deleter (exactly
 * once; a NULL deleter is not called).  GF_ERROR_INVALID_VALUE for a
 * tensor that is not imported (or released twice): nothing is called. */
gf_status gf_dlpack_release(struct DLManagedTensor *t);

#ifdef __cplusplus
}
#endif
#endif /* GPUFUSE_DLPACK_H */
