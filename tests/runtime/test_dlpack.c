/* test_dlpack.c - DLPack export and import (gpufuse/dlpack.h) in the
 * runtime's CPU mode (run with GPUFUSE_DEVICE=cpu, so it behaves the same
 * on the GPU machine): the exported tensor's fields for every type, the
 * deleter returning the block to its pool exactly once (shared copies
 * included), the round trip, the refusals of export and import with their
 * messages, and a launcher refusing to touch bytes outside an imported
 * tensor. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <dlpack/dlpack.h>
#include <gpufuse.h>
#include <gpufuse/dlpack.h>
#include <gpufuse/launch.h>

#include "capture.h"

static uint64_t pool_frees(void)
{
    gf_pool_stats st;
    assert_int_equal(gf_pool_stats_get(&st), GF_SUCCESS);
    return st.frees;
}

static size_t pool_current(void)
{
    gf_pool_stats st;
    assert_int_equal(gf_pool_stats_get(&st), GF_SUCCESS);
    return st.current_bytes;
}

static void test_export_fields(void **state)
{
    (void)state;
    void *p;
    assert_int_equal(gf_malloc(&p, 2 * 3 * 4 * sizeof(float)), GF_SUCCESS);
    int64_t shape[] = {2, 3, 4};
    DLManagedTensor *t = NULL;
    assert_int_equal(gf_to_dlpack(p, 3, shape, GF_DL_F32, GF_DL_OWNED, &t), GF_SUCCESS);
    DLTensor *d = &t->dl_tensor;
    assert_ptr_equal(d->data, p);
    assert_int_equal(d->device.device_type, kDLCPU); /* CPU mode: gf_malloc is host memory */
    assert_int_equal(d->device.device_id, 0);
    assert_int_equal(d->ndim, 3);
    assert_int_equal(d->dtype.code, kDLFloat);
    assert_int_equal(d->dtype.bits, 32);
    assert_int_equal(d->dtype.lanes, 1);
    assert_int_equal(d->byte_offset, 0);
    int64_t want_strides[] = {12, 4, 1};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(d->shape[i], shape[i]);
        assert_int_equal(d->strides[i], want_strides[i]);
    }
    assert_ptr_not_equal(d->shape, shape); /* its own copy */
    uint64_t frees = pool_frees();
    t->deleter(t);
    assert_int_equal(pool_frees(), frees + 1);
    assert_int_equal(gf_free(p), GF_ERROR_INVALID_VALUE); /* already back in the pool */
}

static void test_every_type(void **state)
{
    (void)state;
    static const struct {
        gf_dl_type t;
        int code, bits;
    } want[] = {
        {GF_DL_F16, kDLFloat, 16},  {GF_DL_BF16, kDLBfloat, 16}, {GF_DL_F32, kDLFloat, 32},
        {GF_DL_F64, kDLFloat, 64},  {GF_DL_I8, kDLInt, 8},       {GF_DL_I16, kDLInt, 16},
        {GF_DL_I32, kDLInt, 32},    {GF_DL_I64, kDLInt, 64},     {GF_DL_U8, kDLUInt, 8},
        {GF_DL_U16, kDLUInt, 16},   {GF_DL_U32, kDLUInt, 32},    {GF_DL_U64, kDLUInt, 64},
        {GF_DL_BOOL, 6, 8},         {GF_DL_C64, kDLComplex, 64}, {GF_DL_C128, kDLComplex, 128},
    };
    void *p;
    assert_int_equal(gf_malloc(&p, 5 * 16), GF_SUCCESS);
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        int64_t shape[] = {5};
        DLManagedTensor *t;
        assert_int_equal(gf_to_dlpack(p, 1, shape, want[k].t, GF_DL_BORROWED, &t), GF_SUCCESS);
        assert_int_equal(t->dl_tensor.dtype.code, want[k].code);
        assert_int_equal(t->dl_tensor.dtype.bits, want[k].bits);
        assert_int_equal(t->dl_tensor.dtype.lanes, 1);
        /* and it comes back in: every exported type is an importable one */
        void *data;
        assert_int_equal(gf_from_dlpack(t, &data), GF_SUCCESS);
        assert_ptr_equal(data, p);
        assert_int_equal(gf_dlpack_release(t), GF_SUCCESS);
    }
    /* the block is what the pool handed out: 512 bytes (its granularity) */
    int64_t fits[] = {32}, over[] = {33};
    DLManagedTensor *t = (DLManagedTensor *)&t;
    assert_int_equal(gf_to_dlpack(p, 1, fits, GF_DL_C128, 0, &t), GF_SUCCESS);
    t->deleter(t);
    assert_int_equal(gf_to_dlpack(p, 1, over, GF_DL_C128, 0, &t), GF_ERROR_INVALID_VALUE);
    assert_null(t);
    assert_non_null(strstr(gf_last_error(), "needs 528 bytes, the block has 512"));
    assert_int_equal(gf_free(p), GF_SUCCESS); /* borrowed: the block stayed ours */
}

