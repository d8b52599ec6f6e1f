// Levinson-Durbin (PolyBench durbin, issue 13, item 1): alpha and beta are
// computed on the device and read first by the next iteration: they stay in
// device memory from one iteration to the next (beta is stored there before
// the loop), so that no iteration waits for the device.
#include <gpufuse.h>

GPUFUSE void durbin(int n, const double r[n], double y[n], double z[n])
{
    double alpha, beta, sum;
    y[0] = -r[0];
    beta = 1.0;
    alpha = -r[0];
    for (int k = 1; k < n; k++) {
        beta = (1 - alpha * alpha) * beta;
        sum = 0.0;
        for (int i = 0; i < k; i++)
            sum += r[k - i - 1] * y[i];
        alpha = -(r[k] + sum) / beta;
        for (int i = 0; i < k; i++)
            z[i] = y[i] + alpha * y[k - i - 1];
        for (int i = 0; i < k; i++)
            y[i] = z[i];
        y[k] = alpha;
    }
}

// CHECK-LABEL: region durbin
// CHECK: for k in [1, n) step 1 ; line 13, sequential
// CHECK: for i_1 in [0, k) step 1 ; line 19, parallel
// sum's loop is a reduction (sum is set and read only outside it); the
// statements around it are serial kernels that leave beta, sum and alpha on
// the device
// REPORT: region durbin ({{.*}}): 3 loop nests -> 7 kernels
// REPORT-NEXT: kernel durbin_k0 [serial, one thread, in order]: lines 10-12
// REPORT-NEXT: leaves 'alpha' in device memory
// REPORT-NEXT: kernel durbin_k1 [serial, one thread, in order]: lines 14-15
// REPORT-NEXT: leaves 'beta' in device memory
// REPORT-NEXT: leaves 'sum' in device memory
// REPORT-NEXT: kernel durbin_k2 [reduce, 1-D, deterministic reduction]: lines 16-17
// REPORT-NEXT: reduces into 'sum'
// REPORT-NEXT: kernel durbin_k3 [serial, one thread, in order]: lines 18-18
// REPORT-NEXT: leaves 'alpha' in device memory
// REPORT: line 13: the loop over 'k' runs on the host and launches 6 kernels per iteration
// the serial kernels of the loop body start from the values left by the previous iteration
// CU-LABEL: __global__ void __launch_bounds__(1) durbin_k1(const double *gf_dev_beta, const double *gf_dev_alpha, double *gf_out_beta, double *gf_out_sum)
// CU: double beta = *gf_dev_beta;
// CU-NEXT: double alpha = *gf_dev_alpha;
// CU-NEXT: double sum; /* assigned before it is read */
// CU: beta = (1 - alpha * alpha) * beta;
// CU: *gf_out_beta = beta;
// CU-NEXT: *gf_out_sum = sum;
// CU-LABEL: __global__ void __launch_bounds__(1) durbin_k3(const double *gf_dev_beta, const double *gf_dev_sum, int k, const double *__restrict__ r, double *gf_out_alpha)
// CU: alpha = -(r[k] + sum) / beta;
// beta is set on the host before the loop: stored to its slot once
// CU-LABEL: extern "C" void durbin(
// CU: beta = 1.0;
// CU: durbin_k0<int><<<1, 1, 0, gf_s>>>(gf_d_y, gf_d_r, gf_out_alpha);
// CU: /* every iteration finds these on the device */
// CU-NEXT: gf_store<<<1, 1, 0, gf_s>>>(gf_out_beta, beta);
// CU: for (int k = 1; k < n; k += 1) { /* sequential loop, line 13 */
// CU: durbin_k1<int><<<1, 1, 0, gf_s>>>(gf_out_beta, gf_out_alpha, gf_out_beta, gf_out_sum);
// the reduction starts from the sum the serial kernel left on the device
// CU: durbin_k2<int><<<gf_resident_1d(gf_need, gf_cap), GF_THREADS, 0, gf_s>>>(k, gf_d_r, gf_d_y, gf_part_sum, gf_out_sum, gf_ticket, gf_n0);
// CU: durbin_k3<int><<<1, 1, 0, gf_s>>>(gf_out_beta, gf_out_sum, k, gf_d_r, gf_out_alpha);
// no iteration waits for the device
// CU-NOT: cudaStreamSynchronize
// CU: gf_call_end(gf_c, (size_t)gf_bytes, 0);
