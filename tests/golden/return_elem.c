// Scalars between parallel loops, and a return that reads an array: the
// value is computed where the array is, then returned by the host.
#include <gpufuse.h>

GPUFUSE float between(int n, const float x[n], float y[n], float w[n])
{
    float a = -x[1];
    for (int i = 0; i < n; i++)
        y[i] = a * x[i];
    float t = y[n - 1] * 0.5f + a;
    for (int i = 0; i < n; i++)
        w[i] = y[i] - t;
    return t + w[0];
}

// CHECK-LABEL: region between
// CHECK: S2: decl float t = ((y[(n - 1)] * 0.5f) + a)
// CHECK: S4: return (t + w[0])
// REPORT: kernel between_k0 [serial, one thread, in order]: lines 7-7
// REPORT-NEXT: leaves 'a' in device memory
// REPORT: kernel between_k2 [serial, one thread, in order]: lines 10-10
// REPORT-NEXT: leaves 't' in device memory
// REPORT: kernel between_k4 [serial, one thread, in order]: lines 13-13
// REPORT-NEXT: leaves the return value in device memory
// CU-LABEL: __global__ void __launch_bounds__(1) between_k4(const float *gf_dev_t, const float *__restrict__ w, float *gf_out_gf_result)
// CU: float gf_result = t + w[0];
// CU-NEXT: *gf_out_gf_result = gf_result;
// the host plan and the C body as written
// CU: float gf_result = t + w[0];
// CU-NEXT: return gf_result;
// CU: return t + w[0];
// CU-LABEL: extern "C" float between(
// CU: between_k4<int><<<1, 1, 0, gf_s>>>(gf_out_t, gf_d_w, gf_out_gf_result);
// CU: memcpy(&gf_result, gf_pin + 0, sizeof gf_result);
// CU: const float gf_ret = gf_result;
