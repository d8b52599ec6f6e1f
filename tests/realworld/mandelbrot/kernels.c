/* mandelbrot: escape-time fractals: an iteration count per pixel with a
 * while loop, a Julia set in double with break, a smooth colouring */
#include <gpufuse.h>
#include <math.h>

#define MAX_ITER 256

GPUFUSE void mandelbrot(int w, int h, float x0, float y0, float dx, float dy, int iters[h][w])
{
    for (int py = 0; py < h; py++)
        for (int px = 0; px < w; px++) {
            float cr = x0 + px * dx, ci = y0 + py * dy;
            float zr = 0.0f, zi = 0.0f;
            int it = 0;
            while (zr * zr + zi * zi <= 4.0f && it < MAX_ITER) {
                float t = zr * zr - zi * zi + cr;
                zi = 2.0f * zr * zi + ci;
                zr = t;
                it++;
            }
            iters[py][px] = it;
        }
}

GPUFUSE void julia(int w, int h, double cr, double ci, unsigned char img[h][w])
{
    for (int py = 0; py < h; py++)
        for (int px = 0; px < w; px++) {
            double zr = -1.5 + 3.0 * px / w, zi = -1.0 + 2.0 * py / h;
            int k;
            for (k = 0; k < 200; k++) {
                double r2 = zr * zr, i2 = zi * zi;
                if (r2 + i2 > 4.0)
                    break;
                zi = 2.0 * zr * zi + ci;
                zr = r2 - i2 + cr;
            }
            img[py][px] = (unsigned char)(k < 200 ? k : 255);
        }
}

GPUFUSE void smooth_colour(int n, const int *iters, const float *mod2, float *colour)
{
    for (int i = 0; i < n; i++) {
        if (iters[i] >= MAX_ITER)
            colour[i] = 0.0f;
        else
            colour[i] = iters[i] + 1 - log2f(logf(sqrtf(mod2[i])));
    }
}
