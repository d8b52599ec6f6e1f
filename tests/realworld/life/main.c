#include "rw.h"

#define GW 128
#define GH 96
void life_step_torus(const unsigned char cur[GH][GW], unsigned char next[GH][GW]);
void life_steps_bordered(int steps, int h, int w, unsigned char a[h][w], unsigned char b[h][w]);
int population(int h, int w, const unsigned char g[h][w]);

int main(void)
{
    static unsigned char a[GH][GW], b[GH][GW];
    rw_seed(52);
    for (int y = 0; y < GH; y++)
        for (int x = 0; x < GW; x++)
            a[y][x] = rw_unit() < 0.3;
    life_step_torus(a, b);
    rw_out_u8("life_step_torus.next", &b[0][0], GH * GW, 0);
    life_steps_bordered(8, GH, GW, a, b);
    rw_out_u8("life_steps_bordered.a", &a[0][0], GH * GW, 0);
    rw_out_int("population.return", population(GH, GW, a));
    return 0;
}
