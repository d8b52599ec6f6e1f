/* stencil_wave1d: the 1-D wave equation with three time levels, sizes from
 * an enum, the time levels rotated by copies */
#include <gpufuse.h>

enum { NX = 4096, GHOST = 1 };

GPUFUSE void wave_steps(int steps, float c2, float prev[NX], float cur[NX], float next[NX])
{
    for (int s = 0; s < steps; s++) {
        for (int i = GHOST; i < NX - GHOST; i++)
            next[i] = 2.0f * cur[i] - prev[i] + c2 * (cur[i + 1] - 2.0f * cur[i] + cur[i - 1]);
        for (int i = 0; i < NX; i++) {
            prev[i] = cur[i];
            cur[i] = next[i];
        }
    }
}

GPUFUSE float wave_energy(const float prev[NX], const float cur[NX], float c2)
{
    float e = 0.0f;
    for (int i = GHOST; i < NX - GHOST; i++) {
        float v = cur[i] - prev[i];
        float g = cur[i + 1] - cur[i];
        e += v * v + c2 * g * g;
    }
    return 0.5f * e;
}
