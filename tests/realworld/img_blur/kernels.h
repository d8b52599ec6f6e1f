/* img_blur: box and separable blurs, unsharp mask on an 8-bit grey image */
#ifndef IMG_BLUR_H
#define IMG_BLUR_H
#define W 256
#define H 192
#define IDX(x, y) ((y) * W + (x))
void box_blur3(const unsigned char *src, unsigned char *dst);
void separable_blur5(const unsigned char *src, unsigned char *dst);
void unsharp(const unsigned char *src, const unsigned char *blurred, unsigned char *dst, float amount);
#endif
