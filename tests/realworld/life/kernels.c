/* life: Conway's game of life on a torus (indices wrap with %), a bordered
 * variant, the population count */
#include <gpufuse.h>

#define GW 128
#define GH 96

GPUFUSE void life_step_torus(const unsigned char cur[GH][GW], unsigned char next[GH][GW])
{
    for (int y = 0; y < GH; y++)
        for (int x = 0; x < GW; x++) {
            int nb = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    if (dx || dy)
                        nb += cur[(y + dy + GH) % GH][(x + dx + GW) % GW];
            next[y][x] = (nb == 3 || (nb == 2 && cur[y][x])) ? 1 : 0;
        }
}

GPUFUSE void life_steps_bordered(int steps, int h, int w, unsigned char a[h][w], unsigned char b[h][w])
{
    for (int s = 0; s < steps; s++) {
        for (int y = 1; y < h - 1; y++)
            for (int x = 1; x < w - 1; x++) {
                int nb = a[y - 1][x - 1] + a[y - 1][x] + a[y - 1][x + 1] + a[y][x - 1] + a[y][x + 1] +
                         a[y + 1][x - 1] + a[y + 1][x] + a[y + 1][x + 1];
                b[y][x] = nb == 3 || (nb == 2 && a[y][x]);
            }
        for (int y = 1; y < h - 1; y++)
            for (int x = 1; x < w - 1; x++)
                a[y][x] = b[y][x];
    }
}

GPUFUSE int population(int h, int w, const unsigned char g[h][w])
{
    int p = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            p += g[y][x];
    return p;
}
