#ifndef NBODY_H
#define NBODY_H
typedef struct body {
    float x, y, z;
    float vx, vy, vz;
    float mass;
} body_t;
#define SOFTENING 1e-3f
void compute_forces(int n, const body_t *bodies, float *fx, float *fy, float *fz);
void integrate(int n, body_t *bodies, const float *fx, const float *fy, const float *fz, float dt);
double kinetic_energy(int n, const body_t *bodies);
void simulate(int n, int steps, body_t *bodies, float dt);
#endif
