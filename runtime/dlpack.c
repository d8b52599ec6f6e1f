/* dlpack.c - DLPack export and import (gpufuse/dlpack.h).  Export wraps a
 * block of gf_malloc or gf_host_malloc in a DLManagedTensor whose deleter
 * frees its shape arrays and, when it owns the block, drops a reference
 * shared with gf_dlpack_share's copies (the last returns the block to its
 * pool).  Import checks a foreign tensor (device, type, strides, alignment)
 * and registers its extent in imports.c, which launchers consult (call.c);
 * release unregisters it and calls its deleter.  docs/dlpack.md. */
#include "rt.h"

#include <gpufuse/dlpack.h>

#include <cuda_runtime_api.h>
#include <dlpack/dlpack.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* kDLBool arrived in DLPack 0.8; Debian's 0.6 header lacks it. */
#define DL_BOOL_CODE 6

/* ---- types ------------------------------------------------------------------ */

static const struct {
    uint8_t code, bits;
} dl_types[] = {
    [GF_DL_F16] = {kDLFloat, 16}, [GF_DL_BF16] = {kDLBfloat, 16}, [GF_DL_F32] = {kDLFloat, 32},
    [GF_DL_F64] = {kDLFloat, 64}, [GF_DL_I8] = {kDLInt, 8},       [GF_DL_I16] = {kDLInt, 16},
    [GF_DL_I32] = {kDLInt, 32},   [GF_DL_I64] = {kDLInt, 64},     [GF_DL_U8] = {kDLUInt, 8},
    [GF_DL_U16] = {kDLUInt, 16},  [GF_DL_U32] = {kDLUInt, 32},    [GF_DL_U64] = {kDLUInt, 64},
    [GF_DL_BOOL] = {DL_BOOL_CODE, 8}, [GF_DL_C64] = {kDLComplex, 64}, [GF_DL_C128] = {kDLComplex, 128},
};
#define N_TYPES ((int)(sizeof dl_types / sizeof dl_types[0]))

/* The gf_dl_type of a DLPack type, 0 when gpufuse does not take it. */
static int type_of(DLDataType t)
{
    if (t.lanes != 1)
        return 0;
    for (int k = 1; k < N_TYPES; k++)
        if (dl_types[k].code == t.code && dl_types[k].bits == t.bits)
            return k;
    return 0;
}

static const char *device_name(int type)
{
    switch (type) {
    case kDLCPU: return "kDLCPU";
    case kDLCUDA: return "kDLCUDA";
    case kDLCUDAHost: return "kDLCUDAHost";
    case kDLOpenCL: return "kDLOpenCL";
    case kDLVulkan: return "kDLVulkan";
    case kDLMetal: return "kDLMetal";
    case kDLVPI: return "kDLVPI";
    case kDLROCM: return "kDLROCM";
    case kDLROCMHost: return "kDLROCMHost";
    case kDLExtDev: return "kDLExtDev";
    case kDLCUDAManaged: return "kDLCUDAManaged";
    }
    return "an unknown device type";
}

/* Elements of shape[0..ndim) into *elems; -1 on a negative size or overflow. */
static int count_elems(int ndim, const int64_t *shape, size_t esize, size_t *elems)
{
    size_t e = 1;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] < 0)
            return -1;
        if (shape[i] && e > SIZE_MAX / esize / (size_t)shape[i])
            return -1;
        e *= (size_t)shape[i];
    }
    *elems = e;
    return 0;
}

/* ---- export ----------------------------------------------------------------- */

enum { HOLD_DEVICE, HOLD_PINNED, HOLD_CPU };

/* An owned block, shared by the tensors gf_dlpack_share made. */
typedef struct holder {
    atomic_int refs;
    void *block;
    int pool;                    /* HOLD_*: which free returns it */
} holder;

/* One exported tensor with its shape and strides. */
typedef struct export_t {
    DLManagedTensor t;
    holder *h;                   /* NULL: borrowed */
    int64_t dims[];              /* shape[ndim], then strides[ndim] */
} export_t;

