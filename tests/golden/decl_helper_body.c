// A helper body as C programs write it, printed from the AST for CUDA:
// loops, switch, a local struct and a local enum, <stdint.h> types (kept:
// the generated file includes the same headers), a const table (a host and
// a device copy), macros from <limits.h> and the file, char literals.
#include <gpufuse.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#define N_TAPS 4
#define IDX(i, j, w) ((i) * (w) + (j))
static const int TAPS[N_TAPS] = {1, -2, 3, -4};

static inline uint32_t hash32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    return x;
}

static float fir(float v, int k)
{
    float acc = 0.0f, hist[N_TAPS];
    for (int t = 0; t < N_TAPS; t++)
        hist[t] = v * (float)(t + 1);
    for (int t = 0; t < N_TAPS; t++) {
        if (t == k)
            continue;
        acc += hist[t] * TAPS[t];
    }
    switch (k & 3) {
    case 0: acc *= 2; break;
    case 1: acc -= 1; break;
    default: acc = -acc;
    }
    struct pair { int a, b; } pr = {k, IDX(k, 1, 3)};
    enum { SMALL = 1, LARGE = 100 } sz = k > 2 ? LARGE : SMALL;
    bool neg = acc < 0;
    int64_t big = (int64_t)k << 40;
    size_t z = sizeof(hist) / sizeof hist[0];
    char c = 'a';
    long long ll = LLONG_MAX / 3;
    while (acc > 1000.0f)
        acc *= 0.5f;
    acc += (neg ? -1.0f : 1.0f) * (float)(pr.a + pr.b + sz + (int)(big >> 40) + (int)z + (c - 'a'));
    return acc + (float)(ll & 1) + (float)(hash32((uint32_t)k) & 0xff) * 1e-3f;
}

GPUFUSE void filt(int n, const float *x, float *y)
{
    for (int i = 0; i < n; i++)
        y[i] = fir(x[i], i % 5);
}

// CHECK-LABEL: region filt
// CHECK: S0: y[i] = fir(x[i], (i % 5))

// CU-LABEL: ---- types, constants and helpers of decl_helper_body.c
// CU-NEXT: /* gf_c_TAPS: decl_helper_body.c:12 */
// CU-NEXT: GF_UNUSED static const int gf_ch_TAPS[4] = {1, -2, 3, -4};
// CU-NEXT: GF_UNUSED static __device__ const int gf_cd_TAPS[4] = {1, -2, 3, -4};
// CU: /* hash32: decl_helper_body.c:14 */
// CU-NEXT: namespace gf_c {
// CU-NEXT: __host__ __device__ static inline uint32_t hash32(uint32_t x) {
// CU-NEXT:     x ^= x >> 16;
// CU-NEXT:     x *= 2146121005U;
// CU: /* fir: decl_helper_body.c:22 */
// CU-NEXT: namespace gf_c {
// CU-NEXT: __host__ __device__ static float fir(float v, int k) {
// CU:     for (int t = 0; t < 4; t++) {
// CU:         acc += hist[t] * gf_c_TAPS[t];
// CU:     switch (k & 3) {
// CU:     struct pair {
// CU:     } pr = {k, ((k) * (3) + (1))};
// CU:     } sz = k > 2 ? LARGE : SMALL;
// CU-NEXT:     bool neg = acc < 0;
// CU-NEXT:     int64_t big = (int64_t)k << 40;
// CU-NEXT:     size_t z = sizeof (hist) / sizeof hist[0];
// CU-NEXT:     char c = 'a';
// CU-NEXT:     long long ll = 9223372036854775807LL / 3;
// CU-NOT: #define N_TAPS
// CU-NOT: typedef {{.*}} uint32_t;
// CU: extern "C" void filt(
