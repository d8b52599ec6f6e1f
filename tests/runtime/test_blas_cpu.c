/* test_blas_cpu.c - the library calls without a GPU (run with
 * GPUFUSE_DEVICE=cpu): the C fallback GEMM against a float64 reference for
 * every type, transpose, alpha/beta and leading dimension; epilogues; the
 * naive-DFT FFT fallback; argument checks and their messages. */
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

/* one random GEMM of type t with leading dimensions padded by `pad` */
static void one_gemm(gf_op ta, gf_op tb, int m, int n, int k, double alpha, double beta, int pad, gf_dtype t)
{
    int ra = ta == GF_OP_N ? m : k, ca = ta == GF_OP_N ? k : m;
    int rb = tb == GF_OP_N ? k : n, cb = tb == GF_OP_N ? n : k;
    int lda = ca + pad, ldb = cb + pad, ldc = n + pad;
    size_t es = esize(t);
    void *A = malloc((size_t)ra * lda * es + 1), *B = malloc((size_t)rb * ldb * es + 1);
    void *C = malloc((size_t)m * ldc * es + 1), *C0 = malloc((size_t)m * ldc * es + 1);
    for (size_t i = 0; i < (size_t)ra * lda; i++)
        put(A, i, coarse(), t);
    for (size_t i = 0; i < (size_t)rb * ldb; i++)
        put(B, i, coarse(), t);
    for (size_t i = 0; i < (size_t)m * ldc; i++)
        put(C0, i, beta != 0 ? coarse() : NAN, t); /* beta == 0: C must not be read */
    memcpy(C, C0, (size_t)m * ldc * es);
    gf_status s = gf_gemm(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, t);
    assert_int_equal(s, GF_SUCCESS);
    check_gemm(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C0, C, ldc, t, tol_for(t, k));
    /* the padding between rows is untouched */
    for (int i = 0; i < m; i++)
        assert_memory_equal((char *)C + ((size_t)i * ldc + n) * es, (char *)C0 + ((size_t)i * ldc + n) * es,
                            (size_t)pad * es);
    free(A), free(B), free(C), free(C0);
}

/* ---- GEMM -------------------------------------------------------------------------- */

static void test_gemm_all_types_and_transposes(void **state)
{
    (void)state;
    gf_dtype types[] = {GF_F64, GF_F32, GF_F16, GF_BF16};
    for (int ti = 0; ti < 4; ti++)
        for (int ta = 0; ta < 2; ta++)
            for (int tb = 0; tb < 2; tb++) {
                one_gemm((gf_op)ta, (gf_op)tb, 37, 29, 41, 1.0, 0.0, 0, types[ti]);
                one_gemm((gf_op)ta, (gf_op)tb, 5, 300, 17, -0.5, 0.75, 3, types[ti]);
            }
}

static void test_gemm_alpha_beta_shapes(void **state)
{
    (void)state;
    one_gemm(GF_OP_N, GF_OP_N, 1, 1, 1, 2.0, 0.0, 0, GF_F32);
    one_gemm(GF_OP_N, GF_OP_T, 64, 1, 200, 1.0, 1.0, 0, GF_F32);   /* matrix-vector */
    one_gemm(GF_OP_T, GF_OP_N, 1, 513, 7, 0.25, -1.0, 2, GF_F64);  /* crosses the 256 block */
    one_gemm(GF_OP_N, GF_OP_N, 20, 20, 0, 1.0, 0.5, 1, GF_F64);    /* k == 0: C = beta C */
    one_gemm(GF_OP_N, GF_OP_N, 120, 90, 333, 1.0, 0.0, 1, GF_F32);
    /* m == 0 / n == 0: nothing to do, even with null pointers */
    assert_int_equal(gf_sgemm(GF_OP_N, GF_OP_N, 0, 4, 4, 1, NULL, 4, NULL, 4, 0, NULL, 4), GF_SUCCESS);
}

static void test_gemm_conveniences(void **state)
{
    (void)state;
    float A[6] = {1, 2, 3, 4, 5, 6}, B[6] = {1, 0, 0, 1, 1, 1}, C[4] = {0};
    /* [1 2 3; 4 5 6] * [1 0; 0 1; 1 1] = [4 5; 10 11] */
    assert_int_equal(gf_sgemm(GF_OP_N, GF_OP_N, 2, 2, 3, 1, A, 3, B, 2, 0, C, 2), GF_SUCCESS);
    float want[4] = {4, 5, 10, 11};
    assert_memory_equal(C, want, sizeof want);
    double Ad[4] = {1, 2, 3, 4}, Cd[4] = {1, 1, 1, 1};
    /* A^T A + C, A = [1 2; 3 4]: [10 14; 14 20] + 1 */
    assert_int_equal(gf_dgemm(GF_OP_T, GF_OP_N, 2, 2, 2, 1, Ad, 2, Ad, 2, 1, Cd, 2), GF_SUCCESS);
    double wantd[4] = {11, 15, 15, 21};
    assert_memory_equal(Cd, wantd, sizeof wantd);
}

