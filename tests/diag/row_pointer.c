#include <gpufuse.h>

// Pointers into an array are names for its elements; each function below
// uses one in a way that is not, and keeps its CPU body.

GPUFUSE void moved(int n, int m, const float *restrict x, float *restrict y)
{
    for (int i = 0; i < n; i++) {
        const float *row = x + i * m;
        row = x; // expected-warning {{pointer 'row' is assigned; a pointer into an array must keep pointing where its declaration puts it (it names part of 'x': only its elements can be read or written)}} [-Wgpufuse-pointer]
        y[i] = row[0];
    }
}

GPUFUSE void bumped(int n, int m, const float *restrict x, float *restrict y)
{
    for (int i = 0; i < n; i++) {
        const float *p = x + i * m;
        for (int j = 0; j < m; j++) {
            y[i * m + j] = *p;
            p++; // expected-warning {{pointer 'p' is used other than as 'p[i]' or '*p'}} [-Wgpufuse-pointer]
        }
    }
}

GPUFUSE void retyped(int n, const float *restrict x, int *restrict y)
{
    const int *bits = (const int *)x; // expected-warning {{pointer local 'bits': only 'T *bits = malloc(count * sizeof(T));' temporaries and pointers into an array ('x + i * n', '&x[i]', a row 'x[i]') are supported}} [-Wgpufuse-pointer]
    for (int i = 0; i < n; i++)
        y[i] = bits[i];
}

GPUFUSE void by_element(int n, int m, const int *restrict start, const float *restrict x, float *restrict y)
{
    for (int i = 0; i < n; i++) {
        const float *row = x + start[i]; // expected-warning {{pointer local 'row': its offset reads an array element; only parameters, loop indices and local scalars can place a pointer into an array}} [-Wgpufuse-pointer]
        y[i] = row[0] + row[m - 1];
    }
}

GPUFUSE void shifting(int n, int m, const float *restrict x, float *restrict y)
{
    int off = 0;
    const float *row = x + off; // expected-warning {{pointer local 'row' is placed by 'off', which the function assigns: declare the pointer where it is used, from values that do not change}} [-Wgpufuse-pointer]
    for (int i = 0; i < n; i++)
        y[i] = row[i];
    off = m;
}

GPUFUSE void chosen(int n, int c, float *restrict q, float *restrict k)
{
    float *v = c ? q : k; // expected-warning {{pointer local 'v': only 'T *v = malloc(count * sizeof(T));' temporaries and pointers into an array}} [-Wgpufuse-pointer]
    for (int i = 0; i < n; i++)
        v[i] *= 2.0f;
}