static void test_scalar_and_empty(void **state)
{
    (void)state;
    void *p;
    assert_int_equal(gf_malloc(&p, 8), GF_SUCCESS);
    DLManagedTensor *t;
    assert_int_equal(gf_to_dlpack(p, 0, NULL, GF_DL_F64, GF_DL_OWNED, &t), GF_SUCCESS);
    assert_int_equal(t->dl_tensor.ndim, 0);
    assert_null(t->dl_tensor.shape);
    t->deleter(t);
    assert_int_equal(gf_malloc(&p, 8), GF_SUCCESS);
    int64_t shape[] = {4, 0, 3};
    assert_int_equal(gf_to_dlpack(p, 3, shape, GF_DL_I32, GF_DL_OWNED, &t), GF_SUCCESS);
    assert_int_equal(t->dl_tensor.strides[0], 3); /* a zero size steps like a size of one */
    void *data;
    assert_int_equal(gf_from_dlpack(t, &data), GF_SUCCESS);
    assert_int_equal(gf_dlpack_release(t), GF_SUCCESS);
}

static void test_share_counts_references(void **state)
{
    (void)state;
    void *p;
    assert_int_equal(gf_malloc(&p, 1024), GF_SUCCESS);
    int64_t shape[] = {16, 16};
    DLManagedTensor *t, *s1, *s2;
    assert_int_equal(gf_to_dlpack(p, 2, shape, GF_DL_F32, GF_DL_OWNED, &t), GF_SUCCESS);
    assert_int_equal(gf_dlpack_share(t, &s1), GF_SUCCESS);
    assert_int_equal(gf_dlpack_share(s1, &s2), GF_SUCCESS);
    assert_ptr_equal(s2->dl_tensor.data, p);
    assert_ptr_not_equal(s2->dl_tensor.shape, t->dl_tensor.shape);
    assert_int_equal(s2->dl_tensor.strides[0], 16);
    size_t live = pool_current();
    uint64_t frees = pool_frees();
    t->deleter(t);
    s2->deleter(s2);
    assert_int_equal(pool_frees(), frees); /* s1 still holds it */
    assert_int_equal(pool_current(), live);
    s1->deleter(s1);
    assert_int_equal(pool_frees(), frees + 1);
    assert_int_equal(pool_current(), live - 1024);
    /* only gpufuse's own tensors can be shared */
    DLManagedTensor foreign = {0};
    DLManagedTensor *out = (DLManagedTensor *)&out;
    assert_int_equal(gf_dlpack_share(&foreign, &out), GF_ERROR_INVALID_VALUE);
    assert_null(out);
}

static void test_pinned_export(void **state)
{
    (void)state;
    void *h;
    assert_int_equal(gf_host_malloc(&h, 4096), GF_SUCCESS);
    int64_t shape[] = {1024};
    DLManagedTensor *t;
    assert_int_equal(gf_to_dlpack(h, 1, shape, GF_DL_U32, GF_DL_OWNED, &t), GF_SUCCESS);
    assert_int_equal(t->dl_tensor.device.device_type, kDLCPU); /* kDLCUDAHost on a GPU */
    t->deleter(t);
    assert_int_equal(gf_host_free(h), GF_ERROR_INVALID_VALUE); /* the deleter returned it */
}

