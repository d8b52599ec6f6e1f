// _Float16 in every operand position: bare conditions, !, &&, casts to
// integers, unary minus, math calls taking double, double results, compound
// assignment and ++ on a half local, ?: between a stored and a computed half.
// DIFF-INIT: h in [-2, 2)
// DIFF-INIT: g in [-2, 2)
#include <gpufuse.h>
#include <math.h>
GPUFUSE void e1(int n, _Float16 *restrict h, const _Float16 *restrict g, int *restrict k, float *restrict f, double *restrict d)
{
    for (int i = 0; i < n; i++) {
        if (h[i])
            k[i] = !g[i] + (int)h[i];
        else
            k[i] = (g[i] && h[i]) ? 2 : (unsigned char)g[i];
        f[i] = -h[i] + sqrt(g[i]) + fabsf(g[i]);
        d[i] = g[i];
        _Float16 t = g[i];
        t *= h[i];
        t++;
        h[i] = t + (long long)k[i] + (_Float16)1.5;
        h[i] = g[i] > 0 ? g[i] : -g[i];
    }
}

// CHECK-LABEL: region e1
// CHECK: for i in [0, n) step 1 ; line {{[0-9]+}}, parallel
// CU: if (gf_h2f(h[i])) {
// CU-NEXT: k[i] = !gf_h2f(g[i]) + (int)gf_h2f(h[i]);
// CU: k[i] = gf_h2f(g[i]) && gf_h2f(h[i]) ? 2 : (unsigned char)gf_h2f(g[i]);
// CU: f[i] = -gf_h2f(h[i]) + sqrt((double)gf_h2f(g[i])) + fabsf(gf_h2f(g[i]));
// CU-NEXT: d[i] = gf_h2f(g[i]);
// CU-NEXT: gf_f16 t = g[i];
// CU-NEXT: t = gf_to_f16(gf_h2f(t) * gf_h2f(h[i]));
// CU-NEXT: t = gf_to_f16(gf_h2f(t) + 1);
// CU-NEXT: h[i] = gf_to_f16(gf_h2f(t) + (long long)k[i] + gf_h2f(gf_to_f16(1.5)));
// CU-NEXT: h[i] = gf_to_f16(gf_h2f(g[i]) > 0 ? gf_h2f(g[i]) : -gf_h2f(g[i]));
