/* test_gpu_blas.c - on a GPU: gf_gemm for f32/f64/f16/bf16 (all transposes,
 * alpha/beta, padded leading dimensions), strided batched, TF32, the
 * cuBLASLt epilogues, on device, staged host, pinned and data-region
 * memory and on a second stream, against float64 host references.
 * Tolerances, per element, relative to |alpha| sum|a b| + |beta c0|:
 * f64 (k+4) 2^-52 and f32 (k+4) 2^-23 (rigorous for any summation order,
 * so TF32 use would fail them), f16/bf16 1e-2, TF32 1e-2.
 * Exits 77 without a GPU. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <gpufuse.h>

/* ---- helpers ----------------------------------------------------------------- */

#include "blas_ref.h"

/* values: full precision for f32/f64 (so TF32 would show), 8 bits for 16-bit types */
static double value(gf_dtype t) { return t == GF_F32 || t == GF_F64 ? urand() : coarse(); }

enum { MEM_HOST, MEM_DEVICE, MEM_PINNED };

/* a buffer of `bytes` holding host[0..bytes) in memory of kind `mem` */
static void *place(const void *host, size_t bytes, int mem)
{
    void *p = NULL;
    if (mem == MEM_HOST) {
        p = malloc(bytes);
        memcpy(p, host, bytes);
    } else if (mem == MEM_PINNED) {
        assert_int_equal(gf_host_malloc(&p, bytes), GF_SUCCESS);
        memcpy(p, host, bytes);
    } else {
        assert_int_equal(gf_malloc(&p, bytes), GF_SUCCESS);
        assert_int_equal(gf_memcpy(p, host, bytes, GF_HOST_TO_DEVICE), GF_SUCCESS);
    }
    return p;
}

static void fetch(void *host, const void *p, size_t bytes, int mem)
{
    if (mem == MEM_DEVICE)
        assert_int_equal(gf_memcpy(host, p, bytes, GF_DEVICE_TO_HOST), GF_SUCCESS);
    else
        memcpy(host, p, bytes);
}

static void release(void *p, int mem)
{
    if (mem == MEM_HOST)
        free(p);
    else if (mem == MEM_PINNED)
        assert_int_equal(gf_host_free(p), GF_SUCCESS);
    else
        assert_int_equal(gf_free(p), GF_SUCCESS);
}

/* one random (strided batched when batch > 1) GEMM of type t, leading
 * dimensions padded by `pad`, operands in memory of kind `mem` */
static void one_gemm(gf_op ta, gf_op tb, int m, int n, int k, double alpha, double beta, int pad, int batch,
                     gf_dtype t, int mem, double tol)
{
    int ra = ta == GF_OP_N ? m : k, ca = ta == GF_OP_N ? k : m;
    int rb = tb == GF_OP_N ? k : n, cb = tb == GF_OP_N ? n : k;
    int lda = ca + pad, ldb = cb + pad, ldc = n + pad;
    long long sa = (long long)ra * lda + 3, sb = (long long)rb * ldb + 5, sc = (long long)m * ldc + 7;
    if (batch == 1)
        sa = (long long)ra * lda, sb = (long long)rb * ldb, sc = (long long)m * ldc;
    size_t es = esize(t), na = (size_t)(sa * batch), nb = (size_t)(sb * batch), nc = (size_t)(sc * batch);
    void *A = malloc(na * es), *B = malloc(nb * es), *C0 = malloc(nc * es), *C = malloc(nc * es);
    for (size_t i = 0; i < na; i++)
        put(A, i, value(t), t);
    for (size_t i = 0; i < nb; i++)
        put(B, i, value(t), t);
    for (size_t i = 0; i < nc; i++)
        put(C0, i, beta != 0 ? value(t) : NAN, t); /* beta == 0: C must not be read */
    void *dA = place(A, na * es, mem), *dB = place(B, nb * es, mem), *dC = place(C0, nc * es, mem);
    gf_status s = batch == 1 ? gf_gemm(ta, tb, m, n, k, alpha, dA, lda, dB, ldb, beta, dC, ldc, t)
                             : gf_gemm_strided_batched(ta, tb, m, n, k, alpha, dA, lda, sa, dB, ldb, sb, beta,
                                                       dC, ldc, sc, batch, t);
    if (s != GF_SUCCESS)
        fail_msg("gf_gemm: %s", gf_error_string(s));
    assert_int_equal(gf_sync(), GF_SUCCESS);
    fetch(C, dC, nc * es, mem);
    for (int b = 0; b < batch; b++) {
        check_gemm(ta, tb, m, n, k, alpha, (char *)A + b * sa * es, lda, (char *)B + b * sb * es, ldb, beta,
                   (char *)C0 + b * sc * es, (char *)C + b * sc * es, ldc, t, tol);
    }
    /* the padding between rows and between matrices is untouched */
    for (size_t i = 0; i < nc; i++) {
        size_t r = i % (size_t)sc;
        if (!(r < (size_t)m * ldc && (int)(r % (size_t)ldc) < n))
            assert_memory_equal((char *)C + i * es, (char *)C0 + i * es, es);
    }
    release(dA, mem), release(dB, mem), release(dC, mem);
    free(A), free(B), free(C), free(C0);
}