static void holder_drop(holder *h)
{
    if (!h || atomic_fetch_sub(&h->refs, 1) != 1)
        return;
    gf_status s = h->pool == HOLD_PINNED ? gf_host_free(h->block) : gf_free(h->block);
    if (s != GF_SUCCESS) /* a deleter has no way to return it */
        fprintf(stderr, "gpufuse: DLPack deleter: %s\n", gf_last_error());
    free(h);
}

static void export_deleter(DLManagedTensor *t)
{
    export_t *e = t->manager_ctx;
    holder_drop(e->h);
    free(e);
}

/* Which pool holds the block starting at ptr: its DLPack device, HOLD_*
 * and size; -1 when none does. */
static int find_block(void *ptr, DLDevice *dev, int *pool, size_t *bytes)
{
    const gf_runtime *rt = gf_runtime_get();
    gf_pool *pin = gf_pinned_pool();
    if (rt->cpu) {
        gf_pool *cp = gf_cpu_pool();
        if (cp && (*bytes = gf_pool_block_size(cp, ptr))) {
            *dev = (DLDevice){kDLCPU, 0}, *pool = HOLD_CPU;
            return 0;
        }
        if (pin && (*bytes = gf_pool_block_size(pin, ptr))) {
            *dev = (DLDevice){kDLCPU, 0}, *pool = HOLD_PINNED;
            return 0;
        }
        return -1;
    }
    for (int d = 0; d < rt->ndev; d++) {
        gf_pool *p = gf_device_pool_if_any(d);
        if (p && (*bytes = gf_pool_block_size(p, ptr))) {
            *dev = (DLDevice){kDLCUDA, d}, *pool = HOLD_DEVICE;
            return 0;
        }
    }
    if (pin && (*bytes = gf_pool_block_size(pin, ptr))) {
        *dev = (DLDevice){kDLCUDAHost, 0}, *pool = HOLD_PINNED;
        return 0;
    }
    return -1;
}

/* A tensor over `data` with compact row-major strides; NULL out of memory. */
static export_t *new_export(void *data, DLDevice dev, int ndim, const int64_t *shape, int type)
{
    export_t *e = calloc(1, sizeof *e + 2 * (size_t)(ndim ? ndim : 1) * sizeof(int64_t));
    if (!e)
        return NULL;
    int64_t *sh = e->dims, *st = e->dims + ndim;
    int64_t stride = 1;
    for (int i = ndim - 1; i >= 0; i--) {
        sh[i] = shape[i];
        st[i] = stride;
        stride *= shape[i] ? shape[i] : 1;
    }
    e->t.dl_tensor = (DLTensor){data, dev, ndim, {dl_types[type].code, dl_types[type].bits, 1},
                                ndim ? sh : NULL, ndim ? st : NULL, 0};
    e->t.manager_ctx = e;
    e->t.deleter = export_deleter;
    return e;
}

static gf_status check_export(int ndim, const int64_t *shape, gf_dl_type type, int flags, size_t *bytes)
{
    if (ndim < 0 || ndim > GF_DL_MAX_DIMS)
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_to_dlpack: %d dimensions (0 to %d)", ndim, GF_DL_MAX_DIMS);
    if (ndim && !shape)
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_to_dlpack: %d dimensions and no shape", ndim);
    if ((int)type <= 0 || (int)type >= N_TYPES)
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_to_dlpack: unknown type %d (a gf_dl_type)", (int)type);
    if (flags & ~GF_DL_OWNED)
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_to_dlpack: unknown flags 0x%x", (unsigned)flags);
    size_t esize = dl_types[type].bits / 8, elems;
    if (count_elems(ndim, shape, esize, &elems) != 0)
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_to_dlpack: a negative size, or the shape overflows");
    *bytes = elems * esize;
    return GF_SUCCESS;
}

