// One kernel of each shape (compiler/back/lower.h) and the launch geometry
// its launcher takes from templates/device.cuh: a 1-D map covers its
// elements (gf_cover_1d), a 1-D reduction takes the resident blocks
// (gf_resident_1d), 2-D maps and reductions likewise (gf_cover_2d,
// gf_resident_2d), a row kernel a warp or a block per row
// (gf_row_geometry), a serial kernel one thread.
// DIFF-INIT: x in [1, 2)
#include <gpufuse.h>

GPUFUSE void scale(int n, float a, float *x)
{
    for (int i = 0; i < n; i++)
        x[i] = a * x[i];
}

GPUFUSE double total(int n, const double *x)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += x[i];
    return s;
}

// starts at 1: threads start at the aligned column below (skew 1)
GPUFUSE void blur(int h, int w, const float in[h][w], float out[h][w])
{
    for (int i = 1; i < h - 1; i++)
        for (int j = 1; j < w - 1; j++)
            out[i][j] = in[i - 1][j] + in[i][j] + in[i + 1][j];
}

GPUFUSE double total2(int h, int w, const double a[h][w])
{
    double s = 0;
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++)
            s += a[i][j];
    return s;
}

GPUFUSE void normalize(int rows, int cols, const float x[rows][cols], float y[rows][cols])
{
    for (int i = 0; i < rows; i++) {
        float s = 0.0f;
        for (int j = 0; j < cols; j++)
            s += x[i][j];
        for (int j = 0; j < cols; j++)
            y[i][j] = x[i][j] / s;
    }
}

// a scalar from an element, before the map that reads it: one GPU thread
GPUFUSE void first_scale(int n, const float r[n], float y[n])
{
    float a = -r[0];
    for (int i = 0; i < n; i++)
        y[i] = a * r[i];
}

// CHECK: region scale
// CHECK: region first_scale

// CU-LABEL: /* scale_k0: map kernel for shapes.c
// CU: __global__ void __launch_bounds__(GF_THREADS) scale_k0_v4(
// CU: __global__ void __launch_bounds__(GF_THREADS) scale_k0(
// CU-LABEL: static void gf_launch_scale(
// CU: gf_graph_begin(gf_c, gf_kmix(0ULL, (unsigned long long)(n))); /* a repeated call may replay a CUDA graph
// CU: const long long gf_need = gf_blocks_for(gf_vec ? gf_n0 / 4 : gf_n0);
// CU: if (gf_vec) gf_launch(gf_c, "scale_k0", scale_k0_v4<int>, gf_cover_1d(gf_need), GF_THREADS, 0, gf_s, 

// a double sum: its 16-byte form (2 a thread) and the scalar kernel, both
// on the resident blocks
// CU-LABEL: /* total_k0: reduce kernel for shapes.c
// CU: __global__ void __launch_bounds__(GF_THREADS) total_k0_v4(
// CU: __global__ void __launch_bounds__(GF_THREADS) total_k0(
// CU: if (gf_last_block(gf_ticket)) {
// CU-LABEL: static double gf_launch_total(
// CU-NOT: gf_graph_begin
// CU: const long long gf_need = gf_blocks_for(gf_vec ? gf_n0 / 2 : gf_n0);
// CU: if (gf_n0 > 0 || 1) {
// CU: if (gf_vec) { static int gf_cap = 0; if (!gf_cap) gf_cap = gf_resident(total_k0_v4<int>, GF_THREADS, gf_sms); total_k0_v4<int><<<gf_resident_1d(gf_need, gf_cap), GF_THREADS, 0, gf_s>>>(
// CU-NEXT: else { static int gf_cap = 0; if (!gf_cap) gf_cap = gf_resident(total_k0<int>, GF_THREADS, gf_sms); total_k0<int><<<gf_resident_1d(gf_need, gf_cap), GF_THREADS, 0, gf_s>>>(

// CU-LABEL: /* blur_k0: map kernel for shapes.c
// CU: __global__ void __launch_bounds__(GF_THREADS) blur_k0(
// CU: if (gf_x < 1) continue; /* aligned start: the first 1 threads of the row idle */
// CU: float gf_r0_0 /* in[i -1 .. +1][...] */;
// CU-LABEL: static void gf_launch_blur(
// CU: const long long gf_n1 = gf_n1_ ? gf_n1_ + 1 : 0; /* threads start aligned */
// CU: const long long gf_gx = gf_blocks_for(gf_n1);
// CU-NEXT: const long long gf_chunks = gf_strips_2d(gf_n0, gf_gx, gf_sms);
// CU: gf_launch(gf_c, "blur_k0", blur_k0<int>, gf_cover_2d(gf_gx, gf_chunks), GF_THREADS, 0, gf_s, 

// CU-LABEL: /* total2_k0: reduce kernel for shapes.c
// CU: __global__ void __launch_bounds__(GF_THREADS) total2_k0(
// CU-LABEL: static double gf_launch_total2(
// CU: total2_k0<int><<<gf_resident_2d(gf_gx, gf_chunks, gf_cap), GF_THREADS, 0, gf_s>>>(

// CU-LABEL: /* normalize_k0: row kernel for shapes.c
// CU: template <typename GF_I, int GF_ITEMS, int GF_VEC, int GF_G>
// CU-NEXT: __global__ void __launch_bounds__(1024) normalize_k0(
// CU: s = gf_add<float>()(s, gf_group_reduce<GF_G>(s_p, gf_add<float>()));
// CU-LABEL: static void gf_launch_normalize(
// CU: const gf_row_geom gf_rg = gf_row_geometry(gf_n0, gf_cols);
// CU: const bool gf_vec = gf_per >= 4 && gf_aligned16(gf_d_x) && (long long)(cols) % 4 == 0 && gf_aligned16(gf_d_y) && (long long)(cols) % 4 == 0;
// CU: if (gf_vec && gf_per <= 4) gf_launch(gf_c, "normalize_k0", normalize_k0<int, 1, 4, 32>, (unsigned)gf_blocks, gf_threads, 0, gf_s, 
// CU: else gf_launch(gf_c, "normalize_k0", normalize_k0<int, 0, 1, 0>, (unsigned)gf_blocks, gf_threads, 0, gf_s, 

// CU-LABEL: /* first_scale_k0: serial kernel for shapes.c
// CU: __global__ void __launch_bounds__(1) first_scale_k0(
// CU-LABEL: static void gf_launch_first_scale(
// CU-NOT: gf_graph_begin
// CU: first_scale_k0<int><<<1, 1, 0, gf_s>>>(
