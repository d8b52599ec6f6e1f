// Struct-typed locals and parameters passed by value, used whole: copied
// from and to elements, passed to and returned by helpers, assigned under a
// condition, private to each iteration when declared outside the loop.
// Their fields are read and written as `a.x`: a store to one field reads
// the local whole and writes it whole (deps.c), so a local is private to
// an iteration only when the iteration set all of it first; running values
// carried from one iteration to the next are refused
// (tests/diag/struct_values.c).
#include <gpufuse.h>
#include <math.h>

typedef struct {
    float x, y, z;
} vec3;

static inline vec3 v3(float x, float y, float z)
{
    vec3 r;
    r.x = x;
    r.y = y;
    r.z = z;
    return r;
}
static inline vec3 vsub(vec3 a, vec3 b) { return v3(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline vec3 vscale(vec3 a, float s) { return v3(a.x * s, a.y * s, a.z * s); }
static inline vec3 vcross(vec3 a, vec3 b) { return v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); }
static inline float vlen(vec3 a) { return sqrtf(a.x * a.x + a.y * a.y + a.z * a.z); }

// DIFF-SIZE: p = n
// DIFF-SIZE: o = n
// DIFF-SIZE: d = n
// DIFF-SIZE: c = n
// DIFF-SIZE: w = n
// DIFF-SIZE: v = 3 * n
// DIFF-SIZE: idx = 3 * n
// DIFF-INIT: idx in [0, 2)
// DIFF-INIT: c in [0, 100)

// a parameter by value
GPUFUSE void dist(int n, const vec3 *restrict p, vec3 q, float *restrict d)
{
    for (int i = 0; i < n; i++)
        d[i] = vlen(vsub(p[i], q));
}

// locals from gathered elements (the real-world corpus's triangle normals)
GPUFUSE void normals(int n, const vec3 *restrict v, const int *restrict idx, vec3 *restrict o)
{
    for (int t = 0; t < n; t++) {
        vec3 a = v[idx[3 * t]], b = v[3 * t + 1], c = v[3 * t + 2];
        o[t] = vcross(vsub(b, a), vsub(c, a));
    }
}

// chosen by ?:; declared outside the loop, private to each iteration
GPUFUSE void pick(int n, const vec3 *restrict p, const int *restrict c, vec3 q, vec3 *restrict o)
{
    vec3 m;
    for (int i = 0; i < n; i++) {
        m = c[i] > 50 ? p[i] : vscale(q, (float)i);
        o[i] = vscale(m, 0.5f);
    }
}

// an if and its else both assign a struct local in the loop
GPUFUSE void pick_if(int n, const vec3 *restrict p, const int *restrict c, vec3 q, vec3 *restrict o)
{
    for (int i = 0; i < n; i++) {
        vec3 m;
        if (c[i] > 50)
            m = p[i];
        else
            m = vscale(q, (float)i);
        o[i] = m;
    }
}

// a struct local set outside the loops (one thread), read by the next kernel
GPUFUSE void rel_first(int n, const vec3 *restrict p, vec3 *restrict o)
{
    vec3 s = p[0];
    for (int i = 0; i < n; i++)
        o[i] = vsub(p[i], s);
}

// between two loops, after the first wrote the array it reads
GPUFUSE void two_phase(int n, vec3 *restrict w, vec3 *restrict o)
{
    for (int i = 0; i < n; i++)
        w[i] = vsub(w[i], o[i]);
    vec3 s = w[n / 2];
    for (int i = 0; i < n; i++)
        o[i] = vsub(o[i], s);
}

// fields of a local and of a parameter
GPUFUSE void fields(int n, const vec3 *restrict p, vec3 q, vec3 *restrict o)
{
    for (int i = 0; i < n; i++) {
        vec3 a = p[i];
        a.x *= 2.0f;
        a.z = a.x + a.y + q.z;
        o[i] = a;
    }
}

// CHECK: region dist
// CHECK: region normals
// CHECK: region pick
// CHECK: region pick_if
// CHECK: region rel_first
// CHECK: region two_phase
// CHECK: region fields
// CU-LABEL: dist_k0(
// CU-SAME: vec3 q
// CU-LABEL: normals_k0(
// CU: vec3 a = v[idx[3 * t]];
// CU-LABEL: pick_k0(
// CU: vec3 m;
// CU-LABEL: fields_k0(
// CU: a.x *= 2.0f;
