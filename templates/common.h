/* common.h - helpers every generated file starts with (host and device):
 * the min/max/floord that isl's extent expressions use, host memory for
 * temporaries, and the argument-overlap test.  Embedded into the output by
 * gpufuse; compilable on its own as C11 and CUDA C++. */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

#if defined(__CUDACC__)
#define GF_HD __host__ __device__
#else
#define GF_HD
#endif
#define GF_UNUSED __attribute__((unused))
/* Around a library builtin's call: gcc cannot see that the loops before it
 * filled the temporary it reads through a const pointer. */
#if defined(__GNUC__) && !defined(__clang__)
#define GF_LIB_CALL_BEGIN _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wmaybe-uninitialized\"")
#define GF_LIB_CALL_END _Pragma("GCC diagnostic pop")
#else
#define GF_LIB_CALL_BEGIN
#define GF_LIB_CALL_END
#endif

GF_UNUSED static inline GF_HD long long gf_min(long long a, long long b) { return a < b ? a : b; }
GF_UNUSED static inline GF_HD long long gf_max(long long a, long long b) { return a > b ? a : b; }
/* floor(n / d) for d > 0 */
GF_UNUSED static inline GF_HD long long gf_floord(long long n, long long d) { return n >= 0 ? n / d : -((-n + d - 1) / d); }

/* C's <math.h> and abs for the program's helpers, which are compiled as
 * C++ (docs/language.md, "math functions").  C++'s math functions are
 * overloads: in a helper, `sqrt(x)` of a float x would be sqrt(float) (C
 * computes in double), `abs(x)` of a float abs(float) (C converts x to
 * int), `fmax(x, d)` of a float and a double a host-only template.  Each
 * helper is defined inside namespace gf_c, where unqualified lookup finds
 * these first: exactly C's prototypes, so the arguments convert as C
 * converts them.  The float forms (sqrtf, ...) have one prototype in C++
 * as in C and are not repeated here. */
#if defined(__cplusplus)
namespace gf_c {
#define GF_C1(f) GF_UNUSED static inline GF_HD double f(double x) { return ::f(x); }
#define GF_C2(f) GF_UNUSED static inline GF_HD double f(double x, double y) { return ::f(x, y); }
GF_C1(acos) GF_C1(asin) GF_C1(atan) GF_C1(cos) GF_C1(sin) GF_C1(tan) GF_C1(acosh) GF_C1(asinh) GF_C1(atanh)
GF_C1(cosh) GF_C1(sinh) GF_C1(tanh) GF_C1(exp) GF_C1(exp2) GF_C1(expm1) GF_C1(log) GF_C1(log10) GF_C1(log1p)
GF_C1(log2) GF_C1(logb) GF_C1(sqrt) GF_C1(cbrt) GF_C1(erf) GF_C1(erfc) GF_C1(tgamma) GF_C1(lgamma) GF_C1(ceil)
GF_C1(floor) GF_C1(trunc) GF_C1(round) GF_C1(rint) GF_C1(nearbyint) GF_C1(fabs)
GF_C2(atan2) GF_C2(pow) GF_C2(fmod) GF_C2(hypot) GF_C2(fmax) GF_C2(fmin) GF_C2(fdim) GF_C2(copysign)
GF_C2(remainder) GF_C2(nextafter)
#undef GF_C1
#undef GF_C2
GF_UNUSED static inline GF_HD double fma(double x, double y, double z) { return ::fma(x, y, z); }
GF_UNUSED static inline GF_HD double ldexp(double x, int e) { return ::ldexp(x, e); }
GF_UNUSED static inline GF_HD double scalbn(double x, int e) { return ::scalbn(x, e); }
GF_UNUSED static inline GF_HD double frexp(double x, int *e) { return ::frexp(x, e); }
GF_UNUSED static inline GF_HD double modf(double x, double *i) { return ::modf(x, i); }
GF_UNUSED static inline GF_HD long lround(double x) { return ::lround(x); }
GF_UNUSED static inline GF_HD long long llround(double x) { return ::llround(x); }
GF_UNUSED static inline GF_HD long lrint(double x) { return ::lrint(x); }
GF_UNUSED static inline GF_HD long long llrint(double x) { return ::llrint(x); }
GF_UNUSED static inline GF_HD int ilogb(double x) { return ::ilogb(x); }
GF_UNUSED static inline GF_HD int abs(int x) { return ::abs(x); }
GF_UNUSED static inline GF_HD long labs(long x) { return ::labs(x); }
GF_UNUSED static inline GF_HD long long llabs(long long x) { return ::llabs(x); }
} /* namespace gf_c */
#endif

