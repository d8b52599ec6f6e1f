#include "rw.h"

void mix(int n, const int16_t *a, const int16_t *b, int16_t *out);
void gain_q15(int n, int16_t *x, int16_t gain);
int peak(int n, const int16_t *x);
void remove_dc(int n, const int16_t *x, int16_t *y);
void stereo_to_mono(int frames, const short *interleaved, short *mono);

static void out16(const char *name, const int16_t *x, int n)
{
    int *w = rw_alloc(n, sizeof(int));
    for (int i = 0; i < n; i++)
        w[i] = x[i];
    rw_out_i(name, w, n, 0);
    free(w);
}

int main(void)
{
    const int n = 48000;
    rw_seed(50);
    int16_t *a = rw_alloc(n, 2), *b = rw_alloc(n, 2), *m = rw_alloc(n, 2), *y = rw_alloc(n, 2);
    for (int i = 0; i < n; i++) {
        a[i] = (int16_t)rw_int(-30000, 30000);
        b[i] = (int16_t)(rw_int(-20000, 20000) + 500);
    }
    mix(n, a, b, m);
    out16("mix.out", m, n);
    gain_q15(n, m, 23170);
    out16("gain_q15.x", m, n);
    rw_out_int("peak.return", peak(n, b));
    remove_dc(n, b, y);
    out16("remove_dc.y", y, n);
    stereo_to_mono(n / 2, a, y);
    out16("stereo_to_mono.mono", y, n / 2);
    return 0;
}
