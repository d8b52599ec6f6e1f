#include "rw.h"

long darts_inside(int n, uint32_t seed);
double payoff_mean(int paths, float s0, float strike, float drift, float vol, uint32_t seed);
void random_walks(int paths, int steps, uint32_t seed, int *final_pos, int *max_pos);

int main(void)
{
    const int n = 200000, paths = 4096, steps = 200;
    int *fp = rw_alloc(paths, sizeof(int)), *mp = rw_alloc(paths, sizeof(int));
    /* x*x + y*y <= 1 on floats: a contracted multiply-add may move a dart on the circle */
    rw_out_scalar("darts_inside.return", (double)darts_inside(n, 2024u), 0, 3);
    rw_out_scalar("payoff_mean.return", payoff_mean(n, 100.0f, 105.0f, 0.01f, 0.2f, 77u), 1e-5, 1e-5);
    random_walks(paths, steps, 99u, fp, mp);
    rw_out_i("random_walks.final", fp, paths, 0);
    rw_out_i("random_walks.max", mp, paths, 0);
    return 0;
}