/* GCC's bit builtins (__builtin_popcount, clz, ctz, ffs, parity and their
 * l and ll forms; docs/language.md): the printers call gf_<name>, which is
 * the builtin on the host and CUDA's intrinsic on the device.  Where C
 * leaves the result undefined (clz and ctz of 0), the device gives the
 * width and -1. */
#if defined(__CUDA_ARCH__)
#define GF_BIT_FN(name, T, dev, host)                                                         \
    GF_UNUSED static inline GF_HD int gf_##name(T x) { return dev; }
#else
#define GF_BIT_FN(name, T, dev, host)                                                         \
    GF_UNUSED static inline GF_HD int gf_##name(T x) { return host; }
#endif
GF_BIT_FN(popcount, unsigned, __popc(x), __builtin_popcount(x))
GF_BIT_FN(popcountl, unsigned long, __popcll(x), __builtin_popcountl(x))
GF_BIT_FN(popcountll, unsigned long long, __popcll(x), __builtin_popcountll(x))
GF_BIT_FN(clz, unsigned, __clz((int)x), __builtin_clz(x))
GF_BIT_FN(clzl, unsigned long, __clzll((long long)x), __builtin_clzl(x))
GF_BIT_FN(clzll, unsigned long long, __clzll((long long)x), __builtin_clzll(x))
GF_BIT_FN(ctz, unsigned, __ffs((int)x) - 1, __builtin_ctz(x))
GF_BIT_FN(ctzl, unsigned long, __ffsll((long long)x) - 1, __builtin_ctzl(x))
GF_BIT_FN(ctzll, unsigned long long, __ffsll((long long)x) - 1, __builtin_ctzll(x))
GF_BIT_FN(ffs, int, __ffs(x), __builtin_ffs(x))
GF_BIT_FN(ffsl, long, __ffsll((long long)x), __builtin_ffsl(x))
GF_BIT_FN(ffsll, long long, __ffsll(x), __builtin_ffsll(x))
GF_BIT_FN(parity, unsigned, __popc(x) & 1, __builtin_parity(x))
GF_BIT_FN(parityl, unsigned long, __popcll(x) & 1, __builtin_parityl(x))
GF_BIT_FN(parityll, unsigned long long, __popcll(x) & 1, __builtin_parityll(x))
#undef GF_BIT_FN

/* Atomic min/max updates in the host plan's OpenMP threads: a compare-and-
 * swap loop over the element (any 4- or 8-byte type, compared bit for bit),
 * with the builtins GCC and Clang share. */
#define gf_host_load(p, out) __atomic_load((p), (out), __ATOMIC_RELAXED)
#define gf_host_cas(p, old, val) __atomic_compare_exchange((p), (old), (val), 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)

/* _Float16 and __bf16 (docs/types.md), when the unit names them: gf_f16
 * and gf_bf16 hold the 16 bits; C computes _Float16 in float, so the
 * printers read an operand through gf_h2f and round a stored result with
 * gf_to_f16 (one rounding from the operand's own type, as C converts).
 * __bf16 is storage only in C (clang 16: no casts, no arithmetic). */
