#ifndef MOMENTS_H
#define MOMENTS_H
#include <stddef.h>
typedef struct {
    double mean, var, skew, kurt;
    float min, max;
} moments_t;
double mean(size_t n, const float *x);
double variance(size_t n, const float *x, double mu);
void central_moments(size_t n, const float *x, double mu, double out[3]);
void min_max(size_t n, const float *x, float *lo, float *hi);
void describe(size_t n, const float *x, moments_t *m);
#endif
