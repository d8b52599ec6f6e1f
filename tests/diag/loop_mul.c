#include <gpufuse.h>

GPUFUSE void pow2(int n, float *restrict x)
{
    for (int i = 1; i < n; i *= 2) // expected-warning {{the loop increment must be 'i++', 'i--', 'i += c' or 'i -= c' with a constant c}} [-Wgpufuse-loop]
        x[i] = 0.0f;
}
