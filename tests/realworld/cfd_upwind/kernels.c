/* cfd_upwind: first-order upwind advection, boundary conditions chosen by an
 * enum, flux limiters chosen by a switch */
#include <gpufuse.h>
#include <math.h>
#include "kernels.h"

_Static_assert(NCELL % 32 == 0, "cells come in warps");

GPUFUSE void upwind_step(int n, const float *u, const float *vel, float *unew, float dt_dx)
{
    for (int i = 1; i < n - 1; i++) {
        float v = vel[i];
        float flux = v > 0 ? v * (u[i] - u[i - 1]) : v * (u[i + 1] - u[i]);
        unew[i] = u[i] - dt_dx * flux;
    }
}

GPUFUSE void apply_boundary(int n, float *u, enum boundary kind)
{
    switch (kind) {
    case BC_PERIODIC:
        u[0] = u[n - 2];
        u[n - 1] = u[1];
        break;
    case BC_WALL:
        u[0] = -u[1];
        u[n - 1] = -u[n - 2];
        break;
    case BC_OUTFLOW:
    default:
        u[0] = u[1];
        u[n - 1] = u[n - 2];
        break;
    }
}

GPUFUSE void flux_limiter(int n, const float *u, float *phi, int limiter)
{
    for (int i = 1; i < n - 1; i++) {
        float num = u[i] - u[i - 1], den = u[i + 1] - u[i];
        float r = den != 0.0f ? num / den : 0.0f;
        float p;
        switch (limiter) {
        case 0: /* minmod */
            p = fmaxf(0.0f, fminf(1.0f, r));
            break;
        case 1: /* superbee */
            p = fmaxf(0.0f, fmaxf(fminf(2.0f * r, 1.0f), fminf(r, 2.0f)));
            break;
        case 2: /* van Leer */
            p = (r + fabsf(r)) / (1.0f + fabsf(r));
            break;
        default:
            p = 1.0f;
        }
        phi[i] = p;
    }
}
