#include "rw.h"
#include "kernels.h"

int main(void)
{
    const int n = 30000;
    rw_seed(38);
    uint32_t *w = rw_alloc(n, 4), *a = rw_alloc(n, 4), *b = rw_alloc(n, 4), *c = rw_alloc(n, 4),
             *d = rw_alloc(n, 4);
    rw_fill_u32(w, n);
    crc32_words(n, w, a);
    rw_out_u32("crc32_words.crc", a, n);
    fnv1a_words(n, w, b);
    rw_out_u32("fnv1a_words.h", b, n);
    murmur_fmix(n, w, c);
    rw_out_u32("murmur_fmix.h", c, n);
    xorshift_stream(n, 12345u, d);
    rw_out_u32("xorshift_stream.out", d, n);
    return 0;
}
