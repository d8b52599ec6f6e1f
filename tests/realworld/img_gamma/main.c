#include "rw.h"
#include <stddef.h>

void gamma_correct(size_t n, const unsigned char *in, unsigned char *out, float gamma);
void posterize(size_t n, const unsigned char *in, unsigned char *out);
void white_balance(size_t pixels, const unsigned char *in, unsigned char *out);
void brightness_contrast(size_t n, unsigned char *px, int brightness, float contrast);
void invert(size_t n, unsigned char *px);

int main(void)
{
    const size_t pixels = 200 * 150, n = pixels * 3;
    rw_seed(15);
    unsigned char *in = rw_alloc(n, 1), *a = rw_alloc(n, 1), *b = rw_alloc(n, 1), *c = rw_alloc(n, 1);
    rw_fill_u8(in, n);
    gamma_correct(n, in, a, 2.2f);
    rw_out_u8("gamma_correct.out", a, n, 1);     /* powf differs by an ulp between libraries */
    posterize(n, in, b);
    rw_out_u8("posterize.out", b, n, 0);
    white_balance(pixels, in, c);
    rw_out_u8("white_balance.out", c, n, 0);
    brightness_contrast(n, c, -12, 1.3f);
    rw_out_u8("brightness_contrast.px", c, n, 1);
    invert(n, c);
    rw_out_u8("invert.px", c, n, 1);
    return 0;
}