gf_status gf_to_dlpack(void *ptr, int ndim, const int64_t *shape, gf_dl_type type, int flags,
                       DLManagedTensor **out)
{
    if (!out)
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_to_dlpack: null result pointer");
    *out = NULL;
    size_t need = 0, have = 0;
    gf_status s = check_export(ndim, shape, type, flags, &need);
    if (s != GF_SUCCESS)
        return s;
    DLDevice dev;
    int pool;
    if (!ptr || find_block(ptr, &dev, &pool, &have) != 0)
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_to_dlpack(%p): not the start of a live block from gf_malloc "
                                               "or gf_host_malloc", ptr);
    if (need > have)
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_to_dlpack(%p): the tensor needs %zu bytes, the block has %zu",
                       ptr, need, have);
    export_t *e = new_export(ptr, dev, ndim, shape, type);
    holder *h = flags & GF_DL_OWNED ? malloc(sizeof *h) : NULL;
    if (!e || (flags & GF_DL_OWNED && !h)) {
        free(e), free(h);
        return gf_fail(GF_ERROR_OUT_OF_MEMORY, "gf_to_dlpack: out of host memory");
    }
    if (h) {
        atomic_init(&h->refs, 1);
        h->block = ptr;
        h->pool = pool;
    }
    e->h = h;
    *out = &e->t;
    return GF_SUCCESS;
}

gf_status gf_dlpack_share(const DLManagedTensor *t, DLManagedTensor **out)
{
    if (!out)
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_dlpack_share: null result pointer");
    *out = NULL;
    if (!t || t->deleter != export_deleter)
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_dlpack_share(%p): not a tensor gf_to_dlpack made", (void *)t);
    const export_t *src = t->manager_ctx;
    const DLTensor *d = &t->dl_tensor;
    export_t *e = new_export(d->data, d->device, d->ndim, d->shape, type_of(d->dtype));
    if (!e)
        return gf_fail(GF_ERROR_OUT_OF_MEMORY, "gf_dlpack_share: out of host memory");
    e->h = src->h;
    if (e->h)
        atomic_fetch_add(&e->h->refs, 1);
    *out = &e->t;
    return GF_SUCCESS;
}

/* ---- import ----------------------------------------------------------------- */

static void dims_text(char *buf, size_t n, int ndim, const int64_t *v)
{
    size_t k = (size_t)snprintf(buf, n, "[");
    for (int i = 0; i < ndim && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s%lld", i ? ", " : "", (long long)v[i]);
    if (k < n)
        snprintf(buf + k, n - k, "]");
}

/* Compact row-major: strides NULL, or each dimension of size > 1 steps by
 * the product of the sizes after it (a size-1 dimension's stride is
 * never used; an empty tensor has no layout). */
static int compact(const DLTensor *d, size_t elems)
{
    if (!d->strides || !elems)
        return 1;
    int64_t want = 1;
    for (int i = d->ndim - 1; i >= 0; i--) {
        if (d->shape[i] != 1 && d->strides[i] != want)
            return 0;
        want *= d->shape[i];
    }
    return 1;
}

/* The import kind of a tensor's device in this runtime's mode, or fails. */
static gf_status device_kind(const DLTensor *d, int *kind)
{
    const gf_runtime *rt = gf_runtime_get();
    switch ((int)d->device.device_type) {
    case kDLCPU: *kind = GF_IMPORT_HOST; return GF_SUCCESS;
    case kDLCUDAHost: *kind = GF_IMPORT_PINNED; return GF_SUCCESS;
    case kDLCUDAManaged: *kind = GF_IMPORT_MANAGED; return GF_SUCCESS;
    case kDLCUDA:
        if (rt->cpu)
            return gf_fail(GF_ERROR_NO_DEVICE, "gf_from_dlpack: a tensor on cuda:%d, but the runtime runs on the "
                                               "CPU (%s)", d->device.device_id, gf_cpu_reason());
        if (d->device.device_id != gf_current_device())
            return gf_fail(GF_ERROR_INVALID_VALUE, "gf_from_dlpack: the tensor is on cuda:%d, but this thread's "
                                                   "device is cuda:%d (gf_device_select it, or move the tensor)",
                           d->device.device_id, gf_current_device());
        *kind = GF_IMPORT_DEVICE;
        return GF_SUCCESS;
    }
    return gf_fail(GF_ERROR_NOT_SUPPORTED, "gf_from_dlpack: a tensor on %s (device type %d): gpufuse takes "
                                           "CUDA and host memory only", device_name(d->device.device_type),
                   (int)d->device.device_type);
}

/* kDLCUDA: the pointer really is memory of that device. */
static gf_status check_device_ptr(const void *p, int device)
{
    struct cudaPointerAttributes at;
    if (cudaPointerGetAttributes(&at, p) != cudaSuccess) {
        cudaGetLastError();
        at.type = cudaMemoryTypeUnregistered;
    }
    if (at.type != cudaMemoryTypeDevice && at.type != cudaMemoryTypeManaged)
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_from_dlpack: the tensor says cuda:%d, but %p is not device "
                                               "memory", device, p);
    if (at.type == cudaMemoryTypeDevice && at.device != device)
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_from_dlpack: the tensor says cuda:%d, but %p is memory of "
                                               "cuda:%d", device, p, at.device);
    return GF_SUCCESS;
}

