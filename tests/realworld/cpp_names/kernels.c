/* cpp_names: C code whose names are C++ keywords or library names */
#include <gpufuse.h>
#include "kernels.h"

GPUFUSE void blend(int n, const float *this, const float *new, float *class)
{
    for (int i = 0; i < n; i++)
        class[i] = template(this[i], new[i]);
}

GPUFUSE void clamp_count(int n, const int *delete, int *operator, int limit)
{
    for (int private = 0; private < n; private++)
        operator[private] = max(delete[private], limit);
}

GPUFUSE void smooth_rows(int n, int m, const float a[n][m], float b[n][m])
{
    for (int namespace = 0; namespace < n; namespace++)
        for (int virtual = 1; virtual < m - 1; virtual++)
            b[namespace][virtual] = (a[namespace][virtual - 1] + a[namespace][virtual] + a[namespace][virtual + 1]) / 3;
}

GPUFUSE void fields(int n, const struct class *objects, float *out)
{
    for (int i = 0; i < n; i++)
        out[i] = objects[i].this_ - objects[i].new_;
}
