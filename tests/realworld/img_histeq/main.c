#include "rw.h"
#include "kernels.h"

int main(void)
{
    const size_t n = 300 * 200;
    rw_seed(13);
    unsigned char *img = rw_alloc(n, 1), *out = rw_alloc(n, 1), lut[LEVELS];
    unsigned int hist[LEVELS], cdf[LEVELS];
    /* a dark, low-contrast image */
    for (size_t i = 0; i < n; i++)
        img[i] = (unsigned char)(40 + (rw_next() >> 58) + (rw_next() >> 59));
    histogram(n, img, hist);
    rw_out_u32("histogram.hist", hist, LEVELS);
    cumulative(hist, cdf);
    rw_out_u32("cumulative.cdf", cdf, LEVELS);
    equalize_lut(cdf, n, lut);
    rw_out_u8("equalize_lut.lut", lut, LEVELS, 0);
    apply_lut(n, img, lut, out);
    rw_out_u8("apply_lut.out", out, n, 0);
    return 0;
}
