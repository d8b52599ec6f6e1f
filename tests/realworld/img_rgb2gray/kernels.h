#ifndef RGB_H
#define RGB_H
typedef struct {
    unsigned char r, g, b;
} rgb_t;
typedef struct rgba {
    unsigned char r, g, b, a;
} rgba;
void rgb_to_gray(int n, const rgb_t *px, unsigned char *gray);
void sepia(int n, const rgb_t *in, rgb_t *out);
void premultiply(int n, rgba *px);
void split_planes(int n, const rgba *px, float *r, float *g, float *b);
#endif
