/* geom.h - a small vector library of the program's own: typedef'd structs
 * and static inline helpers, used by the marked functions */
#ifndef GEOM_H
#define GEOM_H
#include <math.h>
typedef struct {
    float x, y, z;
} vec3;
typedef struct aabb {
    vec3 lo, hi;
} aabb;
static inline vec3 vec3_sub(vec3 a, vec3 b)
{
    vec3 r = {a.x - b.x, a.y - b.y, a.z - b.z};
    return r;
}
static inline float vec3_dot(vec3 a, vec3 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
static inline float vec3_len(vec3 a)
{
    return sqrtf(vec3_dot(a, a));
}
static inline vec3 vec3_cross(vec3 a, vec3 b)
{
    vec3 r = {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
    return r;
}
void normalize_all(int n, vec3 *v);
void triangle_normals(int ntri, const vec3 *verts, const int *idx, vec3 *normals);
void bounding_box(int n, const vec3 *p, aabb *box);
void distances_to(int n, const vec3 *p, vec3 q, float *d);
#endif
