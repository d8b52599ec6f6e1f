/* complex_fn_host.cu - templates/common.h's <complex.h> functions (the
 * cuda::std::complex wrappers the kernels call) on the host side of nvcc,
 * against glibc (complex_fn_ref.c), by complex_fn.h's rule: the same
 * libcu++ code the GPU runs, with the host's libm under it, so the special
 * values and the formulas' cancellations show here without a GPU;
 * complex_fn.c runs the kernels themselves. */
#define GF_USES_COMPLEX 1
#include "../../templates/common.h"
#include "complex_fn.h"

extern "C" void cfn_ref_f(int k, float x, float y, float px, float py, float *o);
extern "C" void cfn_ref_d(int k, double x, double y, double px, double py, double *o);

#define CFN_APPLY(C, NAME, S)                                                                                     \
    static C NAME(int k, C z, C p)                                                                          \
    {                                                                                                        \
        switch (k) {                                                                                         \
        case 0: return csqrt##S(z);  case 1: return clog##S(z);    case 2: return cpow##S(z, p);            \
        case 3: return csin##S(z);   case 4: return ccos##S(z);    case 5: return csinh##S(z);              \
        case 6: return ccosh##S(z);                                                                         \
        default: return cproj##S(z);                                                                         \
        }                                                                                                    \
    }
CFN_APPLY(gf_c32, applyf, f)
CFN_APPLY(gf_c64, applyd, )

static double x[CFN_N], y[CFN_N], px[CFN_N], py[CFN_N];
static double got[CFN_N * CFN_NFUNCS * 2], ref[CFN_N * CFN_NFUNCS * 2];

int main(void)
{
    cfn_inputs(x, y, px, py);
    int fails = 0;
    for (int dbl = 0; dbl < 2; dbl++) {
        double *xs = x, *ys = y;
        static double xf[CFN_N], yf[CFN_N];
        if (!dbl) {   /* the float inputs, as doubles for the comparison */
            for (int i = 0; i < CFN_N; i++)
                xf[i] = (float)x[i], yf[i] = (float)y[i];
            xs = xf, ys = yf;
        }
        for (int i = 0; i < CFN_N; i++)
            for (int k = 0; k < CFN_NFUNCS; k++) {
                double *g = got + ((size_t)i * CFN_NFUNCS + k) * 2, *r = ref + ((size_t)i * CFN_NFUNCS + k) * 2;
                if (dbl) {
                    gf_c64 w = applyd(k, gf_c64(x[i], y[i]), gf_c64(px[i], py[i]));
                    g[0] = w.x, g[1] = w.y;
                    cfn_ref_d(k, x[i], y[i], px[i], py[i], r);
                } else {
                    gf_c32 w = applyf(k, gf_c32((float)x[i], (float)y[i]), gf_c32((float)px[i], (float)py[i]));
                    float o[2];
                    cfn_ref_f(k, (float)x[i], (float)y[i], (float)px[i], (float)py[i], o);
                    g[0] = w.x, g[1] = w.y, r[0] = o[0], r[1] = o[1];
                }
            }
        fails += cfn_compare("host side of templates/common.h", dbl, xs, ys, got, ref);
    }
    printf("%d function(s) FAILED\n", fails);
    return fails != 0;
}
