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
// REPORT: region durbin ({{.*}}): 2 loop nests -> 5 kernels
// REPORT-NEXT: kernel durbin_k0 [serial, one thread, in order]: lines 10-12
// REPORT-NEXT: leaves 'alpha' in device memory
// REPORT-NEXT: kernel durbin_k1 [serial, one thread, in order]: lines 14-18
// REPORT-NEXT: leaves 'beta' in device memory
// REPORT-NEXT: leaves 'alpha' in device memory
// REPORT: line 13: the loop over 'k' runs on the host, 4 kernels in each iteration
// the serial kernel of the loop body starts from the values left by the previous iteration
// CU-LABEL: __global__ void __launch_bounds__(1) durbin_k1(const double *gf_dev_beta, const double *gf_dev_alpha, int k, const double *__restrict__ r, const double *__restrict__ y, double *gf_out_beta, double *gf_out_alpha)
// CU: double beta = *gf_dev_beta;
// CU-NEXT: double alpha = *gf_dev_alpha;
// CU-NEXT: double sum; /* assigned before it is read */
// CU: beta = (1 - alpha * alpha) * beta;
// CU: *gf_out_beta = beta;
// CU-NEXT: *gf_out_alpha = alpha;
// beta is set on the host before the loop: stored to its slot once
// CU-LABEL: extern "C" void durbin(
// CU: beta = 1.0;
// CU: durbin_k0<int><<<1, 1, 0, gf_s>>>(gf_d_y, gf_d_r, gf_out_alpha);
// CU: /* every iteration finds these on the device */
// CU-NEXT: gf_store<<<1, 1, 0, gf_s>>>(gf_out_beta, beta);
// CU: for (int k = 1; k < n; k += 1) { /* sequential loop, line 13 */
// CU: durbin_k1<int><<<1, 1, 0, gf_s>>>(gf_out_beta, gf_out_alpha, k, gf_d_r, gf_d_y, gf_out_beta, gf_out_alpha);
// no iteration waits for the device
// CU-NOT: cudaStreamSynchronize
// CU: gf_call_end(gf_c, (size_t)gf_bytes, 0);

// A value derived from each step's sum inside a time loop: on the host it
// would wait for the device and copy the sum back at every step; a serial
// kernel of its own computes it there (fuse.c, plan_scalar_run).
GPUFUSE void normalise_steps(int steps, int n, float x[n])
{
    for (int t = 0; t < steps; t++) {
        float s = 0.0f;
        for (int i = 0; i < n; i++)
            s += x[i] * x[i];
        float inv = 1.0f / (s + 1.0f);
        for (int i = 0; i < n; i++)
            x[i] = x[i] * inv;
    }
}
// REPORT-LABEL: region normalise_steps
// REPORT-NEXT: kernel normalise_steps_k0 [reduce, 1-D, 128-bit vectors, deterministic reduction]: lines 64-65
// REPORT-NEXT: reduces into 's'
// REPORT-NEXT: kernel normalise_steps_k1 [serial, one thread, in order]: lines 66-66
// REPORT-NEXT: leaves 'inv' in device memory
// REPORT-NEXT: kernel normalise_steps_k2 [map, 1-D, 128-bit vectors]: lines 67-68
// CU-LABEL: __global__ void __launch_bounds__(1) normalise_steps_k1(const float *gf_dev_s, float *gf_out_inv)
// CU: inv = 1.0f / (s + 1.0f);
// CU-LABEL: static void gf_launch_normalise_steps(
// CU: for (int t = 0; t < steps; t += 1) { /* sequential loop, line 62 */
// CU-NOT: cudaStreamSynchronize
// CU: normalise_steps_k1<int><<<1, 1, 0, gf_s>>>(gf_out_s, gf_out_inv);
// CU-NOT: cudaStreamSynchronize
// CU: gf_call_end(gf_c
