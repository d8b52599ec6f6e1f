/* jacobi: 5-point Jacobi relaxation of an n x n grid.  Each time step does
 * two sweeps, a -> b then b -> a, so no pointers are swapped; the boundary
 * rows and columns are never written.  The result is in a. */
#include <gpufuse.h>

GPUFUSE void jacobi(int n, int steps, float a[n][n], float b[n][n])
{
    for (int t = 0; t < steps; t++) {
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++)
                b[i][j] = 0.25f * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++)
                a[i][j] = 0.25f * (b[i - 1][j] + b[i + 1][j] + b[i][j - 1] + b[i][j + 1]);
    }
}
