#include "rw.h"

typedef struct {
    float *x, *y;
    float *vx, *vy;
} particles_t;
void lj_forces(int n, const float *x, const float *y, float *fx, float *fy, float cutoff);
void kick_drift(int n, float *x, float *y, float *vx, float *vy, const float *fx, const float *fy, float dt,
                float box);
void center_of_mass(int n, const particles_t *p, float out[2]);

int main(void)
{
    const int n = 600;
    rw_seed(19);
    float *x = rw_alloc(n, 4), *y = rw_alloc(n, 4), *vx = rw_alloc(n, 4), *vy = rw_alloc(n, 4);
    float *fx = rw_alloc(n, 4), *fy = rw_alloc(n, 4), com[2];
    /* on a jittered grid: no two particles too close */
    for (int i = 0; i < n; i++) {
        x[i] = (float)((i % 25) * 1.2 + rw_uniform(0, 0.2));
        y[i] = (float)((i / 25) * 1.2 + rw_uniform(0, 0.2));
        vx[i] = (float)rw_uniform(-0.5, 0.5), vy[i] = (float)rw_uniform(-0.5, 0.5);
    }
    lj_forces(n, x, y, fx, fy, 2.5f);
    rw_out_f("lj_forces.fx", fx, n, 1e-3, 1e-3);
    rw_out_f("lj_forces.fy", fy, n, 1e-3, 1e-3);
    kick_drift(n, x, y, vx, vy, fx, fy, 0.001f, 30.0f);
    rw_out_f("kick_drift.x", x, n, RW_F32_TOL);
    rw_out_f("kick_drift.y", y, n, RW_F32_TOL);
    rw_out_f("kick_drift.vx", vx, n, 1e-4, 1e-4);
    rw_out_f("kick_drift.vy", vy, n, 1e-4, 1e-4);
    particles_t p = {x, y, vx, vy};
    center_of_mass(n, &p, com);
    rw_out_f("center_of_mass.out", com, 2, 1e-5, 1e-5);
    return 0;
}
