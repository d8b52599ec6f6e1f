// `break` is accepted in a loop that runs per element inside a parallel loop
// (tests/golden/break_inner.c); anywhere else it is refused.
#include <gpufuse.h>

// The loop that breaks is the one that would run in parallel.
GPUFUSE void first_neg(int n, float *restrict x)
{
    for (int i = 0; i < n; i++) {
        if (x[i] < 0.0f)
            break; // expected-warning {{'break' leaves loop 'i' (line 8), the outermost loop of its nest, which would run in parallel: an early exit makes every iteration depend on whether an earlier one broke}} [-Wgpufuse-control]
        x[i] = 1.0f;
    }
}

// A time loop around kernels: the launches cannot stop on a computed value.
GPUFUSE void converge(int steps, int n, float *restrict x, const float *restrict err)
{
    for (int s = 0; s < steps; s++) {
        for (int i = 0; i < n; i++)
            x[i] = 0.5f * x[i];
        if (err[s] < 0.1f)
            break; // expected-warning {{'break' leaves loop 's' (line 18), which runs on the host around the kernels of its body (as a time loop does)}} [-Wgpufuse-control]
    }
}

// A sequential loop beside the kernels of a time loop, outside any parallel
// loop: it would run in a single thread.
GPUFUSE void side_loop(int steps, int n, float *restrict x, float *restrict y)
{
    for (int s = 0; s < steps; s++) {
        for (int k = 1; k < n; k++) {
            y[k] = y[k - 1] + 1.0f;
            if (y[k] > 10.0f)
                break; // expected-warning {{'break' leaves loop 'k' (line 31) that is not inside a parallel loop}} [-Wgpufuse-control]
        }
        for (int i = 0; i < n; i++)
            x[i] = x[i] + y[i];
    }
}

// The outer loop of a 2-D nest breaks: the inner parallel loop would be a
// kernel launched from a host loop that stops early.
GPUFUSE void rows_until(int n, int m, float a[n][m], const float *restrict lim)
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < m; j++)
            a[i][j] = 0.0f;
        if (lim[i] > 0.0f)
            break; // expected-warning {{'break' leaves loop 'i' (line 45), which runs on the host around the kernels of its body}} [-Wgpufuse-control]
    }
}

// Where the nest has no parallel loop for another reason, that reason is
// said (the break itself would be fine inside a parallel loop).
GPUFUSE void running(int n, int m, const float *restrict x, float *restrict acc)
{
    for (int i = 1; i < n; i++) { // expected-warning {{loop carries a dependence on 'acc'}} [-Wgpufuse-dependence]
        float s = acc[i - 1];
        for (int k = 0; k < m; k++) {
            s += x[k];
            if (s > 1.0f)
                break;
        }
        acc[i] = s;
    }
}

// A loop inside a parallel loop may break, even under conditions and after
// a switch: accepted.
GPUFUSE void fine(int n, int m, const int *restrict key, const float *restrict x, float *restrict y)
{
    for (int i = 0; i < n; i++) {
        float s = 0.0f;
        for (int k = 0; k < m; k++) {
            switch (key[k]) {
            case 0: s += x[k]; break;
            default: s -= x[k]; break;
            }
            if (s > (float)i)
                break;
        }
        y[i] = s;
    }
}

// The index of a loop that broke, read after the loop (kept: its reads read
// where the loop stopped, tests/golden/kept_index.c) and then taken again
// as the index of a later loop: refused.
GPUFUSE void find(int n, int m, float t, const float x[n][m], int *restrict idx, float *restrict y)
{
    for (int i = 0; i < n; i++) {
        int k;
        for (k = 0; k < m; k++)
            if (x[i][k] > t)
                break;
        idx[i] = k; // expected-warning {{loop index 'k' is read after its loop, and a later loop takes it as its index: give the later loop an index of its own ('for (int k2 = 0; ...)')}} [-Wgpufuse-index]
        for (k = 0; k < m; k++)
            y[i] += x[i][k];
    }
}

// The index kept after its loop is declared just before the loop, in its
// block: a loop that is the body of another loop (or of an if) keeps none.
GPUFUSE void last_row_hit(int n, int m, const float x[n][m], int *restrict where)
{
    int j;
    for (int i = 0; i < n; i++)
        for (j = 0; j < m; j++)
            if (x[i][j] < 0)
                break;
    where[0] = j; // expected-warning {{loop index 'j' is used outside its loop}} [-Wgpufuse-index]
}
