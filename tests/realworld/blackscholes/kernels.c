/* blackscholes: European options, the cumulative normal as a static inline
 * polynomial (Abramowitz-Stegun), as an array of structs with an enum, and
 * as arrays (the PARSEC/CUDA-samples form) */
#include <gpufuse.h>
#include <math.h>
#include "kernels.h"

#define A1 0.31938153f
#define A2 -0.356563782f
#define A3 1.781477937f
#define A4 -1.821255978f
#define A5 1.330274429f
#define RSQRT2PI 0.39894228040143267793994605993438f

static inline float cnd(float d)
{
    float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
    float c = RSQRT2PI * expf(-0.5f * d * d) * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))));
    if (d > 0)
        c = 1.0f - c;
    return c;
}

GPUFUSE void price_options(int n, const option_t *opt, float *price)
{
    for (int i = 0; i < n; i++) {
        float s = opt[i].spot, x = opt[i].strike, r = opt[i].rate, v = opt[i].volatility, t = opt[i].years;
        float sqrt_t = sqrtf(t);
        float d1 = (logf(s / x) + (r + 0.5f * v * v) * t) / (v * sqrt_t);
        float d2 = d1 - v * sqrt_t;
        float disc = x * expf(-r * t);
        if (opt[i].kind == CALL)
            price[i] = s * cnd(d1) - disc * cnd(d2);
        else
            price[i] = disc * (1.0f - cnd(d2)) - s * (1.0f - cnd(d1));
    }
}

GPUFUSE void black_scholes_soa(int n, const float *S, const float *X, const float *T, float r, float v, float *call,
                               float *put)
{
    for (int i = 0; i < n; i++) {
        float sqrtT = sqrtf(T[i]);
        float d1 = (logf(S[i] / X[i]) + (r + 0.5f * v * v) * T[i]) / (v * sqrtT);
        float d2 = d1 - v * sqrtT;
        float cndd1 = cnd(d1), cndd2 = cnd(d2);
        float expRT = expf(-r * T[i]);
        call[i] = S[i] * cndd1 - X[i] * expRT * cndd2;
        put[i] = X[i] * expRT * (1.0f - cndd2) - S[i] * (1.0f - cndd1);
    }
}