static void test_export_refusals(void **state)
{
    (void)state;
    void *p;
    assert_int_equal(gf_malloc(&p, 256), GF_SUCCESS);
    int64_t shape[] = {8}, neg[] = {-1}, huge[] = {INT64_MAX / 2, 4};
    float local[8];
    DLManagedTensor *t;
    assert_int_equal(gf_to_dlpack(local, 1, shape, GF_DL_F32, 0, &t), GF_ERROR_INVALID_VALUE);
    assert_non_null(strstr(gf_last_error(), "not the start of a live block"));
    assert_int_equal(gf_to_dlpack((char *)p + 4, 1, shape, GF_DL_F32, 0, &t), GF_ERROR_INVALID_VALUE);
    assert_int_equal(gf_to_dlpack(NULL, 1, shape, GF_DL_F32, 0, &t), GF_ERROR_INVALID_VALUE);
    assert_int_equal(gf_to_dlpack(p, 1, neg, GF_DL_F32, 0, &t), GF_ERROR_INVALID_VALUE);
    assert_non_null(strstr(gf_last_error(), "negative size"));
    assert_int_equal(gf_to_dlpack(p, 2, huge, GF_DL_F64, 0, &t), GF_ERROR_INVALID_VALUE);
    assert_int_equal(gf_to_dlpack(p, 1, shape, (gf_dl_type)0, 0, &t), GF_ERROR_INVALID_VALUE);
    assert_int_equal(gf_to_dlpack(p, 1, shape, (gf_dl_type)99, 0, &t), GF_ERROR_INVALID_VALUE);
    assert_non_null(strstr(gf_last_error(), "unknown type 99"));
    assert_int_equal(gf_to_dlpack(p, 1, shape, GF_DL_F32, 2, &t), GF_ERROR_INVALID_VALUE);
    assert_non_null(strstr(gf_last_error(), "unknown flags"));
    assert_int_equal(gf_to_dlpack(p, GF_DL_MAX_DIMS + 1, shape, GF_DL_F32, 0, &t), GF_ERROR_INVALID_VALUE);
    assert_int_equal(gf_to_dlpack(p, 2, NULL, GF_DL_F32, 0, &t), GF_ERROR_INVALID_VALUE);
    assert_int_equal(gf_to_dlpack(p, 1, shape, GF_DL_F32, 0, NULL), GF_ERROR_INVALID_VALUE);
    assert_int_equal(gf_free(p), GF_SUCCESS);
    assert_int_equal(gf_to_dlpack(p, 1, shape, GF_DL_F32, 0, &t), GF_ERROR_INVALID_VALUE); /* freed */
}

/* ---- a tensor from "another framework" ------------------------------------ */

typedef struct foreign {
    DLManagedTensor t;
    int64_t shape[4], strides[4];
    int deleted;
} foreign;

static void foreign_deleter(DLManagedTensor *t) { ((foreign *)t->manager_ctx)->deleted++; }

static void make_foreign(foreign *f, void *data, int ndim, const int64_t *shape, DLDataType dt)
{
    memset(f, 0, sizeof *f);
    memcpy(f->shape, shape, (size_t)ndim * sizeof *shape);
    f->t.dl_tensor = (DLTensor){data, {kDLCPU, 0}, ndim, dt, f->shape, NULL, 0};
    f->t.manager_ctx = f;
    f->t.deleter = foreign_deleter;
}

static const DLDataType f32 = {kDLFloat, 32, 1};

