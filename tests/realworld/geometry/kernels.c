/* geometry: point clouds and meshes through a header's vector helpers */
#include <gpufuse.h>
#include "geom.h"

GPUFUSE void normalize_all(int n, vec3 *v)
{
    for (int i = 0; i < n; i++) {
        float len = vec3_len(v[i]);
        if (len > 0.0f) {
            v[i].x /= len;
            v[i].y /= len;
            v[i].z /= len;
        }
    }
}

GPUFUSE void triangle_normals(int ntri, const vec3 *verts, const int *idx, vec3 *normals)
{
    for (int t = 0; t < ntri; t++) {
        vec3 a = verts[idx[3 * t]], b = verts[idx[3 * t + 1]], c = verts[idx[3 * t + 2]];
        normals[t] = vec3_cross(vec3_sub(b, a), vec3_sub(c, a));
    }
}

GPUFUSE void bounding_box(int n, const vec3 *p, aabb *box)
{
    float x0 = INFINITY, y0 = INFINITY, z0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY, z1 = -INFINITY;
    for (int i = 0; i < n; i++) {
        x0 = fminf(x0, p[i].x), y0 = fminf(y0, p[i].y), z0 = fminf(z0, p[i].z);
        x1 = fmaxf(x1, p[i].x), y1 = fmaxf(y1, p[i].y), z1 = fmaxf(z1, p[i].z);
    }
    box->lo.x = x0, box->lo.y = y0, box->lo.z = z0;
    box->hi.x = x1, box->hi.y = y1, box->hi.z = z1;
}

GPUFUSE void distances_to(int n, const vec3 *p, vec3 q, float *d)
{
    for (int i = 0; i < n; i++)
        d[i] = vec3_len(vec3_sub(p[i], q));
}
