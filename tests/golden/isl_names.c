// User names that gpufuse's isl model used to print for itself (o0 for an
// access's output dimensions, t0/s0 for time dimensions, S0 for statement
// 0, i0) and isl keywords (min, max, exists, floor, mod, ...; 'min' was
// once spelled 'min_', the name of another parameter here).  The model is
// built through isl's API with ids that carry the statement or variable,
// so none of these can meet: the recurrences stay sequential (refused, as
// the C body is the only right answer) and the rest is parallel and equal
// to the C body (diffcheck).
#include <gpufuse.h>

// y[o0] reads y[o0 - 1], written one iteration earlier: not parallel.
GPUFUSE void rec_o0(int n, float *y, const float *x)
{
    for (int o0 = 1; o0 < n; o0++)
        y[o0] = y[o0 - 1] + x[o0];
}

GPUFUSE void map_o0(int n, float *restrict y, const float *restrict x)
{
    for (int o0 = 0; o0 < n; o0++)
        y[o0] = 2.0f * x[o0] + 1.0f;
}

// Arrays named like statements, indices named like time dimensions: the
// t0 loop carries the dependence on S0, the s0 loop is parallel.
GPUFUSE void sweep_t0(int n, int m, float S0[n][m], const float i0[n][m])
{
    for (int t0 = 1; t0 < n; t0++)
        for (int s0 = 0; s0 < m; s0++)
            S0[t0][s0] = S0[t0 - 1][s0] * 0.5f + i0[t0][s0];
}

GPUFUSE void rec_s0(int n, int i0, float *s0)
{
    for (int t0 = i0; t0 < n; t0++)
        s0[t0] = s0[t0 - i0] + 1.0f;
}

// Parameters named like isl keywords, and one named like the old renaming.
GPUFUSE void keywords(int min, int min_, int max, float *restrict floor, const float *restrict mod)
{
    for (int exists = 0; exists < min + min_; exists++)
        floor[exists] = mod[exists] * (float)max + (float)min_;
}

GPUFUSE void rec_keywords(int domain, int params, float *infty)
{
    for (int rat = params; rat < domain; rat++)
        infty[rat] = infty[rat - params] * 0.5f + infty[rat];
}

// DIFF-PARAM: i0 = 2
// DIFF-PARAM: params = 1

// WARN: isl_names.c:14:5: warning: loop carries a dependence on 'y'
// WARN: isl_names.c:35:5: warning: loop carries a dependence on 's0'
// WARN: isl_names.c:48:5: warning: loop carries a dependence on 'infty'
// CHECK-LABEL: region map_o0
// CHECK: for o0 in [0, n) step 1 ; line 20, parallel
// CHECK-LABEL: region sweep_t0
// CHECK: for s0 in [0, m) step 1 ; line 28, parallel
// CHECK-NEXT: for t0 in [1, n) step 1 ; line 29, sequential
// CHECK: deps: [n, m] -> { S0[s0, t0] -> S0[s0' = s0, t0' = 1 + t0] : {{.*}} }
// CHECK-LABEL: region keywords
// CHECK: for exists in [0, ({{(gf_u_)?}}min + min_)) step 1 ; line 42, parallel
// CHECK: domain: [{{(gf_u_)?}}min, min_, {{(gf_u_)?}}max] -> { S0[exists] : 0 <= exists < {{(gf_u_)?}}min + min_ }
// CHECK-NOT: region rec_
