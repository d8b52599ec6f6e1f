// A temporary written in an inner loop that may break is only possibly
// written there, so it is not private to the outer iteration (a later
// iteration may read what an earlier one left): the outer loop stays
// sequential and the break is in a loop that is not inside a parallel one.
#include <gpufuse.h>
#include <math.h>
#include <stdlib.h>

GPUFUSE void partial_rows(int n, int m, const float x[n][m], float y[n][m])
{
    float *t = malloc(m * sizeof *t);
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < m; j++) {
            t[j] = expf(x[i][j]) * sinf(x[i][j]) + cosf(x[i][j]);
            if (i > 0 && x[i][j] > 0.5f)
                break; // expected-warning {{'break' leaves loop 'j' (line 13) that is not inside a parallel loop}} [-Wgpufuse-control]
        }
        for (int j = 0; j < m; j++)
            y[i][j] = t[j];
    }
    free(t);
}
