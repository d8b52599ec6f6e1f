// Subscripts that are no affine form but a piecewise one isl represents
// exactly (deps.c stmt_pw): C's division and remainder by a constant,
// `c ? a : b` on affine comparisons, and a static helper whose body returns
// such an expression (clamping).  The accesses are exact, so unsized arrays
// get their extents from them.
#include <gpufuse.h>

#define GS 64
#define W 40

// DIFF-SIZE: q = n
// DIFF-SIZE: s = n / 64 + 1
// DIFF-SIZE: deq = n
// DIFF-SIZE: src = h * W
// DIFF-SIZE: dst = h * W
// DIFF-SIZE: half = m
// DIFF-SIZE: full = 2 * m
// DIFF-SIZE: a = n
// DIFF-SIZE: b = n

static inline int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

// llama2.c's dequantisation: a scale per group of GS
GPUFUSE void dequantize(int n, const signed char *q, const float *s, float *deq)
{
    for (int i = 0; i < n; i++)
        deq[i] = q[i] * s[i / GS];
}

// CU-LABEL: gf_launch_dequantize
// CU: long long gf_hi_s = ((long long)(((long long)n + 63) / 64 - 1) + 1) * (long long)sizeof(float);

// a separable filter's horizontal pass, edges clamped by a helper
GPUFUSE void blur_rows(int h, const float *src, float *dst)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < W; x++)
            dst[y * W + x] = 0.25f * src[y * W + clampi(x - 1, 0, W - 1)] + 0.5f * src[y * W + x] +
                             0.25f * src[y * W + clampi(x + 1, 0, W - 1)];
}

// CHECK-LABEL: region blur_rows
// CU-LABEL: gf_launch_blur_rows
// CU: long long gf_hi_src = ((long long)(40 * (long long)h - 1) + 1) * (long long)sizeof(float);

// upsampling by two: a[i / 2], a parity test
GPUFUSE void upsample2(int m, const float *half, float *full)
{
    for (int i = 0; i < 2 * m; i++)
        full[i] = half[i / 2] * (i % 2 ? 0.75f : 0.25f);
}

// neighbours clamped by ?:
GPUFUSE void diff_clamped(int n, const float *a, float *b)
{
    for (int i = 0; i < n; i++)
        b[i] = a[i + 1 < n ? i + 1 : n - 1] - a[i > 0 ? i - 1 : 0];
}

// REPORT-LABEL: region diff_clamped
// REPORT: kernel diff_clamped_k0 [map, 1-D]

// size_t indices: `i + 1 < n` cannot wrap and is read exactly; `i - 1 < n`
// is false at i = 0 in C (it wraps) where isl's integers would make it true,
// so that condition is not read: isl has no extent for 'a' of unsized_wrap,
// and the launcher finds it before the call (plan/inspect.c: C's own unsigned
// arithmetic, i - 1 wraps and the condition is false at i = 0)
// DIFF-SIZE: a = n
// DIFF-SIZE: c = n
// DIFF-SIZE: d = n
GPUFUSE void unsized_next(size_t n, const float *c, float *d)
{
    for (size_t i = 0; i < n; i++)
        d[i] = c[i + 1 < n ? i + 1 : n - 1] - c[i];
}

GPUFUSE void unsized_wrap(size_t n, const float *a, float *b)
{
    for (size_t i = 0; i < n; i++)
        b[i] = a[i - 1 < n ? i - 1 : 0];
}

// CHECK-LABEL: region unsized_next
// REPORT-LABEL: region unsized_wrap
// REPORT: extents found at run time, pass 1 {{.*}}: 'a'
// CU-LABEL: static void gf_extents_unsized_wrap_1(unsigned long n, long long *gf_rx)
// CU: gf_seen(gf_mn, gf_mx, &gf_n, 0, (long long)((i - 1 < n ? i - 1 : 0)));

// the same wrap in a guard: its set is a superset of the instances (not
// exact), so y is not taken as written whole (at i = 0 C leaves y[0]: it is
// copied in, not left to whatever the device held)
// DIFF-SIZE: g = n + 1
// DIFF-SIZE: y = n
GPUFUSE void guarded_prev(size_t n, const float *g, float *y)
{
    for (size_t i = 0; i < n; i++)
        if (i - 1 < n)
            y[i] = g[i];
}

// (before: y staged write-only, y[0] copied back from device memory nothing
// wrote: a wrong answer on the GPU)
// CU-LABEL: static void gf_launch_guarded_prev(
// CU: gf_call_arg(gf_c, 1, y, gf_lo_y, gf_hi_y, GF_ARG_READ | GF_ARG_WRITE, 1);

// and a read under that guard at the wrapping index: at i = 0 C skips it,
// isl's superset would read g2[-1]; the subscript counts as any element, so
// isl has no extent for an unsized g2 (the launcher's pass, which runs C's
// condition, finds it) and a sized one is staged whole
// DIFF-SIZE: g2 = n
GPUFUSE void guarded_read(size_t n, const float *g2, float *y2)
{
    for (size_t i = 0; i < n; i++)
        if (i - 1 < n)
            y2[i] = g2[i - 1];
}

GPUFUSE void guarded_read_sized(size_t n, const float g3[n], float *y3)
{
    for (size_t i = 0; i < n; i++)
        if (i - 1 < n)
            y3[i] = g3[i - 1];
}

// DIFF-SIZE: y3 = n
// CU-LABEL: static void gf_extents_guarded_read_1(unsigned long n, long long *gf_rx)
// CU: if (i - 1 < n) {
// CU-NEXT: gf_seen(gf_mn, gf_mx, &gf_n, 0, (long long)(i - 1));
// CU-LABEL: static void gf_launch_guarded_read_sized(
// CU: long long gf_lo_g3 = (0) * (long long)sizeof(float);
// CU-NEXT: long long gf_hi_g3 = ((long long)(n)) * (long long)sizeof(float);

// unsigned arithmetic wraps modulo 2^32 where isl's integers do not: at i < 5,
// (unsigned)(i - 5) % 16u is 11 + i in C, i - 5 for isl.  Such a subscript
// is not a piecewise affine one (before: the staged box [i - 5 ...] missed
// the elements C reads, a wrong answer on the GPU); the launcher's pass
// finds the extent with C's own arithmetic
// DIFF-SIZE: r = 16
GPUFUSE void ring_unsigned(int n, const float *r, float *ro)
{
    for (int i = 0; i < n; i++)
        ro[i] = r[(unsigned)(i - 5) % 16u];
}
// REPORT-LABEL: region ring_unsigned
// REPORT: extents found at run time, pass 1 {{.*}}: 'r'

// a conversion to a type of fewer than 32 bits keeps the value modulo 2^N
// (a byte ring index): not an affine form (before: 'x8' was staged as
// [7, n + 6], which misses the elements C reads once i + 7 passes 255); the
// launcher's pass finds the extent
// DIFF-SIZE: x8 = 256
// DIFF-PARAM: len = 300
GPUFUSE void ring_u8(int len, const float *x8, float *y8)
{
    for (int i = 0; i < len; i++)
        y8[i] = x8[(unsigned char)(i + 7)];
}
// REPORT-LABEL: region ring_u8
// REPORT: extents found at run time, pass 1 {{.*}}: 'x8'
// CU-LABEL: static void gf_extents_ring_u8_1(int len, long long *gf_rx)
// CU: gf_seen(gf_mn, gf_mx, &gf_n, 0, (long long)((unsigned char)(i + 7)));
