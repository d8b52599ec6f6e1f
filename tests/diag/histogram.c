// Colliding indirect updates that cannot be made atomic keep their CPU body
// (tests/golden/hist_*.c hold the ones that can).
#include <gpufuse.h>

// Two different operators on the same array do not commute with each other.
GPUFUSE void mixed_ops(int n, const int *restrict bin, int h[64])
{
    for (int i = 0; i < n; i++) { // expected-warning {{writes to 'h' use a subscript that is not affine in the loop indices (indirect like 'h[idx[i]]', or flattened with a variable row length like 'h[i*m + j]'), so different iterations may write the same element; the writes cannot be atomic updates: it is updated with different operators ('+=' on line 9, '|=' on line 10)}} [-Wgpufuse-dependence]
        h[bin[i]] += 1;
        h[bin[i]] |= 2;
    }
}

// The histogram is read in the nest that updates it: the value seen depends
// on which updates already happened.
GPUFUSE void read_back(int n, const int *restrict bin, float h[64], float *restrict out)
{
    for (int i = 0; i < n; i++) { // expected-warning {{the writes cannot be atomic updates: line 20 reads 'h' too, in the same loop nest}} [-Wgpufuse-dependence]
        h[bin[i]] += 1.0f;
        out[i] = h[bin[i]];
    }
}

// A plain store in the same nest.
GPUFUSE void reset_some(int n, const int *restrict bin, float h[64])
{
    for (int i = 0; i < n; i++) { // expected-warning {{the writes cannot be atomic updates: line 29 writes 'h' too, in the same loop nest}} [-Wgpufuse-dependence]
        h[bin[i]] += 1.0f;
        h[bin[i] / 2] = 0.0f;
    }
}

// Narrow integers have no CUDA atomics.
GPUFUSE void short_bins(int n, const int *restrict bin, short h[64])
{
    for (int i = 0; i < n; i++) // expected-warning {{the writes cannot be atomic updates: atomic addition on 'short' elements is not supported (int, unsigned, long, long long and their unsigned forms, float and double)}} [-Wgpufuse-dependence]
        h[bin[i]]++;
}

// No atomic multiply.
GPUFUSE void scale_bins(int n, const int *restrict bin, const float *restrict s, float h[64])
{
    for (int i = 0; i < n; i++) // expected-warning {{the writes cannot be atomic updates: '*=' has no atomic form (+=, -=, &=, |= and ^= have)}} [-Wgpufuse-dependence]
        h[bin[i]] *= s[i];
}

// An integer bin incremented by a float: C converts the sum, not the increment.
GPUFUSE void int_by_float(int n, const int *restrict bin, const float *restrict w, int h[64])
{
    for (int i = 0; i < n; i++) // expected-warning {{the writes cannot be atomic updates: an integer element updated by a floating-point value rounds the sum, not the value}} [-Wgpufuse-dependence]
        h[bin[i]] += w[i];
}

// The update's value reads the array it updates.
GPUFUSE void self_read(int n, const int *restrict bin, int h[64])
{
    for (int i = 0; i < n; i++) // expected-warning {{the writes cannot be atomic updates: the update reads 'h' itself}} [-Wgpufuse-dependence]
        h[bin[i]] += h[i % 64];
}