#if defined(__CUDACC__) && defined(GF_USES_F16)
#include <cuda_fp16.h>
typedef __half gf_f16;
GF_UNUSED static inline GF_HD float gf_h2f(gf_f16 x) { return __half2float(x); }
GF_UNUSED static inline GF_HD gf_f16 gf_to_f16(float x) { return __float2half_rn(x); }
GF_UNUSED static inline GF_HD gf_f16 gf_to_f16(double x) { return __double2half(x); }
GF_UNUSED static inline GF_HD gf_f16 gf_to_f16(int x) { return __int2half_rn(x); }
GF_UNUSED static inline GF_HD gf_f16 gf_to_f16(unsigned x) { return __uint2half_rn(x); }
GF_UNUSED static inline GF_HD gf_f16 gf_to_f16(long long x) { return __ll2half_rn(x); }
GF_UNUSED static inline GF_HD gf_f16 gf_to_f16(unsigned long long x) { return __ull2half_rn(x); }
GF_UNUSED static inline GF_HD gf_f16 gf_to_f16(long x) { return __ll2half_rn(x); }
GF_UNUSED static inline GF_HD gf_f16 gf_to_f16(unsigned long x) { return __ull2half_rn(x); }
#elif defined(GF_USES_F16)
typedef _Float16 gf_f16;
#define gf_h2f(x) ((float)(x))
#define gf_to_f16(x) ((_Float16)(x))
#endif
#if defined(__CUDACC__) && defined(GF_USES_BF16)
#include <cuda_bf16.h>
typedef __nv_bfloat16 gf_bf16;
#elif defined(GF_USES_BF16)
typedef __bf16 gf_bf16;
#endif

/* float _Complex and double _Complex (docs/types.md), when the unit names
 * them: gf_c32 and gf_c64.  In C they are the C types; in CUDA C++ they
 * are classes with C's layout (two floats, 8-byte aligned; two doubles,
 * 16) and C's arithmetic as gcc and clang compute it on x86-64 at default
 * flags: + - and a real factor componentwise; complex * naive, with
 * libgcc's __mulsc3/__muldc3 recovery of infinities when both parts come
 * out NaN; every / through libgcc 12's __divsc3 (in double, no scaling)
 * or __divdc3 (Smith's method with its scalings).  Products are rounded
 * one by one (__fmul_rn: no contraction into fma), as the host computes. */
#if defined(__CUDACC__) && defined(GF_USES_COMPLEX)
#include <cuda/std/complex>
#if defined(__CUDA_ARCH__)
#define GF_CX_MULF(a, b) __fmul_rn((a), (b))
#define GF_CX_MULD(a, b) __dmul_rn((a), (b))
#define GF_CX_DIVD(a, b) __ddiv_rn((a), (b))
#else
#define GF_CX_MULF(a, b) ((a) * (b))
#define GF_CX_MULD(a, b) ((a) * (b))
#define GF_CX_DIVD(a, b) ((a) / (b))
#endif
#define GF_CX_REALS(X) X(bool) X(char) X(signed char) X(unsigned char) X(short) X(unsigned short) X(int) \
    X(unsigned) X(long) X(unsigned long) X(long long) X(unsigned long long) X(float) X(double)
struct gf_c64;
struct __align__(8) gf_c32 {
    float x, y;
    gf_c32() = default;
    GF_HD gf_c32(float re, float im) : x(re), y(im) {}
#define GF_CX_FROM(T) GF_HD gf_c32(T r) : x((float)r), y(0.0f) {}
    GF_CX_REALS(GF_CX_FROM)
#undef GF_CX_FROM
    GF_HD explicit gf_c32(const gf_c64 &z);
    GF_HD explicit operator float() const { return x; }
    GF_HD explicit operator double() const { return x; }
    GF_HD explicit operator bool() const { return x != 0 || y != 0; }   /* C's test of a complex */
};
struct __align__(16) gf_c64 {
    double x, y;
    gf_c64() = default;
    GF_HD gf_c64(double re, double im) : x(re), y(im) {}
#define GF_CX_FROM(T) GF_HD gf_c64(T r) : x((double)r), y(0.0) {}
    GF_CX_REALS(GF_CX_FROM)
#undef GF_CX_FROM
    GF_HD explicit gf_c64(const gf_c32 &z) : x(z.x), y(z.y) {}
    GF_HD explicit operator float() const { return (float)x; }
    GF_HD explicit operator double() const { return x; }
    GF_HD explicit operator bool() const { return x != 0 || y != 0; }
};
GF_HD inline gf_c32::gf_c32(const gf_c64 &z) : x((float)z.x), y((float)z.y) {}

