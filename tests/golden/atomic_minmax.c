// Colliding min/max updates through indirect subscripts: each is made
// atomic and the loop is parallel.  Integers use atomicMax/atomicMin; float
// and double elements a compare-and-swap loop that computes the C
// expression itself (fmaxf ignores a NaN value, as in C; the ?: forms
// compare as written).  The order of the updates does not change a min or
// max, so these results are the sequential ones.
// DIFF-INIT: bin in [0, 32)
// DIFF-INIT: key in [0, 16)
#include <gpufuse.h>
#include <math.h>

// fmaxf / fminf, either argument order, a NaN value ignored.
GPUFUSE void peak_f(int n, const int *restrict bin, const float *restrict w, float hi[32], float lo[32])
{
    for (int i = 0; i < n; i++) {
        float v = w[i] < -0.75f ? NAN : w[i];
        hi[bin[i]] = fmaxf(hi[bin[i]], v);
        lo[bin[i]] = fminf(v, lo[bin[i]]);
    }
}

// fmax / fmin on double elements, under a condition.
GPUFUSE void peak_d(int n, const int *restrict bin, const double *restrict w, double hi[32], double lo[32])
{
    for (int i = 0; i < n; i++) {
        if (w[i] > -0.5) {
            hi[bin[i]] = fmax(w[i] * 2.0, hi[bin[i]]);
            lo[bin[i]] = fmin(lo[bin[i]], w[i] * 2.0);
        }
    }
}

// The ?: forms on floats.  `v > h ? v : h` keeps the element when v is NaN.
GPUFUSE void cond_f(int n, const int *restrict bin, const float *restrict w, float a[32], float b[32], float c[32])
{
    for (int i = 0; i < n; i++) {
        float v = w[i] > 0.9f ? NAN : w[i];
        a[bin[i]] = v > a[bin[i]] ? v : a[bin[i]];
        b[bin[i]] = b[bin[i]] < v ? v : b[bin[i]];
        c[bin[i]] = v < c[bin[i]] ? v : c[bin[i]];
    }
}

// The ?: form that takes the value when the comparison fails lets a NaN
// replace the element: still atomic, but the report says the order then
// matters (no NaN here).
GPUFUSE void cond_nan_wins(int n, const int *restrict bin, const float *restrict w, float a[32])
{
    for (int i = 0; i < n; i++)
        a[bin[i]] = a[bin[i]] > w[i] ? a[bin[i]] : w[i];
}

// Integers: atomicMax / atomicMin in the element's type, signed and
// unsigned, 32 and 64 bits; a narrower value is converted as C does.
GPUFUSE void int_peaks(int n, const int *restrict key, const int *restrict x, const short *restrict s,
                       int imax[16], unsigned umin[16], long long lmax[16], unsigned long ulmin[16], int smax[16])
{
    for (int i = 0; i < n; i++) {
        imax[key[i]] = x[i] - 50 > imax[key[i]] ? x[i] - 50 : imax[key[i]];
        umin[key[i]] = (unsigned)x[i] < umin[key[i]] ? (unsigned)x[i] : umin[key[i]];
        lmax[key[i]] = lmax[key[i]] >= (long long)x[i] * x[i] ? lmax[key[i]] : (long long)x[i] * x[i];
        ulmin[key[i]] = ulmin[key[i]] > (unsigned long)x[i] ? (unsigned long)x[i] : ulmin[key[i]];
        smax[key[i]] = s[i] > smax[key[i]] ? s[i] : smax[key[i]];
    }
}

// An atomic max inside an inner loop that breaks, in a 2-D array.
GPUFUSE void row_peaks(int n, int m, const int *restrict bin, const float x[n][m], float peak[32][4])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            if (x[i][j] < -0.9f)
                break;
            peak[bin[i]][j % 4] = fmaxf(peak[bin[i]][j % 4], x[i][j]);
        }
}

