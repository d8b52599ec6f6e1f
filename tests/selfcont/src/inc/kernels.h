/* kernels.h - the usual C layout: the header declares the marked functions
 * (kernels.c includes it, so does main.c), with the types they take. */
#ifndef KERNELS_H
#define KERNELS_H
#include <stddef.h>

typedef struct particle { float x, y, vx, vy; } particle;
typedef struct { float mass; int kind; } props;
struct class { float new, this; int delete; };
enum kind { LIGHT = 1, HEAVY = 3 };

void advance(size_t n, float dt, particle *restrict p, const props *restrict q);
float energy(int n, const particle *p, const props *q);
void keywords(int n, const struct class *restrict class, float *restrict this);
void vla_scale(int n, float a, float m[n][n]);
#endif