static void test_import_release(void **state)
{
    (void)state;
    float buf[2 * 8];
    foreign f;
    int64_t shape[] = {2, 8};
    make_foreign(&f, buf, 2, shape, f32);
    f.t.dl_tensor.byte_offset = 8 * sizeof(float); /* the second row */
    f.t.dl_tensor.shape[0] = 1;
    void *data = NULL;
    assert_int_equal(gf_from_dlpack(&f.t, &data), GF_SUCCESS);
    assert_ptr_equal(data, buf + 8);
    assert_int_equal(gf_from_dlpack(&f.t, &data), GF_ERROR_INVALID_VALUE); /* once */
    assert_non_null(strstr(gf_last_error(), "already imported"));
    assert_int_equal(f.deleted, 0);
    assert_int_equal(gf_dlpack_release(&f.t), GF_SUCCESS);
    assert_int_equal(f.deleted, 1);
    assert_int_equal(gf_dlpack_release(&f.t), GF_ERROR_INVALID_VALUE);
    assert_non_null(strstr(gf_last_error(), "released already"));
    assert_int_equal(f.deleted, 1); /* exactly once */
    /* a NULL deleter is allowed (nothing to call) */
    make_foreign(&f, buf, 2, shape, f32);
    f.t.deleter = NULL;
    assert_int_equal(gf_from_dlpack(&f.t, &data), GF_SUCCESS);
    assert_int_equal(gf_dlpack_release(&f.t), GF_SUCCESS);
}

static void test_import_strides(void **state)
{
    (void)state;
    float buf[3 * 4];
    foreign f;
    void *data;
    int64_t shape[] = {3, 4};
    make_foreign(&f, buf, 2, shape, f32);
    f.t.dl_tensor.strides = f.strides;
    f.strides[0] = 4, f.strides[1] = 1; /* explicit and compact */
    assert_int_equal(gf_from_dlpack(&f.t, &data), GF_SUCCESS);
    assert_int_equal(gf_dlpack_release(&f.t), GF_SUCCESS);
    f.strides[0] = 1, f.strides[1] = 3; /* a transpose */
    assert_int_equal(gf_from_dlpack(&f.t, &data), GF_ERROR_INVALID_VALUE);
    assert_non_null(strstr(gf_last_error(), "strides [1, 3] (elements) for shape [3, 4] are not compact"));
    f.strides[0] = 8, f.strides[1] = 1; /* every other row */
    assert_int_equal(gf_from_dlpack(&f.t, &data), GF_ERROR_INVALID_VALUE);
    int64_t col[] = {3, 1};
    make_foreign(&f, buf, 2, col, f32);
    f.t.dl_tensor.strides = f.strides;
    f.strides[0] = 1, f.strides[1] = 99; /* a size-1 dimension's stride is never used */
    assert_int_equal(gf_from_dlpack(&f.t, &data), GF_SUCCESS);
    assert_int_equal(gf_dlpack_release(&f.t), GF_SUCCESS);
    assert_int_equal(f.deleted, 1);
}