/* Annex G's recovery of a product that came out NaN + i NaN (libgcc). */
template <typename R> GF_HD inline bool gf_cx_mul_fix(R &a, R &b, R &c, R &d, R ac, R bd, R ad, R bc)
{
    bool re = false;
    if (isinf(a) || isinf(b)) {
        a = copysign(isinf(a) ? (R)1 : (R)0, a), b = copysign(isinf(b) ? (R)1 : (R)0, b);
        c = isnan(c) ? copysign((R)0, c) : c, d = isnan(d) ? copysign((R)0, d) : d;
        re = true;
    }
    if (isinf(c) || isinf(d)) {
        c = copysign(isinf(c) ? (R)1 : (R)0, c), d = copysign(isinf(d) ? (R)1 : (R)0, d);
        a = isnan(a) ? copysign((R)0, a) : a, b = isnan(b) ? copysign((R)0, b) : b;
        re = true;
    }
    if (!re && (isinf(ac) || isinf(bd) || isinf(ad) || isinf(bc))) {
        a = isnan(a) ? copysign((R)0, a) : a, b = isnan(b) ? copysign((R)0, b) : b;
        c = isnan(c) ? copysign((R)0, c) : c, d = isnan(d) ? copysign((R)0, d) : d;
        re = true;
    }
    return re;
}
GF_HD inline gf_c32 operator*(gf_c32 l, gf_c32 r)
{
    float a = l.x, b = l.y, c = r.x, d = r.y;
    float ac = GF_CX_MULF(a, c), bd = GF_CX_MULF(b, d), ad = GF_CX_MULF(a, d), bc = GF_CX_MULF(b, c);
    gf_c32 z(ac - bd, ad + bc);
    if (isnan(z.x) && isnan(z.y) && gf_cx_mul_fix(a, b, c, d, ac, bd, ad, bc))
        z = gf_c32(INFINITY * (GF_CX_MULF(a, c) - GF_CX_MULF(b, d)), INFINITY * (GF_CX_MULF(a, d) + GF_CX_MULF(b, c)));
    return z;
}
GF_HD inline gf_c64 operator*(gf_c64 l, gf_c64 r)
{
    double a = l.x, b = l.y, c = r.x, d = r.y;
    double ac = GF_CX_MULD(a, c), bd = GF_CX_MULD(b, d), ad = GF_CX_MULD(a, d), bc = GF_CX_MULD(b, c);
    gf_c64 z(ac - bd, ad + bc);
    if (isnan(z.x) && isnan(z.y) && gf_cx_mul_fix(a, b, c, d, ac, bd, ad, bc))
        z = gf_c64(INFINITY * (GF_CX_MULD(a, c) - GF_CX_MULD(b, d)), INFINITY * (GF_CX_MULD(a, d) + GF_CX_MULD(b, c)));
    return z;
}
/* Annex G's recovery of a quotient that came out NaN + i NaN (libgcc). */
template <typename R> GF_HD inline bool gf_cx_div_fix(R a, R b, R c, R d, R &x, R &y)
{
    if (c == 0 && d == 0 && (!isnan(a) || !isnan(b))) {
        x = copysign((R)INFINITY, c) * a, y = copysign((R)INFINITY, c) * b;
    } else if ((isinf(a) || isinf(b)) && isfinite(c) && isfinite(d)) {
        a = copysign(isinf(a) ? (R)1 : (R)0, a), b = copysign(isinf(b) ? (R)1 : (R)0, b);
        x = (R)INFINITY * (a * c + b * d), y = (R)INFINITY * (b * c - a * d);
    } else if ((isinf(c) || isinf(d)) && isfinite(a) && isfinite(b)) {
        c = copysign(isinf(c) ? (R)1 : (R)0, c), d = copysign(isinf(d) ? (R)1 : (R)0, d);
        x = (R)0 * (a * c + b * d), y = (R)0 * (b * c - a * d);
    } else {
        return false;
    }
    return true;
}
/* __divsc3: the plain formula in double, rounded once to float */
GF_HD inline gf_c32 gf_cdivf(float a, float b, float c, float d)
{
    double aa = a, bb = b, cc = c, dd = d;
    double den = GF_CX_MULD(cc, cc) + GF_CX_MULD(dd, dd);
    float x = (float)GF_CX_DIVD(GF_CX_MULD(aa, cc) + GF_CX_MULD(bb, dd), den);
    float y = (float)GF_CX_DIVD(GF_CX_MULD(bb, cc) - GF_CX_MULD(aa, dd), den);
    if (isnan(x) && isnan(y))
        gf_cx_div_fix(a, b, c, d, x, y);
    return gf_c32(x, y);
}
/* __divdc3: Smith's method, scaled near the ends of double's range */
GF_HD inline gf_c64 gf_cdiv(double a, double b, double c, double d)
{
    const double big = DBL_MAX / 2, lo = DBL_MIN, lo2 = DBL_EPSILON, scal = 1 / DBL_EPSILON, max2 = big * lo2;
    double x, y;
    bool swap = fabs(c) < fabs(d);
    double p = swap ? d : c, q = swap ? c : d;   /* |p| >= |q| */
    if (fabs(p) >= big)
        a /= 2, b /= 2, p /= 2, q /= 2;
    if (fabs(p) < lo2 || (fabs(a) < lo && fabs(b) < max2 && fabs(p) < max2) ||
        (fabs(b) < lo && fabs(a) < max2 && fabs(p) < max2))
        a *= scal, b *= scal, p *= scal, q *= scal;
    double ratio = GF_CX_DIVD(q, p), den = GF_CX_MULD(q, ratio) + p;
    bool tiny = !(fabs(ratio) > lo);
    if (!swap && !tiny)
        x = GF_CX_DIVD(GF_CX_MULD(b, ratio) + a, den), y = GF_CX_DIVD(b - GF_CX_MULD(a, ratio), den);
    else if (!swap)
        x = GF_CX_DIVD(a + GF_CX_MULD(q, GF_CX_DIVD(b, p)), den), y = GF_CX_DIVD(b - GF_CX_MULD(q, GF_CX_DIVD(a, p)), den);
    else if (!tiny)
        x = GF_CX_DIVD(GF_CX_MULD(a, ratio) + b, den), y = GF_CX_DIVD(GF_CX_MULD(b, ratio) - a, den);
    else
        x = GF_CX_DIVD(GF_CX_MULD(q, GF_CX_DIVD(a, p)) + b, den), y = GF_CX_DIVD(GF_CX_MULD(q, GF_CX_DIVD(b, p)) - a, den);
    if (isnan(x) && isnan(y))   /* from the scaled operands, as libgcc */
        gf_cx_div_fix(a, b, swap ? q : p, swap ? p : q, x, y);
    return gf_c64(x, y);
}
#define GF_CX_OPS(C, R, DIV)                                                                          \
    GF_HD inline C operator+(C a, C b) { return C(a.x + b.x, a.y + b.y); }                            \
    GF_HD inline C operator-(C a, C b) { return C(a.x - b.x, a.y - b.y); }                            \
    GF_HD inline C operator+(C a, R b) { return C(a.x + b, a.y); }                                    \
    GF_HD inline C operator+(R a, C b) { return C(a + b.x, b.y); }                                    \
    GF_HD inline C operator-(C a, R b) { return C(a.x - b, a.y); }                                    \
    GF_HD inline C operator-(R a, C b) { return C(a - b.x, -b.y); }                                   \
    GF_HD inline C operator*(C a, R b) { return C(a.x * b, a.y * b); }                                \
    GF_HD inline C operator*(R a, C b) { return C(a * b.x, a * b.y); }                                \
    GF_HD inline C operator/(C a, C b) { return DIV(a.x, a.y, b.x, b.y); }                            \
    GF_HD inline C operator/(C a, R b) { return C(a.x / b, a.y / b); }                                \
    GF_HD inline C operator/(R a, C b) { return DIV(a, (R)0, b.x, b.y); }                             \
    GF_HD inline C operator-(C a) { return C(-a.x, -a.y); }                                           \
    GF_HD inline C operator+(C a) { return a; }                                                       \
    GF_HD inline bool operator==(C a, C b) { return a.x == b.x && a.y == b.y; }                       \
    GF_HD inline bool operator!=(C a, C b) { return !(a == b); }                                      \
    GF_HD inline bool operator==(C a, R b) { return a.x == b && a.y == 0; }                           \
    GF_HD inline bool operator!=(C a, R b) { return !(a == b); }                                      \
    GF_HD inline bool operator==(R a, C b) { return b == a; }                                         \
    GF_HD inline bool operator!=(R a, C b) { return !(b == a); }                                      \
    GF_HD inline C &operator+=(C &a, C b) { return a = a + b; }                                       \
    GF_HD inline C &operator-=(C &a, C b) { return a = a - b; }                                       \
    GF_HD inline C &operator*=(C &a, C b) { return a = a * b; }                                       \
    GF_HD inline C &operator/=(C &a, C b) { return a = a / b; }                                       \
    GF_HD inline C &operator+=(C &a, R b) { return a = a + b; }                                       \
    GF_HD inline C &operator-=(C &a, R b) { return a = a - b; }                                       \
    GF_HD inline C &operator*=(C &a, R b) { return a = a * b; }                                       \
    GF_HD inline C &operator/=(C &a, R b) { return a = a / b; }
