/* half_kernels.c - _Float16 kernels whose GPU results must equal their C
 * bodies bit for bit (tests/edge/half.c): fmaf chains (correctly rounded in
 * float on both sides, one rounding to half at the store), half and float
 * arrays in one map, a max in half (compared in float), a row max and a
 * normalisation whose float operations leave nothing for nvcc to contract. */
#include <gpufuse.h>
#include <math.h>

GPUFUSE void h_fma(int n, const _Float16 *restrict x, const _Float16 *restrict w, const _Float16 *restrict z,
                   _Float16 *restrict y)
{
    for (int i = 0; i < n; i++)
        y[i] = fmaf(x[i], w[i], fmaf(w[i], z[i], x[i]));
}

/* half and float arrays in one map: 8 elements a thread, one 16-byte
 * access of each half array and two of each float array; the product and
 * the sum round once in float on both sides (nothing to contract), the sum
 * once more to half at its store */
GPUFUSE void h_mix(int n, const _Float16 *restrict x, const float *restrict s, float *restrict p,
                   _Float16 *restrict q)
{
    for (int i = 0; i < n; i++) {
        p[i] = x[i] * s[i];
        q[i] = x[i] + s[i];
    }
}

GPUFUSE void h_max(int n, const _Float16 *restrict x, _Float16 *restrict out)
{
    _Float16 m = -INFINITY;
    for (int i = 0; i < n; i++)
        m = x[i] > m ? x[i] : m;
    out[0] = m;
}

GPUFUSE void h_rownorm(int h, int w, const _Float16 x[h][w], _Float16 y[h][w])
{
    for (int i = 0; i < h; i++) {
        _Float16 hi = -INFINITY;
        for (int j = 0; j < w; j++)
            hi = x[i][j] > hi ? x[i][j] : hi;
        for (int j = 0; j < w; j++)
            y[i][j] = (x[i][j] - hi) * 0.25f;
    }
}