static const gf_dtype types[] = {GF_F64, GF_F32, GF_F16, GF_BF16};

static void test_gemm_device_all_types(void **state)
{
    (void)state;
    for (int ti = 0; ti < 4; ti++)
        for (int ta = 0; ta < 2; ta++)
            for (int tb = 0; tb < 2; tb++) {
                gf_dtype t = types[ti];
                one_gemm((gf_op)ta, (gf_op)tb, 67, 45, 129, 1.0, 0.0, 0, 1, t, MEM_DEVICE, tol_for(t, 129));
                one_gemm((gf_op)ta, (gf_op)tb, 8, 300, 33, -0.5, 0.75, 3, 1, t, MEM_DEVICE, tol_for(t, 33));
            }
    /* a larger square one through the conveniences' path */
    one_gemm(GF_OP_N, GF_OP_N, 512, 512, 512, 1.0, 0.0, 0, 1, GF_F32, MEM_DEVICE, tol_for(GF_F32, 512));
    one_gemm(GF_OP_T, GF_OP_N, 256, 384, 320, 2.0, 1.0, 0, 1, GF_F64, MEM_DEVICE, tol_for(GF_F64, 320));
}

static void test_gemm_host_and_pinned(void **state)
{
    (void)state;
    for (int ti = 0; ti < 4; ti++) {
        gf_dtype t = types[ti];
        one_gemm(GF_OP_N, GF_OP_T, 70, 50, 90, 1.0, 0.0, 0, 1, t, MEM_HOST, tol_for(t, 90));
        one_gemm(GF_OP_T, GF_OP_N, 70, 50, 90, 1.0, 0.5, 4, 1, t, MEM_HOST, tol_for(t, 90));   /* gaps kept */
        one_gemm(GF_OP_N, GF_OP_N, 31, 17, 23, 0.5, 2.0, 1, 1, t, MEM_PINNED, tol_for(t, 23));
    }
    /* a staged convenience call: [1 2 3; 4 5 6] * [1 0; 0 1; 1 1] */
    float A[6] = {1, 2, 3, 4, 5, 6}, B[6] = {1, 0, 0, 1, 1, 1}, C[4] = {0}, want[4] = {4, 5, 10, 11};
    assert_int_equal(gf_sgemm(GF_OP_N, GF_OP_N, 2, 2, 3, 1, A, 3, B, 2, 0, C, 2), GF_SUCCESS);
    assert_memory_equal(C, want, sizeof want);
}

static void test_gemm_batched(void **state)
{
    (void)state;
    for (int ti = 0; ti < 4; ti++) {
        gf_dtype t = types[ti];
        one_gemm(GF_OP_N, GF_OP_N, 24, 40, 56, 1.0, 0.0, 0, 5, t, MEM_DEVICE, tol_for(t, 56));
        one_gemm(GF_OP_T, GF_OP_T, 24, 40, 56, 1.0, -1.0, 2, 3, t, MEM_DEVICE, tol_for(t, 56));
    }
    one_gemm(GF_OP_N, GF_OP_T, 16, 16, 16, 1.0, 0.0, 0, 7, GF_F32, MEM_HOST, tol_for(GF_F32, 16));
}

