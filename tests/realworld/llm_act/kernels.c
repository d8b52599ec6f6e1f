/* llm_act: activations as models write them: SiLU, GELU (tanh form with
 * M_PI), SwiGLU in place, a residual add, ReLU squared */
#include <gpufuse.h>
#include <math.h>

#define GELU_COEF 0.044715f
#define SQRT_2_OVER_PI sqrtf(2.0f / (float)M_PI)

static inline float silu(float x)
{
    return x / (1.0f + expf(-x));
}

GPUFUSE void swiglu(int hidden_dim, float *hb, const float *hb2)
{
    for (int i = 0; i < hidden_dim; i++) {
        float val = hb[i];
        /* silu(x)=x*σ(x), where σ(x) is the logistic sigmoid */
        val *= (1.0f / (1.0f + expf(-val)));
        /* elementwise multiply with w3(x) */
        val *= hb2[i];
        hb[i] = val;
    }
}

GPUFUSE void gelu_tanh(int n, const float *x, float *y)
{
    for (int i = 0; i < n; i++) {
        float v = x[i];
        y[i] = 0.5f * v * (1.0f + tanhf(SQRT_2_OVER_PI * (v + GELU_COEF * v * v * v)));
    }
}

GPUFUSE void silu_mul(int n, const float *gate, const float *up, float *out)
{
    for (int i = 0; i < n; i++)
        out[i] = silu(gate[i]) * up[i];
}

GPUFUSE void residual_relu2(int n, float *x, const float *delta)
{
    for (int i = 0; i < n; i++) {
        float r = x[i] + delta[i];
        x[i] = r > 0 ? r * r : 0;
    }
}
