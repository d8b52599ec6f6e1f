// _Float16 in marked functions: C computes it in float and rounds at stores
// and casts (FLT_EVAL_METHOD 0 with _Float16 promoted: gcc 12, clang 16 on
// x86-64); the CUDA keeps __half storage and converts exactly there.
// DIFF-INIT: x in [-4, 4)
// DIFF-INIT: y in [-4, 4)
#include <gpufuse.h>
#include <math.h>

GPUFUSE void h_chain(int n, const _Float16 *restrict x, const _Float16 *restrict y, _Float16 *restrict z,
                     float *restrict w)
{
    for (int i = 0; i < n; i++) {
        _Float16 t = x[i] * y[i] * x[i] + y[i];     /* one rounding, at the store */
        z[i] = (_Float16)(x[i] * y[i]) * x[i] + t;   /* the cast rounds the product */
        w[i] = fmaf(x[i], y[i], (float)t) + 0.1;     /* computed in double: one rounding to float */
    }
}

GPUFUSE void h_conv(int n, const int *restrict k, const double *restrict d, _Float16 *restrict a,
                    _Float16 *restrict b, _Float16 *restrict c)
{
    for (int i = 0; i < n; i++) {
        a[i] = k[i] * 37;            /* int -> _Float16: one rounding */
        b[i] = d[i] * 1000.0;        /* double -> _Float16: one rounding, not through float */
        c[i] += a[i] * 0.5f16;       /* c = (_Float16)(c + a * 0.5) in float */
    }
}

GPUFUSE void h_max(int n, const _Float16 *restrict x, _Float16 *restrict out)
{
    _Float16 m = -INFINITY;
    for (int i = 0; i < n; i++)
        m = x[i] > m ? x[i] : m;
    out[0] = m;
}

GPUFUSE void h_sum_refused(int n, const _Float16 *restrict x, _Float16 *restrict out)
{
    _Float16 s = 0;
    for (int i = 0; i < n; i++)
        s += x[i];
    out[0] = s;
}

GPUFUSE float h_sum_float(int n, const _Float16 *restrict x)
{
    float s = 0;
    for (int i = 0; i < n; i++)
        s += x[i];
    return s;
}

// CHECK-LABEL: region h_chain
// CHECK: param _Float16 x[] in restrict
// CHECK: for i in [0, n) step 1 ; line 12, parallel
// CHECK: S0: decl _Float16 t = (((x[i] * y[i]) * x[i]) + y[i])
// CHECK: S1: z[i] = (((_Float16)(x[i] * y[i]) * x[i]) + t)
// CHECK-LABEL: region h_conv
// CHECK: S2: c[i] += (a[i] * 0.5f)
// CHECK-LABEL: region h_max
// CHECK: S1: m = ((x[i] > m) ? x[i] : m) ; reduction max on m
// CHECK-LABEL: region h_sum_float
// CHECK: S1: s += x[i] ; reduction + on s
// WARN: half.c:40:5: warning: loop carries a dependence through 's' from one iteration to the next (a running value that is not a reduction: a '_Float16' sum or product rounds to half at every step, which no parallel order reproduces; accumulate in 'float')
// CU: #define GF_USES_F16 1
// CU: typedef __half gf_f16;
// CU: h_chain_k0(int n, const gf_f16 *__restrict__ x
// CU: gf_f16 t = gf_to_f16(gf_h2f(x[i]) * gf_h2f(y[i]) * gf_h2f(x[i]) + gf_h2f(y[i]));
// CU-NEXT: z[i] = gf_to_f16(gf_h2f(gf_to_f16(gf_h2f(x[i]) * gf_h2f(y[i]))) * gf_h2f(x[i]) + gf_h2f(t));
// CU-NEXT: w[i] = fmaf(gf_h2f(x[i]), gf_h2f(y[i]), (float)gf_h2f(t)) + 0.1;
// CU: a[i] = gf_to_f16(k[i] * 37);
// CU-NEXT: b[i] = gf_to_f16(d[i] * 1000.0);
// CU-NEXT: c[i] = gf_to_f16(gf_h2f(c[i]) + gf_h2f(a[i]) * 0.5f);
// CU: gf_f16 m = gf_maxop<gf_f16>::id();
// CU: m = gf_h2f(x[i]) > gf_h2f(m) ? x[i] : m;
// CU: s += gf_h2f(x[i]);
// HOST: typedef _Float16 gf_f16;
// half and float arrays: the 16-byte form, 8 elements a thread
// REPORT: kernel h_chain_k0 [map, 1-D, 128-bit vectors]
// REPORT: global traffic per element: 18 B unfused (a pass per statement) -> 10 B fused
// REPORT: kernel h_max_k0 [reduce, 1-D, 128-bit vectors, deterministic reduction]
// REPORT: kernel h_sum_float_k0 [reduce, 1-D, 128-bit vectors, deterministic reduction]
