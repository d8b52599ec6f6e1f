// Arrays of structs are field-sensitive: each field is an array of its own
// for the dependence model, so writing bodies[i].vx while reading
// bodies[j].x of every j keeps the loop over i parallel (n-body); a field
// read and written across iterations still serialises it.
#include <gpufuse.h>
#include <math.h>

typedef struct body {
    float x, y, vx, vy, mass;
} body_t;

GPUFUSE void forces(int n, body_t *bodies, float dt)
{
    for (int i = 0; i < n; i++) {
        float ax = 0.0f, ay = 0.0f;
        for (int j = 0; j < n; j++) {
            float dx = bodies[j].x - bodies[i].x, dy = bodies[j].y - bodies[i].y;
            float inv = 1.0f / sqrtf(dx * dx + dy * dy + 0.01f);
            ax += dx * bodies[j].mass * inv;
            ay += dy * bodies[j].mass * inv;
        }
        bodies[i].vx += ax * dt;
        bodies[i].vy += ay * dt;
    }
}

// the same array, one field carried from one iteration to the next
GPUFUSE void chain(int n, body_t *bodies)
{
    for (int i = 1; i < n; i++) { // a dependence through 'x' only
        bodies[i].vx = bodies[i - 1].vy * 0.5f;
        bodies[i].x = bodies[i - 1].x + bodies[i].vx;
    }
}

// CHECK-LABEL: region forces
// CHECK: for i in [0, n) step 1 ; line 14, parallel
// CHECK: for j in [0, n) step 1 ; line 16, parallel reduction
// REPORT-LABEL: region forces ({{.*}}): 1 loop nest -> 1 kernel
// REPORT-NEXT: kernel forces_k0 [row
// REPORT-LABEL: region chain ({{.*}}): kept on the CPU
// WARN: aos_fields.c:30:5: warning: loop carries a dependence on 'bodies' (an iteration uses what an earlier one wrote); no loop of this nest is parallel, so 'chain' keeps its CPU body
