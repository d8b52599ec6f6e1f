#ifndef CONV2D_H
#define CONV2D_H
#define N 256
#define KS 5
#define IDX(i, j) ((i) * N + (j))
void conv2d_5x5(const float *in, const float k[KS][KS], float *out);
void gaussian_3x3(const float *in, float *out);
void laplacian(const float *in, float *out);
#endif
