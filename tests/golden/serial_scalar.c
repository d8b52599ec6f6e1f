// A scalar set from an element before the parallel loop that reads it
// (issue 13, item 1): a serial kernel leaves 'a' in device memory and the
// map reads it there; the host never waits for it.
#include <gpufuse.h>

GPUFUSE void neg_scale(int n, const float r[n], float y[n])
{
    float a;
    a = -r[0];
    for (int i = 0; i < n; i++)
        y[i] = a * r[i];
}

// CHECK-LABEL: region neg_scale
// CHECK: S1: a = (-r[0])
// CHECK: for i in [0, n) step 1 ; line 10, parallel
// REPORT: region neg_scale ({{.*}}): 1 loop nest -> 2 kernels
// REPORT-NEXT: kernel neg_scale_k0 [serial, one thread, in order]: lines 9-9
// REPORT-NEXT: leaves 'a' in device memory
// REPORT-NEXT: kernel neg_scale_k1 [map, 1-D
// the serial kernel computes 'a' and stores it to its slot
// CU-LABEL: /* neg_scale_k0: serial kernel for serial_scalar.c lines 9-9 (1 statement, one thread in order) */
// CU: __global__ void __launch_bounds__(1) neg_scale_k0(const float *__restrict__ r, float *gf_out_a)
// CU: float a; /* assigned before it is read */
// CU-NEXT: /* serial_scalar.c:9 */
// CU-NEXT: a = -r[0];
// CU-NEXT: *gf_out_a = a;
// the map reads it from the slot, not from a by-value argument
// CU: neg_scale_k1(const float *gf_dev_a, int n,
// CU: float a = *gf_dev_a;
// CU-LABEL: extern "C" void neg_scale(
// CU: gf_call_reserve(gf_c, sizeof(float)); /* 0: 'a' on the device */
// CU: float *gf_out_a = (float *)gf_call_reserved(gf_c, 0);
// CU: neg_scale_k0<int><<<1, 1, 0, gf_s>>>(gf_d_r, gf_out_a);
// CU: neg_scale_k1<int><<<{{.*}}>>>(gf_out_a, n, gf_d_y, gf_d_r, gf_n0);
// the host never waits for 'a'
// CU-NOT: cudaStreamSynchronize
// CU: gf_call_end(gf_c, (size_t)gf_bytes, 0);
