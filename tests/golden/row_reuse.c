// Row kernels: a value an inner loop computes for every j (expf(x[i][j] - m))
// is kept in registers and reused by a later inner loop of the same row,
// instead of computed again -- only when it is exactly the same value.  Where
// it is the last read of the row it came from, it takes that row's registers
// (x_c[k] = expf(x_c[k] - m)); else registers of its own, up to 8 a thread.
#include <gpufuse.h>
#include <math.h>

GPUFUSE void softmax_rows(int rows, int cols, const float x[rows][cols], float y[rows][cols])
{
    for (int i = 0; i < rows; i++) {
        float m = -INFINITY;
        for (int j = 0; j < cols; j++)
            m = fmaxf(m, x[i][j]);
        float s = 0.0f;
        for (int j = 0; j < cols; j++)
            s += expf(x[i][j] - m);
        for (int j = 0; j < cols; j++)
            y[i][j] = expf(x[i][j] - m) / s;
    }
}

// x is read again after the value: the value gets registers of its own.
GPUFUSE void softmax_plus(int rows, int cols, const float x[rows][cols], float y[rows][cols])
{
    for (int i = 0; i < rows; i++) {
        float m = -INFINITY;
        for (int j = 0; j < cols; j++)
            m = fmaxf(m, x[i][j]);
        float s = 0.0f;
        for (int j = 0; j < cols; j++)
            s += expf(x[i][j] - m);
        for (int j = 0; j < cols; j++)
            y[i][j] = expf(x[i][j] - m) / s + x[i][j];
    }
}

// m changes between the loops: expf(x - m) is another value in the last loop.
GPUFUSE void shifted(int rows, int cols, const float x[rows][cols], float y[rows][cols])
{
    for (int i = 0; i < rows; i++) {
        float m = 1.0f;
        float s = 0.0f;
        for (int j = 0; j < cols; j++)
            s += expf(x[i][j] - m);
        m = s * 0.5f;
        for (int j = 0; j < cols; j++)
            y[i][j] = expf(x[i][j] - m);
    }
}

// computed only under a condition in the first loop: not every slot is set.
GPUFUSE void partial(int rows, int cols, const float x[rows][cols], float y[rows][cols])
{
    for (int i = 0; i < rows; i++) {
        float s = 0.0f;
        for (int j = 0; j < cols; j++)
            if (x[i][j] > 0.0f)
                s += logf(x[i][j]);
        for (int j = 0; j < cols; j++)
            y[i][j] = logf(x[i][j]) * s;
    }
}

// The same calls but for the type of a cast: different values, nothing reused.
GPUFUSE void cast_types(int rows, int cols, const float x[rows][cols], float y[rows][cols])
{
    for (int i = 0; i < rows; i++) {
        float s = 0.0f;
        for (int j = 0; j < cols; j++)
            s += sinf((float)(unsigned char)(int)(x[i][j] * 1000.0f));
        for (int j = 0; j < cols; j++)
            y[i][j] = sinf((float)(int)(int)(x[i][j] * 1000.0f)) / s;
    }
}

// CHECK-LABEL: region softmax_rows
// CHECK-LABEL: region softmax_plus
// CHECK-LABEL: region shifted
// CHECK-LABEL: region partial
// CHECK-LABEL: region cast_types
// CU-LABEL: void __launch_bounds__(1024) softmax_rows_k0(
// in x's registers, at every number of elements a thread holds
// CU-NOT: gf_reuse
// CU: /* computed by the loop of line {{[0-9]+}} into x_c (its last read of 'x'), reused by 1 later */
// CU-NOT: gf_val
// CU: s_p += (x_c[gf_k * GF_VEC + gf_v] = expf(x_c[gf_k * GF_VEC + gf_v] - m));
// CU: y_w[gf_v] = x_c[gf_k * GF_VEC + gf_v] / s;
// the general form (rows longer than the registers hold) computes it again
// CU: y[((GF_I)i * cols + j_2)] = expf(x[((GF_I)i * cols + j_2)] - m) / s;
// CU-LABEL: void __launch_bounds__(1024) softmax_plus_k0(
// up to 8 values per thread (more would cost occupancy)
// CU: constexpr bool gf_reuse = GF_ITEMS * GF_VEC <= 8;
// CU-NEXT: float gf_val0_c[gf_reuse && GF_ITEMS > 0 ? GF_ITEMS * GF_VEC : 1]; /* computed by the loop of line {{[0-9]+}}, reused by 1 later */
// CU: s_p += (gf_reuse ? (gf_val0_c[gf_k * GF_VEC + gf_v] = expf(x_c[gf_k * GF_VEC + gf_v] - m)) : expf(x_c[gf_k * GF_VEC + gf_v] - m));
// CU: y_w[gf_v] = (gf_reuse ? gf_val0_c[gf_k * GF_VEC + gf_v] : expf(x_c[gf_k * GF_VEC + gf_v] - m)) / s + x_c[gf_k * GF_VEC + gf_v];
// CU-LABEL: void __launch_bounds__(1024) shifted_k0(
// CU-NOT: gf_val
// CU-LABEL: void __launch_bounds__(1024) partial_k0(
// CU-NOT: gf_val
// CU-LABEL: void __launch_bounds__(1024) cast_types_k0(
// CU-NOT: gf_val
