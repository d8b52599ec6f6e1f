// Loops counting down run as loops counting up (k from 0 to the trip count,
// the index read as hi - k): subscripts stay affine, dependences exact.
#include <gpufuse.h>
#include <stddef.h>

GPUFUSE void reverse(int n, const float *restrict x, float *restrict y)
{
    for (int i = n - 1; i >= 0; i--)
        y[i] = x[n - 1 - i] * 2.0f;
}

// a recurrence from the end: the loop stays sequential, inside a parallel one
GPUFUSE void suffix_sums(int n, int m, float a[n][m])
{
    int i, j;
    for (i = 0; i < n; i++)
        for (j = m - 2; j >= 0; --j)
            a[i][j] = a[i][j] + a[i][j + 1];
}

GPUFUSE void strided(int n, float *restrict y)
{
    for (int i = n; 0 < i; i -= 3)
        y[i - 1] = (float)i;
}

GPUFUSE void unsigned_down(size_t n, const float *restrict x, float *restrict y)
{
    for (size_t i = n; i > 0; i--)
        y[i - 1] = x[i - 1] + (float)i;
    for (unsigned k = 0; n > k; k++)
        y[k] *= 2.0f;
    for (size_t j = 0; j < n; j++)
        y[j] -= 1.0f;
}

// the unsigned idiom: the condition tests the value before the decrement
GPUFUSE void post_dec(size_t n, unsigned m, double *restrict x, double *restrict y)
{
    for (size_t i = n; i-- > 0;)
        x[i] *= 2.0;
    unsigned j;
    for (j = m; j--;)
        y[j] += (double)j;
}

// a bound with an offset on the index's side: i + m <= n is i <= n - m
GPUFUSE void offset_bound(int n, int m, const double *restrict x, double *restrict y)
{
    for (int i = 0; i + m <= n; i++)
        y[i] = x[i + m - 1] - x[i];
    for (int i = n - 1; i - m >= 0; i--)
        y[i] += x[i - m];
}

// CHECK-LABEL: region reverse
// CHECK: for i_rev in [0, n) step 1 ; line 8, parallel
// CHECK-NEXT: S0: y[((n - 1) - i_rev)] = (x[((n - 1) - ((n - 1) - i_rev))] * 2.0f)
// CHECK-LABEL: region suffix_sums
// CHECK: for i in [0, n) step 1 ; line 16, parallel
// CHECK-NEXT: for j_rev in [0, (m - 1)) step 1 ; line 17
// CHECK-NOT: parallel
// CHECK: S2: a[i][((m - 2) - j_rev)] = (a[i][((m - 2) - j_rev)] + a[i][(((m - 2) - j_rev) + 1)])
// CHECK-LABEL: region strided
// CHECK: for i_rev in [0, n) step 3 ; line 23, parallel
// CHECK-NEXT: S0: y[((n - i_rev) - 1)] = (float)(n - i_rev)
// CHECK-LABEL: region unsigned_down
// CHECK: for i_rev in [0, (long long)n) step 1 ; line 29, parallel
// CHECK: for k in [0, n) step 1 ; line 31, parallel
// CHECK: for j in [0, n) step 1 ; line 33, parallel
// CHECK-LABEL: region post_dec
// CHECK: for i_rev in [0, (long long)n) step 1 ; line 40, parallel
// CHECK-NEXT: S0: x[((n - i_rev) - 1)] *= 2.0
// CHECK: for j_rev in [0, (long long)m) step 1 ; line 43, parallel
// CHECK-NEXT: S2: y[(unsigned int)((m - j_rev) - 1)] += (double)(unsigned int)((m - j_rev) - 1)
// CHECK-LABEL: region offset_bound
// CHECK: for i in [0, ((n - m) + 1)) step 1 ; line 50, parallel
// CHECK: for i_rev in [0, (((n - 1) - (0 + m)) + 1)) step 1 ; line 52, parallel
