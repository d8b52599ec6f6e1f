// Bounds and subscripts through non-affine expressions of the parameters
// (w * h, len / 2, n / GS): each is a parameter of its own in isl's model
// (affine.c aff_params), so unsized arrays get extents from the bounds; a
// division by a constant keeps its relation to its operand (deps.c
// pvar_context), so a flattened access under `c < w / 2` still splits.
#include <gpufuse.h>

#define GS 64

// the differential check's arrays (unsized pointers): w * h elements
// DIFF-SIZE: src = w * h
// DIFF-SIZE: dst = w * h
// DIFF-SIZE: sig = len
// DIFF-SIZE: pairs = len
// DIFF-SIZE: vals = n
// DIFF-SIZE: fwd = (long)w * h
// DIFF-SIZE: bwd = (long)w * h
// DIFF-SIZE: img = w * h
// DIFF-SIZE: out = w * h

// an image as one run of w * h pixels
GPUFUSE void scale_image(int w, int h, const float *src, float *dst)
{
    for (int i = 0; i < w * h; i++)
        dst[i] = 2.0f * src[i];
}

// CHECK-LABEL: region scale_image
// CHECK: domain: [w, h, (w * h)] -> { S0[i] : 0 <= i < (w * h) }
// CU-LABEL: gf_launch_scale_image
// CU: long long gf_hi_src = ((long long)((long long)(w * h) - 1) + 1) * (long long)sizeof(float);

// pairs: a bound len / 2, reads 2 * i and 2 * i + 1
GPUFUSE void decimate2(int len, const float *sig, float *pairs)
{
    for (int i = 0; i < len / 2; i++)
        pairs[i] = 0.5f * (sig[2 * i] + sig[2 * i + 1]);
}

// CHECK-LABEL: region decimate2
// what isl knows of len / 2 (deps.c pvar_context) is in the domain
// CHECK: domain: [len, (len / 2)] -> { S0[i] : len >= 0 and -1 + len <= 2(len / 2) <= len and 0 <= i < (len / 2) }

// the bound in a local (llama2.c's runq: int num_groups = n / GS)
GPUFUSE void group_max(int n, const float *vals, float *gmax)
{
    int num_groups = n / GS;
    for (int g = 0; g < num_groups; g++) {
        float m = 0.0f;
        for (int i = 0; i < GS; i++) {
            float v = vals[g * GS + i] < 0 ? -vals[g * GS + i] : vals[g * GS + i];
            m = v > m ? v : m;
        }
        gmax[g] = m;
    }
}

// CHECK-LABEL: region group_max
// CHECK: for g in [0, num_groups) step 1
// both signs of n: C's division truncates towards zero (n = -1 included)
// CHECK: S0[] : -63 + n <= 64(n / 64) <= 63 + n and ((n >= 0 and 64(n / 64) <= n) or (n < 0 and 64(n / 64) >= n))

// the last element first: w * h - 1 - i
GPUFUSE void reverse(int w, int h, const double *fwd, double *bwd)
{
    long n = (long)w * h;
    for (long i = 0; i < n; i++)
        bwd[n - 1 - i] = fwd[i];
}

// CHECK-LABEL: region reverse

// flattened rows, the left w / 2 of each: 0 <= c < w / 2 <= w, so y splits
// as y[r][c] and both nests are 2-D maps (not fused: their spaces differ)
GPUFUSE void mirror_half(int w, int h, const float *img, float *out)
{
    for (int r = 0; r < h; r++)
        for (int c = 0; c < w; c++)
            out[r * w + c] = img[r * w + (w - 1 - c)];
    for (int r = 0; r < h; r++)
        for (int c = 0; c < w / 2; c++)
            out[r * w + c] += img[r * w + c];
}

// CHECK-LABEL: region mirror_half
// CHECK: for c_1 in [0, (w / 2)) step 1 ; line {{[0-9]+}}, parallel
// REPORT-LABEL: region mirror_half
// REPORT: 2 loop nests -> 2 kernels
// REPORT-NEXT: kernel mirror_half_k0 [map, 2-D]
// REPORT-NEXT: kernel mirror_half_k1 [map, 2-D]
