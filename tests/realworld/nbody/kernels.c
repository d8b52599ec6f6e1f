/* nbody: all-pairs gravity on an array of structs */
#include <gpufuse.h>
#include <math.h>
#include "kernels.h"

GPUFUSE void compute_forces(int n, const body_t *bodies, float *fx, float *fy, float *fz)
{
    for (int i = 0; i < n; i++) {
        float ax = 0.0f, ay = 0.0f, az = 0.0f;
        for (int j = 0; j < n; j++) {
            float dx = bodies[j].x - bodies[i].x;
            float dy = bodies[j].y - bodies[i].y;
            float dz = bodies[j].z - bodies[i].z;
            float d2 = dx * dx + dy * dy + dz * dz + SOFTENING;
            float inv = 1.0f / sqrtf(d2);
            float s = bodies[j].mass * inv * inv * inv;
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
        }
        fx[i] = ax;
        fy[i] = ay;
        fz[i] = az;
    }
}

GPUFUSE void integrate(int n, body_t *bodies, const float *fx, const float *fy, const float *fz, float dt)
{
    for (int i = 0; i < n; i++) {
        bodies[i].vx += fx[i] * dt;
        bodies[i].vy += fy[i] * dt;
        bodies[i].vz += fz[i] * dt;
        bodies[i].x += bodies[i].vx * dt;
        bodies[i].y += bodies[i].vy * dt;
        bodies[i].z += bodies[i].vz * dt;
    }
}

GPUFUSE double kinetic_energy(int n, const body_t *bodies)
{
    double e = 0.0;
    for (int i = 0; i < n; i++)
        e += 0.5 * bodies[i].mass *
             (bodies[i].vx * bodies[i].vx + bodies[i].vy * bodies[i].vy + bodies[i].vz * bodies[i].vz);
    return e;
}

/* the whole step loop in one function: forces written into the bodies' velocities */
GPUFUSE void simulate(int n, int steps, body_t *bodies, float dt)
{
    for (int s = 0; s < steps; s++) {
        for (int i = 0; i < n; i++) {
            float ax = 0.0f, ay = 0.0f, az = 0.0f;
            for (int j = 0; j < n; j++) {
                float dx = bodies[j].x - bodies[i].x;
                float dy = bodies[j].y - bodies[i].y;
                float dz = bodies[j].z - bodies[i].z;
                float inv = 1.0f / sqrtf(dx * dx + dy * dy + dz * dz + SOFTENING);
                float f = bodies[j].mass * inv * inv * inv;
                ax += dx * f;
                ay += dy * f;
                az += dz * f;
            }
            bodies[i].vx += ax * dt;
            bodies[i].vy += ay * dt;
            bodies[i].vz += az * dt;
        }
        for (int i = 0; i < n; i++) {
            bodies[i].x += bodies[i].vx * dt;
            bodies[i].y += bodies[i].vy * dt;
            bodies[i].z += bodies[i].vz * dt;
        }
    }
}
