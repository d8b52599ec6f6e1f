// FFT callbacks: element-wise kernels next to a c2c FFT builtin fold into
// cuFFT's load/store callbacks (plan/fftfold.c): a window before, |X|^2
// after, a product of two spectra; and what does not fold, with the reason.
#include <gpufuse.h>
#include <math.h>

GPUFUSE void power(int n, int m, const float x[n][2 * m], const float w[m], float p[n][m])
{
    float z[n][2 * m];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            z[i][2 * j] = x[i][2 * j] * w[j];
            z[i][2 * j + 1] = x[i][2 * j + 1] * w[j];
        }
    gf_fft_c2c_n(1, m, 0, 0, n, &z[0][0], &z[0][0], GF_FFT_FORWARD, GF_C32);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            p[i][j] = z[i][2 * j] * z[i][2 * j] + z[i][2 * j + 1] * z[i][2 * j + 1];
}

GPUFUSE void conv(int n, const double a[2 * n], const double b[2 * n], double c[2 * n])
{
    double A[2 * n], B[2 * n], C[2 * n];
    for (int i = 0; i < n; i++) {
        A[2 * i] = a[2 * i];
        A[2 * i + 1] = a[2 * i + 1];
    }
    gf_fft_c2c_n(1, n, 0, 0, 1, A, A, GF_FFT_FORWARD, GF_C64);
    gf_fft_c2c_n(1, n, 0, 0, 1, b, B, GF_FFT_FORWARD, GF_C64);
    for (int i = 0; i < n; i++) {
        C[2 * i] = A[2 * i] * B[2 * i] - A[2 * i + 1] * B[2 * i + 1];
        C[2 * i + 1] = A[2 * i] * B[2 * i + 1] + A[2 * i + 1] * B[2 * i];
    }
    gf_fft_c2c_n(1, n, 0, 0, 1, C, c, GF_FFT_INVERSE, GF_C64);
    for (int i = 0; i < 2 * n; i++)
        c[i] = c[i] / n;
}

// a scale kept in z (read again after): the store callback stores the
// scaled spectrum; a shifted read does not fold
GPUFUSE void scaled(int n, float s, float z[2 * n], float q[n])
{
    gf_fft_c2c_n(1, n, 0, 0, 1, z, z, GF_FFT_FORWARD, GF_C32);
    for (int i = 0; i < n; i++) {
        z[2 * i] = z[2 * i] * s;
        z[2 * i + 1] = z[2 * i + 1] * s;
    }
    gf_fft_c2c_n(1, n, 0, 0, 1, z, z, GF_FFT_INVERSE, GF_C32);
    for (int i = 0; i < n - 1; i++)
        q[i] = z[2 * i + 2] - z[2 * i];
}

