/* img_histeq: histogram equalisation in four steps, as an image library
 * writes it: a histogram, its running sum, the lookup table, the lookup. */
#include <gpufuse.h>
#include "kernels.h"

GPUFUSE void histogram(size_t n, const unsigned char *img, unsigned int hist[LEVELS])
{
    for (int v = 0; v < LEVELS; v++)
        hist[v] = 0;
    for (size_t i = 0; i < n; i++)
        hist[img[i]]++;
}

/* a running sum: sequential by nature (gpufuse must keep it on the CPU or prove a scan) */
GPUFUSE void cumulative(const unsigned int hist[LEVELS], unsigned int cdf[LEVELS])
{
    unsigned int run = 0;
    for (int v = 0; v < LEVELS; v++) {
        run += hist[v];
        cdf[v] = run;
    }
}

GPUFUSE void equalize_lut(const unsigned int cdf[LEVELS], size_t n, unsigned char lut[LEVELS])
{
    unsigned int cdf_min = cdf[0];
    for (int v = 0; v < LEVELS; v++) {
        unsigned long long num = (unsigned long long)(cdf[v] - cdf_min) * (LEVELS - 1);
        unsigned long long den = n > cdf_min ? n - cdf_min : 1;
        lut[v] = (unsigned char)(num / den);
    }
}

GPUFUSE void apply_lut(size_t n, const unsigned char *img, const unsigned char lut[LEVELS], unsigned char *out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = lut[img[i]];
}
