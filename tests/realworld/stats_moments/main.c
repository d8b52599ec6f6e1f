#include "rw.h"
#include "kernels.h"

int main(void)
{
    const size_t n = 100000;
    rw_seed(26);
    float *x = rw_alloc(n, sizeof(float));
    /* skewed: the sum of a uniform and a squared uniform */
    for (size_t i = 0; i < n; i++) {
        double u = rw_unit();
        x[i] = (float)(rw_uniform(-1, 1) + 3 * u * u);
    }
    double mu = mean(n, x);
    rw_out_scalar("mean.return", mu, 1e-12, 1e-12);
    rw_out_scalar("variance.return", variance(n, x, mu), 1e-12, 1e-12);
    double cm[3];
    central_moments(n, x, mu, cm);
    rw_out_d("central_moments.out", cm, 3, 1e-11, 1e-12);
    float lo, hi;
    min_max(n, x, &lo, &hi);
    rw_out_f("min_max.lo", &lo, 1, 0, 0);
    rw_out_f("min_max.hi", &hi, 1, 0, 0);
    moments_t m;
    describe(n, x, &m);
    double md[4] = {m.mean, m.var, m.skew, m.kurt};
    rw_out_d("describe.moments", md, 4, 1e-10, 1e-12);
    float mm[2] = {m.min, m.max};
    rw_out_f("describe.minmax", mm, 2, 0, 0);
    return 0;
}
