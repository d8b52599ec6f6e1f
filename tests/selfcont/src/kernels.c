/* kernels.c - marked functions that use types, helpers and macros from two
 * headers: one in a subdirectory (included by path), one through -I. */
#include <gpufuse.h>
#include <math.h>
#include "inc/kernels.h"
#include "c_only.h"

static float heavier(const props *q) { return q->kind == HEAVY ? 2.0f : 1.0f; }
static float weight(props q) { return q.mass * (q.kind == HEAVY ? 2.0f : 1.0f); }

GPUFUSE void advance(size_t n, float dt, particle *restrict p, const props *restrict q)
{
    for (size_t i = 0; i < n; i++) {
        float w = weight(q[i]);
        p[i].vx = p[i].vx * DAMP - dt * p[i].x / w;
        p[i].vy = p[i].vy * DAMP - dt * p[i].y / w;
        p[i].x = p[i].x + dt * p[i].vx;
        p[i].y = p[i].y + dt * p[i].vy;
    }
}

GPUFUSE float energy(int n, const particle *p, const props *q)
{
    float e = 0.0f;
    for (int i = 0; i < n; i++)
        e += 0.5f * weight(q[i]) * speed2(p[i].vx, p[i].vy);
    return e;
}

GPUFUSE void keywords(int n, const struct class *restrict class, float *restrict this)
{
    for (int i = 0; i < n; i++) {
        float new = class[i].new * class[i].this;
        this[i] = maxf(new, (float)class[i].delete);
    }
}

GPUFUSE void vla_scale(int n, float a, float m[n][n])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            m[i][j] = a * m[i][j];
}

/* not marked: C-only code stays in the C build */
void report(int n, const float a[n][n])
{
    float *t = scratch(n);
    t[0] = a[0][0] + (float)max(n, clash(1, 2)) + heavier(&(props){1.0f, LIGHT});
    free(t);
}
