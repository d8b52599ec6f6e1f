// float _Complex arrays around a cuFFT call: the maps before and after it
// are complex kernels (the 16-byte form), the call takes the arrays whole.
// NO-DIFF: library calls need libgpufuse (tests/libcall runs these against their C bodies)
#include <gpufuse.h>
#include <complex.h>

GPUFUSE void cfft(int n, float _Complex x[restrict n], float _Complex y[restrict n])
{
    for (int i = 0; i < n; i++)
        x[i] = x[i] * 2.0f;
    gf_fft_c2c_n(1, n, 1, 1, 1, x, y, GF_FFT_FORWARD, GF_C32);
    for (int i = 0; i < n; i++)
        y[i] = conjf(y[i]) / n;
}

// CHECK-LABEL: region cfft
// CHECK: param float _Complex x[n] inout
// CHECK: S0: x[i] = (x[i] * 2.0f)
// CHECK: S2: y[i_1] = (conjf(y[i_1]) / (float)n)
// REPORT: kernel cfft_k0 [map, 1-D, 128-bit vectors]: lines 9-10
// REPORT: kernel cfft_k1 [map, 1-D, 128-bit vectors]: lines 12-13
// REPORT: line 11: gf_fft_c2c_n: a library call (cuFFT), between the kernels before and after it
// CU: y_v[gf_k] = conjf(y_v[gf_k]) / (float)n;