static void test_gemm_tf32(void **state)
{
    (void)state;
    assert_int_equal(gf_set_tf32(1), GF_SUCCESS);
    one_gemm(GF_OP_N, GF_OP_N, 256, 256, 512, 1.0, 0.0, 0, 1, GF_F32, MEM_DEVICE, 1e-2);
    one_gemm(GF_OP_T, GF_OP_N, 64, 96, 128, 1.0, 1.0, 0, 3, GF_F32, MEM_DEVICE, 1e-2);
    assert_int_equal(gf_set_tf32(0), GF_SUCCESS);
    one_gemm(GF_OP_N, GF_OP_N, 256, 256, 512, 1.0, 0.0, 0, 1, GF_F32, MEM_DEVICE, tol_for(GF_F32, 512));
}

static void test_gemm_on_a_stream(void **state)
{
    (void)state;
    gf_stream s;
    assert_int_equal(gf_stream_create(&s), GF_SUCCESS);
    assert_int_equal(gf_stream_set(s), GF_SUCCESS);
    one_gemm(GF_OP_N, GF_OP_N, 128, 64, 96, 1.0, 0.0, 0, 1, GF_F32, MEM_DEVICE, tol_for(GF_F32, 96));
    one_gemm(GF_OP_N, GF_OP_N, 128, 64, 96, 1.0, 0.5, 0, 1, GF_F16, MEM_HOST, 1e-2);
    assert_int_equal(gf_stream_set(NULL), GF_SUCCESS);
    assert_int_equal(gf_stream_destroy(s), GF_SUCCESS);
    /* streams made and destroyed in turn (a new one may get the old handle
     * value): the handle bound to a destroyed stream is gone with it, and
     * this thread's cached handle is not used again */
    for (int r = 0; r < 4; r++) {
        assert_int_equal(gf_stream_create(&s), GF_SUCCESS);
        assert_int_equal(gf_stream_set(s), GF_SUCCESS);
        one_gemm(GF_OP_N, GF_OP_T, 33, 20, 17, 1.0, 0.25, 0, 1, GF_F64, MEM_DEVICE, tol_for(GF_F64, 17));
        assert_int_equal(gf_stream_set(NULL), GF_SUCCESS);
        assert_int_equal(gf_stream_destroy(s), GF_SUCCESS);
        one_gemm(GF_OP_N, GF_OP_N, 20, 33, 17, 1.0, 0.0, 0, 1, GF_F32, MEM_DEVICE, tol_for(GF_F32, 17));
    }
}

static void test_gemm_data_region(void **state)
{
    (void)state;
    int m = 40, n = 30, k = 20;
    float *A = malloc(sizeof(float) * m * k), *B = malloc(sizeof(float) * k * n), *C = malloc(sizeof(float) * m * n);
    for (int i = 0; i < m * k; i++)
        A[i] = (float)urand();
    for (int i = 0; i < k * n; i++)
        B[i] = (float)urand();
    assert_int_equal(gf_data_enter(A, sizeof(float) * m * k, GF_COPYIN), GF_SUCCESS);
    assert_int_equal(gf_data_enter(C, sizeof(float) * m * n, GF_COPYOUT), GF_SUCCESS);
    assert_int_equal(gf_sgemm(GF_OP_N, GF_OP_N, m, n, k, 1, A, k, B, n, 0, C, n), GF_SUCCESS);
    assert_int_equal(gf_data_exit(C), GF_SUCCESS); /* copies the mirror out */
    assert_int_equal(gf_data_exit(A), GF_SUCCESS);
    check_gemm(GF_OP_N, GF_OP_N, m, n, k, 1, A, k, B, n, 0, NULL, C, n, GF_F32, tol_for(GF_F32, k));
    free(A), free(B), free(C);
}

static void test_gemm_errors(void **state)
{
    (void)state;
    float *d;
    assert_int_equal(gf_malloc((void **)&d, 64 * sizeof(float)), GF_SUCCESS);
    assert_int_equal(gf_sgemm(GF_OP_N, GF_OP_N, 4, 4, 4, 1, d, 2, d + 16, 4, 0, d + 32, 4), GF_ERROR_INVALID_VALUE);
    assert_non_null(strstr(gf_last_error(), "lda=2"));
    /* C overlaps A */
    assert_int_equal(gf_sgemm(GF_OP_N, GF_OP_N, 4, 4, 4, 1, d, 4, d + 16, 4, 0, d + 8, 4), GF_ERROR_INVALID_VALUE);
    assert_non_null(strstr(gf_last_error(), "overlaps"));
    assert_int_equal(gf_free(d), GF_SUCCESS);
}

/* ---- epilogues ------------------------------------------------------------------------ */

static double gelu_ref(double x) { return 0.5 * x * (1 + tanh(0.7978845608028654 * (x + 0.044715 * x * x * x))); }

