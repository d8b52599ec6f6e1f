/* kernels.h - a header with C-only code, included by kernels.c: C++
 * keywords as names, a helper named max, malloc without a cast, a VLA
 * prototype, and the declarations of the marked functions */
#ifndef CPP_NAMES_H
#define CPP_NAMES_H
#include <stdlib.h>

struct class { float this_, new_; };

static inline int max(int a, int b)
{
    return a > b ? a : b;
}

static inline float *new_buffer(int n)
{
    float *p = malloc(n * sizeof *p);   /* implicit void * conversion: C only */
    return p;
}

static inline float template(float this, float new)
{
    return this * 0.5f + new;
}

void blend(int n, const float *this, const float *new, float *class);
void clamp_count(int n, const int *delete, int *operator, int limit);
void smooth_rows(int n, int m, const float a[n][m], float b[n][m]);
void fields(int n, const struct class *objects, float *out);
#endif