GF_CX_OPS(gf_c32, float, gf_cdivf)
GF_CX_OPS(gf_c64, double, gf_cdiv)
#undef GF_CX_OPS
/* <complex.h>'s functions that kernels may call (cabs is hypot and carg
 * atan2, as glibc computes them; cexp is exp(x) (cos y, sin y), within a
 * few ulps of glibc's and without its special cases for infinities) */
GF_HD inline float crealf(gf_c32 z) { return z.x; }
GF_HD inline float cimagf(gf_c32 z) { return z.y; }
GF_HD inline gf_c32 conjf(gf_c32 z) { return gf_c32(z.x, -z.y); }
GF_HD inline float cabsf(gf_c32 z) { return hypotf(z.x, z.y); }
GF_HD inline float cargf(gf_c32 z) { return atan2f(z.y, z.x); }
GF_HD inline gf_c32 cexpf(gf_c32 z)
{
    float e = expf(z.x);
    return z.y == 0 ? gf_c32(e, z.y) : gf_c32(e * cosf(z.y), e * sinf(z.y));
}
GF_HD inline double creal(gf_c64 z) { return z.x; }
GF_HD inline double cimag(gf_c64 z) { return z.y; }
GF_HD inline gf_c64 conj(gf_c64 z) { return gf_c64(z.x, -z.y); }
GF_HD inline double cabs(gf_c64 z) { return hypot(z.x, z.y); }
GF_HD inline double carg(gf_c64 z) { return atan2(z.y, z.x); }
GF_HD inline gf_c64 cexp(gf_c64 z)
{
    double e = exp(z.x);
    return z.y == 0 ? gf_c64(e, z.y) : gf_c64(e * cos(z.y), e * sin(z.y));
}
/* The rest of <complex.h> (float and double forms) from libcu++'s
 * cuda::std::complex (CUDA's own <cuda/std/complex>, libc++'s algorithms
 * with C99 Annex G's special values): gf_c32/gf_c64 and cuda::std::complex
 * hold the same two reals, converted by value.  Within a few eps of glibc
 * (docs/types.md); its ctan, ctanh and inverse functions cancel digits and
 * are refused (parse.c complex_inexact).  Two of Annex
 * G's signed zeros libcu++ 3.0 misses are set here: csqrt(+-0 +- i0) =
 * +0 +- i0, and ccosh(x +- i0)'s imaginary part has the sign of x * (+-0)
 * (ccos(z) is ccosh(iz), as C defines it). */
