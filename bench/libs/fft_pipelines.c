/* fft_pipelines.c - bench_libs's FFT pipelines through gpufuse (the same
 * regions as tests/edge/fft_callbacks_kernels.c): a windowed power
 * spectrum (window * x -> FFT -> |X|^2: the window folds into the load
 * callback, |X|^2 into the store callback) and an FFT convolution (FFT a,
 * FFT b, pointwise product, inverse FFT: the product folds into the store
 * callback of b's transform). */
#include <gpufuse.h>

GPUFUSE void fftcb_power(int n, const float x[2 * n], const float w[n], float p[n])
{
    float z[2 * n];
    for (int i = 0; i < n; i++) {
        z[2 * i] = x[2 * i] * w[i];
        z[2 * i + 1] = x[2 * i + 1] * w[i];
    }
    gf_fft_c2c_n(1, n, 0, 0, 1, z, z, GF_FFT_FORWARD, GF_C32);
    for (int i = 0; i < n; i++)
        p[i] = z[2 * i] * z[2 * i] + z[2 * i + 1] * z[2 * i + 1];
}

GPUFUSE void fftcb_conv(int n, const float a[2 * n], const float b[2 * n], float c[2 * n])
{
    float A[2 * n], B[2 * n];
    gf_fft_c2c_n(1, n, 0, 0, 1, a, A, GF_FFT_FORWARD, GF_C32);
    gf_fft_c2c_n(1, n, 0, 0, 1, b, B, GF_FFT_FORWARD, GF_C32);
    for (int i = 0; i < n; i++) {
        c[2 * i] = A[2 * i] * B[2 * i] - A[2 * i + 1] * B[2 * i + 1];
        c[2 * i + 1] = A[2 * i] * B[2 * i + 1] + A[2 * i + 1] * B[2 * i];
    }
    gf_fft_c2c_n(1, n, 0, 0, 1, c, c, GF_FFT_INVERSE, GF_C32);
}
