// Calls of a helper that compute the same values (share.c): cnd(x) and
// cnd(-x) compute the same reciprocal and exponential bit for bit
// (fabsf(-x) = fabsf(x), (-0.5f * -x) * -x = -(0.5f * x * x) exactly), so
// the calls are inlined and the second one reads the first one's values.
// Calls that share nothing costly stay calls of the device function; a call
// under a condition is never inlined; a write between two calls ends the
// sharing.
// DIFF-INIT: x in [-4, 4)
// DIFF-INIT: w in [-4, 4)
#include <gpufuse.h>
#include <math.h>

static float cnd(float d)
{
    const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f, a4 = -1.821255978f, a5 = 1.330274429f;
    float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
    float c = 0.3989422804f * expf(-0.5f * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
    return d > 0.0f ? 1.0f - c : c;
}

static double inv(double v) { return 1.0 / v; }

static double twice(double v)
{
    double r = inv(v);
    return r + r;
}

GPUFUSE void pair(int n, const float *restrict x, float *restrict lo, float *restrict hi)
{
    for (int i = 0; i < n; i++) {
        float d = x[i] * 0.5f;
        lo[i] = cnd(d);
        hi[i] = cnd(-d);
    }
}

// the argument is an expression: held once, its negation read from it
GPUFUSE void pair_expr(int n, const float *restrict x, const float *restrict w, float *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] = cnd(x[i] - w[i]) + cnd(-(x[i] - w[i]));
}

// nested helpers, double, an int argument converted to the parameter's type
GPUFUSE void nested(int n, const double *restrict w, double *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] = twice(w[i] + 5.0) * twice(-(w[i] + 5.0)) + inv(i + 1) - inv(-(i + 1));
}

// different arguments: nothing costly in common, the calls stay
GPUFUSE void apart(int n, const float *restrict x, const float *restrict w, float *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] = cnd(x[i]) - cnd(w[i]);
}

// under a condition: not inlined
GPUFUSE void guarded(int n, const float *restrict x, float *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] = x[i] > 0.0f ? cnd(x[i]) : cnd(-x[i]);
}

// the negation in a variable of the block: its value is -d, the same sharing
GPUFUSE void pair_var(int n, const float *restrict x, float *restrict lo, float *restrict hi)
{
    for (int i = 0; i < n; i++) {
        float d = x[i] * 0.5f;
        float nd = -d;
        float k;
        lo[i] = cnd(d);
        k = nd;
        hi[i] = cnd(nd) + k;
    }
}

// d changes between the calls: cnd(-d) is another value
GPUFUSE void rewritten(int n, const float *restrict x, float *restrict lo, float *restrict hi)
{
    for (int i = 0; i < n; i++) {
        float d = x[i];
        lo[i] = cnd(d);
        d = d * 0.5f;
        hi[i] = cnd(-d);
    }
}

// CHECK-LABEL: region pair
// CHECK: for i in [0, n) step 1 ; line 31, parallel
// CHECK: decl float gf_cnd_k = (1.0f / (1.0f + (0.2316419f * fabsf(d))))
// CHECK: lo[i] = gf_cnd
// CHECK: hi[i] = gf_cnd_1
// CHECK-LABEL: region apart
// CHECK: y[i] = (cnd(x[i]) - cnd(w[i]))
// REPORT-LABEL: region pair
// REPORT: line 33: 2 calls of cnd inlined; 2 values read from an earlier call instead of computed again
// REPORT-LABEL: region pair_expr
// REPORT: line 42: 2 calls of cnd inlined; 2 values read from an earlier call instead of computed again
// REPORT-LABEL: region nested
// REPORT: line 49: 6 calls of twice, inv inlined; 2 values read from an earlier call instead of computed again
// REPORT-LABEL: region apart
// REPORT-NOT: inlined
// REPORT-LABEL: region guarded
// REPORT-NOT: inlined
// REPORT-LABEL: region pair_var
// REPORT: 2 calls of cnd inlined; 2 values read from an earlier call instead of computed again
// REPORT-LABEL: region rewritten
// REPORT-NOT: inlined

// CU-LABEL: void __launch_bounds__(GF_THREADS) pair_k0(
// CU: float d = x[i] * 0.5f;
// CU-NEXT: float gf_cnd_k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
// CU-NEXT: float gf_cnd_c = 0.3989422804f * expf(-0.5f * d * d) * (gf_cnd_k * (0.31938153f + gf_cnd_k * (-0.356563782f + gf_cnd_k * (1.781477937f + gf_cnd_k * (-1.821255978f + gf_cnd_k * 1.330274429f)))));
// CU-NEXT: float gf_cnd = d > 0.0f ? 1.0f - gf_cnd_c : gf_cnd_c;
// CU-NEXT: lo[i] = gf_cnd;
// CU-NEXT: float gf_cnd_1 = -d > 0.0f ? 1.0f - gf_cnd_c : gf_cnd_c;
// CU-NEXT: hi[i] = gf_cnd_1;
// CU-LABEL: void __launch_bounds__(GF_THREADS) pair_expr_k0(
// CU: float gf_cnd_d = x[i] - w[i];
// CU: float gf_cnd_1 = -gf_cnd_d > 0.0f ? 1.0f - gf_cnd_c : gf_cnd_c;
// CU-NEXT: y[i] = gf_cnd + gf_cnd_1;
// CU-LABEL: void __launch_bounds__(GF_THREADS) nested_k0(
// CU: double gf_twice_v = w[i] + 5.0;
// CU-NEXT: double gf_inv = 1.0 / gf_twice_v;
// CU-NEXT: double gf_twice = gf_inv + gf_inv;
// CU-NEXT: double gf_twice_1 = -gf_inv + -gf_inv;
// CU-NEXT: double gf_inv_v = i + 1;
// CU-NEXT: double gf_inv_1 = 1.0 / gf_inv_v;
// CU-NEXT: y[i] = gf_twice * gf_twice_1 + gf_inv_1 - -gf_inv_1;
// CU-LABEL: void __launch_bounds__(GF_THREADS) apart_k0(
// CU: y[i] = cnd(x[i]) - cnd(w[i]);
// CU-LABEL: void __launch_bounds__(GF_THREADS) guarded_k0(
// CU: y[i] = x[i] > 0.0f ? cnd(x[i]) : cnd(-x[i]);
// CU-LABEL: void __launch_bounds__(GF_THREADS) pair_var_k0(
// CU: float gf_cnd_1 = nd > 0.0f ? 1.0f - gf_cnd_c : gf_cnd_c;
// CU-LABEL: void __launch_bounds__(GF_THREADS) rewritten_k0(
// CU: lo[i] = cnd(d);
// CU: hi[i] = cnd(-d);
