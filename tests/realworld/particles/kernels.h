#ifndef PARTICLES_H
#define PARTICLES_H
#include <assert.h>
enum kind { DUST = -1, GAS = 0, SPARK = 2, SMOKE = 3 };
typedef struct particle {
    float x, y, vx, vy;
    float life;
    int kind;
} particle;
_Static_assert(sizeof(particle) == 24, "particle layout");
void update_particles(int n, particle *p, float dt, float gravity);
void age_particles(int n, particle *p, float dt);
int count_alive(int n, const particle *p);
#endif
