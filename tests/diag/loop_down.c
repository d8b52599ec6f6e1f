#include <gpufuse.h>

/* Loop headers that are refused (loops counting down are accepted:
 * tests/golden/count_down.c). */

GPUFUSE void never_ends(unsigned n, float *restrict x)
{
    for (unsigned i = n; i >= 0; i--) // expected-warning {{'i >= 0' is always true for the unsigned index 'i': the loop never ends}} [-Wgpufuse-loop]
        x[i] = 0.0f;
}

GPUFUSE void wrong_way(int n, float *restrict x)
{
    for (int i = 0; i < n; i--) // expected-warning {{the loop counts down but its condition is 'i < bound'}} [-Wgpufuse-loop]
        x[i] = 0.0f;
}

GPUFUSE void mixed_signs(int n, unsigned lo, float *restrict x)
{
    for (int i = n; i > lo; i--) // expected-warning {{the loop compares the signed index 'i' with a bound of an unsigned type}} [-Wgpufuse-loop]
        x[i] = 0.0f;
}

GPUFUSE void not_equal(int n, float *restrict x)
{
    for (int i = n; i != 0; i--) // expected-warning {{the loop condition must compare the index 'i' with a bound}} [-Wgpufuse-loop]
        x[i] = 0.0f;
}

GPUFUSE void moving_start(int n, float *restrict x)
{
    int h = n - 1;
    for (int i = h; i >= 0; i--) { // expected-warning {{the loop's start reads 'h', which its body writes}} [-Wgpufuse-loop]
        x[i] = 0.0f;
        h = 0;
    }
}

GPUFUSE void moving_bound(int n, float *restrict x)
{
    int m = n;
    for (int i = 0; i < m; i++) { // expected-warning {{the loop's bound reads 'm', which its body writes}} [-Wgpufuse-loop]
        x[i] = 0.0f;
        m = m - 1;
    }
}

/* i - m < n on an unsigned index wraps at i < m (i + m <= n is accepted:
 * tests/golden/unsigned_bounds.c) */
GPUFUSE void unsigned_offset(unsigned long n, unsigned long m, float *restrict x)
{
    for (unsigned long i = 0; i - m < n; i++) // expected-warning {{the loop condition must compare the index 'i' with a bound}} [-Wgpufuse-loop]
        x[i] = 0.0f;
}
