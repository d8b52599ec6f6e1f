#include "rw.h"
#include "kernels.h"

static void init(int n, body_t *b)
{
    rw_seed(18);
    for (int i = 0; i < n; i++) {
        b[i].x = (float)rw_uniform(-1, 1), b[i].y = (float)rw_uniform(-1, 1), b[i].z = (float)rw_uniform(-1, 1);
        b[i].vx = (float)rw_uniform(-0.1, 0.1), b[i].vy = (float)rw_uniform(-0.1, 0.1);
        b[i].vz = (float)rw_uniform(-0.1, 0.1);
        b[i].mass = (float)rw_uniform(0.5, 1.5) / n;
    }
}

int main(void)
{
    const int n = 700;
    body_t *b = rw_alloc(n, sizeof *b);
    float *fx = rw_alloc(n, sizeof(float)), *fy = rw_alloc(n, sizeof(float)), *fz = rw_alloc(n, sizeof(float));
    init(n, b);
    compute_forces(n, b, fx, fy, fz);
    /* sums of 700 terms of both signs: absolute tolerance on the scale of the terms */
    rw_out_f("compute_forces.fx", fx, n, 1e-3, 2e-3);
    rw_out_f("compute_forces.fy", fy, n, 1e-3, 2e-3);
    rw_out_f("compute_forces.fz", fz, n, 1e-3, 2e-3);
    integrate(n, b, fx, fy, fz, 0.01f);
    rw_out_f("integrate.bodies", (float *)b, (size_t)n * 7, 1e-4, 1e-5);
    rw_out_scalar("kinetic_energy.return", kinetic_energy(n, b), 1e-5, 1e-9);
    init(n, b);
    simulate(n, 3, b, 0.01f);
    rw_out_f("simulate.bodies", (float *)b, (size_t)n * 7, 1e-3, 1e-4);
    return 0;
}
