// A reduction started from an element (issue 13, item 5): the serial kernel
// leaves 'hi' in its device slot and the reduction starts from the slot (no
// host value, no copy back before it).
#include <gpufuse.h>

GPUFUSE float hi_of(int n, const float v[n])
{
    float hi = v[0];
    for (int i = 1; i < n; i++)
        hi = v[i] > hi ? v[i] : hi;
    return hi;
}

// CHECK-LABEL: region hi_of
// CHECK: S0: decl float hi = v[0]
// CHECK: for i in [1, n) step 1 ; line 9, parallel reduction
// REPORT: kernel hi_of_k0 [serial, one thread, in order]: lines 8-8
// REPORT-NEXT: leaves 'hi' in device memory
// REPORT-NEXT: kernel hi_of_k1 [reduce, 1-D
// REPORT-NEXT: reduces into 'hi'
// CU-LABEL: __global__ void __launch_bounds__(1) hi_of_k0(const float *__restrict__ v, float *gf_out_hi)
// CU: float hi = v[0];
// CU-NEXT: *gf_out_hi = hi;
// the reduction takes no starting value: it finishes into the slot that holds it
// CU: hi_of_k1(int n, const float *__restrict__ v, float *gf_part_hi, float *gf_out_hi, unsigned *gf_ticket, GF_I gf_n0)
// CU: *gf_out_hi = gf_maxop<float>()(*gf_out_hi, gf_total_hi);
// CU-LABEL: extern "C" float hi_of(
// CU-NOT: cudaStreamSynchronize
// CU: hi_of_k1<int><<<{{.*}}>>>(n, gf_d_v, gf_part_hi, gf_out_hi, gf_ticket, gf_n0);
// the host reads 'hi' once, for the return
// CU: cudaMemcpyAsync(gf_pin + 0, gf_out_hi, sizeof hi, cudaMemcpyDeviceToHost, gf_s)
// CU: return gf_ret;