static gf_status check_layout(const DLTensor *d, size_t *bytes)
{
    if (d->ndim < 0 || d->ndim > GF_DL_MAX_DIMS)
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_from_dlpack: %d dimensions (0 to %d)", d->ndim, GF_DL_MAX_DIMS);
    if (d->ndim && !d->shape)
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_from_dlpack: %d dimensions and no shape", d->ndim);
    int type = type_of(d->dtype);
    if (!type)
        return gf_fail(GF_ERROR_NOT_SUPPORTED, "gf_from_dlpack: element type code %d, %d bits, %d lanes is not "
                                               "one gpufuse takes (float16/32/64, bfloat16, int8-64, uint8-64, "
                                               "bool, complex64/128; one lane)",
                       d->dtype.code, d->dtype.bits, d->dtype.lanes);
    size_t esize = dl_types[type].bits / 8, elems;
    if (count_elems(d->ndim, d->shape, esize, &elems) != 0)
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_from_dlpack: a negative size, or the shape overflows");
    if (!compact(d, elems)) {
        char sh[256], st[256];
        dims_text(sh, sizeof sh, d->ndim, d->shape);
        dims_text(st, sizeof st, d->ndim, d->strides);
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_from_dlpack: strides %s (elements) for shape %s are not compact "
                                               "row-major, the only layout gpufuse's functions take (make the "
                                               "tensor contiguous first)", st, sh);
    }
    *bytes = elems * esize;
    const char *p = (const char *)d->data + d->byte_offset;
    if (*bytes && (!d->data || (uintptr_t)p % esize))
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_from_dlpack: data %p + byte_offset %llu is %s", d->data,
                       (unsigned long long)d->byte_offset, d->data ? "not aligned to its element size" : "null");
    return GF_SUCCESS;
}

gf_status gf_from_dlpack(DLManagedTensor *t, void **data)
{
    if (!t || !data)
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_from_dlpack: null %s", t ? "result pointer" : "tensor");
    *data = NULL;
    const DLTensor *d = &t->dl_tensor;
    int kind;
    size_t bytes;
    gf_status s = device_kind(d, &kind);
    if (s == GF_SUCCESS)
        s = check_layout(d, &bytes);
    char *p = (char *)d->data + d->byte_offset;
    if (s == GF_SUCCESS && kind == GF_IMPORT_DEVICE && bytes)
        s = check_device_ptr(p, d->device.device_id);
    if (s != GF_SUCCESS)
        return s;
    gf_import im = {p, bytes, kind, kind == GF_IMPORT_DEVICE ? d->device.device_id : -1, t};
    s = gf_imports_add(&im);
    if (s == GF_SUCCESS)
        *data = p;
    return s;
}

gf_status gf_dlpack_release(DLManagedTensor *t)
{
    if (!t || !gf_imports_remove(t, NULL))
        return gf_fail(GF_ERROR_INVALID_VALUE, "gf_dlpack_release(%p): not a tensor gf_from_dlpack took (or "
                                               "released already)", (void *)t);
    if (t->deleter)
        t->deleter(t);
    return GF_SUCCESS;
}
