#ifndef COLORSPACE_H
#define COLORSPACE_H
#define MIN3(a, b, c) ((a) < (b) ? ((a) < (c) ? (a) : (c)) : ((b) < (c) ? (b) : (c)))
#define MAX3(a, b, c) ((a) > (b) ? ((a) > (c) ? (a) : (c)) : ((b) > (c) ? (b) : (c)))
typedef struct { float h, s, v; } hsv_t;
void rgb_to_hsv(int n, const float rgb[][3], hsv_t *hsv);
void rgb_to_ycbcr(int n, const unsigned char *rgb, unsigned char *ycc);
void ycbcr_to_rgb(int n, const unsigned char *ycc, unsigned char *rgb);
#endif
