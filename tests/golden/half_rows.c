// _Float16 rows: a row max in half (compared in float), a row sum in float,
// and a normalisation that rounds each element once at its store.
// DIFF-INIT: x in [-8, 8)
#include <gpufuse.h>
#include <math.h>

GPUFUSE void h_rows(int n, int m, const _Float16 x[n][m], _Float16 mx[n], float sum[n], _Float16 y[n][m])
{
    for (int i = 0; i < n; i++) {
        _Float16 hi = -INFINITY;
        float s = 0.0f;
        for (int j = 0; j < m; j++) {
            hi = x[i][j] > hi ? x[i][j] : hi;
            s += x[i][j];
        }
        mx[i] = hi;
        sum[i] = s;
        for (int j = 0; j < m; j++)
            y[i][j] = (x[i][j] - hi) * 0.25f + s / m;
    }
}

// CHECK-LABEL: region h_rows
// CHECK: reduction max on hi
// CHECK: reduction + on s
// CU: y[{{.*}}] = gf_to_f16((gf_h2f(x[{{.*}}]) - gf_h2f(hi)) * 0.25f + s / m);
