/* test_gpu_dlpack.c - on a GPU: DLPack export of device and pinned blocks
 * (kDLCUDA with the device, kDLCUDAHost), the round trip, and tensors from
 * "another framework" (cudaMalloc'd, with a deleter of their own): imported
 * without a copy (pointer equality), used by a generated launcher as device
 * memory (no byte staged, results checked against the C body), refused when
 * the call would touch bytes outside them, when they claim another device
 * or are not device memory.  Exits 77 without a GPU. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cuda_runtime_api.h>

#include <dlpack/dlpack.h>
#include <gpufuse.h>
#include <gpufuse/dlpack.h>

#include "capture.h"

void dl_axpby(int n, float a, const float *restrict x, float b, float *restrict y);

static void test_export_device(void **state)
{
    (void)state;
    int dev = -1;
    assert_int_equal(gf_device_current(&dev), GF_SUCCESS);
    void *p;
    assert_int_equal(gf_malloc(&p, 1 << 20), GF_SUCCESS);
    int64_t shape[] = {512, 512};
    DLManagedTensor *t;
    assert_int_equal(gf_to_dlpack(p, 2, shape, GF_DL_F32, GF_DL_OWNED, &t), GF_SUCCESS);
    assert_int_equal(t->dl_tensor.device.device_type, kDLCUDA);
    assert_int_equal(t->dl_tensor.device.device_id, dev);
    void *data;
    assert_int_equal(gf_from_dlpack(t, &data), GF_SUCCESS); /* round trip */
    assert_ptr_equal(data, p);
    gf_pool_stats st0, st1;
    assert_int_equal(gf_pool_stats_get(&st0), GF_SUCCESS);
    assert_int_equal(gf_dlpack_release(t), GF_SUCCESS);
    assert_int_equal(gf_pool_stats_get(&st1), GF_SUCCESS);
    assert_int_equal(st1.frees, st0.frees + 1);
    assert_int_equal(st1.current_bytes + (1 << 20), st0.current_bytes);
}

static void test_export_pinned(void **state)
{
    (void)state;
    void *h;
    assert_int_equal(gf_host_malloc(&h, 4096), GF_SUCCESS);
    int64_t shape[] = {4096};
    DLManagedTensor *t;
    assert_int_equal(gf_to_dlpack(h, 1, shape, GF_DL_U8, GF_DL_OWNED, &t), GF_SUCCESS);
    assert_int_equal(t->dl_tensor.device.device_type, kDLCUDAHost);
    t->deleter(t);
    assert_int_equal(gf_host_free(h), GF_ERROR_INVALID_VALUE);
}

/* ---- a tensor from another framework ---------------------------------------- */

typedef struct foreign {
    DLManagedTensor t;
    int64_t shape[1];
    int deleted;
} foreign;

static void foreign_deleter(DLManagedTensor *t)
{
    foreign *f = t->manager_ctx;
    f->deleted++;
    cudaFree(t->dl_tensor.data);
}

static void make_foreign(foreign *f, int n, int device)
{
    memset(f, 0, sizeof *f);
    void *d = NULL;
    assert_int_equal(cudaMalloc(&d, (size_t)n * sizeof(float)), cudaSuccess);
    f->shape[0] = n;
    f->t.dl_tensor = (DLTensor){d, {kDLCUDA, device}, 1, {kDLFloat, 32, 1}, f->shape, NULL, 0};
    f->t.manager_ctx = f;
    f->t.deleter = foreign_deleter;
}

/* "in MB" of dl_axpby's line in the profile. */
static double staged_mb(void)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    gf_profile_print(f);
    rewind(f);
    char line[512];
    double in = -1, out = -1;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "dl_axpby ", 9))
            continue;
        char *tok[32];
        int k = 0;
        for (char *s = strtok(line, " \n"); s && k < 32; s = strtok(NULL, " \n"))
            tok[k++] = s;
        assert_true(k >= 3);
        in = atof(tok[k - 3]), out = atof(tok[k - 2]);
    }
    fclose(f);
    assert_true(in >= 0);
    return in + out;
}

