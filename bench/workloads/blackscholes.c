/* blackscholes: European call and put prices of n options (spot S, strike
 * K, years to expiry T; riskless rate r and volatility v shared).  The
 * normal CDF is the classic 5-term polynomial (Abramowitz & Stegun 26.2.17),
 * as in the CUDA samples, written as a static helper gpufuse inlines.  The
 * put uses cnd(-d) rather than 1 - cnd(d), which loses digits in float. */
#include <gpufuse.h>
#include <math.h>

static float cnd(float d)
{
    const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f,
                a4 = -1.821255978f, a5 = 1.330274429f;
    const float rsqrt2pi = 0.39894228040143267794f;
    float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
    float c = rsqrt2pi * expf(-0.5f * d * d) *
              (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
    return d > 0.0f ? 1.0f - c : c;
}

GPUFUSE void blackscholes(int n, const float *restrict S, const float *restrict K,
                          const float *restrict T, float r, float v,
                          float *restrict call, float *restrict put)
{
    for (int i = 0; i < n; i++) {
        float sqrt_t = sqrtf(T[i]);
        float d1 = (logf(S[i] / K[i]) + (r + 0.5f * v * v) * T[i]) / (v * sqrt_t);
        float d2 = d1 - v * sqrt_t;
        float disc = expf(-r * T[i]);
        call[i] = S[i] * cnd(d1) - K[i] * disc * cnd(d2);
        put[i] = K[i] * disc * cnd(-d2) - S[i] * cnd(-d1);
    }
}
