/* complex_ops.cu - templates/common.h's gf_c32/gf_c64 operators (the code
 * the kernels and the CUDA CPU plan run) against C's complex operators
 * (complex_ops_ref.c, built by the C compiler: libgcc's __mulsc3, __divsc3,
 * __muldc3, __divdc3) on the host, bit for bit (NaN matches NaN): 400000
 * operand sets per width, a quarter of their parts infinities, NaNs,
 * zeros, subnormals or huge.  Needs no GPU (docs/types.md). */
#define GF_USES_COMPLEX 1
#include "../../templates/common.h"

extern "C" void cx_ref_f(int op, float a, float b, float c, float d, float *o);
extern "C" void cx_ref_d(int op, double a, double b, double c, double d, double *o);

static unsigned long long rng = 0x2545F4914F6CDD1DULL;

static unsigned long long next(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

static double unit(void) { return (double)(next() >> 11) / 9007199254740992.0; }

static bool same(double p, double q) { return (p != p && q != q) || (p == q && signbit(p) == signbit(q)); }

template <typename R> static R part(int range)
{
    static const double odd[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1e-310, 1e-40, 3e38, 1.7e308, 1.0, -2.5};
    switch (next() % 4) {
    case 0: return (R)odd[next() % 11];
    case 1: return (R)ldexp(2 * unit() - 1, (int)(next() % (2 * range)) - range);
    default: return (R)(2 * unit() - 1);
    }
}

template <typename C, typename R> static C apply(int op, R a, R b, R c, R d)
{
    C x(a, b), y(c, d);
    return op == 0 ? x * y : op == 1 ? x / y : op == 2 ? a / y : op == 3 ? x / c : a * y;
}

int main(void)
{
    long bad = 0;
    for (long it = 0; it < 400000; it++) {
        float v[4];
        double w[4];
        for (int k = 0; k < 4; k++)
            v[k] = part<float>(140), w[k] = part<double>(1050);
        for (int op = 0; op < 5; op++) {
            float o[2];
            double od[2];
            cx_ref_f(op, v[0], v[1], v[2], v[3], o);
            gf_c32 r = apply<gf_c32, float>(op, v[0], v[1], v[2], v[3]);
            if ((!same(o[0], r.x) || !same(o[1], r.y)) && bad++ < 5)
                printf("float op %d (%g%+gi, %g%+gi): C %g%+gi, gf_c32 %g%+gi\n", op, v[0], v[1], v[2], v[3], o[0], o[1],
                       r.x, r.y);
            cx_ref_d(op, w[0], w[1], w[2], w[3], od);
            gf_c64 rd = apply<gf_c64, double>(op, w[0], w[1], w[2], w[3]);
            if ((!same(od[0], rd.x) || !same(od[1], rd.y)) && bad++ < 5)
                printf("double op %d (%g%+gi, %g%+gi): C %g%+gi, gf_c64 %g%+gi\n", op, w[0], w[1], w[2], w[3], od[0],
                       od[1], rd.x, rd.y);
        }
    }
    printf("complex operators against C: %ld of %d differ\n", bad, 400000 * 10);
    return bad != 0;
}
