#include "rw.h"

void mandelbrot(int w, int h, float x0, float y0, float dx, float dy, int iters[h][w]);
void julia(int w, int h, double cr, double ci, unsigned char img[h][w]);
void smooth_colour(int n, const int *iters, const float *mod2, float *colour);

int main(void)
{
    const int w = 160, h = 120;
    int *it = rw_alloc(w * h, sizeof(int)), *fixed = rw_alloc(w * h, sizeof(int));
    unsigned char *img = rw_alloc(w * h, 1);
    float *mod2 = rw_alloc(w * h, 4), *col = rw_alloc(w * h, 4);
    mandelbrot(w, h, -2.0f, -1.125f, 3.0f / w, 2.25f / h, (int (*)[w])it);
    /* chaotic near the set's border: an FMA may change an escape count; the
       count must still agree almost everywhere */
    rw_out_i_mostly("mandelbrot.iters", it, w * h, 0.02);
    julia(w, h, -0.8, 0.156, (unsigned char (*)[w])img);
    rw_out_u8_mostly("julia.img", img, w * h, 0.02);
    rw_seed(41);
    rw_fill_i(fixed, w * h, 1, 300);
    rw_fill_f(mod2, w * h, 4.5, 100);
    smooth_colour(w * h, fixed, mod2, col);
    rw_out_f("smooth_colour.colour", col, w * h, 1e-5, 1e-5);
    return 0;
}
