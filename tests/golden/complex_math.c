// <complex.h>'s transcendental functions in marked functions (docs/types.md):
// float and double forms, cpow with a real exponent (C converts it to the
// complex type), in a map and in a sum.  The CUDA side calls templates/
// common.h's definitions over libcu++'s cuda::std::complex; the host plan
// calls glibc's.
#include <gpufuse.h>
#include <complex.h>

GPUFUSE void c_funcs(int n, const float _Complex *restrict z, float _Complex *restrict a,
                     float _Complex *restrict b, float *restrict m)
{
    for (int i = 0; i < n; i++) {
        a[i] = csqrtf(z[i]) + clogf(z[i]) * cpowf(z[i], 1.5f);
        b[i] = csinf(z[i]) - ccoshf(z[i]) + csinhf(z[i] * 0.5f) + cprojf(z[i]);
        m[i] = cabsf(ccosf(z[i])) + crealf(csinhf(z[i]));
    }
}

GPUFUSE void z_funcs(int n, const double _Complex *restrict w, const float _Complex *restrict z,
                     double _Complex *restrict b)
{
    for (int i = 0; i < n; i++)
        b[i] = csqrt(w[i]) + clog(w[i]) * csin(w[i]) + cpow(w[i], z[i]) + ccosh(w[i]) + cproj(w[i])
             + ccos(w[i]) / csinh(w[i] + 1.0);
}

GPUFUSE float _Complex c_sqrt_sum(int n, const float _Complex *restrict z)
{
    float _Complex s = 0;
    for (int i = 0; i < n; i++)
        s += csqrtf(z[i]);
    return s;
}
// CHECK-LABEL: region c_funcs
// CHECK: for i in [0, n) step 1 ; line 12, parallel
// CHECK: S0: a[i] = (csqrtf(z[i]) + (clogf(z[i]) * cpowf(z[i], (float _Complex)1.5f)))
// CHECK: S1: b[i] = (((csinf(z[i]) - ccoshf(z[i])) + csinhf((z[i] * 0.5f))) + cprojf(z[i]))
// CHECK: S2: m[i] = (cabsf(ccosf(z[i])) + crealf(csinhf(z[i])))
// CHECK-LABEL: region z_funcs
// CHECK: S0: b[i] = (((((csqrt(w[i]) + (clog(w[i]) * csin(w[i]))) + cpow(w[i], (double _Complex)z[i])) + ccosh(w[i])) + cproj(w[i])) + (ccos(w[i]) / csinh((w[i] + 1.0))))
// CHECK-LABEL: region c_sqrt_sum
// CHECK: S1: s += csqrtf(z[i]) ; reduction + on s
// CU: #define GF_USES_COMPLEX 1
// CU: #include <cuda/std/complex>
// CU: GF_CX_STD(gf_c32, float, f)
// CU-NEXT: GF_CX_STD(gf_c64, double, )
// CU: a_v[gf_k] = csqrtf(z_v[gf_k]) + clogf(z_v[gf_k]) * cpowf(z_v[gf_k], (gf_c32)1.5f);
// CU: b[i] = csqrt(w[i]) + clog(w[i]) * csin(w[i]) + cpow(w[i], (gf_c64)z[i]) + ccosh(w[i]) + cproj(w[i]) + ccos(w[i]) / csinh(w[i] + 1.0);
// CU: s += csqrtf(z_v[gf_k]);
// CU: s = gf_block_reduce(s, gf_add<gf_c32>());
// HOST: typedef float _Complex gf_c32;
// HOST: GF_CX_DECL(f, float _Complex)
// HOST: a[i] = csqrtf(z[i]) + clogf(z[i]) * cpowf(z[i], (gf_c32)1.5f);
// HOST: #pragma omp parallel for reduction(+:s)
// HOST: s += csqrtf(z[i]);
// REPORT: kernel c_funcs_k0 [map, 1-D, 128-bit vectors]: lines 12-16
// REPORT: kernel z_funcs_k0 [map, 1-D]: lines 22-24
// REPORT: kernel c_sqrt_sum_k0 [reduce, 1-D, 128-bit vectors, deterministic reduction]: lines 30-31
