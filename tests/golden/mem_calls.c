// memset and memcpy statements as the loops C's library runs (parse.c
// mem_stmt): a[k] = 0 (any byte on one-byte elements), d[k] = s[k], over a
// one-dimensional array at its start, at an offset, or through a pointer
// naming a row; fused with the loops around them like any other loop.
#include <gpufuse.h>
#include <stdint.h>
#include <string.h>

// DIFF-SIZE: b = n
// DIFF-SIZE: img = n * m
// DIFF-SIZE: add = m
// DIFF-SIZE: y = n
// DIFF-SIZE: x = n
// DIFF-SIZE: dst = n
// DIFF-SIZE: src = n
// DIFF-SIZE: z = n
// DIFF-SIZE: w = n

// zero, then accumulate: one kernel, y not copied in (written first)
GPUFUSE void zero_acc(int n, float *restrict y, const float *restrict x)
{
    memset(y, 0, n * sizeof(float));
    for (int i = 0; i < n; i++)
        y[i] += x[i] * 2.0f;
}

// a row through a pointer, sizeof first
GPUFUSE void rows_zero(int n, int m, float *restrict img, const float *restrict add)
{
    for (int r = 0; r < n; r++) {
        float *row = img + r * m;
        memset(row, 0, sizeof *row * m);
        for (int c = 0; c < m; c++)
            row[c] += add[c] * (float)r;
    }
}

// copy, then scale in place; size_t counts
GPUFUSE void copy_scale(size_t n, double *restrict dst, const double *restrict src, double s)
{
    memcpy(dst, src, n * sizeof *dst);
    for (size_t i = 0; i < n; i++)
        dst[i] *= s;
}

// bytes: any value, at an offset, the count in bytes
GPUFUSE void fill_bytes(int n, uint8_t *restrict b)
{
    if (n < 8)
        return;
    memset(&b[4], 0x7f, n - 8);
}

// a local array in the loop: cleared whole (sizeof t), filled at offsets
GPUFUSE void local_buf(int n, float *restrict z, const float *restrict w)
{
    for (int i = 0; i < n; i++) {
        float t[8];
        memset(t, 0, sizeof t);
        memcpy(t + 2, &w[i], sizeof(float));
        memset(&t[5], 0, 2 * sizeof(float));
        z[i] = t[2] + t[0] + t[6];
    }
}

// CHECK: region zero_acc
// CHECK: region rows_zero
// CHECK: region copy_scale
// CHECK: region fill_bytes
// CHECK: region local_buf
// REPORT: kernel zero_acc_k0 {{.*}}: lines 22-22, 23-24
// REPORT: kernel rows_zero_k0 [map, 2-D]: lines 30-35
// REPORT: kernel copy_scale_k0 {{.*}}: lines 41-41, 42-43
// CU-LABEL: zero_acc_k0(
// CU: y[memset_k] = (float)0;
// CU-LABEL: copy_scale_k0(
// CU: dst[memcpy_k] = src[memcpy_k];
