// Names C allows and CUDA C++ does not: C++ keywords, names the generated
// file's headers declare (max, min, y0, dim3, gamma), names in gpufuse's own
// gf_ namespace, and non-ASCII identifiers (nvcc refuses them in device
// entities).  Each is renamed in every piece of generated code (decls_cname);
// the launcher keeps the C symbol.
#include <gpufuse.h>
#include <math.h>

struct vec { float new, this; int delete; };

static inline float max(float a, float b) { return a > b ? a : b; }
static inline float min(float a, float b) { return a < b ? a : b; }
static float template(float operator) { return operator * 2.0f; }
static float fraction(float naïve) { float résumé = naïve - floorf(naïve); return résumé; }

GPUFUSE void clamp_new(int n, const struct vec *restrict class, float *restrict this, float lo, float gamma)
{
    for (int i = 0; i < n; i++) {
        float delete = class[i].new * class[i].this + (float)class[i].delete;
        float y0 = template(delete) + fraction(delete);
        this[i] = min(max(y0, lo), gamma);
    }
}

GPUFUSE float naïve_sum(int n, const float *x)
{
    float gf_total = 0.0f;
    for (int i = 0; i < n; i++)
        gf_total += x[i];
    return gf_total;
}

GPUFUSE void new(int n, float *dim3)
{
    for (int i = 0; i < n; i++)
        dim3[i] = dim3[i] * 2.0f;
}

// CHECK-LABEL: region clamp_new
// CHECK: param struct vec gf_u_class[] in restrict
// CHECK: param float gf_u_this[] out restrict
// CHECK: param float gf_u_gamma
// CHECK: S0: decl float gf_u_delete = ((gf_u_class[i].new * gf_u_class[i].this) + (float)gf_u_class[i].delete)
// CHECK: S1: decl float gf_u_y0 = (template(gf_u_delete) + fraction(gf_u_delete))
// CHECK: S2: gf_u_this[i] = min(max(gf_u_y0, lo), gf_u_gamma)
// CHECK-LABEL: region naïve_sum
// CHECK: reduction + on gf_u_gf_total
// CHECK-LABEL: region new
// CHECK: param float gf_u_dim3[] inout

// CU-LABEL: ---- types, constants and helpers of decl_names.c
// CU: struct vec {
// CU-NEXT:     float gf_u_new;
// CU-NEXT:     float gf_u_this;
// CU-NEXT:     int gf_u_delete;
// CU-NEXT: };
// CU: __host__ __device__ static float gf_u_template(float gf_u_operator) {
// CU-NEXT:     return gf_u_operator * 2.F;
// CU: __host__ __device__ static float fraction(float gf_x_na_u0000efve) {
// CU-NEXT:     float gf_x_r_u0000e9sum_u0000e9 = gf_x_na_u0000efve - floorf(gf_x_na_u0000efve);
// CU: __host__ __device__ static inline float gf_u_max(float a, float b) {
// CU: __host__ __device__ static inline float gf_u_min(float a, float b) {
// CU: __global__ void __launch_bounds__(GF_THREADS) clamp_new_k0(
// CU: float gf_u_delete = gf_u_class[i].gf_u_new * gf_u_class[i].gf_u_this + (float)gf_u_class[i].gf_u_delete;
// CU-NEXT: float gf_u_y0 = gf_u_template(gf_u_delete) + fraction(gf_u_delete);
// CU-NEXT: gf_u_this[i] = gf_u_min(gf_u_max(gf_u_y0, lo), gf_u_gamma);
// CU: extern "C" void clamp_new(int n, const struct vec *__restrict__ gf_u_class, float *__restrict__ gf_u_this, float lo, float gf_u_gamma)
// CU: __global__ void __launch_bounds__(GF_THREADS) gf_x_na_u0000efve_xsum_k0(
// CU: extern "C" float gf_x_na_u0000efve_xsum(int n, const float *x) __asm__("naïve_sum");
// CU: extern "C" void gf_u_new(int n, float *gf_u_dim3) __asm__("new");
// CU-NEXT: /* The launcher: replaces new() (decl_names.c:33) at link time. */
// CU-NEXT: extern "C" void gf_u_new(int n, float *gf_u_dim3)
