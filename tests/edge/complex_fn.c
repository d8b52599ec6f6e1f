/* complex_fn.c - <complex.h>'s functions in kernels on the GPU
 * (complex_fn_kernels.c: templates/common.h over libcu++) against their C
 * bodies (glibc), float and double, on complex_fn.h's ordinary and Annex G
 * special values, by complex_fn.h's rule; prints the worst error of each
 * function.  The arguments are device memory (gf_malloc), so the launcher
 * cannot take the C body.  Needs a GPU: exit 77. */
#include <gpufuse.h>
#include <complex.h>
#include <stdio.h>
#include <stdlib.h>

#include "complex_fn.h"
#include "devcopy.h"

#define PROTO2(ret, name, ...) ret name(__VA_ARGS__); ret gf_##name(__VA_ARGS__)
PROTO2(void, cfn_float, int n, const float _Complex *z, const float _Complex *p, float _Complex out[][8]);
PROTO2(void, cfn_double, int n, const double _Complex *z, const double _Complex *p, double _Complex out[][8]);

static double x[CFN_N], y[CFN_N], px[CFN_N], py[CFN_N], xf[CFN_N], yf[CFN_N];
static double got[CFN_N * CFN_NFUNCS * 2], ref[CFN_N * CFN_NFUNCS * 2];

static int check_float(void)
{
    static float _Complex z[CFN_N], p[CFN_N], out[CFN_N][8], dev[CFN_N][8];
    for (int i = 0; i < CFN_N; i++) {
        z[i] = __builtin_complex((float)x[i], (float)y[i]), p[i] = __builtin_complex((float)px[i], (float)py[i]);
        xf[i] = crealf(z[i]), yf[i] = cimagf(z[i]);
    }
    void *dz = to_dev(z, sizeof z), *dp = to_dev(p, sizeof p), *dout = to_dev(out, sizeof out);
    cfn_float(CFN_N, z, p, out);
    gf_cfn_float(CFN_N, dz, dp, dout);
    from_dev(dev, dout, sizeof dev);
    gf_free(dz), gf_free(dp);
    for (int i = 0; i < CFN_N; i++)
        for (int k = 0; k < CFN_NFUNCS; k++) {
            size_t o = ((size_t)i * CFN_NFUNCS + k) * 2;
            got[o] = crealf(dev[i][k]), got[o + 1] = cimagf(dev[i][k]);
            ref[o] = crealf(out[i][k]), ref[o + 1] = cimagf(out[i][k]);
        }
    return cfn_compare("GPU kernels", 0, xf, yf, got, ref);
}

static int check_double(void)
{
    static double _Complex z[CFN_N], p[CFN_N], out[CFN_N][8], dev[CFN_N][8];
    for (int i = 0; i < CFN_N; i++)
        z[i] = __builtin_complex(x[i], y[i]), p[i] = __builtin_complex(px[i], py[i]);
    void *dz = to_dev(z, sizeof z), *dp = to_dev(p, sizeof p), *dout = to_dev(out, sizeof out);
    cfn_double(CFN_N, z, p, out);
    gf_cfn_double(CFN_N, dz, dp, dout);
    from_dev(dev, dout, sizeof dev);
    gf_free(dz), gf_free(dp);
    for (int i = 0; i < CFN_N; i++)
        for (int k = 0; k < CFN_NFUNCS; k++) {
            size_t o = ((size_t)i * CFN_NFUNCS + k) * 2;
            got[o] = creal(dev[i][k]), got[o + 1] = cimag(dev[i][k]);
            ref[o] = creal(out[i][k]), ref[o + 1] = cimag(out[i][k]);
        }
    return cfn_compare("GPU kernels", 1, x, y, got, ref);
}

int main(void)
{
    if (gf_init() != GF_SUCCESS || !gf_have_device()) {
        printf("no GPU (%s): skipped\n", gf_last_error());
        return 77;
    }
    cfn_inputs(x, y, px, py);
    int fails = check_float() + check_double();
    printf("%d function(s) FAILED\n", fails);
    return fails != 0;
}