// NO-DIFF: library calls need libgpufuse (tests/edge/fft_callbacks.c runs them on the GPU)
// CHECK-LABEL: region power
// CHECK: S3: library call gf_fft_c2c_n(1, m, 0, 0, n, z, z, -1, 5)
// CHECK-LABEL: region conv
// CHECK: S6: library call gf_fft_c2c_n(1, n, 0, 0, 1, b, B, -1, 6)
// REPORT-LABEL: region power
// REPORT: line 10: kernel power_k0 (lines 10-14) folded into the load callback of the FFT at line 15
// REPORT: line 16: kernel power_k1 (lines 16-18) folded into the store callback of the FFT at line 15 (the spectrum itself is not stored)
// REPORT-LABEL: region conv
// REPORT: line 24: kernel conv_k0 (lines 24-27) folded into the load callback of the FFT at line 28
// REPORT: line 30: kernel conv_k1 (lines 30-33) folded into the store callback of the FFT at line 29 (the spectrum itself is not stored)
// REPORT: not folded into the FFT at line 34: the nest reads or writes 'c' at another element than the one cuFFT loads or stores (an iteration may only touch its own complex element, c[...][2 * i] and [2 * i + 1])
// REPORT-LABEL: region scaled
// REPORT: line 44: kernel scaled_k0 (lines 44-47) folded into the store callback of the FFT at line 43
// REPORT: not folded into the FFT at line 48: the nest reads or writes 'z' at another element
// CU-LABEL: struct gf_fftcb_power_15_info { int n; int m; float *x; float *w; float *p; };
// CU: "__device__ float2 gf_fftcb_power_15_load(void *gf_data, unsigned long long gf_off, void *gf_info, void *gf_shared)\n"
// CU: "    float gf_re, gf_im; /* the nest writes both parts first */\n"
// CU: "    int j = (int)(gf_r % (unsigned long long)(m)); gf_r /= (unsigned long long)(m);\n"
// CU-NEXT: "    int i = (int)gf_r;\n"
// CU: "        gf_re = x[((GF_I)i * (2 * m) + 2 * j)] * w[j];\n"
// CU: "    return {gf_re, gf_im};\n"
// CU: "__device__ void gf_fftcb_power_15_store(void *gf_data, unsigned long long gf_off, float2 gf_el, void *gf_info, void *gf_shared)\n"
// CU: "        p[((GF_I)i_1 * m + j_1)] = gf_re * gf_re + gf_im * gf_im;\n"
// CU: "    (void)gf_data; (void)gf_re; (void)gf_im;\n"
// CU: static const gf_fft_cb gf_fftcb_power_15 = {gf_fftcb_power_15_src, "gf_fftcb_power_15_load", "gf_fftcb_power_15_store"};
// CU: /* kernel power_k0 runs in the FFT's callbacks (line 15) */
// CU: if (!gf_call_fft_cb(gf_c, &gf_fftcb_power_15, 1, m, 0, 0, n, gf_d_z, gf_d_z, -1, (gf_dtype)(5), &gf_ci, sizeof gf_ci, (long long)(n) * (long long)(m), "gf_fft_c2c_n at line 15")) {
// CU-NEXT: { /* power_k0:
// CU: gf_call_fft(gf_c, 0, 1, m, 0, 0, n, gf_d_z, gf_d_z, -1, (gf_dtype)(5), "gf_fft_c2c_n at line 15");
// CU-NEXT: { /* power_k1:
// CU: static const gf_fft_cb gf_fftcb_conv_28 = {gf_fftcb_conv_28_src, "gf_fftcb_conv_28_load", NULL};
// CU: struct gf_fftcb_conv_29_info { int n; double *C; double *A; };
// CU: static const gf_fft_cb gf_fftcb_conv_29 = {gf_fftcb_conv_29_src, NULL, "gf_fftcb_conv_29_store"};
// CU: "    ((float2 *)gf_data)[gf_off] = {gf_re, gf_im};\n"
// CU-NEXT: "}\n"
// CU-NEXT: "#endif\n"
// CU: static const gf_fft_cb gf_fftcb_scaled_43 = {gf_fftcb_scaled_43_src, NULL, "gf_fftcb_scaled_43_store"};

// races with what cuFFT runs meanwhile: not folded
GPUFUSE void race_out(int n, float q[2 * n], const float w[n])
{
    float z[2 * n];
    for (int i = 0; i < n; i++) {
        z[2 * i] = q[2 * i] * w[i];
        z[2 * i + 1] = q[2 * i + 1] * w[i];
    }
    gf_fft_c2c_n(1, n, 0, 0, 1, z, q, GF_FFT_FORWARD, GF_C32);
}

GPUFUSE void race_load(int n, const float a[2 * n], float x[2 * n], float p[n])
{
    float z[2 * n];
    for (int i = 0; i < n; i++) {
        z[2 * i] = x[2 * i];
        z[2 * i + 1] = x[2 * i + 1];
    }
    gf_fft_c2c_n(1, n, 0, 0, 1, z, z, GF_FFT_FORWARD, GF_C32);
    for (int i = 0; i < n; i++) {
        x[2 * i] = z[2 * i];
        p[i] = z[2 * i + 1] + a[2 * i];
    }
}

GPUFUSE void race_in(int n, const float a[2 * n], float z[2 * n], float p[n])
{
    gf_fft_c2c_n(1, n, 0, 0, 1, a, z, GF_FFT_FORWARD, GF_C32);
    for (int i = 0; i < n; i++)
        p[i] = z[2 * i] + a[2 * i];
}
// REPORT-LABEL: region race_out
// REPORT: not folded into the FFT at line 100: the nest reads 'q', which the transform writes meanwhile
// REPORT-LABEL: region race_load
// REPORT: line 106: kernel race_load_k0 (lines 106-109) folded into the load callback of the FFT at line 110
// REPORT: not folded into the FFT at line 110: the nest writes 'x', which the load callback of the same transform reads
// REPORT-LABEL: region race_in
// REPORT: not folded into the FFT at line 119: the nest reads 'a', the input of the out-of-place transform