static void test_launcher_uses_imported(void **state)
{
    (void)state;
    int n = 1 << 20, dev;
    assert_int_equal(gf_device_current(&dev), GF_SUCCESS);
    foreign fx, fy;
    make_foreign(&fx, n, dev);
    make_foreign(&fy, n, dev);
    float *hx = malloc((size_t)n * sizeof *hx), *hy = malloc((size_t)n * sizeof *hy);
    float *ref = malloc((size_t)n * sizeof *ref);
    for (int i = 0; i < n; i++)
        hx[i] = (float)(i % 1000) * 0.5f, hy[i] = (float)(i % 7) - 3.0f, ref[i] = 2.0f * hx[i] + 0.25f * hy[i];
    assert_int_equal(cudaMemcpy(fx.t.dl_tensor.data, hx, (size_t)n * 4, cudaMemcpyHostToDevice), cudaSuccess);
    assert_int_equal(cudaMemcpy(fy.t.dl_tensor.data, hy, (size_t)n * 4, cudaMemcpyHostToDevice), cudaSuccess);
    void *x, *y;
    assert_int_equal(gf_from_dlpack(&fx.t, &x), GF_SUCCESS);
    assert_int_equal(gf_from_dlpack(&fy.t, &y), GF_SUCCESS);
    assert_ptr_equal(x, fx.t.dl_tensor.data); /* no copy */
    assert_ptr_equal(y, fy.t.dl_tensor.data);
    gf_profile_enable(1);
    gf_profile_reset();
    dl_axpby(n, 2.0f, x, 0.25f, y);
    assert_int_equal(gf_sync(), GF_SUCCESS);
    assert_true(staged_mb() == 0.0); /* 8 MB would show as 8.4 */
    assert_int_equal(cudaMemcpy(hy, y, (size_t)n * 4, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < n; i++)
        if (hy[i] != ref[i])
            fail_msg("y[%d] = %g, C body %g", i, hy[i], ref[i]);
    /* one element more than the tensors hold: refused, nothing written */
    gf_set_error_handler(capture, NULL);
    handler_calls = 0;
    dl_axpby(n + 1, 2.0f, x, 0.25f, y);
    gf_set_error_handler(NULL, NULL);
    assert_int_equal(handler_calls, 1);
    assert_non_null(strstr(handler_msg, "outside the imported DLPack tensor"));
    assert_non_null(strstr(handler_msg, "dl_axpby"));
    assert_int_equal(cudaMemcpy(hx, y, (size_t)n * 4, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_memory_equal(hx, hy, (size_t)n * 4);
    gf_profile_enable(0);
    assert_int_equal(gf_dlpack_release(&fx.t), GF_SUCCESS);
    assert_int_equal(gf_dlpack_release(&fy.t), GF_SUCCESS);
    assert_int_equal(fx.deleted + fy.deleted, 2);
    free(hx), free(hy), free(ref);
}

/* Managed and pinned memory (kDLCUDAManaged, kDLCUDAHost): imported, used
 * by the launcher as it uses such memory (managed as is, pinned staged). */
static void test_managed_and_pinned(void **state)
{
    (void)state;
    int n = 4096;
    float *m = NULL, *h = NULL;
    assert_int_equal(cudaMallocManaged((void **)&m, (size_t)n * sizeof *m, cudaMemAttachGlobal), cudaSuccess);
    assert_int_equal(cudaHostAlloc((void **)&h, (size_t)n * sizeof *h, cudaHostAllocDefault), cudaSuccess);
    for (int i = 0; i < n; i++)
        m[i] = (float)i, h[i] = 1.0f;
    int64_t shape[] = {n};
    DLManagedTensor tm = {{m, {kDLCUDAManaged, 0}, 1, {kDLFloat, 32, 1}, shape, NULL, 0}, NULL, NULL};
    DLManagedTensor th = {{h, {kDLCUDAHost, 0}, 1, {kDLFloat, 32, 1}, shape, NULL, 0}, NULL, NULL};
    void *x, *y;
    assert_int_equal(gf_from_dlpack(&tm, &x), GF_SUCCESS);
    assert_int_equal(gf_from_dlpack(&th, &y), GF_SUCCESS);
    assert_ptr_equal(x, m);
    assert_ptr_equal(y, h);
    dl_axpby(n, 3.0f, x, 2.0f, y);
    assert_int_equal(gf_sync(), GF_SUCCESS);
    for (int i = 0; i < n; i++)
        if (h[i] != 3.0f * (float)i + 2.0f)
            fail_msg("y[%d] = %g, C body %g", i, h[i], 3.0f * (float)i + 2.0f);
    assert_int_equal(gf_dlpack_release(&tm), GF_SUCCESS); /* NULL deleters: nothing called */
    assert_int_equal(gf_dlpack_release(&th), GF_SUCCESS);
    cudaFree(m);
    cudaFreeHost(h);
}

static void test_import_refusals(void **state)
{
    (void)state;
    int dev;
    assert_int_equal(gf_device_current(&dev), GF_SUCCESS);
    foreign f;
    make_foreign(&f, 64, dev);
    void *data;
    f.t.dl_tensor.device.device_id = dev + 1;
    assert_int_equal(gf_from_dlpack(&f.t, &data), GF_ERROR_INVALID_VALUE);
    assert_non_null(strstr(gf_last_error(), "this thread's device"));
    f.t.dl_tensor.device.device_id = dev;
    void *dptr = f.t.dl_tensor.data;
    float host[64];
    f.t.dl_tensor.data = host; /* says CUDA, is not */
    assert_int_equal(gf_from_dlpack(&f.t, &data), GF_ERROR_INVALID_VALUE);
    assert_non_null(strstr(gf_last_error(), "is not device memory"));
    f.t.dl_tensor.data = dptr;
    f.t.dl_tensor.device.device_type = kDLVulkan;
    assert_int_equal(gf_from_dlpack(&f.t, &data), GF_ERROR_NOT_SUPPORTED);
    assert_non_null(strstr(gf_last_error(), "kDLVulkan"));
    f.t.dl_tensor.device.device_type = kDLCUDA;
    assert_int_equal(f.deleted, 0);
    assert_int_equal(gf_from_dlpack(&f.t, &data), GF_SUCCESS);
    assert_int_equal(gf_dlpack_release(&f.t), GF_SUCCESS);
    assert_int_equal(f.deleted, 1);
}

int main(void)
{
    if (gf_init() == GF_ERROR_NO_DEVICE) {
        printf("no GPU (%s): skipped\n", gf_last_error());
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_export_device),
        cmocka_unit_test(test_export_pinned),
        cmocka_unit_test(test_launcher_uses_imported),
        cmocka_unit_test(test_managed_and_pinned),
        cmocka_unit_test(test_import_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
