// math.h float functions in a chain.
#include <gpufuse.h>
#include <math.h>

GPUFUSE void chain(int n, const float *restrict a, const float *restrict b, const float *restrict c, float *restrict out)
{
    for (int i = 0; i < n; i++)
        out[i] = sqrtf(a[i] * a[i] + b[i] * b[i]) * expf(-c[i]) + sinf(a[i]) * 0.5f + logf(1.0f + fabsf(b[i])) +
                 tanhf(c[i]) + erff(a[i]) + powf(fabsf(a[i]), 1.5f) + floorf(b[i]) + fmaf(a[i], b[i], c[i]) +
                 cosf(b[i]) + fminf(a[i], b[i]) + fmaxf(b[i], c[i]);
}

// CHECK-LABEL: region chain
// CHECK: for i in [0, n) step 1 ; line 7, parallel
// CHECK-SAME: {{$}}
// CHECK-NEXT: sqrtf({{.*}}expf({{.*}}sinf({{.*}}logf({{.*}}tanhf({{.*}}erff({{.*}}powf({{.*}}floorf({{.*}}fmaf(a[i], b[i], c[i]){{.*}}cosf({{.*}}fminf(a[i], b[i]){{.*}}fmaxf(b[i], c[i])
