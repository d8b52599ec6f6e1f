// Colliding indirect writes: two iterations may update the same bin.
#include <gpufuse.h>

GPUFUSE void hist(int n, const int *restrict bin, const float *restrict w, float hist[64])
{
    for (int i = 0; i < n; i++) // expected-warning {{writes to 'hist' use a subscript that is not affine}} [-Wgpufuse-dependence]
        hist[bin[i]] += w[i];
}
