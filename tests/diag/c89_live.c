#include <gpufuse.h>

/* A scalar whose last value a later statement can read keeps one
 * declaration: the message names that statement. */
GPUFUSE void last_value(int n, double A[n][n], double x[n])
{
    int i, j;
    double w = 0.0;
    for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++) { // expected-warning {{loop carries a dependence through 'w' from one iteration to the next (a running value that is not a reduction); 'w' cannot be private to each iteration: its last value can be read after the loop, on line 16}} [-Wgpufuse-dependence]
            w = A[i][j];
            A[i][j] = w * A[j][i];
        }
    }
    for (i = 0; i < n; i++)
        x[i] = w;
}
