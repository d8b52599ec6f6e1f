#ifndef BITS_HASH_H
#define BITS_HASH_H
#include <stdint.h>
#define CRC32_POLY 0xEDB88320u
#define FNV_OFFSET 2166136261u
#define FNV_PRIME 16777619u
void crc32_words(int n, const uint32_t *w, uint32_t *crc);
void fnv1a_words(int n, const uint32_t *w, uint32_t *h);
void murmur_fmix(int n, const uint32_t *w, uint32_t *h);
void xorshift_stream(int n, uint32_t seed, uint32_t *out);
#endif
