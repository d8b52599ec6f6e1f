#ifndef UPWIND_H
#define UPWIND_H
enum boundary { BC_PERIODIC, BC_WALL, BC_OUTFLOW };
enum { NCELL = 2048 };
void upwind_step(int n, const float *u, const float *vel, float *unew, float dt_dx);
void apply_boundary(int n, float *u, enum boundary kind);
void flux_limiter(int n, const float *u, float *phi, int limiter);
#endif
