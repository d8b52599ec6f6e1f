/* rw.h - what every driver (main.c) of tests/realworld/ shares: deterministic
 * inputs and one line per output.  Included by the drivers only, never by a
 * kernels file: gpufuse never sees it.
 *
 * Each output is printed as
 *     OUT name type count sum=... abs=... rtol=... atol=...
 * and, when the environment variable RW_DUMP names a file, appended to it as
 * a binary record (see tests/realworld/run.py: read_dump) so that run.py can
 * compare the plain build, the host build and the GPU build element by
 * element: |ref - got| <= atol + rtol * |ref|, NaN only equal to NaN.  The
 * driver states the tolerance of each output: it knows whether the value is
 * a sum of many terms or a rounded pixel. */
#ifndef RW_H
#define RW_H
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* xorshift64*: the same numbers on every machine */
static uint64_t rw_state = 88172645463325252ULL;
static inline void rw_seed(uint64_t s)
{
    rw_state = s * 0x9E3779B97F4A7C15ULL + 0x2545F4914F6CDD1DULL;
    if (!rw_state)
        rw_state = 1;
}
static inline uint64_t rw_next(void)
{
    rw_state ^= rw_state >> 12;
    rw_state ^= rw_state << 25;
    rw_state ^= rw_state >> 27;
    return rw_state * 2685821657736338717ULL;
}
/* [0, 1) */
static inline double rw_unit(void) { return (double)(rw_next() >> 11) * (1.0 / 9007199254740992.0); }
static inline double rw_uniform(double lo, double hi) { return lo + (hi - lo) * rw_unit(); }
static inline int rw_int(int lo, int hi) { return lo + (int)(rw_next() % (uint64_t)(hi - lo + 1)); }

static inline void rw_fill_f(float *p, size_t n, double lo, double hi)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (float)rw_uniform(lo, hi);
}
static inline void rw_fill_d(double *p, size_t n, double lo, double hi)
{
    for (size_t i = 0; i < n; i++)
        p[i] = rw_uniform(lo, hi);
}
static inline void rw_fill_i(int *p, size_t n, int lo, int hi)
{
    for (size_t i = 0; i < n; i++)
        p[i] = rw_int(lo, hi);
}
static inline void rw_fill_u8(unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(rw_next() >> 56);
}
static inline void rw_fill_u32(uint32_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint32_t)(rw_next() >> 32);
}
static inline void *rw_alloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

/* record: 'R' 'W', type (1 byte), name length (1 byte), name, count (8 bytes),
 * rtol, atol (8-byte doubles), then count values: f32, f64, i32, u8, i64.
 * RW_MOSTLY added to an integer type: at most the fraction rtol of the
 * elements may differ by more than atol (chaotic values: escape counts). */
enum { RW_F32 = 'f', RW_F64 = 'd', RW_I32 = 'i', RW_U8 = 'u', RW_I64 = 'l', RW_MOSTLY = 0x80 };
static inline void rw_dump(const char *name, int type, const void *p, size_t n, size_t size, double rtol,
                           double atol)
{
    const char *path = getenv("RW_DUMP");
    if (!path || !*path)
        return;
    FILE *f = fopen(path, "ab");
    if (!f) {
        perror(path);
        exit(2);
    }
    unsigned char hdr[4] = {'R', 'W', (unsigned char)type, (unsigned char)strlen(name)};
    uint64_t cnt = n;
    fwrite(hdr, 1, 4, f);
    fwrite(name, 1, strlen(name), f);
    fwrite(&cnt, 8, 1, f);
    fwrite(&rtol, 8, 1, f);
    fwrite(&atol, 8, 1, f);
    if (n)
        fwrite(p, size, n, f);
    fclose(f);
}
static inline void rw_line(const char *name, const char *type, size_t n, double sum, double abs_sum, double rtol,
                           double atol)
{
    printf("OUT %s %s %zu sum=%.9g abs=%.9g rtol=%g atol=%g\n", name, type, n, sum, abs_sum, rtol, atol);
}

static inline void rw_out_f(const char *name, const float *p, size_t n, double rtol, double atol)
{
    double s = 0, a = 0;
    for (size_t i = 0; i < n; i++)
        s += p[i], a += fabs((double)p[i]);
    rw_line(name, "f32", n, s, a, rtol, atol);
    rw_dump(name, RW_F32, p, n, sizeof *p, rtol, atol);
}
static inline void rw_out_d(const char *name, const double *p, size_t n, double rtol, double atol)
{
    double s = 0, a = 0;
    for (size_t i = 0; i < n; i++)
        s += p[i], a += fabs(p[i]);
    rw_line(name, "f64", n, s, a, rtol, atol);
    rw_dump(name, RW_F64, p, n, sizeof *p, rtol, atol);
}
static inline void rw_out_i(const char *name, const int *p, size_t n, int atol)
{
    double s = 0, a = 0;
    for (size_t i = 0; i < n; i++)
        s += p[i], a += abs(p[i]);
    rw_line(name, "i32", n, s, a, 0, atol);
    rw_dump(name, RW_I32, p, n, sizeof *p, 0, atol);
}
static inline void rw_out_u8(const char *name, const unsigned char *p, size_t n, int atol)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += p[i];
    rw_line(name, "u8", n, s, s, 0, atol);
    rw_dump(name, RW_U8, p, n, sizeof *p, 0, atol);
}
/* at most the fraction frac of the elements may differ (by any amount) */
static inline void rw_out_i_mostly(const char *name, const int *p, size_t n, double frac)
{
    double s = 0, a = 0;
    for (size_t i = 0; i < n; i++)
        s += p[i], a += abs(p[i]);
    rw_line(name, "i32-mostly", n, s, a, frac, 0);
    rw_dump(name, RW_I32 | RW_MOSTLY, p, n, sizeof *p, frac, 0);
}
static inline void rw_out_u8_mostly(const char *name, const unsigned char *p, size_t n, double frac)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += p[i];
    rw_line(name, "u8-mostly", n, s, s, frac, 0);
    rw_dump(name, RW_U8 | RW_MOSTLY, p, n, sizeof *p, frac, 0);
}
static inline void rw_out_u32(const char *name, const uint32_t *p, size_t n)
{
    /* exact: dumped as 64-bit integers */
    double s = 0;
    int64_t *q = rw_alloc(n, sizeof *q);
    for (size_t i = 0; i < n; i++)
        s += p[i], q[i] = p[i];
    rw_line(name, "u32", n, s, s, 0, 0);
    rw_dump(name, RW_I64, q, n, sizeof *q, 0, 0);
    free(q);
}
static inline void rw_out_i64(const char *name, const int64_t *p, size_t n)
{
    double s = 0, a = 0;
    for (size_t i = 0; i < n; i++)
        s += (double)p[i], a += fabs((double)p[i]);
    rw_line(name, "i64", n, s, a, 0, 0);
    rw_dump(name, RW_I64, p, n, sizeof *p, 0, 0);
}
static inline void rw_out_scalar(const char *name, double v, double rtol, double atol)
{
    rw_out_d(name, &v, 1, rtol, atol);
}
static inline void rw_out_int(const char *name, long long v)
{
    int64_t w = v;
    rw_out_i64(name, &w, 1);
}
/* the usual tolerances */
#define RW_F32_TOL 1e-4, 1e-5      /* element-wise float math */
#define RW_F64_TOL 1e-9, 1e-12     /* element-wise double math */
#endif
