#include "rw.h"
#include "geom.h"

int main(void)
{
    const int n = 30000, ntri = 20000;
    rw_seed(49);
    vec3 *v = rw_alloc(n, sizeof *v), *nrm = rw_alloc(ntri, sizeof *nrm);
    int *idx = rw_alloc(3 * ntri, sizeof(int));
    float *d = rw_alloc(n, 4);
    rw_fill_f((float *)v, 3 * (size_t)n, -5, 5);
    rw_fill_i(idx, 3 * ntri, 0, n - 1);
    triangle_normals(ntri, v, idx, nrm);
    rw_out_f("triangle_normals.normals", (float *)nrm, 3 * (size_t)ntri, 1e-4, 1e-4);
    aabb box;
    bounding_box(n, v, &box);
    rw_out_f("bounding_box.box", (float *)&box, 6, 0, 0);
    vec3 q = {0.5f, -1.0f, 2.0f};
    distances_to(n, v, q, d);
    rw_out_f("distances_to.d", d, n, 1e-5, 1e-6);
    normalize_all(n, v);
    rw_out_f("normalize_all.v", (float *)v, 3 * (size_t)n, 1e-5, 1e-6);
    return 0;
}