// CHECK-LABEL: region peak_f
// CHECK: for i in [0, n) step 1 ; line 15, parallel
// CHECK: S1: hi[bin[i]] = fmaxf(hi[bin[i]], v) ; atomic max on hi
// CHECK-NEXT: S2: lo[bin[i]] = fminf(v, lo[bin[i]]) ; atomic min on lo
// CHECK-NOT: S1[i] -> S1
// CHECK-NOT: S2[i] -> S2
// CHECK: deps: [n] -> { S0[i] -> S{{[12]}}[i' = i] : 0 <= i < n; S0[i] -> S{{[12]}}[i' = i] : 0 <= i < n }
// CHECK-LABEL: region peak_d
// CHECK: for i in [0, n) step 1 ; line 25, parallel
// CHECK: S0: hi[bin[i]] = fmax((w[i] * 2.0), hi[bin[i]]) ; atomic max on hi
// CHECK-NEXT: S1: lo[bin[i]] = fmin(lo[bin[i]], (w[i] * 2.0)) ; atomic min on lo
// CHECK-LABEL: region cond_f
// CHECK: for i in [0, n) step 1 ; line 36, parallel
// CHECK: a[bin[i]] = ((v > a[bin[i]]) ? v : a[bin[i]]) ; atomic max on a
// CHECK-NEXT: b[bin[i]] = ((b[bin[i]] < v) ? v : b[bin[i]]) ; atomic max on b
// CHECK-NEXT: c[bin[i]] = ((v < c[bin[i]]) ? v : c[bin[i]]) ; atomic min on c
// CHECK-LABEL: region cond_nan_wins
// CHECK: for i in [0, n) step 1 ; line 49, parallel
// CHECK-NEXT: S0: a[bin[i]] = ((a[bin[i]] > w[i]) ? a[bin[i]] : w[i]) ; atomic max on a
// CHECK-LABEL: region int_peaks
// CHECK: for i in [0, n) step 1 ; line 58, parallel
// CHECK: ; atomic max on imax
// CHECK: ; atomic min on gf_u_umin
// CHECK: ; atomic max on lmax
// CHECK: ; atomic min on ulmin
// CHECK: ; atomic max on smax
// CHECK-LABEL: region row_peaks
// CHECK: for i in [0, n) step 1 ; line 70, parallel
// CHECK: for j in [0, m) step 1 until gf_brk ; line 71, sequential
// CHECK: peak[bin[i]][(j % 4)] = fmaxf(peak[bin[i]][(j % 4)], x[i][j]) ; atomic max on peak

// REPORT-LABEL: region peak_f
// REPORT: kernel peak_f_k0 [map, 1-D]: lines 15-19
// REPORT-NEXT: atomic updates to 'hi' (max: exact, the order does not matter)
// REPORT-NEXT: atomic updates to 'lo' (min: exact, the order does not matter)
// REPORT-LABEL: region cond_nan_wins
// REPORT: atomic updates to 'a' (max: the order does not matter unless a value is NaN, which this '?:' form lets replace the element)
// REPORT-LABEL: region int_peaks
// REPORT: atomic updates to 'imax' (max: exact, the order does not matter)

// CU-LABEL: peak_f_k0(
// CU: { /* atomic max: compare-and-swap until no other thread changed the element */
// CU-NEXT: float *gf_p = &hi[bin[i]];
// CU-NEXT: const float gf_v = v;
// CU-NEXT: float gf_old = gf_atomic_load(gf_p), gf_new;
// CU-NEXT: do
// CU-NEXT: gf_new = fmaxf(gf_old, gf_v);
// CU-NEXT: while (!gf_cas(gf_p, &gf_old, gf_new));
// CU: gf_new = fminf(gf_v, gf_old);
// CU-LABEL: cond_f_k0(
// CU: gf_new = gf_v > gf_old ? gf_v : gf_old;
// CU: gf_new = gf_old < gf_v ? gf_v : gf_old;
// CU: gf_new = gf_v < gf_old ? gf_v : gf_old;
// CU-LABEL: int_peaks_k0(
// CU: gf_atomic_max(&imax[key[i]], (int)(x[i] - 50));
// CU-NEXT: gf_atomic_min(&gf_u_umin[key[i]], (unsigned int)((unsigned int)x[i]));
// CU-NEXT: gf_atomic_max(&lmax[key[i]], (long long)((long long)x[i] * x[i]));
// CU-NEXT: gf_atomic_min(&ulmin[key[i]], (unsigned long)((unsigned long)x[i]));
// CU-NEXT: gf_atomic_max(&smax[key[i]], (int)(s[i]));
// CU-LABEL: gf_host_int_peaks(
// CU: #pragma omp parallel for
// CU: int *gf_p = &imax[key[i]];
// CU: gf_host_load(gf_p, &gf_old);
// CU-NEXT: do
// CU-NEXT: gf_new = gf_v > gf_old ? gf_v : gf_old;
// CU-NEXT: while (!gf_host_cas(gf_p, &gf_old, &gf_new));
