/* copyin_kernels.c - outputs that the function reads after writing them
 * (PolyBench deriche's y1, y2 and imgOut): the dependence model says when
 * every element the launcher copies is written before any read sees it
 * (deps_write_first), and then the launcher does not copy it in.  copyin.c
 * runs them on the GPU against their C bodies. */
#include <gpufuse.h>

#define D 64

/* A recursive filter along each row, then its sum with a scaled copy: y1,
 * y2 and out are written whole (when h == D) before they are read. */
GPUFUSE void filt(int w, int h, float a, const float in[][D], float out[][D], float y1[][D], float y2[][D])
{
    for (int i = 0; i < w; i++) {
        float m1 = 0.0f;
        for (int j = 0; j < h; j++) {
            y1[i][j] = a * in[i][j] + 0.5f * m1;
            m1 = y1[i][j];
        }
    }
    for (int i = 0; i < w; i++)
        for (int j = 0; j < h; j++)
            y2[i][j] = in[i][j] * 2.0f;
    for (int i = 0; i < w; i++)
        for (int j = 0; j < h; j++)
            out[i][j] = y1[i][j] + y2[i][j];
}

/* t written whole, then read at neighbours and updated: no copy-in for
 * any n; y is written once on its interior, which is all the launcher
 * copies of it (its ends are not copied either way). */
GPUFUSE void twice(int n, const float *x, float *y, float *t)
{
    for (int i = 0; i < n; i++)
        t[i] = x[i] * 2.0f;
    for (int i = 1; i < n - 1; i++)
        y[i] = t[i - 1] + t[i + 1];
    for (int i = 0; i < n; i++)
        t[i] = t[i] + 1.0f;
}

/* y's lower triangle written, then every element updated: the upper
 * triangle's old values are read, so y is copied in (n <= 1024). */
GPUFUSE void tri(int n, const float *x, float y[][1024])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++)
            y[i][j] = x[j];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < 1024; j++)
            y[i][j] += 1.0f;
}