static void test_gemm_strided_batched(void **state)
{
    (void)state;
    int m = 9, n = 11, k = 13, batch = 4;
    long long sa = m * k + 5, sb = k * n + 3, sc = m * n + 7;
    float *A = malloc(sizeof(float) * (size_t)(sa * batch)), *B = malloc(sizeof(float) * (size_t)(sb * batch));
    float *C = malloc(sizeof(float) * (size_t)(sc * batch)), *C0 = malloc(sizeof(float) * (size_t)(sc * batch));
    for (long long i = 0; i < sa * batch; i++)
        A[i] = (float)coarse();
    for (long long i = 0; i < sb * batch; i++)
        B[i] = (float)coarse();
    for (long long i = 0; i < sc * batch; i++)
        C0[i] = C[i] = (float)coarse();
    assert_int_equal(gf_gemm_strided_batched(GF_OP_N, GF_OP_N, m, n, k, 1.5, A, k, sa, B, n, sb, 0.5, C, n, sc,
                                             batch, GF_F32),
                     GF_SUCCESS);
    for (int b = 0; b < batch; b++) {
        check_gemm(GF_OP_N, GF_OP_N, m, n, k, 1.5, A + b * sa, k, B + b * sb, n, 0.5, C0 + b * sc, C + b * sc, n,
                   GF_F32, tol_for(GF_F32, k));
        /* the gap after each output is untouched */
        assert_memory_equal(C + b * sc + m * n, C0 + b * sc + m * n, 7 * sizeof(float));
    }
    /* stride 0 for B: every batch entry uses the same B */
    assert_int_equal(gf_gemm_strided_batched(GF_OP_N, GF_OP_N, m, n, k, 1, A, k, sa, B, n, 0, 0, C, n, sc, batch,
                                             GF_F32),
                     GF_SUCCESS);
    for (int b = 0; b < batch; b++)
        check_gemm(GF_OP_N, GF_OP_N, m, n, k, 1, A + b * sa, k, B, n, 0, NULL, C + b * sc, n, GF_F32,
                   tol_for(GF_F32, k));
    free(A), free(B), free(C), free(C0);
}

static void test_gemm_bad_arguments(void **state)
{
    (void)state;
    float A[16] = {0}, B[16] = {0}, C[16] = {0};
    assert_int_equal(gf_sgemm(GF_OP_N, GF_OP_N, 4, 4, 4, 1, A, 3, B, 4, 0, C, 4), GF_ERROR_INVALID_VALUE);
    assert_non_null(strstr(gf_last_error(), "lda=3"));
    assert_int_equal(gf_sgemm(GF_OP_N, GF_OP_N, 4, 4, 4, 1, NULL, 4, B, 4, 0, C, 4), GF_ERROR_INVALID_VALUE);
    assert_int_equal(gf_sgemm((gf_op)7, GF_OP_N, 4, 4, 4, 1, A, 4, B, 4, 0, C, 4), GF_ERROR_INVALID_VALUE);
    assert_int_equal(gf_gemm(GF_OP_N, GF_OP_N, 4, 4, 4, 1, A, 4, B, 4, 0, C, 4, GF_C32), GF_ERROR_INVALID_VALUE);
    assert_non_null(strstr(gf_last_error(), "type"));
    assert_int_equal(gf_sgemm(GF_OP_N, GF_OP_N, -1, 4, 4, 1, A, 4, B, 4, 0, C, 4), GF_ERROR_INVALID_VALUE);
    /* C overlapping A */
    assert_int_equal(gf_sgemm(GF_OP_N, GF_OP_N, 2, 2, 2, 1, A, 2, B, 2, 0, A + 1, 2), GF_ERROR_INVALID_VALUE);
    assert_non_null(strstr(gf_last_error(), "overlaps"));
    /* overlapping outputs of a batch */
    assert_int_equal(gf_gemm_strided_batched(GF_OP_N, GF_OP_N, 2, 2, 2, 1, A, 2, 4, B, 2, 4, 0, C, 2, 2, 2, GF_F32),
                     GF_ERROR_INVALID_VALUE);
}

