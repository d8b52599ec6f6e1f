#include "rw.h"

#define TAPS 16
void fir_bank(int channels, int len, const float x[channels][len + TAPS - 1], const float h[channels][TAPS],
              float y[channels][len]);
void iir_lowpass(int channels, int len, const float x[channels][len], float y[channels][len], float alpha);
void decimate2(int len, const float *x, float *y);
void envelope(int len, const float *x, float *env);

int main(void)
{
    const int ch = 16, len = 4000;
    rw_seed(46);
    float *x = rw_alloc(ch * (len + TAPS - 1), 4), *h = rw_alloc(ch * TAPS, 4), *y = rw_alloc(ch * len, 4),
          *z = rw_alloc(ch * len, 4), *d = rw_alloc(len / 2, 4), *e = rw_alloc(len, 4);
    rw_fill_f(x, ch * (len + TAPS - 1), -1, 1);
    rw_fill_f(h, ch * TAPS, -0.2, 0.2);
    fir_bank(ch, len, (const float (*)[len + TAPS - 1])x, (const float (*)[TAPS])h, (float (*)[len])y);
    rw_out_f("fir_bank.y", y, ch * len, 1e-5, 1e-6);
    iir_lowpass(ch, len, (const float (*)[len])y, (float (*)[len])z, 0.1f);
    rw_out_f("iir_lowpass.y", z, ch * len, 1e-4, 1e-5);
    decimate2(len, y, d);
    rw_out_f("decimate2.y", d, len / 2, 1e-6, 0);
    envelope(len, y, e);
    rw_out_f("envelope.env", e, len, 1e-6, 1e-7);
    return 0;
}
