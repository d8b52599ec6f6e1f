#include "rw.h"
#include "kernels.h"

int main(void)
{
    const int n = 10000, rows = 50, cols = 200;
    rw_seed(51);
    float *x = new_buffer(n), *y = new_buffer(n), *z = new_buffer(n);
    int *a = rw_alloc(n, sizeof(int)), *b = rw_alloc(n, sizeof(int));
    float *m = rw_alloc(rows * cols, 4), *s = rw_alloc(rows * cols, 4);
    struct class *objs = rw_alloc(n, sizeof *objs);
    rw_fill_f(x, n, -1, 1);
    rw_fill_f(y, n, -1, 1);
    rw_fill_i(a, n, -100, 100);
    rw_fill_f(m, rows * cols, 0, 1);
    rw_fill_f((float *)objs, 2 * (size_t)n, -1, 1);
    blend(n, x, y, z);
    rw_out_f("blend.class", z, n, 1e-6, 1e-7);
    clamp_count(n, a, b, 7);
    rw_out_i("clamp_count.operator", b, n, 0);
    smooth_rows(rows, cols, (const float (*)[cols])m, (float (*)[cols])s);
    rw_out_f("smooth_rows.b", s, rows * cols, 1e-6, 1e-7);
    fields(n, objs, z);
    rw_out_f("fields.out", z, n, 0, 0);
    free(x), free(y), free(z);
    return 0;
}
