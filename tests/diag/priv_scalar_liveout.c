#include <gpufuse.h>

// temp2 would be private to each iteration of j, but its last value is
// read after the nest: the diagnostic names it (not 'C', which only the
// outer loop carries) and says why it stays shared.
GPUFUSE void symm_last(int m, int n, double C[m][n], const double A[m][m], const double B[m][n], double *last)
{
    double temp2 = 0;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) { // expected-warning {{loop carries a dependence through 'temp2' from one iteration to the next (a running value that is not a reduction); 'temp2' cannot be private to each iteration: its last value can be read after the loop, on line 18}} [-Wgpufuse-dependence]
            temp2 = 0;
            for (int k = 0; k < i; k++) {
                C[k][j] += B[i][j] * A[i][k];
                temp2 += B[k][j] * A[i][k];
            }
            C[i][j] = C[i][j] + temp2;
        }
    last[0] = temp2;
}
