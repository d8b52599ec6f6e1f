// float _Complex and double _Complex in marked functions (docs/types.md):
// C's arithmetic as gcc and clang compute it (Annex G products, libgcc's
// quotients); gf_c32/gf_c64 are the C types on the host and classes of the
// same layout in CUDA.
#include <gpufuse.h>
#include <complex.h>

GPUFUSE void c_fma(int n, const float _Complex *restrict a, const float _Complex *restrict b,
                   const float _Complex *restrict c, float _Complex *restrict d)
{
    for (int i = 0; i < n; i++)
        d[i] = a[i] * b[i] + c[i];
}

GPUFUSE void c_mixed(int n, float s, const float *restrict x, const float _Complex *restrict a,
                     float _Complex *restrict b, float *restrict m)
{
    for (int i = 0; i < n; i++) {
        float _Complex t = conjf(a[i]) * s - x[i] + 2.0f * I;
        b[i] = -t / (a[i] + 3.0f) + x[i] / t;
        m[i] = cabsf(t) + crealf(b[i]) * cimagf(a[i]) - cargf(a[i]) + (t == a[i]);
    }
}

GPUFUSE void z_ops(int n, double _Complex w, const double _Complex *restrict a, const float _Complex *restrict f,
                   double _Complex *restrict b, double *restrict r)
{
    for (int i = 0; i < n; i++) {
        double _Complex e = cexp(a[i] * 0.25) + f[i] * w;
        b[i] = e / a[i] + conj(e) + __builtin_complex(1.0, r[i]);
        r[i] = creal(e) + cimag(b[i]) + cabs(f[i]) + (double)a[i];
    }
}