#define GF_CX_STD1(C, R, name, fn)                                                                 \
    GF_HD inline C name(C z)                                                                       \
    {                                                                                              \
        cuda::std::complex<R> w = cuda::std::fn(cuda::std::complex<R>(z.x, z.y));                  \
        return C(w.real(), w.imag());                                                              \
    }
#define GF_CX_STD(C, R, S)                                                                         \
    GF_CX_STD1(C, R, gf_csqrt_std##S, sqrt) GF_CX_STD1(C, R, clog##S, log) GF_CX_STD1(C, R, csin##S, sin) \
    GF_CX_STD1(C, R, gf_ccosh_std##S, cosh) GF_CX_STD1(C, R, csinh##S, sinh) GF_CX_STD1(C, R, cproj##S, proj) \
    GF_HD inline C cpow##S(C a, C b)                                                               \
    {                                                                                              \
        cuda::std::complex<R> w = cuda::std::pow(cuda::std::complex<R>(a.x, a.y), cuda::std::complex<R>(b.x, b.y)); \
        return C(w.real(), w.imag());                                                              \
    }
/* csqrt of a finite argument by Kahan's formula, not libcu++'s polar form
 * (whose smaller part loses up to 10^6 ulps: csqrt(-4 + 1e-3i)): t =
 * sqrt((|x| + hypot(x, y)) / 2), then (t, y / 2t) for x >= 0, (|y| / 2t,
 * t with y's sign) for x < 0, each part within a few ulps; arguments near
 * overflow or underflow scaled by an even power of 2 and the result back. */
template <typename C, typename R> GF_HD inline C gf_csqrt_fin(C z, R)
{
    const bool f = sizeof(R) == sizeof(float);
    R ax = fabs(z.x), ay = fabs(z.y), s = 1;
    if (ax == 0 && ay == 0)
        return C(0, z.y);
    const R big = f ? (R)0x1p124f : (R)0x1p1020, tiny = f ? (R)0x1p-60f : (R)0x1p-500;
    if (ax > big || ay > big)
        ax *= (R)0.25, ay *= (R)0.25, s = 2;
    else if (ax < tiny && ay < tiny)
        ax *= f ? (R)0x1p60f : (R)0x1p500, ay *= f ? (R)0x1p60f : (R)0x1p500, s = f ? (R)0x1p-30f : (R)0x1p-250;
    R t = sqrt((ax + hypot(ax, ay)) * (R)0.5);
    R u = ay / (2 * t);
    return z.x >= 0 ? C(t * s, copysign(u * s, z.y)) : C(u * s, copysign(t * s, z.y));
}
#define GF_CX_STD_FIX(C, S)                                                                        \
    GF_HD inline C csqrt##S(C z)                                                                   \
    {                                                                                              \
        return isfinite(z.x) && isfinite(z.y) ? gf_csqrt_fin(z, z.x) : gf_csqrt_std##S(z);         \
    }                                                                                              \
    GF_HD inline C ccosh##S(C z)                                                                   \
    {                                                                                              \
        return z.y == 0 && z.x == z.x ? C(cosh##S(z.x), signbit(z.x) ? -z.y : z.y) : gf_ccosh_std##S(z); \
    }                                                                                              \
    GF_HD inline C ccos##S(C z) { return ccosh##S(C(-z.y, z.x)); }
GF_CX_STD(gf_c32, float, f)
GF_CX_STD(gf_c64, double, )
GF_CX_STD_FIX(gf_c32, f)
GF_CX_STD_FIX(gf_c64, )
#undef GF_CX_STD_FIX
#undef GF_CX_STD
#undef GF_CX_STD1
#if defined(_OPENMP)   /* the CPU plan's sums and products of complex (C++: a class needs its own) */
#pragma omp declare reduction(+ : gf_c32 : omp_out += omp_in) initializer(omp_priv = gf_c32(0.0f, 0.0f))
#pragma omp declare reduction(* : gf_c32 : omp_out *= omp_in) initializer(omp_priv = gf_c32(1.0f, 0.0f))
#pragma omp declare reduction(+ : gf_c64 : omp_out += omp_in) initializer(omp_priv = gf_c64(0.0, 0.0))
#pragma omp declare reduction(* : gf_c64 : omp_out *= omp_in) initializer(omp_priv = gf_c64(1.0, 0.0))
#endif
GF_HD inline gf_c32 gf_imagf(float v) { return gf_c32(0.0f, v); }
GF_HD inline gf_c64 gf_imag(double v) { return gf_c64(0.0, v); }
GF_HD inline gf_c32 gf_cmplxf(float x, float y) { return gf_c32(x, y); }
GF_HD inline gf_c64 gf_cmplx(double x, double y) { return gf_c64(x, y); }
#elif defined(GF_USES_COMPLEX)
typedef float _Complex gf_c32;
typedef double _Complex gf_c64;
#define gf_imagf(v) __builtin_complex(0.0f, (float)(v))
#define gf_imag(v) __builtin_complex(0.0, (double)(v))
#define gf_cmplxf(x, y) __builtin_complex((float)(x), (float)(y))
#define gf_cmplx(x, y) __builtin_complex((double)(x), (double)(y))
/* <complex.h>'s declarations, without its macro I */
float crealf(float _Complex), cimagf(float _Complex), cabsf(float _Complex), cargf(float _Complex);
float _Complex conjf(float _Complex), cexpf(float _Complex);
double creal(double _Complex), cimag(double _Complex), cabs(double _Complex), carg(double _Complex);
double _Complex conj(double _Complex), cexp(double _Complex);
#define GF_CX_DECL(S, C)                                                                                  \
    C csqrt##S(C), clog##S(C), csin##S(C), ccos##S(C), csinh##S(C), ccosh##S(C), cproj##S(C), cpow##S(C, C);
GF_CX_DECL(f, float _Complex)
GF_CX_DECL(, double _Complex)
#undef GF_CX_DECL
#endif

GF_UNUSED static inline void *gf_tmp_alloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "gpufuse: out of host memory (%zu bytes for a temporary)\n", bytes);
        abort();
    }
    return p;
}
#define gf_tmp_free free

/* Whether bytes [p+plo, p+phi) and [q+qlo, q+qhi) overlap in a way a
 * parallel plan cannot allow: same_class arguments may be the same pointer. */
GF_UNUSED static inline int gf_overlap(const void *p, long long plo, long long phi, const void *q, long long qlo,
                             long long qhi, int same_class)
{
    if (phi <= plo || qhi <= qlo)
        return 0;
    uintptr_t a0 = (uintptr_t)p + (uintptr_t)plo, a1 = (uintptr_t)p + (uintptr_t)phi;
    uintptr_t b0 = (uintptr_t)q + (uintptr_t)qlo, b1 = (uintptr_t)q + (uintptr_t)qhi;
    if (a1 <= b0 || b1 <= a0)
        return 0;
    return !(same_class && p == q);
}
