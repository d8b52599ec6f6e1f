// Layer normalisation over rows, with gamma and beta.
#include <gpufuse.h>
#include <math.h>

GPUFUSE void layernorm(int rows, int cols, float eps, const float x[rows][cols], const float gamma[cols],
                       const float beta[cols], float y[rows][cols])
{
    for (int i = 0; i < rows; i++) {
        float mean = 0.0f;
        for (int j = 0; j < cols; j++)
            mean += x[i][j];
        mean = mean / (float)cols;
        float var = 0.0f;
        for (int j = 0; j < cols; j++)
            var += (x[i][j] - mean) * (x[i][j] - mean);
        float inv = 1.0f / sqrtf(var / (float)cols + eps);
        for (int j = 0; j < cols; j++)
            y[i][j] = (x[i][j] - mean) * inv * gamma[j] + beta[j];
    }
}

// CHECK-LABEL: region layernorm
// CHECK: param float gf_u_gamma[cols] in
// CHECK: for i in [0, rows) step 1 ; line 8, parallel
// CHECK: for j in [0, cols) step 1 ; line 10, parallel reduction
// CHECK-NEXT: S1: mean += x[i][j] ; reduction + on mean
// CHECK-NEXT: S2: mean = (mean / (float)cols)
// CHECK: for j_1 in [0, cols) step 1 ; line 14, parallel reduction
// CHECK-NEXT: S4: var += {{.*}} ; reduction + on var
// CHECK: for j_2 in [0, cols) step 1 ; line 17, parallel
// REPORT: kernel layernorm_k0 [row, 1-D, a warp per row up to 512, else a block]: lines 8-19
// The last loop's per-column operands gamma[j] and beta[j]: 16-byte loads
// of the group's four columns where aligned, one element at a time where not
// CU-LABEL: layernorm_k0: row kernel
// A group of GF_VEC columns all in the row runs with no test per column
// CU: if (GF_VEC > 1 && gf_jb + (GF_VEC - 1) * 1 < cols) { /* the group's columns all in the row */
// CU-NEXT: #pragma unroll
// CU-NEXT: for (int gf_v = 0; gf_v < GF_VEC; gf_v++) {
// CU-NEXT: const int j = (int)(gf_jb + gf_v * 1);
// CU-NEXT: mean_p += x_c[gf_k * GF_VEC + gf_v];
// CU-NEXT: }
// CU-NEXT: } else {
// CU-NEXT: #pragma unroll
// CU-NEXT: for (int gf_v = 0; gf_v < GF_VEC; gf_v++) {
// CU-NEXT: const int j = (int)(gf_jb + gf_v * 1);
// CU-NEXT: if (j < cols) {
// CU-NEXT: mean_p += x_c[gf_k * GF_VEC + gf_v];
// CU: float gf_l0[GF_VEC]; /* gamma[j] of the group's columns */
// CU-NEXT: if (GF_VEC == 4 && gf_jb + 3 < cols && ((unsigned long long)&gf_u_gamma[gf_jb] & 15) == 0)
// CU-NEXT: *(float4 *)gf_l0 = *(const float4 *)&gf_u_gamma[gf_jb];
// CU-NEXT: else
// CU-NEXT: for (int gf_v = 0; gf_v < GF_VEC; gf_v++)
// CU-NEXT: if (gf_jb + gf_v < cols)
// CU-NEXT: gf_l0[gf_v] = gf_u_gamma[gf_jb + gf_v];
// CU-NEXT: float gf_l1[GF_VEC]; /* beta[j] of the group's columns */
// CU: y_w[gf_v] = (x_c[gf_k * GF_VEC + gf_v] - mean) * inv * gf_l0[gf_v] + gf_l1[gf_v];
// CU: } else {
// CU: y[((GF_I)i * cols + j_2)] = (x[((GF_I)i * cols + j_2)] - mean) * inv * gf_u_gamma[j_2] + beta[j_2];

// A row not held in registers (w, read at two columns) read at [i][j]: the
// same 16-byte loads; an operand read only under ?: is read one element at
// a time (the C body may never read some of its elements).
GPUFUSE void row_operands(int rows, int cols, const float x[rows][cols], const float w[rows][cols],
                          const float m[cols], float y[rows][cols])
{
    for (int i = 0; i < rows; i++) {
        float s = 0.0f;
        for (int j = 0; j < cols; j++)
            s += x[i][j] * w[i][cols - 1 - j];
        for (int j = 0; j < cols; j++)
            y[i][j] = x[i][j] * s + w[i][j] + (x[i][j] > 0.0f ? m[j] : 0.0f);
    }
}

// CU-LABEL: row_operands_k0: row kernel
// CU: s_p += x_c[gf_k * GF_VEC + gf_v] * w[((GF_I)i * cols + (cols - 1 - j))];
// CU: float gf_l0[GF_VEC]; /* w[i][j] of the group's columns */
// CU-NEXT: if (GF_VEC == 4 && gf_jb + 3 < cols && ((unsigned long long)&w[(GF_I)i * (cols) + gf_jb] & 15) == 0)
// CU-NEXT: *(float4 *)gf_l0 = *(const float4 *)&w[(GF_I)i * (cols) + gf_jb];
// CU-NOT: gf_l1
// CU: y_w[gf_v] = x_c[gf_k * GF_VEC + gf_v] * s + gf_l0[gf_v] + (x_c[gf_k * GF_VEC + gf_v] > 0.0f ? m[j_1] : 0.0f);
