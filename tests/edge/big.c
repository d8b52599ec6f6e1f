/* big.c - generated launchers on arrays of 2^31 + 1000 one-byte elements:
 * the extents exceed GF_I32_LIMIT, so the launchers must take the 64-bit
 * index instantiation (the 32-bit one would truncate the trip count and leave
 * everything unwritten or wrap around).  Checked: the elements around and
 * past 2^31 copied back and compared with the formula on the host, every
 * element by a generated reduction that counts wrong ones, and the sums
 * against the exact value computed on the host.  Pool arrays first, then
 * plain malloc arrays (staged).  Needs a GPU with ~5 GiB free and ~5 GiB of
 * host memory: exit 77 without. */
#include <gpufuse.h>
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gf_fill_u8(long long n, unsigned char *restrict y);
void gf_add3_u8(long long n, const unsigned char *restrict x, unsigned char *restrict y);
unsigned long long gf_sum_u8(long long n, const unsigned char *restrict x);
double gf_sum_u8_double(long long n, const unsigned char *restrict x);
long long gf_count_wrong(long long n, const unsigned char *restrict x, const unsigned char *restrict y);

#define N ((1LL << 31) + 1000)
#define WINDOW (1 << 20)

static int failures;

static void check(const char *what, int ok)
{
    printf("  %-60s %s\n", what, ok ? "ok" : "FAILED");
    failures += !ok;
}

static unsigned char fill_at(long long i) { return (unsigned char)(i * 7 + (i >> 20)); }

/* x[lo, hi) and y[lo, hi) as fill_u8 and add3_u8 write them */
static int window_right(const unsigned char *x, const unsigned char *y, long long lo, long long hi)
{
    for (long long i = lo; i < hi; i++)
        if (x[i - lo] != fill_at(i) || y[i - lo] != (unsigned char)(fill_at(i) + 3))
            return 0;
    return 1;
}

/* the windows [0, W), [2^31 - W, N) of device arrays, read back */
static int device_windows_right(const unsigned char *dx, const unsigned char *dy)
{
    static const long long starts[] = {0, (1LL << 31) - WINDOW};
    unsigned char *hx = malloc(WINDOW + 1000), *hy = malloc(WINDOW + 1000);
    int ok = hx && hy;
    for (int w = 0; ok && w < 2; w++) {
        long long lo = starts[w], hi = w ? N : WINDOW;
        size_t len = (size_t)(hi - lo);
        ok = gf_memcpy(hx, dx + lo, len, GF_DEVICE_TO_HOST) == GF_SUCCESS &&
             gf_memcpy(hy, dy + lo, len, GF_DEVICE_TO_HOST) == GF_SUCCESS && window_right(hx, hy, lo, hi);
    }
    free(hx);
    free(hy);
    return ok;
}

int main(void)
{
    if (gf_init() != GF_SUCCESS || !gf_have_device()) {
        printf("no GPU (%s): skipped\n", gf_last_error());
        return 77;
    }
    size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess || free_b < 5 * (size_t)N / 2) {
        printf("%zu MiB of device memory free, %lld needed: skipped\n", free_b >> 20, 5 * N / 2 >> 20);
        return 77;
    }
    printf("arrays of 2^31 + 1000 bytes (%zu MiB free of %zu)\n", free_b >> 20, total_b >> 20);

    /* the exact sums, on the host */
    unsigned long long sx = 0, sy = 0;
    for (long long i = 0; i < N; i++) {
        unsigned char v = fill_at(i);
        sx += v;
        sy += (unsigned char)(v + 3);
    }

    void *px = NULL, *py = NULL;
    if (gf_malloc(&px, (size_t)N) != GF_SUCCESS || gf_malloc(&py, (size_t)N) != GF_SUCCESS) {
        printf("gf_malloc of 2 x %lld bytes failed (%s): skipped\n", N, gf_last_error());
        return 77;
    }
    unsigned char *dx = px, *dy = py;
    gf_fill_u8(N, dx);
    gf_add3_u8(N, dx, dy);
    check("pool arrays: map, elements around and past 2^31", device_windows_right(dx, dy));
    check("pool arrays: every element (counted on the GPU)", gf_count_wrong(N, dx, dy) == 0);
    check("pool arrays: sum into unsigned long long is exact", gf_sum_u8(N, dx) == sx);
    check("pool arrays: sum into double is exact", gf_sum_u8_double(N, dy) == (double)sy);
    gf_free(dx);
    gf_free(dy);

    /* the same through staging, from plain malloc memory */
    unsigned char *hx = malloc((size_t)N), *hy = malloc((size_t)N);
    if (!hx || !hy) {
        printf("  (no %lld bytes of host memory: the staged half is not run)\n", 2 * N);
    } else {
        for (long long i = 0; i < N; i++)
            hx[i] = fill_at(i);
        memset(hy, 0, (size_t)N);
        gf_add3_u8(N, hx, hy);
        long long wrong = 0;
        for (long long i = 0; i < N; i++)
            wrong += hy[i] != (unsigned char)(hx[i] + 3);
        check("host arrays (staged): map, every element", wrong == 0);
        check("host arrays (staged): sum into unsigned long long is exact", gf_sum_u8(N, hx) == sx);
        check("host arrays (staged): sum into double is exact", gf_sum_u8_double(N, hy) == (double)sy);
    }
    free(hx);
    free(hy);
    printf("%s\n", failures ? "FAILED" : "arrays past 2^31 elements are right");
    return failures ? 1 : 0;
}
