// Arrays of structs with arithmetic fields.
#include <gpufuse.h>
#include <math.h>

struct particle { float x, y, vx, vy; };

GPUFUSE void advance(int n, float dt, struct particle *restrict p, float *restrict speed)
{
    for (int i = 0; i < n; i++) {
        p[i].x = p[i].x + dt * p[i].vx;
        p[i].y = p[i].y + dt * p[i].vy;
        speed[i] = sqrtf(p[i].vx * p[i].vx + p[i].vy * p[i].vy);
    }
}

// CHECK-LABEL: region advance
// CHECK: param struct particle p[] inout restrict
// CHECK: for i in [0, n) step 1 ; line 9, parallel
// CHECK: S0: p[i].x = (p[i].x + (dt * p[i].vx))
// CHECK: S2: speed[i] = sqrtf(((p[i].vx * p[i].vx) + (p[i].vy * p[i].vy)))
