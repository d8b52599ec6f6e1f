/* test_gpu_fft.c - on a GPU: gf_fft_c2c/r2c/c2r of rank 1-3, batched, in
 * single and double precision, against a direct O(N^2) float64 DFT on small
 * sizes and inverse(forward(x)) = N x on large ones; device, staged host
 * and in-place buffers; the plan cache's counters and LRU eviction.
 * Tolerances (normwise relative): C32 1e-5, C64 1e-12.  Exits 77 without a GPU. */
#include <complex.h>
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

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static double urand(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

static long long prod(int rank, const int *dims)
{
    long long n = 1;
    for (int i = 0; i < rank; i++)
        n *= dims[i];
    return n;
}

/* Direct multi-dimensional DFT of one array: X[f] = sum_t x[t] e^{sign 2 pi i sum_a f_a t_a / d_a}. */
static void dft_ref(int rank, const int *dims, const double complex *x, double complex *X, int sign)
{
    long long N = prod(rank, dims);
    for (long long f = 0; f < N; f++) {
        int fi[3] = {0, 0, 0};
        long long r = f;
        for (int a = rank - 1; a >= 0; a--)
            fi[a] = (int)(r % dims[a]), r /= dims[a];
        double complex acc = 0;
        for (long long t = 0; t < N; t++) {
            long long q = t;
            double ph = 0;
            for (int a = rank - 1; a >= 0; a--) {
                int ta = (int)(q % dims[a]);
                q /= dims[a];
                ph += (double)((long long)fi[a] * ta % dims[a]) / dims[a];
            }
            acc += x[t] * cexp(sign * 2 * M_PI * I * ph);
        }
        X[f] = acc;
    }
}

static double rel_err(const double complex *got, const double complex *ref, long long n)
{
    double num = 0, den = 0;
    for (long long i = 0; i < n; i++)
        num += pow(cabs(got[i] - ref[i]), 2), den += pow(cabs(ref[i]), 2);
    return sqrt(num / (den > 0 ? den : 1));
}

enum { MEM_HOST, MEM_DEVICE };

static void *to_mem(const void *h, size_t bytes, int mem)
{
    void *p;
    if (mem == MEM_HOST) {
        p = malloc(bytes);
        memcpy(p, h, bytes);
        return p;
    }
    assert_int_equal(gf_malloc(&p, bytes), GF_SUCCESS);
    assert_int_equal(gf_memcpy(p, h, bytes, GF_HOST_TO_DEVICE), GF_SUCCESS);
    return p;
}

static void from_mem(void *h, const void *p, size_t bytes, int mem)
{
    if (mem == MEM_HOST)
        memcpy(h, p, bytes);
    else
        assert_int_equal(gf_memcpy(h, p, bytes, GF_DEVICE_TO_HOST), GF_SUCCESS);
}

static void drop(void *p, int mem)
{
    if (mem == MEM_HOST)
        free(p);
    else
        assert_int_equal(gf_free(p), GF_SUCCESS);
}

/* complex array <-> interleaved float/double */
static void *pack_c(const double complex *x, long long n, int dbl)
{
    void *p = malloc((size_t)n * (dbl ? 16 : 8));
    for (long long i = 0; i < n; i++) {
        if (dbl)
            ((double *)p)[2 * i] = creal(x[i]), ((double *)p)[2 * i + 1] = cimag(x[i]);
        else
            ((float *)p)[2 * i] = (float)creal(x[i]), ((float *)p)[2 * i + 1] = (float)cimag(x[i]);
    }
    return p;
}

static void unpack_c(const void *p, double complex *x, long long n, int dbl)
{
    for (long long i = 0; i < n; i++)
        x[i] = dbl ? ((const double *)p)[2 * i] + I * ((const double *)p)[2 * i + 1]
                   : ((const float *)p)[2 * i] + I * (double)((const float *)p)[2 * i + 1];
}

static const int small[3][3] = {{60, 0, 0}, {12, 10, 0}, {4, 6, 5}};

/* c2c against the direct DFT, both directions, out of place and in place */
static void check_c2c(int rank, const int *dims, int batch, int dbl, int mem, int inplace)
{
    long long N = prod(rank, dims), T = N * batch;
    double complex *x = malloc(sizeof *x * T), *ref = malloc(sizeof *ref * T), *got = malloc(sizeof *got * T);
    double tol = dbl ? 1e-12 : 1e-5;
    size_t bytes = (size_t)T * (dbl ? 16 : 8);
    for (int dir = -1; dir <= 1; dir += 2) {
        for (long long i = 0; i < T; i++)
            x[i] = urand() + I * urand();
        void *h = pack_c(x, T, dbl);
        unpack_c(h, x, T, dbl); /* the reference sees the rounded input */
        for (int b = 0; b < batch; b++)
            dft_ref(rank, dims, x + b * N, ref + b * N, dir);
        void *in = to_mem(h, bytes, mem), *out = inplace ? in : to_mem(h, bytes, mem);
        gf_status s = gf_fft_c2c(rank, dims, batch, in, out, dir, dbl ? GF_C64 : GF_C32);
        if (s != GF_SUCCESS)
            fail_msg("gf_fft_c2c: %s", gf_error_string(s));
        assert_int_equal(gf_sync(), GF_SUCCESS);
        from_mem(h, out, bytes, mem);
        unpack_c(h, got, T, dbl);
        double e = rel_err(got, ref, T);
        if (!(e <= tol))
            fail_msg("c2c rank %d dir %d dbl %d mem %d inplace %d: error %g > %g", rank, dir, dbl, mem, inplace, e, tol);
        if (!inplace)
            drop(out, mem);
        drop(in, mem);
        free(h);
    }
    free(x), free(ref), free(got);
}

static void test_c2c_small(void **state)
{
    (void)state;
    for (int r = 1; r <= 3; r++)
        for (int dbl = 0; dbl < 2; dbl++) {
            check_c2c(r, small[r - 1], 3, dbl, MEM_DEVICE, 0);
            check_c2c(r, small[r - 1], 2, dbl, MEM_DEVICE, 1);
            check_c2c(r, small[r - 1], 2, dbl, MEM_HOST, 0);
            check_c2c(r, small[r - 1], 1, dbl, MEM_HOST, 1);
        }
}

/* r2c against the direct DFT of the real input (first d/2+1 of the last
 * axis), then c2r of that back to N x */
static void check_real(int rank, const int *dims, int batch, int dbl, int mem)
{
    long long N = prod(rank, dims), T = N * batch;
    int d = dims[rank - 1], hd = d / 2 + 1;
    long long H = N / d * hd, TH = H * batch;
    size_t rs = dbl ? 8 : 4;
    double tol = dbl ? 1e-12 : 1e-5;
    double complex *x = malloc(sizeof *x * T), *full = malloc(sizeof *full * T);
    double complex *ref = malloc(sizeof *ref * TH), *got = malloc(sizeof *got * TH);
    void *hr = malloc((size_t)T * rs), *hc = malloc((size_t)TH * 2 * rs);
    for (long long i = 0; i < T; i++) {
        double v = urand();
        if (dbl)
            ((double *)hr)[i] = v;
        else
            ((float *)hr)[i] = (float)v;
        x[i] = dbl ? ((double *)hr)[i] : ((float *)hr)[i];
    }
    for (int b = 0; b < batch; b++)
        dft_ref(rank, dims, x + b * N, full + b * N, -1);
    for (long long row = 0; row < T / d; row++)
        for (int j = 0; j < hd; j++)
            ref[row * hd + j] = full[row * d + j];
    void *in = to_mem(hr, (size_t)T * rs, mem), *out = to_mem(hc, (size_t)TH * 2 * rs, mem);
    gf_status s = gf_fft_r2c(rank, dims, batch, in, out, dbl ? GF_F64 : GF_F32);
    if (s != GF_SUCCESS)
        fail_msg("gf_fft_r2c: %s", gf_error_string(s));
    assert_int_equal(gf_sync(), GF_SUCCESS);
    from_mem(hc, out, (size_t)TH * 2 * rs, mem);
    unpack_c(hc, got, TH, dbl);
    double e = rel_err(got, ref, TH);
    if (!(e <= tol))
        fail_msg("r2c rank %d dbl %d mem %d: error %g", rank, dbl, mem, e);
    /* c2r(r2c(x)) = N x; c2r may overwrite its input, which is `out` */
    s = gf_fft_c2r(rank, dims, batch, out, in, dbl ? GF_C64 : GF_C32);
    if (s != GF_SUCCESS)
        fail_msg("gf_fft_c2r: %s", gf_error_string(s));
    assert_int_equal(gf_sync(), GF_SUCCESS);
    void *back = malloc((size_t)T * rs);
    from_mem(back, in, (size_t)T * rs, mem);
    double num = 0, den = 0;
    for (long long i = 0; i < T; i++) {
        double v = dbl ? ((double *)back)[i] : ((float *)back)[i];
        num += pow(v / N - creal(x[i]), 2), den += pow(creal(x[i]), 2);
    }
    if (!(sqrt(num / den) <= tol))
        fail_msg("c2r rank %d dbl %d mem %d: round-trip error %g", rank, dbl, mem, sqrt(num / den));
    drop(in, mem), drop(out, mem);
    free(x), free(full), free(ref), free(got), free(hr), free(hc), free(back);
}

static void test_r2c_c2r_small(void **state)
{
    (void)state;
    int odd[3][3] = {{45, 0, 0}, {9, 7, 0}, {3, 5, 7}};
    for (int r = 1; r <= 3; r++)
        for (int dbl = 0; dbl < 2; dbl++) {
            check_real(r, small[r - 1], 3, dbl, MEM_DEVICE);
            check_real(r, odd[r - 1], 2, dbl, MEM_DEVICE);
            check_real(r, small[r - 1], 2, dbl, MEM_HOST);
        }
}

/* inverse(forward(x)) = N x on sizes too large for the direct DFT */
static void round_trip(int rank, const int *dims, int batch, int dbl)
{
    long long N = prod(rank, dims), T = N * batch;
    size_t bytes = (size_t)T * (dbl ? 16 : 8);
    void *h = malloc(bytes), *back = malloc(bytes), *d, *X;
    for (long long i = 0; i < 2 * T; i++) {
        if (dbl)
            ((double *)h)[i] = urand();
        else
            ((float *)h)[i] = (float)urand();
    }
    assert_int_equal(gf_malloc(&d, bytes), GF_SUCCESS);
    assert_int_equal(gf_malloc(&X, bytes), GF_SUCCESS);
    assert_int_equal(gf_memcpy(d, h, bytes, GF_HOST_TO_DEVICE), GF_SUCCESS);
    gf_dtype t = dbl ? GF_C64 : GF_C32;
    assert_int_equal(gf_fft_c2c(rank, dims, batch, d, X, GF_FFT_FORWARD, t), GF_SUCCESS);
    assert_int_equal(gf_fft_c2c(rank, dims, batch, X, X, GF_FFT_INVERSE, t), GF_SUCCESS);
    assert_int_equal(gf_memcpy(back, X, bytes, GF_DEVICE_TO_HOST), GF_SUCCESS);
    double num = 0, den = 0;
    for (long long i = 0; i < 2 * T; i++) {
        double a = dbl ? ((double *)h)[i] : ((float *)h)[i], b = dbl ? ((double *)back)[i] : ((float *)back)[i];
        num += (b / N - a) * (b / N - a), den += a * a;
    }
    double tol = dbl ? 1e-12 : 1e-5;
    if (!(sqrt(num / den) <= tol))
        fail_msg("round trip rank %d dbl %d: error %g", rank, dbl, sqrt(num / den));
    assert_int_equal(gf_free(d), GF_SUCCESS);
    assert_int_equal(gf_free(X), GF_SUCCESS);
    free(h), free(back);
}

static void test_round_trip_large(void **state)
{
    (void)state;
    int d1 = 1 << 20, d2[2] = {1024, 1024}, d3[3] = {64, 96, 80}, d1odd = 3 * 5 * 7 * 11 * 13 * 17;
    for (int dbl = 0; dbl < 2; dbl++) {
        round_trip(1, &d1, 2, dbl);
        round_trip(1, &d1odd, 1, dbl);
        round_trip(2, d2, 1, dbl);
        round_trip(3, d3, 2, dbl);
    }
}

static void test_plan_cache(void **state)
{
    (void)state;
    gf_fft_stats s0, s1;
    assert_int_equal(gf_fft_cache_clear(), GF_SUCCESS);
    assert_int_equal(gf_fft_cache_stats(&s0), GF_SUCCESS);
    assert_int_equal(s0.plans, 0);
    int cap = s0.capacity;
    assert_true(cap >= 1);
    size_t bytes = 16 * 64 * 8;
    void *a, *b;
    assert_int_equal(gf_malloc(&a, bytes), GF_SUCCESS);
    assert_int_equal(gf_malloc(&b, bytes), GF_SUCCESS);
    int n = 64;
    /* same shape twice: one miss, then a hit; direction is not in the key */
    assert_int_equal(gf_fft_c2c(1, &n, 16, a, b, GF_FFT_FORWARD, GF_C32), GF_SUCCESS);
    assert_int_equal(gf_fft_c2c(1, &n, 16, b, a, GF_FFT_INVERSE, GF_C32), GF_SUCCESS);
    assert_int_equal(gf_fft_cache_stats(&s1), GF_SUCCESS);
    assert_int_equal(s1.misses - s0.misses, 1);
    assert_int_equal(s1.hits - s0.hits, 1);
    assert_int_equal(s1.plans, 1);
    /* cap + 2 other shapes: LRU keeps cap plans, evicting the rest */
    for (int i = 0; i < cap + 2; i++) {
        int m = 8 + i;
        assert_int_equal(gf_fft_c2c(1, &m, 2, a, b, GF_FFT_FORWARD, GF_C32), GF_SUCCESS);
    }
    assert_int_equal(gf_fft_cache_stats(&s1), GF_SUCCESS);
    assert_int_equal(s1.plans, cap);
    assert_int_equal(s1.evictions - s0.evictions, 3);
    assert_int_equal(s1.misses - s0.misses, 1 + cap + 2);
    /* the most recent shape is still cached */
    int last = 8 + cap + 1;
    assert_int_equal(gf_fft_c2c(1, &last, 2, a, b, GF_FFT_FORWARD, GF_C32), GF_SUCCESS);
    gf_fft_stats s2;
    assert_int_equal(gf_fft_cache_stats(&s2), GF_SUCCESS);
    assert_int_equal(s2.hits - s1.hits, 1);
    /* another stream gets its own plan */
    gf_stream st;
    assert_int_equal(gf_stream_create(&st), GF_SUCCESS);
    assert_int_equal(gf_stream_set(st), GF_SUCCESS);
    assert_int_equal(gf_fft_c2c(1, &last, 2, a, b, GF_FFT_FORWARD, GF_C32), GF_SUCCESS);
    assert_int_equal(gf_stream_sync(st), GF_SUCCESS);
    assert_int_equal(gf_stream_set(NULL), GF_SUCCESS);
    gf_fft_stats s3;
    assert_int_equal(gf_fft_cache_stats(&s3), GF_SUCCESS);
    assert_int_equal(s3.misses - s2.misses, 1);
    assert_int_equal(s3.plans, cap);
    /* destroying the stream destroys its plan: none outlives its stream
     * (cufftDestroy of such a plan crashed at the clear below on the H200) */
    assert_int_equal(gf_stream_destroy(st), GF_SUCCESS);
    assert_int_equal(gf_fft_cache_stats(&s3), GF_SUCCESS);
    assert_int_equal(s3.plans, cap - 1);
    /* a new stream (it may get the old handle value) makes a plan again */
    assert_int_equal(gf_stream_create(&st), GF_SUCCESS);
    assert_int_equal(gf_stream_set(st), GF_SUCCESS);
    assert_int_equal(gf_fft_c2c(1, &last, 2, a, b, GF_FFT_FORWARD, GF_C32), GF_SUCCESS);
    assert_int_equal(gf_stream_sync(st), GF_SUCCESS);
    assert_int_equal(gf_stream_set(NULL), GF_SUCCESS);
    assert_int_equal(gf_fft_cache_stats(&s2), GF_SUCCESS);
    assert_int_equal(s2.misses - s3.misses, 1);
    assert_int_equal(gf_stream_destroy(st), GF_SUCCESS);
    assert_int_equal(gf_fft_cache_clear(), GF_SUCCESS);
    assert_int_equal(gf_fft_cache_stats(&s3), GF_SUCCESS);
    assert_int_equal(s3.plans, 0);
    assert_int_equal(gf_free(a), GF_SUCCESS);
    assert_int_equal(gf_free(b), GF_SUCCESS);
}

static void test_errors(void **state)
{
    (void)state;
    void *a;
    int n = 16, neg = -4;
    assert_int_equal(gf_malloc(&a, 4096), GF_SUCCESS);
    assert_int_equal(gf_fft_c2c(0, &n, 1, a, a, GF_FFT_FORWARD, GF_C32), GF_ERROR_INVALID_VALUE);
    assert_int_equal(gf_fft_c2c(1, &neg, 1, a, a, GF_FFT_FORWARD, GF_C32), GF_ERROR_INVALID_VALUE);
    assert_int_equal(gf_fft_c2c(1, &n, 0, a, a, GF_FFT_FORWARD, GF_C32), GF_ERROR_INVALID_VALUE);
    assert_int_equal(gf_fft_c2c(1, &n, 1, a, a, 2, GF_C32), GF_ERROR_INVALID_VALUE);
    assert_int_equal(gf_fft_r2c(1, &n, 1, a, a, GF_F32), GF_ERROR_NOT_SUPPORTED);
    /* partly overlapping input and output */
    assert_int_equal(gf_fft_c2c(1, &n, 1, a, (char *)a + 8, GF_FFT_FORWARD, GF_C32), GF_ERROR_INVALID_VALUE);
    assert_non_null(strstr(gf_last_error(), "overlaps"));
    assert_int_equal(gf_free(a), GF_SUCCESS);
}

int main(void)
{
    if (gf_init() == GF_ERROR_NO_DEVICE) {
        printf("no GPU (%s): skipped\n", gf_last_error());
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_c2c_small),
        cmocka_unit_test(test_r2c_c2r_small),
        cmocka_unit_test(test_round_trip_large),
        cmocka_unit_test(test_plan_cache),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests_name("gpu_fft", tests, NULL, NULL);
}
