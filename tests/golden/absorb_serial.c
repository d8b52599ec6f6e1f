// A one-thread statement of a host loop run by the threads of the map
// launched right after it (lower_absorb): every thread computes the element
// into a register at its start, the map's reads of that element read the
// register, and the last block to finish stores it.  Only when, within one
// iteration of the host loop, the two touch no element in common but
// through those reads (deps_absorbable).
// DIFF-INIT: d in [1, 2)
// DIFF-INIT: dc in [1, 2)
#include <gpufuse.h>
#include <complex.h>
#include <math.h>

// the square root of the diagonal, then the column divided by it (cholesky)
GPUFUSE void col_scale(int n, float a[n][n], float d[n])
{
    for (int k = 0; k < n; k++) {
        a[k][k] = sqrtf(fabsf(a[k][k]) + d[k]);
        for (int i = k + 1; i < n; i++) {
            a[i][k] /= a[k][k];
            a[i][i] -= a[i][k] * a[i][k];
        }
    }
}

// two statements, the second reading what the first stored
GPUFUSE void two_stmts(int n, double x[n], double y[n], const double d[n])
{
    for (int k = 0; k < n; k++) {
        x[k] = x[k] / d[k];
        y[k] = x[k] * 2.0 + y[k];
        for (int i = k + 1; i < n; i++)
            x[i] -= x[k] * y[k] * 0.001;
    }
}

// the map writes what the statement reads (b[k] among b[i]): not absorbed
GPUFUSE void map_writes_input(int n, float a[n], float b[n])
{
    for (int k = 0; k < n; k++) {
        a[k] = b[k] * 0.5f;
        for (int i = 0; i < n; i++)
            b[i] += a[k] * 0.25f;
    }
}

// the map reads the stored element through another subscript (a[i - k - 1]
// is a[k] for i = 2k + 1): not absorbed
GPUFUSE void map_reads_other(int n, float a[n], float z[n])
{
    for (int k = 0; k < n; k++) {
        a[k] = z[k] + 1.0f;
        for (int i = k + 1; i < n; i++)
            z[i] += a[i - k - 1] * 0.5f;
    }
}

// the map's threads walk rows (blocks spread over the SMs): at least one
// block even when n = 1 leaves it no row
GPUFUSE void spread_rows(int n, int m, float p[n][m], float s[5], float r[5])
{
    for (int t = 0; t < 4; t++) {
        s[t] = r[t] * 0.5f + 1.0f;
        for (int i = 1; i < n; i++) {
            for (int j = 1; j < m; j++)
                p[i][j] = p[i][j - 1] * 0.5f + p[i][j] * 0.25f + s[t];
            if (i == 1)
                r[t + 1] = p[i][m - 1];
        }
    }
}

// complex and integer elements: the registers have the element's type
GPUFUSE void cplx_col(int n, float _Complex x[n], const float _Complex dc[n])
{
    for (int k = 0; k < n; k++) {
        x[k] = x[k] / dc[k];
        for (int i = k + 1; i < n; i++)
            x[i] -= x[k] * 0.001f;
    }
}

GPUFUSE void int_col(int n, int v[n])
{
    for (int k = 0; k < n; k++) {
        v[k] = v[k] * 3 + 1;
        for (int i = k + 1; i < n; i++)
            v[i] += v[k] % 7;
    }
}

// no host loop around them: left as two kernels
GPUFUSE void straight(int n, float a[n], float y[n])
{
    a[0] = sqrtf(fabsf(a[0]));
    for (int i = 0; i < n; i++)
        y[i] = a[0] * y[i];
}

