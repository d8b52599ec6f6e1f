// Loops that count down, as the front end normalises them: an up-counting
// index k with the user's index replaced by hi - k (written out by hand
// here).  The dependences stay exact affine ones in k: a reversal is
// parallel, a downward recurrence is carried with distance 1, and an
// upward sweep over rows keeps its columns parallel.
#include <gpufuse.h>

// for (i = n - 1; i >= 0; i--) y[i] = 2 * x[i] + x[n - 1 - i];
GPUFUSE void reverse(int n, float *restrict y, const float *restrict x)
{
    for (int k = 0; k < n; k++)
        y[n - 1 - k] = 2.0f * x[n - 1 - k] + x[k];
}

// for (i = n - 2; i >= 0; i--) y[i] = y[i + 1] * 0.5f + x[i];
GPUFUSE void down_rec(int n, float *y, const float *x)
{
    for (int k = 0; k < n - 1; k++)
        y[n - 2 - k] = y[n - 1 - k] * 0.5f + x[n - 2 - k];
}

// for (i = n - 2; i >= 0; i--) for (j...) A[i][j] += A[i + 1][j];
GPUFUSE void sweep_up(int n, int m, float A[n][m])
{
    for (int k = 0; k < n - 1; k++)
        for (int j = 0; j < m; j++)
            A[n - 2 - k][j] += A[n - 1 - k][j] * 0.5f;
}

// for (i = n - 1; i >= 0; i -= 2) y[i] = x[i] + 1;
GPUFUSE void down_step(int n, float *restrict y, const float *restrict x)
{
    for (int k = 0; k < n; k += 2)
        y[n - 1 - k] = x[n - 1 - k] + 1.0f;
}

// A triangular sweep from the bottom row up (nussinov's shape):
// for (i = n - 2; i >= 0; i--) for (j = i + 1; j < n; j++)
//     T[i][j] = fmaxf(T[i][j], T[i + 1][j]);
// Row i reads exactly the row the iteration before it wrote.
GPUFUSE void tri_sweep(int n, float T[n][n])
{
    for (int k = 0; k < n - 1; k++)
        for (int j = n - 1 - k; j < n; j++)
            T[n - 2 - k][j] = T[n - 2 - k][j] > T[n - 1 - k][j] ? T[n - 2 - k][j] : T[n - 1 - k][j];
}

// WARN: count_down_manual.c:18:5: warning: loop carries a dependence on 'y'
// CHECK-LABEL: region reverse
// CHECK: for k in [0, n) step 1 ; line 11, parallel
// CHECK: deps: [n] -> { }
// CHECK-LABEL: region sweep_up
// CHECK: for j in [0, m) step 1 ; line 25, parallel
// CHECK-NEXT: for k in [0, (n - 1)) step 1 ; line 26, sequential
// CHECK: deps: [n, m] -> { S0[j, k] -> S0[j' = j, k' = 1 + k] : {{.*}} }
// CHECK-LABEL: region down_step
// CHECK: for k in [0, n) step 2 ; line 33, parallel
// CHECK-LABEL: region tri_sweep
// CHECK: for k in [0, (n - 1)) step 1 ; line 43, sequential
// CHECK-NEXT: for j in [((n - 1) - k), n) step 1 ; line 44, parallel
// CHECK: deps: [n] -> { S0[k, j] -> S0[k' = 1 + k, j' = j] : {{.*}} }
// CHECK-NOT: region down_rec
