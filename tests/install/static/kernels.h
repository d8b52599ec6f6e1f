/* kernels.h - the library's functions, as its users see them: plain
 * prototypes (the marked definitions are in kernels.c).  The extern "C"
 * guard: the generated .gf.cu includes this header again, as C++.
 * (Without the guard nvcc rejects the launchers' linkage: the re-inclusion
 * of user headers is the real-C issue's, reported with this reproducer.) */
#ifndef STATIC_KERNELS_H
#define STATIC_KERNELS_H
#ifdef __cplusplus
extern "C" {
#endif
void axpy(int n, float a, const float *restrict x, float *restrict y);
double total(int n, const float *restrict x);
double mean(int n, const float *restrict x);
#ifdef __cplusplus
}
#endif
#endif
