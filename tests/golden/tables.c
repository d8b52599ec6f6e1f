// Read-only tables: const arrays with constant initialisers, at file scope
// (static or not), static in the function, or local with constant braces.
// Generated code reads a copy in the .gf.cu (a host and a device copy under
// one name, gf_c_<name>), passed to no kernel and staged by no launcher.
#include <gpufuse.h>
#include <stdint.h>

#define KSIZE 7
#define HALF (KSIZE / 2)

static const float taps[KSIZE] = {0.03125f, 0.109375f, 0.21875f, 0.28125f, 0.21875f, 0.109375f, 0.03125f};
const float gains[3] = {1.08f, 1.0f, 0.87f};
static const unsigned char levels[8] = {0, 36, 73, 109, 146, 182, 219, 255};
static const int sobel_x[3][3] = {{-1, 0, 1}, {-2, 0, 2}, {-1, 0, 1}};
static const double poly[] = {1.0, -0.5, 0.25, -0.125};
typedef struct Coef {
    float scale, shift;
} Coef;
static const Coef coefs[2] = {{2.0f, 1.0f}, {0.5f, -1.0f}};

// the file's copies, before the kernels: the device's and the host's
// CU: GF_UNUSED static const float gf_ch_taps[7] = {0.03125F
// CU-NEXT: GF_UNUSED static __device__ const float gf_cd_taps[7] = {0.03125F
// CU: GF_UNUSED static __device__ const int gf_cd_sobel_x[3][3] = {{[{][{]}}-1, 0, 1}

// a FIR filter: the taps under an inner loop of each output
GPUFUSE void fir_valid(int n, const float *restrict in, float *restrict out)
{
    for (int i = 0; i < n - KSIZE + 1; i++) {
        float acc = 0.0f;
        for (int k = 0; k < KSIZE; k++)
            acc += taps[k] * in[i + k];
        out[i] = acc;
    }
}

// CHECK-LABEL: region fir_valid
// CHECK: param float out[] out restrict
// CHECK-NEXT: table float gf_c_taps[7] ; 'taps', line 11
// CHECK: S1: acc += (gf_c_taps[k] * in[(i + k)])
// CU-LABEL: fir_valid_k0
// CU-NOT: gf_c_taps,
// CU: gf_c_taps[k] * in[i + k]

// 'same' mode: a shifted subscript of the table under a guard
GPUFUSE void fir_same(int n, const float *restrict in, float *restrict out)
{
    for (int i = 0; i < n; i++) {
        float acc = 0.0f;
        for (int k = -HALF; k <= HALF; k++) {
            int j = i + k;
            if (j >= 0 && j < n)
                acc += taps[k + HALF] * in[j];
        }
        out[i] = acc;
    }
}

// 'j' always holds i + k (a signed local never assigned): the guard on it
// bounds the elements of 'in' the loops read, so the launcher copies in[0..n)
// CHECK-LABEL: region fir_same
// CHECK: S1: decl int j = (i + k)
// CHECK-NEXT: if ((j >= 0) && (j < n))
// CHECK: domain: {{.*}}S2[i, k] : 0 <= i < n and k >= -3 and -i <= k <= 3 and k < n - i

// a lookup table indexed by the data (a gather from the table), a
// non-static const global, a 2-D table, a table of structs
GPUFUSE void posterize(size_t n, const unsigned char *restrict in, unsigned char *restrict out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = levels[in[i] >> 5];
}

// CU-LABEL: posterize_k0
// CU: out[i] = gf_c_levels[in[i] >> 5];

GPUFUSE void balance(size_t pixels, const unsigned char *restrict in, float *restrict out)
{
    for (size_t p = 0; p < pixels; p++)
        for (size_t c = 0; c < 3; c++)
            out[p * 3 + c] = in[p * 3 + c] * gains[c] * coefs[c & 1].scale + coefs[p & 1].shift;
}

GPUFUSE void sobel(int h, int w, const float img[h][w], float gx[h][w])
{
    for (int y = 1; y < h - 1; y++)
        for (int x = 1; x < w - 1; x++) {
            float s = 0.0f;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    s += sobel_x[dy + 1][dx + 1] * img[y + dy][x + dx];
            gx[y][x] = s;
        }
}

// CU-LABEL: sobel_k0
// CU: gf_c_sobel_x[dy + 1][dx + 1]

// a table with its size from the braces, in a reduction (Horner's rule)
GPUFUSE double poly_sum(int n, const double *restrict x)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        double v = 0.0;
        for (int k = 3; k >= 0; k--)
            v = v * x[i] + poly[k];
        s += v;
    }
    return s;
}

// tables of the function itself: a local with constant braces and a static
// local, each named after the function (two functions' 'w' do not collide)
GPUFUSE void smooth3(int n, const float *restrict in, float *restrict out)
{
    const float w[3] = {0.25f, 0.5f, 0.25f};
    for (int i = 1; i < n - 1; i++)
        out[i] = w[0] * in[i - 1] + w[1] * in[i] + w[2] * in[i + 1];
}

GPUFUSE void skew3(int n, const float *restrict in, float *restrict out)
{
    static const float w[3] = {0.5f, 0.375f, 0.125f};
    for (int i = 1; i < n - 1; i++)
        out[i] = w[0] * in[i - 1] + w[1] * in[i] + w[2] * in[i + 1];
}

// CU-LABEL: smooth3_k0
// CU: out[i] = gf_c_smooth3_w[0] * in[i - 1] + gf_c_smooth3_w[1] * in[i] + gf_c_smooth3_w[2] * in[i + 1];
// CU-LABEL: skew3_k0
// CU: out[i] = gf_c_skew3_w[0] * in[i - 1]

// a table beside a matrix-vector product: no library call takes it
GPUFUSE void mix4(int n, const float *restrict x, float *restrict y)
{
    static const float m[4][4] = {{1, 2, 0, 0}, {0, 1, 2, 0}, {0, 0, 1, 2}, {2, 0, 0, 1}};
    for (int b = 0; b < n; b++)
        for (int i = 0; i < 4; i++) {
            float s = 0.0f;
            for (int k = 0; k < 4; k++)
                s += m[i][k] * x[4 * b + k];
            y[4 * b + i] = s;
        }
}

// a row kernel reading per-column weights from a table
GPUFUSE void row_scale(int rows, const float x[rows][8], float out[rows][8])
{
    static const float wcol[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    for (int r = 0; r < rows; r++) {
        float m = 0.0f;
        for (int j = 0; j < 8; j++)
            m = x[r][j] > m ? x[r][j] : m;
        for (int j = 0; j < 8; j++)
            out[r][j] = x[r][j] * wcol[j] - m;
    }
}

// The report: no library call takes a table; a table is not counted as
// traffic (it stays in the cache)
// REPORT-LABEL: region fir_valid
// a thread per output: 7 taps would leave a warp's lanes idle in a row kernel
// REPORT: kernel fir_valid_k0 [map, 1-D]
// REPORT: line 29: not a library call: 'taps' is a table of the file, not an array the call can take
// REPORT: global traffic per element: 8 B unfused
