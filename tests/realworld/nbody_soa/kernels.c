/* nbody_soa: structure of arrays, particles in a box, a cell-list-free
 * Lennard-Jones-like short-range force with a cutoff, the centre of mass */
#include <gpufuse.h>
#include <math.h>

typedef struct {
    float *x, *y;
    float *vx, *vy;
} particles_t;

GPUFUSE void lj_forces(int n, const float *x, const float *y, float *fx, float *fy, float cutoff)
{
    float rc2 = cutoff * cutoff;
    for (int i = 0; i < n; i++) {
        float ax = 0, ay = 0;
        for (int j = 0; j < n; j++) {
            if (j == i)
                continue;
            float dx = x[i] - x[j], dy = y[i] - y[j];
            float r2 = dx * dx + dy * dy;
            if (r2 < rc2) {
                float ir2 = 1.0f / (r2 + 0.01f);
                float ir6 = ir2 * ir2 * ir2;
                float f = 24.0f * ir2 * ir6 * (2.0f * ir6 - 1.0f);
                ax += f * dx;
                ay += f * dy;
            }
        }
        fx[i] = ax;
        fy[i] = ay;
    }
}

GPUFUSE void kick_drift(int n, float *x, float *y, float *vx, float *vy, const float *fx, const float *fy,
                        float dt, float box)
{
    for (int i = 0; i < n; i++) {
        vx[i] += dt * fx[i];
        vy[i] += dt * fy[i];
        x[i] += dt * vx[i];
        y[i] += dt * vy[i];
        /* reflecting walls */
        if (x[i] < 0) { x[i] = -x[i]; vx[i] = -vx[i]; }
        if (x[i] > box) { x[i] = 2 * box - x[i]; vx[i] = -vx[i]; }
        if (y[i] < 0) { y[i] = -y[i]; vy[i] = -vy[i]; }
        if (y[i] > box) { y[i] = 2 * box - y[i]; vy[i] = -vy[i]; }
    }
}

/* the struct of arrays passed whole: the usual way such code is written */
GPUFUSE void center_of_mass(int n, const particles_t *p, float out[2])
{
    float sx = 0, sy = 0;
    for (int i = 0; i < n; i++) {
        sx += p->x[i];
        sy += p->y[i];
    }
    out[0] = sx / n;
    out[1] = sy / n;
}