// CHECK-LABEL: region col_scale
// CHECK: for k in [0, n) step 1 ; line 16, sequential
// CHECK: for i in [(k + 1), n) step 1 ; line 18, parallel
// REPORT-LABEL: region col_scale
// REPORT: kernel col_scale_k0 [serial, one thread, in order; on the GPU run by every thread of col_scale_k1 at its start, its stores made by the last block (one launch fewer)]: lines 17-17
// REPORT-LABEL: region two_stmts
// REPORT: kernel two_stmts_k0 [serial, one thread, in order; on the GPU run by every thread of two_stmts_k1
// REPORT-LABEL: region map_writes_input
// REPORT: kernel map_writes_input_k0 [serial, one thread, in order]: lines 40-40
// REPORT-LABEL: region map_reads_other
// REPORT: kernel map_reads_other_k0 [serial, one thread, in order]: lines 51-51
// REPORT-LABEL: region straight
// REPORT: kernel straight_k0 [serial, one thread, in order]: lines 94-94
// CU-LABEL: /* col_scale_k0: absorb_serial.c lines 17-17, run by the threads of col_scale_k1 at its start (one launch fewer) */
// CU-NOT: __global__ void __launch_bounds__(1) col_scale_k0
// CU: __global__ void __launch_bounds__(GF_THREADS) col_scale_k1(int k, int n, float *__restrict__ a, const float *d, unsigned *gf_ticket, GF_I gf_n0)
// CU-NEXT: {
// CU-NEXT: /* col_scale_k0: absorb_serial.c lines 17-17, run by every thread into registers; the last block stores them */
// CU-NEXT: float gf_q0 = a[((GF_I)k * n + k)];
// CU-NEXT: gf_q0 = sqrtf(fabsf(gf_q0) + d[k]);
// CU: a[((GF_I)i * n + k)] /= gf_q0;
// CU: if (gf_last_block(gf_ticket) && threadIdx.x == 0) { /* every block has read what it needs */
// CU-NEXT: a[((GF_I)k * n + k)] = gf_q0;
// CU-NEXT: }
// CU: static void gf_launch_col_scale(int n, float *a, float *d){{$}}
// CU-NEXT: {
// CU: gf_call_reserve(gf_c, sizeof(unsigned)); /* 0: col_scale_k1 ticket */
// CU: cudaMemsetAsync(gf_call_reserved(gf_c, 0), 0, sizeof(unsigned), gf_s)
// CU: /* col_scale_k0 (absorb_serial.c lines 17-17): run by the next kernel's threads */
// CU: const long long gf_need = gf_max(1LL, gf_blocks_for(gf_n0));
// CU-NEXT: if (gf_n0 > 0 || 1) {
// CU-NEXT: if (gf_i32) {
// CU-NEXT: col_scale_k1<int><<<gf_cover_1d(gf_need), GF_THREADS, 0, gf_s>>>(k, n, gf_d_a, gf_d_d, gf_ticket, gf_n0);
// CU-LABEL: two_stmts_k1(
// CU: double gf_q0 = x[k];
// CU-NEXT: double gf_q1 = y[k];
// CU-NEXT: gf_q0 = gf_q0 / d[k];
// CU-NEXT: gf_q1 = gf_q0 * 2.0 + gf_q1;
// CU: x[i] -= gf_q0 * gf_q1 * 0.001;
// CU: x[k] = gf_q0;
// CU-NEXT: y[k] = gf_q1;
// CU-LABEL: map_writes_input_k0(
// CU-NOT: gf_q0
// CU-LABEL: map_reads_other_k0(
// CU-NOT: gf_q0
// CU-LABEL: spread_rows_k1(
// CU: float gf_q0 = s[t];
// CU-NEXT: gf_q0 = r[t] * 0.5f + 1.0f;
// CU: s[t] = gf_q0;
// CU: static void gf_launch_spread_rows(int n, int m, float *p, float *s, float *r){{$}}
// CU: const unsigned gf_bt = gf_cover_threads(gf_n0, gf_sms);
// CU-NEXT: const long long gf_need = gf_max(1LL, gf_blocks_for(gf_n0, gf_bt));
// CU-NEXT: if (gf_n0 > 0 || 1) {
// CU-LABEL: cplx_col_k1(
// CU: gf_c32 gf_q0 = x[k];
// CU-NEXT: gf_q0 = gf_q0 / dc[k];
// CU: x[i] -= gf_q0 * 0.001f;
// CU: x[k] = gf_q0;
// CU-LABEL: int_col_k1(
// CU: int gf_q0 = v[k];
// CU-NEXT: gf_q0 = gf_q0 * 3 + 1;
// CU: v[i] += gf_q0 % 7;
// CU: v[k] = gf_q0;
// CU-LABEL: straight_k0(
// CU-NOT: gf_q0
