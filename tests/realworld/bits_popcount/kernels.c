/* bits_popcount: bit manipulation per element on unsigned 32-bit words:
 * population count (Kernighan's loop and the SWAR form), parity, bit
 * reversal, leading zeros by a loop, a builtin */
#include <gpufuse.h>
#include <stdint.h>

GPUFUSE void popcount_loop(int n, const uint32_t *w, int *cnt)
{
    for (int i = 0; i < n; i++) {
        uint32_t v = w[i];
        int c = 0;
        while (v) {
            v &= v - 1;
            c++;
        }
        cnt[i] = c;
    }
}

GPUFUSE void popcount_swar(int n, const uint32_t *w, unsigned char *cnt)
{
    for (int i = 0; i < n; i++) {
        uint32_t v = w[i];
        v = v - ((v >> 1) & 0x55555555u);
        v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
        v = (v + (v >> 4)) & 0x0F0F0F0Fu;
        cnt[i] = (unsigned char)((v * 0x01010101u) >> 24);
    }
}

GPUFUSE void parity_reverse(int n, const uint32_t *w, unsigned char *parity, uint32_t *rev)
{
    for (int i = 0; i < n; i++) {
        uint32_t v = w[i];
        uint32_t p = v ^ (v >> 16);
        p ^= p >> 8;
        p ^= p >> 4;
        p &= 0xf;
        parity[i] = (0x6996 >> p) & 1;
        uint32_t r = v;
        r = ((r >> 1) & 0x55555555u) | ((r & 0x55555555u) << 1);
        r = ((r >> 2) & 0x33333333u) | ((r & 0x33333333u) << 2);
        r = ((r >> 4) & 0x0F0F0F0Fu) | ((r & 0x0F0F0F0Fu) << 4);
        r = ((r >> 8) & 0x00FF00FFu) | ((r & 0x00FF00FFu) << 8);
        rev[i] = (r >> 16) | (r << 16);
    }
}

GPUFUSE void leading_zeros(int n, const uint32_t *w, int *lz, int *tz)
{
    for (int i = 0; i < n; i++) {
        uint32_t v = w[i];
        int z = 0;
        for (int b = 31; b >= 0; b--) {
            if (v & (1u << b))
                break;
            z++;
        }
        lz[i] = z;
        tz[i] = v ? __builtin_ctz(v) : 32;
    }
}