static void one_epilogue(int m, int n, int k, int flags, int mem, double tol)
{
    float *A = malloc(sizeof(float) * m * k), *B = malloc(sizeof(float) * k * n), *bias = malloc(sizeof(float) * n);
    float *C = malloc(sizeof(float) * m * n);
    for (int i = 0; i < m * k; i++)
        A[i] = (float)urand();
    for (int i = 0; i < k * n; i++)
        B[i] = (float)urand();
    for (int i = 0; i < n; i++)
        bias[i] = (float)urand();
    for (int i = 0; i < m * n; i++)
        C[i] = NAN;
    float *dA = place(A, sizeof(float) * m * k, mem), *dB = place(B, sizeof(float) * k * n, mem);
    float *dbias = place(bias, sizeof(float) * n, mem), *dC = place(C, sizeof(float) * m * n, mem);
    gf_status s = gf_gemm_epilogue(m, n, k, dA, dB, dbias, dC, flags);
    if (s != GF_SUCCESS)
        fail_msg("gf_gemm_epilogue(flags %d): %s", flags, gf_error_string(s));
    assert_int_equal(gf_sync(), GF_SUCCESS);
    fetch(C, dC, sizeof(float) * m * n, mem);
    /* cuBLASLt's GELU may use the erf form or fast tanh: 2e-3 absolute */
    double extra = (flags & GF_EPI_GELU) ? 2e-3 : 1e-30;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double ref = 0, scale = 0;
            for (int p = 0; p < k; p++) {
                double x = (double)A[(size_t)i * k + p] * B[(size_t)p * n + j];
                ref += x, scale += fabs(x);
            }
            if (flags & GF_EPI_BIAS)
                ref += bias[j], scale += fabs(bias[j]);
            if (flags & GF_EPI_RELU)
                ref = ref > 0 ? ref : 0;
            if (flags & GF_EPI_GELU)
                ref = gelu_ref(ref);
            double got = C[(size_t)i * n + j];
            if (!(fabs(got - ref) <= tol * scale + extra))
                fail_msg("flags %d: C[%d][%d] = %.9g, expected %.9g (scale %g)", flags, i, j, got, ref, scale);
        }
    release(dA, mem), release(dB, mem), release(dbias, mem), release(dC, mem);
    free(A), free(B), free(bias), free(C);
}

static void test_epilogues(void **state)
{
    (void)state;
    int flags[] = {GF_EPI_BIAS | GF_EPI_RELU, GF_EPI_BIAS | GF_EPI_GELU, GF_EPI_BIAS, GF_EPI_RELU, GF_EPI_GELU, 0};
    for (int f = 0; f < 6; f++) {
        one_epilogue(128, 96, 64, flags[f], MEM_DEVICE, 2 * tol_for(GF_F32, 64));
        one_epilogue(33, 47, 65, flags[f], MEM_DEVICE, 2 * tol_for(GF_F32, 65));
        one_epilogue(33, 47, 65, flags[f], MEM_HOST, 2 * tol_for(GF_F32, 65));
    }
    /* the cached plan is reused (same shapes again) and TF32 gets its own */
    one_epilogue(128, 96, 64, GF_EPI_BIAS | GF_EPI_RELU, MEM_DEVICE, 2 * tol_for(GF_F32, 64));
    gf_set_tf32(1);
    one_epilogue(512, 256, 384, GF_EPI_BIAS | GF_EPI_RELU, MEM_DEVICE, 1e-2);
    gf_set_tf32(0);
    one_epilogue(512, 256, 384, GF_EPI_BIAS | GF_EPI_RELU, MEM_DEVICE, 2 * tol_for(GF_F32, 384));
}

int main(void)
{
    if (gf_init() == GF_ERROR_NO_DEVICE) {
        printf("no GPU (%s): skipped\n", gf_last_error());
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gemm_device_all_types),
        cmocka_unit_test(test_gemm_host_and_pinned),
        cmocka_unit_test(test_gemm_batched),
        cmocka_unit_test(test_gemm_tf32),
        cmocka_unit_test(test_gemm_on_a_stream),
        cmocka_unit_test(test_gemm_data_region),
        cmocka_unit_test(test_gemm_errors),
        cmocka_unit_test(test_epilogues),
    };
    return cmocka_run_group_tests_name("gpu_blas", tests, NULL, NULL);
}
