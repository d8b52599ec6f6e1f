/* particles: an array of typedef'd structs, the behaviour chosen per element
 * by a switch on an enum with a negative constant, an assert in a kernel */
#include <gpufuse.h>
#include "kernels.h"

GPUFUSE void update_particles(int n, particle *p, float dt, float gravity)
{
    assert(n >= 0);
    for (int i = 0; i < n; i++) {
        switch (p[i].kind) {
        case DUST:
            p[i].vy -= gravity * dt;
            break;
        case GAS:
            p[i].vy += 0.1f * gravity * dt;
            p[i].vx *= 0.99f;
            break;
        case SPARK:
            p[i].vy -= 2.0f * gravity * dt;
            break;
        default:
            p[i].vx *= 0.9f;
            p[i].vy *= 0.9f;
        }
        p[i].x += p[i].vx * dt;
        p[i].y += p[i].vy * dt;
    }
}

GPUFUSE void age_particles(int n, particle *p, float dt)
{
    for (int i = 0; i < n; i++) {
        p[i].life -= p[i].kind == -DUST ? 2 * dt : dt;
        if (p[i].life < 0.0f) {
            p[i].life = 0.0f;
            p[i].kind = DUST;
        }
    }
}

GPUFUSE int count_alive(int n, const particle *p)
{
    int alive = 0;
    for (int i = 0; i < n; i++)
        alive += p[i].life > 0.0f;
    return alive;
}
