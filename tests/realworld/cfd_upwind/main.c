#include "rw.h"
#include "kernels.h"

int main(void)
{
    const int n = NCELL;
    rw_seed(47);
    float *u = rw_alloc(n, 4), *v = rw_alloc(n, 4), *un = rw_alloc(n, 4), *phi = rw_alloc(3 * n, 4);
    rw_fill_f(u, n, 0, 1);
    rw_fill_f(v, n, -1, 1);
    upwind_step(n, u, v, un, 0.4f);
    rw_out_f("upwind_step.unew", un, n, 1e-5, 1e-6);
    apply_boundary(n, un, BC_PERIODIC);
    apply_boundary(n, u, BC_WALL);
    rw_out_f("apply_boundary.periodic", un, n, 0, 0);
    rw_out_f("apply_boundary.wall", u, n, 0, 0);
    for (int l = 0; l < 3; l++)
        flux_limiter(n, u, phi + l * n, l);
    rw_out_f("flux_limiter.phi", phi, 3 * n, 1e-5, 1e-6);
    return 0;
}
