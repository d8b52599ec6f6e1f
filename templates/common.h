/* common.h - helpers every generated file starts with (host and device):
 * the min/max/floord that isl's extent expressions use, host memory for
 * temporaries, and the argument-overlap test.  Embedded into the output by
 * gpufuse; compilable on its own as C11 and CUDA C++. */
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