static void test_import_refusals(void **state)
{
    (void)state;
    double buf[8];
    int64_t shape[] = {8};
    foreign f;
    void *data = (void *)1;
    make_foreign(&f, buf, 1, shape, (DLDataType){kDLFloat, 64, 1});
    f.t.dl_tensor.device = (DLDevice){kDLCUDA, 0};
    assert_int_equal(gf_from_dlpack(&f.t, &data), GF_ERROR_NO_DEVICE);
    assert_null(data);
    assert_non_null(strstr(gf_last_error(), "a tensor on cuda:0, but the runtime runs on the CPU"));
    f.t.dl_tensor.device = (DLDevice){kDLROCM, 0};
    assert_int_equal(gf_from_dlpack(&f.t, &data), GF_ERROR_NOT_SUPPORTED);
    assert_non_null(strstr(gf_last_error(), "kDLROCM"));
    f.t.dl_tensor.device = (DLDevice){kDLCPU, 0};
    static const DLDataType bad[] = {{kDLFloat, 64, 2}, {kDLFloat, 8, 1}, {kDLOpaqueHandle, 64, 1},
                                     {kDLInt, 128, 1}, {kDLComplex, 32, 1}, {kDLBfloat, 32, 1}, {6, 1, 1}};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        f.t.dl_tensor.dtype = bad[k];
        assert_int_equal(gf_from_dlpack(&f.t, &data), GF_ERROR_NOT_SUPPORTED);
        assert_non_null(strstr(gf_last_error(), "is not one gpufuse takes"));
    }
    f.t.dl_tensor.dtype = (DLDataType){kDLFloat, 64, 1};
    f.t.dl_tensor.byte_offset = 4; /* a double at a 4-byte boundary */
    assert_int_equal(gf_from_dlpack(&f.t, &data), GF_ERROR_INVALID_VALUE);
    assert_non_null(strstr(gf_last_error(), "not aligned"));
    f.t.dl_tensor.byte_offset = 0;
    f.t.dl_tensor.data = NULL;
    assert_int_equal(gf_from_dlpack(&f.t, &data), GF_ERROR_INVALID_VALUE);
    f.t.dl_tensor.data = buf;
    f.shape[0] = -3;
    assert_int_equal(gf_from_dlpack(&f.t, &data), GF_ERROR_INVALID_VALUE);
    f.shape[0] = 8;
    f.t.dl_tensor.ndim = 40;
    assert_int_equal(gf_from_dlpack(&f.t, &data), GF_ERROR_INVALID_VALUE);
    assert_int_equal(gf_from_dlpack(NULL, &data), GF_ERROR_INVALID_VALUE);
    assert_int_equal(f.deleted, 0); /* a refused tensor stays the caller's */
    assert_int_equal(gf_dlpack_release(&f.t), GF_ERROR_INVALID_VALUE);
    assert_int_equal(f.deleted, 0);
}

/* ---- launchers and the imported extent -------------------------------------- */

static gf_path touch(const float *x, size_t n)
{
    static gf_site site = {"touch", "touch.c", 7, -1};
    gf_call *c = gf_call_begin(&site, 1);
    gf_call_arg(c, 0, x, 0, (ptrdiff_t)(n * sizeof(float)), GF_ARG_READ, 0);
    gf_path p = gf_call_map(c);
    gf_call_end(c, 0, 0);
    return p;
}

static void test_launcher_checks_extent(void **state)
{
    (void)state;
    float buf[32];
    int64_t shape[] = {16};
    foreign f;
    make_foreign(&f, buf, 1, shape, f32);
    void *data;
    assert_int_equal(gf_from_dlpack(&f.t, &data), GF_SUCCESS);
    gf_set_error_handler(capture, NULL);
    handler_calls = 0;
    assert_int_equal(touch(data, 16), GF_PATH_HOST);
    assert_int_equal(touch((float *)data + 4, 12), GF_PATH_HOST);
    assert_int_equal(handler_calls, 0);
    assert_int_equal(touch(data, 17), GF_PATH_FAILED);
    assert_int_equal(handler_calls, 1);
    assert_non_null(strstr(handler_msg, "argument 0 touches bytes"));
    assert_non_null(strstr(handler_msg, "outside the imported DLPack tensor"));
    assert_non_null(strstr(handler_msg, "(in touch at touch.c:7)"));
    assert_int_equal(touch(buf + 16, 16), GF_PATH_HOST); /* beyond it: not imported memory */
    assert_int_equal(gf_dlpack_release(&f.t), GF_SUCCESS);
    assert_int_equal(touch(data, 17), GF_PATH_HOST); /* released: no extent any more */
    assert_int_equal(handler_calls, 1);
    gf_set_error_handler(NULL, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_export_fields),
        cmocka_unit_test(test_every_type),
        cmocka_unit_test(test_scalar_and_empty),
        cmocka_unit_test(test_share_counts_references),
        cmocka_unit_test(test_pinned_export),
        cmocka_unit_test(test_export_refusals),
        cmocka_unit_test(test_import_release),
        cmocka_unit_test(test_import_strides),
        cmocka_unit_test(test_import_refusals),
        cmocka_unit_test(test_launcher_checks_extent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
