#include "rw.h"
#include "kernels.h"

int main(void)
{
    const int n = 256 * 160;
    rw_seed(14);
    rgb_t *px = rw_alloc(n, sizeof *px), *sp = rw_alloc(n, sizeof *sp);
    rgba *q = rw_alloc(n, sizeof *q);
    unsigned char *gray = rw_alloc(n, 1);
    float *r = rw_alloc(n, sizeof(float)), *g = rw_alloc(n, sizeof(float)), *b = rw_alloc(n, sizeof(float));
    rw_fill_u8((unsigned char *)px, (size_t)n * sizeof *px);
    rw_fill_u8((unsigned char *)q, (size_t)n * sizeof *q);
    rgb_to_gray(n, px, gray);
    rw_out_u8("rgb_to_gray.gray", gray, n, 0);
    sepia(n, px, sp);
    rw_out_u8("sepia.out", (unsigned char *)sp, (size_t)n * sizeof *sp, 1);
    premultiply(n, q);
    rw_out_u8("premultiply.px", (unsigned char *)q, (size_t)n * sizeof *q, 0);
    split_planes(n, q, r, g, b);
    rw_out_f("split_planes.r", r, n, RW_F32_TOL);
    rw_out_f("split_planes.g", g, n, RW_F32_TOL);
    rw_out_f("split_planes.b", b, n, RW_F32_TOL);
    return 0;
}