GPUFUSE float _Complex c_sum(int n, const float _Complex *restrict a, const float _Complex *restrict b)
{
    float _Complex s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

GPUFUSE void c_rowsum(int n, int m, const double _Complex a[restrict n][m], double _Complex *restrict out)
{
    for (int i = 0; i < n; i++) {
        double _Complex s = 0;
        for (int j = 0; j < m; j++)
            s += a[i][j] * I;
        out[i] = s;
    }
}

// CHECK-LABEL: region c_fma
// CHECK: param float _Complex a[] in restrict
// CHECK: for i in [0, n) step 1 ; line 11, parallel
// CHECK: S0: d[i] = ((a[i] * b[i]) + c[i])
// CHECK-LABEL: region c_mixed
// CHECK: S0: decl float _Complex t = (((conjf(a[i]) * s) - x[i]) + (2.0f * gf_imagf(1.0f)))
// CHECK: S2: m[i] = (((cabsf(t) + (crealf(b[i]) * cimagf(a[i]))) - cargf(a[i])) + (t == a[i]))
// CHECK-LABEL: region z_ops
// CHECK: param double _Complex w
// CHECK: S0: decl double _Complex e = (cexp((a[i] * 0.25)) + ((double _Complex)f[i] * w))
// CHECK: S1: b[i] = (((e / a[i]) + conj(e)) + gf_cmplx(1.0, r[i]))
// CHECK: S2: r[i] = (((creal(e) + cimag(b[i])) + cabs((double _Complex)f[i])) + (double)a[i])
// CHECK-LABEL: region c_sum
// CHECK: S1: s += (a[i] * b[i]) ; reduction + on s
// CHECK-LABEL: region c_rowsum
// CHECK: S1: s += (a[i][j] * (double _Complex)gf_imagf(1.0f)) ; reduction + on s
// CU: #define GF_USES_COMPLEX 1
// CU: struct __align__(8) gf_c32 {
// CU: c_fma_k0_v4(int n, gf_c32 *__restrict__ d
// CU: const GF_I gf_n4 = gf_n0 / 2;
// CU: __align__(16) gf_c32 a_v[2];
// CU: *(float4 *)a_v = __ldcs((const float4 *)(a + (0)) + gf_q);
// CU: d_v[gf_k] = a_v[gf_k] * b_v[gf_k] + c_v[gf_k];
// CU: __stcs((float4 *)(d + (0)) + gf_q, *(float4 *)d_v);
// CU: c_fma_k0(int n, gf_c32 *__restrict__ d, const gf_c32 *__restrict__ a
// CU: d[i] = a[i] * b[i] + c[i];
// CU: const bool gf_vec = gf_n0 >= 2 && gf_aligned16(
// mixed float and float _Complex: 4 elements a thread, two 16-byte accesses
// of each complex array, one of each float array
// CU: c_mixed_k0_v4(int n, float s
// CU: const GF_I gf_n4 = gf_n0 / 4;
// CU: __align__(16) gf_c32 a_v[4];
// CU-NEXT: ((float4 *)a_v)[0] = __ldcs((const float4 *)(a + (0)) + gf_q * 2 + 0);
// CU-NEXT: ((float4 *)a_v)[1] = __ldcs((const float4 *)(a + (0)) + gf_q * 2 + 1);
// CU-NEXT: float x_v[4];
// CU-NEXT: *(float4 *)x_v = __ldcs((const float4 *)(x + (0)) + gf_q);
// CU: __stcs((float4 *)(b + (0)) + gf_q * 2 + 1, ((float4 *)b_v)[1]);
// CU: __stcs((float4 *)(m + (0)) + gf_q, *(float4 *)m_v);
// CU: const bool gf_vec = gf_n0 >= 4 && gf_aligned16(
// CU: gf_c32 s = gf_add<gf_c32>::id();
// CU: s = gf_block_reduce(s, gf_add<gf_c32>());
// HOST: typedef float _Complex gf_c32;
// HOST: #pragma omp parallel for reduction(+:s)
// REPORT: kernel c_fma_k0 [map, 1-D, 128-bit vectors]
// REPORT: global traffic per element: 32 B unfused (a pass per statement) -> 32 B fused (0% saved)
// REPORT: kernel c_mixed_k0 [map, 1-D, 128-bit vectors]:
// REPORT: kernel c_sum_k0 [reduce, 1-D, 128-bit vectors, deterministic reduction]
// REPORT: kernel c_sum2d_k0 [reduce, 2-D, deterministic reduction]

// a complex tested as a condition: whether either part is nonzero (spelled
// with <complex.h>'s macro complex)
GPUFUSE void c_test(int n, const complex float *restrict a, int *restrict b)
{
    for (int i = 0; i < n; i++)
        b[i] = a[i] ? (int)a[i] : -1;
}
// a complex product: Annex G products, reassociated like a float product
GPUFUSE void c_prod(int n, const double _Complex *restrict a, double _Complex *restrict out)
{
    double _Complex p = 1;
    for (int i = 0; i < n; i++)
        p *= a[i] + 0.5;
    out[0] = p;
}
// column sums (a map over j, i sequential inside) and a 2-D sum of conj
GPUFUSE void c_colsum(int n, int m, const double _Complex a[restrict n][m], double _Complex *restrict y)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            y[j] += a[i][j];
}

GPUFUSE void c_sum2d(int n, int m, const float _Complex a[restrict n][m], float _Complex *restrict s)
{
    float _Complex t = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            t += conjf(a[i][j]);
    s[0] = t;
}
// integer operands of complex operators convert to the real type (C11
// 6.3.1.8, gcc): z / k divides componentwise (clang 16 would call __divsc3)
GPUFUSE void c_intops(int n, int k, float _Complex *restrict z, float _Complex *restrict w)
{
    for (int i = 0; i < n; i++) {
        z[i] = z[i] / k + 2 * w[i] - (w[i] == 3);
        w[i] /= k;
        w[i] += (float _Complex)k / z[i];
    }
}
// CHECK-LABEL: region c_test
// CHECK: param float _Complex a[] in restrict
// CHECK: S0: b[i] = (a[i] ? (int)(float)a[i] : (-1))
// CHECK-LABEL: region c_prod
// CHECK: S1: p *= (a[i] + 0.5) ; reduction * on p
// CHECK-LABEL: region c_colsum
// CHECK: S0: y[j] += a[i][j]
// CHECK-LABEL: region c_sum2d
// CHECK: S1: t += conjf(a[i][j]) ; reduction + on t
// CHECK-LABEL: region c_intops
// CHECK: S0: z[i] = (((z[i] / (float)k) + ((float)2 * w[i])) - (float)(w[i] == (float)3))
// CHECK: S1: w[i] /= (float)k
// CHECK: S2: w[i] += ((float _Complex)k / z[i])
// CU: p = gf_block_reduce(p, gf_mul<gf_c64>());
