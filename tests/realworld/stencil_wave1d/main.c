#include "rw.h"

enum { NX = 4096 };
void wave_steps(int steps, float c2, float prev[NX], float cur[NX], float next[NX]);
float wave_energy(const float prev[NX], const float cur[NX], float c2);

int main(void)
{
    static float prev[NX], cur[NX], next[NX];
    for (int i = 0; i < NX; i++) {
        double x = (i - NX / 2) / 200.0;
        prev[i] = cur[i] = (float)exp(-x * x);
    }
    wave_steps(50, 0.25f, prev, cur, next);
    rw_out_f("wave_steps.prev", prev, NX, 1e-4, 1e-4);  /* 50 steps of float rounding */
    rw_out_f("wave_steps.cur", cur, NX, 1e-4, 1e-4);  /* 50 steps of float rounding */
    rw_out_f("wave_steps.next", next, NX, 1e-4, 1e-4);  /* 50 steps of float rounding */
    rw_out_scalar("wave_energy.return", wave_energy(prev, cur, 0.25f), 1e-3, 1e-6);
    return 0;
}
