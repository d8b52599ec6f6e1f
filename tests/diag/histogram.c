// Colliding indirect updates that cannot be made atomic keep their CPU body
// (tests/golden/hist_*.c hold the ones that can).
#include <gpufuse.h>
#include <math.h>

// Two different operators on the same array do not commute with each other.
GPUFUSE void mixed_ops(int n, const int *restrict bin, int h[64])
{
    for (int i = 0; i < n; i++) { // expected-warning {{writes to 'h' use a subscript that is not affine in the loop indices (indirect like 'h[idx[i]]', or flattened with a variable row length like 'h[i*m + j]'), so different iterations may write the same element; the writes cannot be atomic updates: it is updated with different operators ('+=' on line 10, '|=' on line 11)}} [-Wgpufuse-dependence]
        h[bin[i]] += 1;
        h[bin[i]] |= 2;
    }
}

// The histogram is read in the nest that updates it: the value seen depends
// on which updates already happened.
GPUFUSE void read_back(int n, const int *restrict bin, float h[64], float *restrict out)
{
    for (int i = 0; i < n; i++) { // expected-warning {{the writes cannot be atomic updates: line 21 reads 'h' too, in the same loop nest}} [-Wgpufuse-dependence]
        h[bin[i]] += 1.0f;
        out[i] = h[bin[i]];
    }
}

// A plain store in the same nest.
GPUFUSE void reset_some(int n, const int *restrict bin, float h[64])
{
    for (int i = 0; i < n; i++) { // expected-warning {{the writes cannot be atomic updates: line 30 writes 'h' too, in the same loop nest}} [-Wgpufuse-dependence]
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

// No atomic division (it does not commute: (h / a) / b is not (h / b) / a
// once rounded, and integer division truncates).
GPUFUSE void divide_bins(int n, const int *restrict bin, const float *restrict s, float h[64])
{
    for (int i = 0; i < n; i++) // expected-warning {{the writes cannot be atomic updates: '/=' has no atomic form (+=, -=, *=, &=, |=, ^= and min/max have)}} [-Wgpufuse-dependence]
        h[bin[i]] /= s[i];
}

// An update that is not one of the commutative forms: a plain store whose
// value reads the element (a decay), so the order of the writes matters.
GPUFUSE void decay_bins(int n, const int *restrict bin, const float *restrict w, float h[64])
{
    for (int i = 0; i < n; i++) // expected-warning {{so different iterations may write the same element (only '+=', '-=', '*=', '&=', '|=', '^=' updates and min/max updates like 'h[k] = fmaxf(h[k], v)' can be atomic)}} [-Wgpufuse-dependence]
        h[bin[i]] = 0.5f * h[bin[i]] + w[i];
}

// min and max of one array do not commute with each other.
GPUFUSE void min_and_max(int n, const int *restrict bin, const float *restrict w, float h[64])
{
    for (int i = 0; i < n; i++) { // expected-warning {{the writes cannot be atomic updates: it is updated with different operators ('max' on line 61, 'min' on line 62)}} [-Wgpufuse-dependence]
        h[bin[i]] = fmaxf(h[bin[i]], w[i]);
        h[bin[i] + 1] = fminf(h[bin[i] + 1], w[i]);
    }
}

// A float element's max computed in double: C rounds the double maximum.
GPUFUSE void max_in_double(int n, const int *restrict bin, const double *restrict w, float h[64])
{
    for (int i = 0; i < n; i++) // expected-warning {{the writes cannot be atomic updates: the max is computed in 'double', not in the element type 'float' (use fmaxf/fminf)}} [-Wgpufuse-dependence]
        h[bin[i]] = fmax(h[bin[i]], w[i]);
}

// The max's value reads the array it updates.
GPUFUSE void max_self(int n, const int *restrict bin, float h[64])
{
    for (int i = 0; i < n; i++) // expected-warning {{the writes cannot be atomic updates: the update reads 'h' itself}} [-Wgpufuse-dependence]
        h[bin[i]] = fmaxf(h[bin[i]], h[i % 64]);
}

// Narrow integers have no atomic max.
GPUFUSE void short_max(int n, const int *restrict bin, const short *restrict w, short h[64])
{
    for (int i = 0; i < n; i++) // expected-warning {{the writes cannot be atomic updates: atomic max on 'short' elements is not supported (int, unsigned, long, long long and their unsigned forms, float and double)}} [-Wgpufuse-dependence]
        h[bin[i]] = w[i] > h[bin[i]] ? w[i] : h[bin[i]];
}

// An integer bin scaled by a float: C rounds the product, not the factor.
GPUFUSE void int_scaled_by_float(int n, const int *restrict bin, const float *restrict s, int h[64])
{
    for (int i = 0; i < n; i++) // expected-warning {{the writes cannot be atomic updates: an integer element updated by a floating-point value rounds the product, not the value}} [-Wgpufuse-dependence]
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

// A max of the element narrowed first: (short)h[k] is not h[k], and the
// order of the updates would matter; a plain store that may collide.
GPUFUSE void narrowed_max(int n, const int *restrict bin, const short *restrict v, int h[16])
{
    for (int i = 0; i < n; i++) // expected-warning {{writes to 'h' use a subscript that is not affine}} [-Wgpufuse-dependence]
        h[bin[i]] = (short)h[bin[i]] > v[i] ? (short)h[bin[i]] : v[i];
}

// fmaxf of the element truncated to an integer: the same.
GPUFUSE void truncated_max(int n, const int *restrict bin, const float *restrict w, float h[16])
{
    for (int i = 0; i < n; i++) // expected-warning {{writes to 'h' use a subscript that is not affine}} [-Wgpufuse-dependence]
        h[bin[i]] = fmaxf((int)h[bin[i]], w[i]);
}
