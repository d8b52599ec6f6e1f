/* cpu_table.c - the "idea table"'s CPU column: the same three computations
 * as plain C (gcc -O3 -fopenmp, all cores), one JSON line each:
 *   sgemm_10000    blocked i-k-j matrix product, MEASURED AT n=2000 (10000
 *                  naive would take minutes) and scaled by (10000/2000)^3;
 *                  tflops is the rate measured at 2000
 *   fft2_1024_c64  iterative radix-2 complex-float FFT, rows then columns
 *   sqrt_1e8       y[i] = sqrtf(x[i]) over 1e8 floats
 * Timings: median of a few runs after one warm-up (wall clock).
 *   cpu_table [--quick] */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static float val(uint64_t i, uint64_t seed)
{
    uint64_t z = i * 0x9e3779b97f4a7c15ull + seed;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (float)((double)(z >> 40) / 16777216.0 * 2.0 - 1.0);
}

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* ---- matrix product: C = A B, n x n, row-major ------------------------------------- */

static void matmul(int n, const float *A, const float *B, float *C)
{
    enum { BI = 64, BK = 256, BJ = 512 };
#pragma omp parallel for schedule(static) collapse(2)
    for (int i0 = 0; i0 < n; i0 += BI)
        for (int j0 = 0; j0 < n; j0 += BJ) {
            int ie = i0 + BI < n ? i0 + BI : n, je = j0 + BJ < n ? j0 + BJ : n;
            for (int i = i0; i < ie; i++)
                for (int j = j0; j < je; j++)
                    C[(size_t)i * n + j] = 0;
            for (int k0 = 0; k0 < n; k0 += BK) {
                int ke = k0 + BK < n ? k0 + BK : n;
                for (int i = i0; i < ie; i++)
                    for (int k = k0; k < ke; k++) {
                        float a = A[(size_t)i * n + k];
                        const float *b = B + (size_t)k * n;
                        float *c = C + (size_t)i * n;
                        for (int j = j0; j < je; j++)
                            c[j] += a * b[j];
                    }
            }
        }
}

/* ---- radix-2 FFT ------------------------------------------------------------------- */

/* in place, length n (a power of 2), stride s (in complex elements), forward */
static void fft1(float *x, int n, int s, const float *tw /* n/2 cos, n/2 sin */)
{
    for (int i = 1, j = 0; i < n; i++) {
        int bit = n >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j ^= bit;
        if (i < j) {
            float *a = x + 2 * (size_t)i * s, *b = x + 2 * (size_t)j * s, t0 = a[0], t1 = a[1];
            a[0] = b[0], a[1] = b[1], b[0] = t0, b[1] = t1;
        }
    }
    for (int len = 2; len <= n; len <<= 1) {
        int step = n / len;
        for (int i = 0; i < n; i += len)
            for (int k = 0; k < len / 2; k++) {
                float wr = tw[k * step], wi = -tw[n / 2 + k * step];
                float *u = x + 2 * (size_t)(i + k) * s, *v = x + 2 * (size_t)(i + k + len / 2) * s;
                float vr = v[0] * wr - v[1] * wi, vi = v[0] * wi + v[1] * wr;
                v[0] = u[0] - vr, v[1] = u[1] - vi;
                u[0] += vr, u[1] += vi;
            }
    }
}

static void fft2(float *x, int n, const float *tw)
{
#pragma omp parallel for schedule(static)
    for (int r = 0; r < n; r++)
        fft1(x + 2 * (size_t)r * n, n, 1, tw);
#pragma omp parallel for schedule(static)
    for (int c = 0; c < n; c++)
        fft1(x + 2 * (size_t)c, n, n, tw);
}

/* ---- sqrt ---------------------------------------------------------------------------- */

static void vsqrt(int n, const float *restrict x, float *restrict y)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++)
        y[i] = sqrtf(x[i]);
}

