#ifndef HISTEQ_H
#define HISTEQ_H
#include <stddef.h>
#define LEVELS 256
void histogram(size_t n, const unsigned char *img, unsigned int hist[LEVELS]);
void cumulative(const unsigned int hist[LEVELS], unsigned int cdf[LEVELS]);
void equalize_lut(const unsigned int cdf[LEVELS], size_t n, unsigned char lut[LEVELS]);
void apply_lut(size_t n, const unsigned char *img, const unsigned char lut[LEVELS], unsigned char *out);
#endif
