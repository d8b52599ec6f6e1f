// Integer histograms and bit sets built with atomic updates: the result is
// exactly the sequential one, whatever the order.
// DIFF-INIT: bin in [0, 16)
// DIFF-INIT: key in [0, 512)
// DIFF-PARAM: nbins = 16
// DIFF-PARAM: nwords = 16
#include <gpufuse.h>

GPUFUSE void count_bins(int n, int nbins, const int *restrict bin, int count[nbins])
{
    for (int i = 0; i < n; i++)
        count[bin[i]]++;
}

// A bit set: |= on unsigned words; ^= parity; &= clears.
GPUFUSE void bitset(int n, int nwords, const int *restrict key, unsigned seen[nwords], unsigned parity[nwords],
                    unsigned long long mask[nwords])
{
    for (int i = 0; i < n; i++) {
        seen[key[i] / 32] |= 1u << (key[i] % 32);
        parity[key[i] / 32] ^= 1u << (key[i] % 32);
        mask[key[i] / 32] &= ~(1ull << (key[i] % 64));
    }
}

// 64-bit sums of signed values, and a count that goes down.
GPUFUSE void sums(int n, int nbins, const int *restrict bin, const int *restrict v, long long total[nbins],
                  unsigned left[nbins])
{
    for (int i = 0; i < n; i++) {
        total[bin[i]] += v[i] - 50;
        left[bin[i]] -= 1;
    }
}

// long and unsigned long bins (64-bit atomics), beside a scalar reduction in
// the same kernel.
GPUFUSE long long wide(int n, int nbins, const int *restrict bin, const int *restrict v, long s[nbins],
                       unsigned long c[nbins])
{
    long long total = 0;
    for (int i = 0; i < n; i++) {
        s[bin[i]] += v[i];
        c[bin[i]] ^= (unsigned long)v[i] << 40;
        total += v[i];
    }
    return total;
}

// CHECK-LABEL: region count_bins
// CHECK: for i in [0, n) step 1 ; line 11, parallel
// CHECK-NEXT: S0: count[bin[i]] += 1 ; atomic + on count
// CHECK-LABEL: region bitset
// CHECK: for i in [0, n) step 1 ; line 19, parallel
// CHECK: S0: seen[(key[i] / 32)] |= (1u << (key[i] % 32)) ; atomic | on seen
// CHECK-NEXT: S1: parity[(key[i] / 32)] ^= (1u << (key[i] % 32)) ; atomic ^ on parity
// CHECK-NEXT: S2: mask[(key[i] / 32)] &= (~(1ull << (key[i] % 64))) ; atomic & on mask
// CHECK-LABEL: region sums
// CHECK: for i in [0, n) step 1 ; line 30, parallel
// CHECK: S0: total[bin[i]] += (v[i] - 50) ; atomic + on total
// CHECK-NEXT: S1: left[bin[i]] -= 1 ; atomic + on left

// REPORT: region count_bins
// REPORT-NEXT: kernel count_bins_k0 [map, 1-D]: lines 11-12
// REPORT-NEXT: atomic updates to 'count' (integer: exact)
// REPORT: region bitset
// REPORT-NEXT: kernel bitset_k0 [map, 1-D]: lines 19-23
// REPORT-NEXT: atomic updates to 'seen' (integer: exact)
// REPORT-NEXT: atomic updates to 'parity' (integer: exact)
// REPORT-NEXT: atomic updates to 'mask' (integer: exact)
// CHECK-LABEL: region wide
// CHECK: for i in [0, n) step 1 ; line 42, parallel reduction
// CHECK: S1: s[bin[i]] += v[i] ; atomic + on s
// CHECK-NEXT: S2: c[bin[i]] ^= ((unsigned long)v[i] << 40) ; atomic ^ on c
// CHECK-NEXT: S3: total += v[i] ; reduction + on total
// REPORT: region wide
// REPORT-NEXT: kernel wide_k0 [reduce, 1-D, deterministic reduction]: lines 42-46
// REPORT-NEXT: reduces into 'total'
// REPORT-NEXT: atomic updates to 's' (integer: exact)
// REPORT-NEXT: atomic updates to 'c' (integer: exact)
