/* monte_carlo: counter-based random numbers per element (a hash of the
 * index, no shared state), pi by darts, an option payoff average, a random
 * walk per path with an inner time loop */
#include <gpufuse.h>
#include <math.h>
#include <stdint.h>

static inline uint32_t hash32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

static inline float u01(uint32_t x)
{
    return (hash32(x) >> 8) * (1.0f / 16777216.0f);
}

GPUFUSE long darts_inside(int n, uint32_t seed)
{
    long inside = 0;
    for (int i = 0; i < n; i++) {
        float x = u01(seed + 2u * i), y = u01(seed + 2u * i + 1u);
        inside += x * x + y * y <= 1.0f;
    }
    return inside;
}

GPUFUSE double payoff_mean(int paths, float s0, float strike, float drift, float vol, uint32_t seed)
{
    double sum = 0.0;
    for (int p = 0; p < paths; p++) {
        /* Box-Muller on two hashed uniforms */
        float u1 = u01(seed ^ (uint32_t)(2 * p)) + 1e-7f, u2 = u01(seed ^ (uint32_t)(2 * p + 1));
        float z = sqrtf(-2.0f * logf(u1)) * cosf(6.2831853f * u2);
        float st = s0 * expf(drift + vol * z);
        sum += st > strike ? st - strike : 0.0f;
    }
    return sum / paths;
}

GPUFUSE void random_walks(int paths, int steps, uint32_t seed, int *final_pos, int *max_pos)
{
    for (int p = 0; p < paths; p++) {
        int x = 0, m = 0;
        for (int s = 0; s < steps; s++) {
            x += (hash32(seed + (uint32_t)p * 7919u + (uint32_t)s) & 1) ? 1 : -1;
            m = x > m ? x : m;
        }
        final_pos[p] = x;
        max_pos[p] = m;
    }
}
