#include "rw.h"

void popcount_loop(int n, const uint32_t *w, int *cnt);
void popcount_swar(int n, const uint32_t *w, unsigned char *cnt);
void parity_reverse(int n, const uint32_t *w, unsigned char *parity, uint32_t *rev);
void leading_zeros(int n, const uint32_t *w, int *lz, int *tz);

int main(void)
{
    const int n = 40000;
    rw_seed(37);
    uint32_t *w = rw_alloc(n, 4), *rev = rw_alloc(n, 4);
    int *c1 = rw_alloc(n, sizeof(int)), *lz = rw_alloc(n, sizeof(int)), *tz = rw_alloc(n, sizeof(int));
    unsigned char *c2 = rw_alloc(n, 1), *par = rw_alloc(n, 1);
    rw_fill_u32(w, n);
    for (int i = 0; i < n; i += 7)
        w[i] >>= (i % 32);      /* small values, and zeros */
    popcount_loop(n, w, c1);
    rw_out_i("popcount_loop.cnt", c1, n, 0);
    popcount_swar(n, w, c2);
    rw_out_u8("popcount_swar.cnt", c2, n, 0);
    parity_reverse(n, w, par, rev);
    rw_out_u8("parity_reverse.parity", par, n, 0);
    rw_out_u32("parity_reverse.rev", rev, n);
    leading_zeros(n, w, lz, tz);
    rw_out_i("leading_zeros.lz", lz, n, 0);
    rw_out_i("leading_zeros.tz", tz, n, 0);
    return 0;
}
