/* conv2d: 2-D convolutions on flattened N x N images with an IDX macro */
#include <gpufuse.h>
#include "kernels.h"

GPUFUSE void conv2d_5x5(const float *in, const float k[KS][KS], float *out)
{
    for (int i = KS / 2; i < N - KS / 2; i++)
        for (int j = KS / 2; j < N - KS / 2; j++) {
            float acc = 0.0f;
            for (int a = 0; a < KS; a++)
                for (int b = 0; b < KS; b++)
                    acc += k[a][b] * in[IDX(i + a - KS / 2, j + b - KS / 2)];
            out[IDX(i, j)] = acc;
        }
}

GPUFUSE void gaussian_3x3(const float *in, float *out)
{
    for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N - 1; j++)
            out[IDX(i, j)] = (in[IDX(i - 1, j - 1)] + 2 * in[IDX(i - 1, j)] + in[IDX(i - 1, j + 1)] +
                              2 * in[IDX(i, j - 1)] + 4 * in[IDX(i, j)] + 2 * in[IDX(i, j + 1)] +
                              in[IDX(i + 1, j - 1)] + 2 * in[IDX(i + 1, j)] + in[IDX(i + 1, j + 1)]) /
                             16.0f;
}

GPUFUSE void laplacian(const float *in, float *out)
{
    for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N - 1; j++)
            out[i * N + j] = in[(i - 1) * N + j] + in[(i + 1) * N + j] + in[i * N + j - 1] + in[i * N + j + 1] -
                             4.0f * in[i * N + j];
}
