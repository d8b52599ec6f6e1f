// math.h double functions.
#include <gpufuse.h>
#include <math.h>

GPUFUSE void chaind(int n, const double *restrict a, double *restrict out)
{
    for (int i = 0; i < n; i++)
        out[i] = sqrt(fabs(a[i])) + exp(-a[i]) + log1p(fabs(a[i])) + atan2(a[i], 2.0) + cbrt(a[i]) + hypot(a[i], 1.0) +
                 ceil(a[i]) + fmod(a[i], 0.3);
}

// CHECK-LABEL: region chaind
// CHECK: for i in [0, n) step 1 ; line 7, parallel
// CHECK-NEXT: sqrt(fabs(a[i])){{.*}}exp((-a[i])){{.*}}log1p({{.*}}atan2(a[i], 2.0){{.*}}cbrt({{.*}}hypot({{.*}}ceil({{.*}}fmod(a[i], 0.3)
