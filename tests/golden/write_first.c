// Outputs the function reads after writing them (PolyBench deriche's y1,
// y2 and imgOut): isl's value-based flow finds no read that can see a value
// from before the call, and the rows the launcher copies are all written,
// so the array is not copied in -- under the condition on the parameters
// where that holds (here the rows are whole only when h is the declared
// width; `out`, written once but on h columns, is under it too).  A temporary written whole and then updated is never copied in;
// an array whose old values are read (the upper triangle) always is.
#include <gpufuse.h>

GPUFUSE void filt(int w, int h, float a, const float in[][64], float out[][64], float y1[][64])
{
    for (int i = 0; i < w; i++) {
        float m1 = 0.0f;
        for (int j = 0; j < h; j++) {
            y1[i][j] = a * in[i][j] + 0.5f * m1;
            m1 = y1[i][j];
        }
    }
    for (int i = 0; i < w; i++)
        for (int j = 0; j < h; j++)
            out[i][j] = y1[i][j] * 2.0f;
}

GPUFUSE void stencil(int n, const float *x, float *y, float *t)
{
    for (int i = 0; i < n; i++)
        t[i] = x[i] * 2.0f;
    for (int i = 1; i < n - 1; i++)
        y[i] = t[i - 1] + t[i + 1];
    for (int i = 0; i < n; i++)
        t[i] = t[i] + 1.0f;
}

GPUFUSE void tri(int n, const float *x, float y[][64])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++)
            y[i][j] = x[j];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < 64; j++)
            y[i][j] += 1.0f;
}

// CU-LABEL: gf_call_begin(&gf_site_, 3)
// CU: gf_call_arg(gf_c, 0, in, gf_lo_in, gf_hi_in, GF_ARG_READ,
// CU: gf_call_arg(gf_c, 1, out, gf_lo_out, gf_hi_out, (((long long)h == 64)) ? GF_ARG_WRITE : GF_ARG_READ | GF_ARG_WRITE,
// CU: gf_call_arg(gf_c, 2, gf_u_y1, gf_lo_gf_u_y1, gf_hi_gf_u_y1, (((long long)h == 64)) ? GF_ARG_WRITE : GF_ARG_READ | GF_ARG_WRITE,
// CU-LABEL: gf_call_begin(&gf_site_, 3)
// CU: gf_call_arg(gf_c, 0, x, gf_lo_x, gf_hi_x, GF_ARG_READ,
// CU: gf_call_arg(gf_c, 1, y, gf_lo_y, gf_hi_y, GF_ARG_WRITE,
// CU: gf_call_arg(gf_c, 2, t, gf_lo_t, gf_hi_t, GF_ARG_WRITE,
// CU-LABEL: gf_call_begin(&gf_site_, 2)
// CU: gf_call_arg(gf_c, 1, y, gf_lo_y, gf_hi_y, GF_ARG_READ | GF_ARG_WRITE,
// CHECK-LABEL: region filt
// CHECK-LABEL: region stencil
// CHECK-LABEL: region tri
