#include "rw.h"
#include "kernels.h"

int main(void)
{
    rw_seed(11);
    unsigned char *src = rw_alloc(W * H, 1), *a = rw_alloc(W * H, 1), *b = rw_alloc(W * H, 1),
                  *c = rw_alloc(W * H, 1);
    rw_fill_u8(src, W * H);
    box_blur3(src, a);
    rw_out_u8("box_blur3.dst", a, W * H, 0);
    separable_blur5(src, b);
    rw_out_u8("separable_blur5.dst", b, W * H, 0);
    unsharp(src, b, c, 0.7f);
    rw_out_u8("unsharp.dst", c, W * H, 1);   /* a contracted multiply-add may round the other way */
    free(src), free(a), free(b), free(c);
    return 0;
}
