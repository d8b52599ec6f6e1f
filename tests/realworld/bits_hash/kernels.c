/* bits_hash: per-element checksums and hashes of 32-bit words: a bitwise
 * CRC-32, FNV-1a over the bytes, MurmurHash3's finaliser, a counter-based
 * xorshift stream */
#include <gpufuse.h>
#include "kernels.h"

GPUFUSE void crc32_words(int n, const uint32_t *w, uint32_t *crc)
{
    for (int i = 0; i < n; i++) {
        uint32_t c = 0xFFFFFFFFu;
        for (int byte = 0; byte < 4; byte++) {
            c ^= (w[i] >> (8 * byte)) & 0xFFu;
            for (int k = 0; k < 8; k++)
                c = (c >> 1) ^ (CRC32_POLY & (0u - (c & 1u)));
        }
        crc[i] = ~c;
    }
}

GPUFUSE void fnv1a_words(int n, const uint32_t *w, uint32_t *h)
{
    for (int i = 0; i < n; i++) {
        uint32_t x = FNV_OFFSET;
        for (int b = 0; b < 4; b++) {
            x ^= (w[i] >> (b * 8)) & 255;
            x *= FNV_PRIME;
        }
        h[i] = x;
    }
}

GPUFUSE void murmur_fmix(int n, const uint32_t *w, uint32_t *h)
{
    for (int i = 0; i < n; i++) {
        uint32_t k = w[i];
        k ^= k >> 16;
        k *= 0x85ebca6bu;
        k ^= k >> 13;
        k *= 0xc2b2ae35u;
        k ^= k >> 16;
        h[i] = k;
    }
}

GPUFUSE void xorshift_stream(int n, uint32_t seed, uint32_t *out)
{
    for (int i = 0; i < n; i++) {
        uint32_t x = seed ^ (uint32_t)i * 0x9E3779B9u;
        if (x == 0)
            x = 1;
        for (int r = 0; r < 3; r++) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
        }
        out[i] = x;
    }
}
