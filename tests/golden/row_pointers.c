// Pointers into an array (docs/language.md "Pointers into an array"): the
// pointer disappears, its uses are elements of the array it points into.
// DIFF-SIZE: x = tokens * dim
// DIFF-SIZE: out = tokens * dim
// DIFF-SIZE: w = dim
// DIFF-SIZE: mag = h * w
// DIFF-PARAM: m = 7
#include <gpufuse.h>
#include <math.h>
#include <stddef.h>

// llama2.c's batched RMS norm: a row of x by pointer arithmetic, the output
// row through a second pointer (stores), size_t counters: a row kernel
GPUFUSE void rms_rows(size_t tokens, size_t dim, const float *x, const float *w, float *out)
{
    for (size_t t = 0; t < tokens; t++) {
        const float *row = x + t * dim;
        float *o = &out[t * dim];
        float ss = 0.0f;
        for (size_t j = 0; j < dim; j++)
            ss += row[j] * row[j];
        float scale = 1.0f / sqrtf(ss / dim + 1e-5f);
        for (size_t j = 0; j < dim; j++)
            o[j] = row[j] * scale * w[j];
    }
}

// CHECK-LABEL: region rms_rows
// CHECK: S1: ss += (x[((t * dim) + j)] * x[((t * dim) + j)]) ; reduction + on ss
// CHECK: S3: out[((t * dim) + j_1)] = ((x[((t * dim) + j_1)] * scale) * w[j_1])
// REPORT: kernel rms_rows_k0 [row, 1-D, a warp per row up to 512, else a block]

// Three row pointers of one declaration, one of them a row x[y] of a 2-D
// array, a pointer plus an offset, *p and a cast adding const
GPUFUSE void sobel_rows(int h, int w, const unsigned char img[h][w], float *restrict mag)
{
    for (int y = 1; y < h - 1; y++)
        for (int x = 1; x < w - 1; x++) {
            const unsigned char *r0 = img[y - 1], *r1 = img[y], *r2 = (const unsigned char *)img[y + 1];
            const unsigned char *c = r1 + x;
            float gx = (float)(r0[x + 1] + 2 * r1[x + 1] + r2[x + 1]) - (float)(r0[x - 1] + 2 * c[-1] + r2[x - 1]);
            float gy = (float)(r2[x - 1] + 2 * r2[x] + r2[x + 1]) - (float)(r0[x - 1] + 2 * r0[x] + r0[x + 1]);
            mag[y * w + x] = sqrtf(gx * gx + gy * gy) + 0.0f * (float)*c;
        }
}

// CHECK-LABEL: region sobel_rows
// CHECK: S0: decl float gx = ((float)((img[(y - 1)][(x + 1)] + (2 * img[y][(x + 1)])) + img[(y + 1)][(x + 1)]) - (float)((img[(y - 1)][(x - 1)] + (2 * img[y][(x + (-1))])) + img[(y + 1)][(x - 1)]))
// CHECK: S2: mag[((y * w) + x)] = (sqrtf(((gx * gx) + (gy * gy))) + (0.0f * (float)img[y][x]))
// REPORT: kernel sobel_rows_k0 [map, 2-D]

// A pointer placed by a local that is not assigned again, in a loop
// counting down; and `&x[i][j]` of a 2-D array
GPUFUSE void shifted(int n, int m, const float a[n][m], float *restrict y)
{
    for (int i = n - 1; i >= 0; i--) {
        const int half = m / 2;
        const float *p = a[i] + half, *q = &a[i][0];
        y[i] = p[0] - q[m - 1 - half] + *q;
    }
}

// CHECK-LABEL: region shifted
// CHECK: S1: y[((n - 1) - i_rev)] = ((a[((n - 1) - i_rev)][gf_u_half] - a[((n - 1) - i_rev)][((m - 1) - gf_u_half)]) + a[((n - 1) - i_rev)][0])
// REPORT: kernel shifted_k0 [map, 1-D]

// An offset of int and size_t terms, added and subtracted (the sums take
// C's types): each row's last two elements
GPUFUSE void row_tails(size_t rows, int m, const float v[rows][m], float *restrict tail)
{
    for (size_t i = 0; i < rows; i++) {
        const float *end = v[i] + (m - (size_t)1);
        const float *before = end - 1;
        tail[i] = *end - before[0] * 0.5f;
    }
}

// CHECK-LABEL: region row_tails
// CHECK: tail[i] = (v[i][(m - (unsigned long)1)] - (v[i][((m - (unsigned long)1) - 1)] * 0.5f))
