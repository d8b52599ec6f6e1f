// A scalar assigned under conditions where some iteration can read the
// value of an earlier one: refused (the accepted forms are
// tests/golden/branch_private.c).
#include <gpufuse.h>

// the condition reads it
GPUFUSE void cond_reads(int n, const float *restrict p, float q, float *restrict o)
{
    float m = 0;
    for (int i = 0; i < n; i++) { // expected-warning {{loop carries a dependence through 'm' from one iteration to the next (a running value that is not a reduction); 'm' cannot be private to each iteration: an iteration of 'i' reads elements of 'm' that an earlier iteration wrote; no iteration can run in parallel}} [-Wgpufuse-dependence]
        if (m > 0.5f)
            m = p[i];
        else
            m = q + p[i];
        o[i] = m;
    }
}

// no else: the last value stays
GPUFUSE void then_only(int n, const float *restrict p, const int *restrict c, float *restrict o)
{
    float m = 0;
    for (int i = 0; i < n; i++) { // expected-warning {{loop carries a dependence through 'm' from one iteration to the next (a running value that is not a reduction); 'm' cannot be private to each iteration: an iteration of 'i' reads elements of 'm' that an earlier iteration wrote; no iteration can run in parallel}} [-Wgpufuse-dependence]
        if (c[i] > 50)
            m = p[i];
        o[i] = m;
    }
}

// the else reads it before assigning it
GPUFUSE void else_reads(int n, const float *restrict p, const int *restrict c, float q, float *restrict o,
                        float *restrict o2)
{
    float m = 0;
    for (int i = 0; i < n; i++) { // expected-warning {{loop carries a dependence through 'm' from one iteration to the next (a running value that is not a reduction); 'm' cannot be private to each iteration: an iteration of 'i' reads elements of 'm' that an earlier iteration wrote; no iteration can run in parallel}} [-Wgpufuse-dependence]
        if (c[i] > 50) {
            m = p[i];
        } else {
            o2[i] = m;
            m = q;
        }
        o[i] = m;
    }
}

// an else-if chain without a final else
GPUFUSE void chain_open(int n, const float *restrict p, const int *restrict c, float q, float *restrict o)
{
    float m = 1;
    for (int i = 0; i < n; i++) { // expected-warning {{loop carries a dependence through 'm' from one iteration to the next (a running value that is not a reduction); 'm' cannot be private to each iteration: an iteration of 'i' reads elements of 'm' that an earlier iteration wrote; no iteration can run in parallel}} [-Wgpufuse-dependence]
        if (c[i] > 66)
            m = p[i];
        else if (c[i] > 33)
            m = q;
        o[i] = m;
    }
}
