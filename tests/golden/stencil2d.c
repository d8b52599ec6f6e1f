// 5-point stencil into a separate output.
#include <gpufuse.h>

GPUFUSE void stencil5(int n, int m, const float in[n][m], float out[n][m])
{
    for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < m - 1; j++)
            out[i][j] = 0.2f * (in[i][j] + in[i - 1][j] + in[i + 1][j] + in[i][j - 1] + in[i][j + 1]);
}

// CHECK-LABEL: region stencil5
// CHECK: for i in [1, (n - 1)) step 1 ; line 6, parallel
// CHECK-NEXT: for j in [1, (m - 1)) step 1 ; line 7, parallel
// CHECK: deps: [n, m] -> { }

// The row window: the strip's first row loads it whole, each later row
// shifts it down and loads one row.
// CU-LABEL: stencil5_k0: map kernel
// CU: float gf_r0_0 /* in[i -1 .. +1][...] */;
// CU: for (GF_I gf_y = gf_c; gf_y < gf_c + gf_rows && gf_y < gf_outer; gf_y++) {
// CU-NEXT: const int i = (int)(1 + (gf_y) * 1);
// CU-NEXT: if (gf_y == gf_c) { /* the first row of the walk loads the whole window */
// CU-NEXT: gf_r0_0 = in[((GF_I)(i - 1) * m + j)];
// CU-NEXT: gf_r0_1 = in[((GF_I)i * m + j)];
// CU-NEXT: gf_r0_2 = in[((GF_I)(i + 1) * m + j)];
// CU-NEXT: } else { /* later rows shift the window and load one value */
// CU-NEXT: gf_r0_0 = gf_r0_1;
// CU-NEXT: gf_r0_1 = gf_r0_2;
// CU-NEXT: gf_r0_2 = in[((GF_I)(i + 1) * m + j)];
// CU-NEXT: }
// CU-NEXT: out[((GF_I)i * m + j)] = 0.2f * (gf_r0_1 + gf_r0_0 + gf_r0_2 + in[((GF_I)i * m + (j - 1))] + in[((GF_I)i * m + (j + 1))]);

// A window of four rows (i - 2 .. i + 1), one of them read in a condition.
GPUFUSE void stencil_four(int n, int m, const float in[n][m], float out[n][m])
{
    for (int i = 2; i < n - 1; i++)
        for (int j = 0; j < m; j++)
            out[i][j] = in[i - 2][j] - in[i - 1][j] + 0.5f * in[i + 1][j] + (in[i][j] > 0.5f ? 1.0f : 0.0f);
}

// CU-LABEL: stencil_four_k0: map kernel
// CU: } else { /* later rows shift the window and load one value */
// CU-NEXT: gf_r0_0 = gf_r0_1;
// CU-NEXT: gf_r0_1 = gf_r0_2;
// CU-NEXT: gf_r0_2 = gf_r0_3;
// CU-NEXT: gf_r0_3 = in[((GF_I)(i + 1) * m + j)];
// CU-NEXT: }
// CU-NEXT: out[((GF_I)i * m + j)] = gf_r0_0 - gf_r0_1 + 0.5f * gf_r0_3 + (gf_r0_2 > 0.5f ? 1.0f : 0.0f);