static void emit(const char *w, double ms, double tflops, double gbs, double bytes, int ok, double max_err,
                 double tol, int reps, const char *note)
{
    printf("{\"workload\": \"%s\", \"impl\": \"c_openmp\", \"ms\": %.6g, \"tflops\": ", w, ms);
    if (tflops > 0)
        printf("%.6g, ", tflops);
    else
        printf("null, ");
    if (gbs > 0)
        printf("\"gbs\": %.6g, \"bytes\": %.0f, ", gbs, bytes);
    else
        printf("\"gbs\": null, \"bytes\": null, ");
    printf("\"ok\": %s, \"err\": null, \"max_err\": %.3g, \"tol\": %.3g, \"reps\": %d, \"note\": \"%s\"}\n",
           ok ? "true" : "false", max_err, tol, reps, note);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    int quick = argc > 1 && !strcmp(argv[1], "--quick");
    int threads = 1;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    char note[256];
    double t[16];

    /* matrix product at 2000, scaled to 10000 */
    {
        int n = quick ? 500 : 2000, reps = 3;
        float *A = malloc(sizeof(float) * n * n), *B = malloc(sizeof(float) * n * n), *C = malloc(sizeof(float) * n * n);
        for (size_t i = 0; i < (size_t)n * n; i++)
            A[i] = val(i, 1), B[i] = val(i, 2);
        matmul(n, A, B, C);
        for (int r = 0; r < reps; r++) {
            double t0 = now_ms();
            matmul(n, A, B, C);
            t[r] = now_ms() - t0;
        }
        qsort(t, (size_t)reps, sizeof *t, cmpd);
        double ms = t[reps / 2], max_err = 0;
        for (int s = 0; s < 16; s++) {
            int i = (s * 131) % n, j = (s * 977) % n;
            double ref = 0, scale = 0;
            for (int k = 0; k < n; k++)
                ref += (double)A[(size_t)i * n + k] * B[(size_t)k * n + j],
                    scale += fabs((double)A[(size_t)i * n + k] * B[(size_t)k * n + j]);
            double e = fabs(C[(size_t)i * n + j] - ref) / scale;
            max_err = e > max_err ? e : max_err;
        }
        double scale = pow(10000.0 / n, 3);
        snprintf(note, sizeof note, "measured at n=%d (%.1f ms), ms scaled by (10000/%d)^3; %d threads", n, ms, n,
                 threads);
        emit("sgemm_10000", ms * scale, 2.0 * n * n * (double)n / (ms * 1e-3) / 1e12, 0, 0,
             max_err <= (n + 4) * 0x1p-23, max_err, (n + 4) * 0x1p-23, reps, note);
        free(A), free(B), free(C);
    }

    /* FFT2 1024x1024 complex float */
    {
        int n = 1024, reps = quick ? 3 : 9;
        size_t N = (size_t)n * n;
        float *x = malloc(sizeof(float) * 2 * N), *x0 = malloc(sizeof(float) * 2 * N), *tw = malloc(sizeof(float) * n);
        for (int k = 0; k < n / 2; k++)
            tw[k] = (float)cos(2 * M_PI * k / n), tw[n / 2 + k] = (float)sin(2 * M_PI * k / n);
        for (size_t i = 0; i < 2 * N; i++)
            x0[i] = val(i, 4);
        memcpy(x, x0, sizeof(float) * 2 * N);
        fft2(x, n, tw);
        for (int r = 0; r < reps; r++) {
            memcpy(x, x0, sizeof(float) * 2 * N);
            double t0 = now_ms();
            fft2(x, n, tw);
            t[r] = now_ms() - t0;
        }
        qsort(t, (size_t)reps, sizeof *t, cmpd);
        /* check: bin (0,0) is the sum; bin (1,2) by a direct sum */
        double sr = 0, si = 0, br = 0, bi = 0;
        for (int a = 0; a < n; a++)
            for (int b = 0; b < n; b++) {
                double re = x0[2 * ((size_t)a * n + b)], im = x0[2 * ((size_t)a * n + b) + 1];
                double ph = -2 * M_PI * ((double)((a * 1 + b * 2) % n) / n);
                sr += re, si += im;
                br += re * cos(ph) - im * sin(ph), bi += re * sin(ph) + im * cos(ph);
            }
        double e0 = hypot(x[0] - sr, x[1] - si), e1 = hypot(x[2 * (1 * n + 2)] - br, x[2 * (1 * n + 2) + 1] - bi);
        double max_err = (e0 > e1 ? e0 : e1) / sqrt((double)N);
        snprintf(note, sizeof note, "radix-2 complex float, rows then columns; %d threads; err at 2 bins / sqrt(n)",
                 threads);
        emit("fft2_1024_c64", t[reps / 2], 5.0 * N * log2((double)N) / (t[reps / 2] * 1e-3) / 1e12,
             16.0 * N / (t[reps / 2] * 1e-3) / 1e9, 16.0 * N, max_err <= 1e-3, max_err, 1e-3, reps, note);
        free(x), free(x0), free(tw);
    }

    /* sqrt of 1e8 floats */
    {
        int n = quick ? 10000000 : 100000000, reps = quick ? 3 : 5;
        float *x = malloc(sizeof(float) * (size_t)n), *y = malloc(sizeof(float) * (size_t)n);
#pragma omp parallel for schedule(static)
        for (int i = 0; i < n; i++)
            x[i] = fabsf(val((uint64_t)i, 5));
        vsqrt(n, x, y);
        for (int r = 0; r < reps; r++) {
            double t0 = now_ms();
            vsqrt(n, x, y);
            t[r] = now_ms() - t0;
        }
        qsort(t, (size_t)reps, sizeof *t, cmpd);
        double max_err = 0;
        for (int s = 0; s < 1000; s++) {
            size_t i = ((size_t)s * 2654435761u) % (size_t)n;
            double ref = sqrt((double)x[i]), e = fabs(y[i] - ref) / (ref > 1e-30 ? ref : 1);
            max_err = e > max_err ? e : max_err;
        }
        snprintf(note, sizeof note, "%d threads%s", threads, quick ? "; --quick: 1e7 floats" : "");
        emit("sqrt_1e8", t[reps / 2], 0, 8.0 * n / (t[reps / 2] * 1e-3) / 1e9, 8.0 * n, max_err <= 1e-6, max_err,
             1e-6, reps, note);
        free(x), free(y);
    }
    return 0;
}
