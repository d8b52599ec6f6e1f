/* big_kernels.c - marked functions for arrays of more than 2^31 elements
 * (big.c): a map, a map reading another array, reductions into a 64-bit
 * integer and a double, and a reduction that counts wrong elements. */
#include <gpufuse.h>

GPUFUSE void fill_u8(long long n, unsigned char *restrict y)
{
    for (long long i = 0; i < n; i++)
        y[i] = (unsigned char)(i * 7 + (i >> 20));
}

GPUFUSE void add3_u8(long long n, const unsigned char *restrict x, unsigned char *restrict y)
{
    for (long long i = 0; i < n; i++)
        y[i] = (unsigned char)(x[i] + 3);
}

GPUFUSE unsigned long long sum_u8(long long n, const unsigned char *restrict x)
{
    unsigned long long s = 0;
    for (long long i = 0; i < n; i++)
        s += x[i];
    return s;
}

GPUFUSE double sum_u8_double(long long n, const unsigned char *restrict x)
{
    double s = 0.0;
    for (long long i = 0; i < n; i++)
        s += x[i];
    return s;
}

/* elements of x that fill_u8 did not write as it should, and of y that
 * add3_u8 did not */
GPUFUSE long long count_wrong(long long n, const unsigned char *restrict x, const unsigned char *restrict y)
{
    long long bad = 0;
    for (long long i = 0; i < n; i++)
        bad += (x[i] != (unsigned char)(i * 7 + (i >> 20))) + (y[i] != (unsigned char)(x[i] + 3));
    return bad;
}