static void test_tf32_switch(void **state)
{
    (void)state;
    assert_int_equal(gf_get_tf32(), 0);
    assert_int_equal(gf_set_tf32(5), GF_SUCCESS);
    assert_int_equal(gf_get_tf32(), 1);
    /* the CPU fallback is exact fp32 either way */
    one_gemm(GF_OP_N, GF_OP_N, 16, 16, 16, 1, 0, 0, GF_F32);
    gf_set_tf32(0);
    assert_int_equal(gf_get_tf32(), 0);
}

/* ---- epilogues -------------------------------------------------------------------- */

static double gelu_ref(double x) { return 0.5 * x * (1 + tanh(0.7978845608028654 * (x + 0.044715 * x * x * x))); }

static void test_epilogues(void **state)
{
    (void)state;
    int m = 33, n = 47, k = 65;
    float *A = malloc(sizeof(float) * m * k), *B = malloc(sizeof(float) * k * n), *bias = malloc(sizeof(float) * n);
    float *C = malloc(sizeof(float) * m * n);
    for (int i = 0; i < m * k; i++)
        A[i] = (float)coarse();
    for (int i = 0; i < k * n; i++)
        B[i] = (float)coarse();
    for (int i = 0; i < n; i++)
        bias[i] = (float)coarse();
    int flags[] = {0, GF_EPI_BIAS, GF_EPI_RELU, GF_EPI_GELU, GF_EPI_BIAS | GF_EPI_RELU, GF_EPI_BIAS | GF_EPI_GELU};
    for (int f = 0; f < 6; f++) {
        for (int i = 0; i < m * n; i++)
            C[i] = NAN;
        assert_int_equal(gf_gemm_epilogue(m, n, k, A, B, bias, C, flags[f]), GF_SUCCESS);
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++) {
                double ref = 0, scale = 0;
                for (int p = 0; p < k; p++)
                    ref += (double)A[i * k + p] * B[p * n + j], scale += fabs((double)A[i * k + p] * B[p * n + j]);
                if (flags[f] & GF_EPI_BIAS)
                    ref += bias[j], scale += fabs(bias[j]);
                if (flags[f] & GF_EPI_RELU)
                    ref = ref > 0 ? ref : 0;
                if (flags[f] & GF_EPI_GELU)
                    ref = gelu_ref(ref);
                double got = C[i * n + j];
                if (!(fabs(got - ref) <= 2 * tol_for(GF_F32, k) * scale + 1e-6))
                    fail_msg("flags %d: C[%d][%d] = %g, expected %g", flags[f], i, j, got, ref);
            }
    }
    assert_int_equal(gf_gemm_epilogue(m, n, k, A, B, NULL, C, GF_EPI_BIAS), GF_ERROR_INVALID_VALUE);
    assert_non_null(strstr(gf_last_error(), "bias"));
    assert_int_equal(gf_gemm_epilogue(m, n, k, A, B, bias, C, GF_EPI_RELU | GF_EPI_GELU), GF_ERROR_INVALID_VALUE);
    assert_int_equal(gf_gemm_epilogue(m, n, k, A, B, bias, C, 64), GF_ERROR_INVALID_VALUE);
    free(A), free(B), free(bias), free(C);
}

/* ---- FFT: the naive DFT fallback ------------------------------------------------------ */

static void test_fft_cpu_known_values(void **state)
{
    (void)state;
    /* delta -> all ones; ones -> n at 0 */
    float x[16] = {0}, y[16];
    x[0] = 1;
    int n = 8;
    assert_int_equal(gf_fft_c2c(1, &n, 1, x, y, GF_FFT_FORWARD, GF_C32), GF_SUCCESS);
    for (int i = 0; i < 8; i++)
        assert_true(fabsf(y[2 * i] - 1) < 1e-6f && fabsf(y[2 * i + 1]) < 1e-6f);
    /* e^{2 pi i 3t/8} forward -> 8 at bin 3 (sign convention: forward is e^{-i...}) */
    double z[16], w[16];
    for (int t = 0; t < 8; t++)
        z[2 * t] = cos(2 * M_PI * 3 * t / 8), z[2 * t + 1] = sin(2 * M_PI * 3 * t / 8);
    assert_int_equal(gf_fft_c2c(1, &n, 1, z, w, GF_FFT_FORWARD, GF_C64), GF_SUCCESS);
    for (int f = 0; f < 8; f++) {
        assert_true(fabs(w[2 * f] - (f == 3 ? 8 : 0)) < 1e-12);
        assert_true(fabs(w[2 * f + 1]) < 1e-12);
    }
}

