// Struct locals whose values cross iterations: refused, each with its reason.
#include <gpufuse.h>

typedef struct {
    float x, y, z;
} vec3;

// t.y and t.z come from before the loop, t.x from each iteration: a store
// to one field reads the local whole, so the previous iteration's t flows in
GPUFUSE void partial(int n, const vec3 *restrict p, vec3 q, vec3 *restrict o)
{
    vec3 t = q;
    for (int i = 0; i < n; i++) { // expected-warning {{loop carries a dependence through 't' from one iteration to the next (a running value that is not a reduction); 't' cannot be private to each iteration: an iteration of 'i' reads elements of 't' that an earlier iteration wrote; no iteration can run in parallel}} [-Wgpufuse-dependence]
        t.x = p[i].x;
        o[i] = t;
    }
}

// sums kept in the fields of a struct
GPUFUSE void field_sums(int n, const vec3 *restrict p, vec3 *restrict acc)
{
    vec3 s;
    s.x = 0.0f;
    s.y = 0.0f;
    s.z = 0.0f;
    for (int i = 0; i < n; i++) { // expected-warning {{loop carries a dependence through 's' from one iteration to the next (a running value that is not a reduction); 's' cannot be private to each iteration: its last value can be read after the loop, on line 31; no iteration can run in parallel}} [-Wgpufuse-dependence]
        s.x += p[i].x;
        s.y += p[i].y;
        s.z += p[i].z;
    }
    acc[0] = s;
}

GPUFUSE void param_field(int n, vec3 q, vec3 *restrict o)
{
    q.x = 1.0f; // expected-warning {{assignment to a field of parameter 'q'; copy it into a local variable first}} [-Wgpufuse-param]
    for (int i = 0; i < n; i++)
        o[i] = q;
}
