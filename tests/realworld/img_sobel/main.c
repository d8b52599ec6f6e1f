#include "rw.h"

void sobel_l1(int w, int h, const unsigned char img[h][w], unsigned char out[h][w]);
void sobel_mag(int w, int h, const unsigned char *img, float *mag, float *angle);
int edge_count(int n, const float *mag, float threshold, unsigned char *edges);

int main(void)
{
    enum { WIDTH = 320, HEIGHT = 200 };
    rw_seed(12);
    unsigned char *img = rw_alloc(WIDTH * HEIGHT, 1), *out = rw_alloc(WIDTH * HEIGHT, 1),
                  *edges = rw_alloc(WIDTH * HEIGHT, 1);
    float *mag = rw_alloc(WIDTH * HEIGHT, sizeof(float)), *ang = rw_alloc(WIDTH * HEIGHT, sizeof(float));
    /* a smooth image with noise: gradients of every size */
    for (int y = 0; y < HEIGHT; y++)
        for (int x = 0; x < WIDTH; x++)
            img[y * WIDTH + x] = (unsigned char)((x * 3 + y * 2 + rw_int(0, 40)) & 255);
    sobel_l1(WIDTH, HEIGHT, (const unsigned char (*)[WIDTH])img, (unsigned char (*)[WIDTH])out);
    rw_out_u8("sobel_l1.out", out, WIDTH * HEIGHT, 0);
    sobel_mag(WIDTH, HEIGHT, img, mag, ang);
    rw_out_f("sobel_mag.mag", mag, WIDTH * HEIGHT, RW_F32_TOL);
    /* atan2 of equal integers: a few ulp between libraries; the branch cut at pi is exact for integer inputs */
    rw_out_f("sobel_mag.angle", ang, WIDTH * HEIGHT, 1e-5, 1e-5);
    /* a threshold halfway between integers' magnitudes keeps the comparison exact */
    int c = edge_count(WIDTH * HEIGHT, mag, 100.25f, edges);
    rw_out_int("edge_count.return", c);
    rw_out_u8("edge_count.edges", edges, WIDTH * HEIGHT, 0);
    return 0;
}