static void test_fft_cpu_round_trips(void **state)
{
    (void)state;
    int shapes[3][3] = {{30, 0, 0}, {6, 10, 0}, {4, 6, 5}};
    for (int r = 1; r <= 3; r++) {
        int *dims = shapes[r - 1], batch = 3;
        int N = 1;
        for (int i = 0; i < r; i++)
            N *= dims[i];
        int h = N / dims[r - 1] * (dims[r - 1] / 2 + 1);
        double *x = malloc(sizeof(double) * 2 * N * batch), *X = malloc(sizeof(double) * 2 * N * batch);
        double *y = malloc(sizeof(double) * 2 * N * batch);
        for (int i = 0; i < 2 * N * batch; i++)
            x[i] = urand();
        /* c2c: inverse(forward(x)) = N x, in place for the inverse */
        assert_int_equal(gf_fft_c2c(r, dims, batch, x, X, GF_FFT_FORWARD, GF_C64), GF_SUCCESS);
        assert_int_equal(gf_fft_c2c(r, dims, batch, X, X, GF_FFT_INVERSE, GF_C64), GF_SUCCESS);
        for (int i = 0; i < 2 * N * batch; i++)
            assert_true(fabs(X[i] / N - x[i]) < 1e-12);
        /* r2c equals the first half of c2c of the real part; c2r inverts */
        double *re = malloc(sizeof(double) * N * batch), *back = malloc(sizeof(double) * N * batch);
        for (int i = 0; i < N * batch; i++)
            re[i] = x[i], y[2 * i] = x[i], y[2 * i + 1] = 0;
        assert_int_equal(gf_fft_c2c(r, dims, batch, y, X, GF_FFT_FORWARD, GF_C64), GF_SUCCESS);
        assert_int_equal(gf_fft_r2c(r, dims, batch, re, y, GF_F64), GF_SUCCESS);
        int d = dims[r - 1], hd = d / 2 + 1;
        for (int row = 0; row < N * batch / d; row++)
            for (int j = 0; j < hd; j++) {
                assert_true(fabs(y[2 * (row * hd + j)] - X[2 * (row * d + j)]) < 1e-10);
                assert_true(fabs(y[2 * (row * hd + j) + 1] - X[2 * (row * d + j) + 1]) < 1e-10);
            }
        assert_int_equal(gf_fft_c2r(r, dims, batch, y, back, GF_C64), GF_SUCCESS);
        for (int i = 0; i < N * batch; i++)
            assert_true(fabs(back[i] / N - re[i]) < 1e-12);
        (void)h;
        free(x), free(X), free(y), free(re), free(back);
    }
}

static void test_fft_cpu_limits_and_errors(void **state)
{
    (void)state;
    int big[2] = {1024, 1024}, n = 8, zero = 0;
    float x[16] = {0}, y[16];
    /* far past the naive DFT's bound: refused before touching memory */
    assert_int_equal(gf_fft_c2c(2, big, 1, x, y, GF_FFT_FORWARD, GF_C32), GF_ERROR_NOT_SUPPORTED);
    assert_non_null(strstr(gf_last_error(), "no GPU"));
    assert_int_equal(gf_fft_c2c(4, &n, 1, x, y, GF_FFT_FORWARD, GF_C32), GF_ERROR_INVALID_VALUE);
    assert_int_equal(gf_fft_c2c(1, &zero, 1, x, y, GF_FFT_FORWARD, GF_C32), GF_ERROR_INVALID_VALUE);
    assert_int_equal(gf_fft_c2c(1, &n, 1, x, y, 0, GF_C32), GF_ERROR_INVALID_VALUE);
    assert_int_equal(gf_fft_c2c(1, &n, 1, x, y, GF_FFT_FORWARD, GF_F32), GF_ERROR_INVALID_VALUE);
    assert_int_equal(gf_fft_r2c(1, &n, 1, x, x, GF_F32), GF_ERROR_NOT_SUPPORTED);
    assert_non_null(strstr(gf_last_error(), "in-place"));
    gf_fft_stats st;
    assert_int_equal(gf_fft_cache_stats(&st), GF_SUCCESS);
    assert_int_equal(st.plans, 0); /* no cuFFT plans without a GPU */
    assert_true(st.capacity >= 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gemm_all_types_and_transposes),
        cmocka_unit_test(test_gemm_alpha_beta_shapes),
        cmocka_unit_test(test_gemm_conveniences),
        cmocka_unit_test(test_gemm_strided_batched),
        cmocka_unit_test(test_gemm_bad_arguments),
        cmocka_unit_test(test_tf32_switch),
        cmocka_unit_test(test_epilogues),
        cmocka_unit_test(test_fft_cpu_known_values),
        cmocka_unit_test(test_fft_cpu_round_trips),
        cmocka_unit_test(test_fft_cpu_limits_and_errors),
    };
    return cmocka_run_group_tests_name("blas_cpu", tests, NULL, NULL);
}
